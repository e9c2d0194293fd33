/**
 * The lanes draw truncated records from the trace (issue [replication]): truncationsAt folds the
 * run's `truncated` facts up to the viewed step, and the lane cache hands them to each replicated
 * lane's replication row — struck-through cells on the replica that cut them. Before the truncation's
 * step there are none; after it, the cut records with their step and cause. Checked on both presets
 * that truncate: acks-1-leader-failover-loss (a clean leader change) and
 * unclean-election-loses-committed (an unclean election, committed records cut).
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import { truncationsAt } from '../../src/sim/views';
import { LaneCache } from '../../src/ui/timeline/laneCache';
import { truncatedAt } from '../../src/ui/timeline/replicaHit';

function run(id: string): Trace {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  return runScenario(preset.scenario);
}

function truncationStep(trace: Trace): number {
  for (let i = 0; i < trace.steps.length; i++)
    if ((trace.steps.at(i)?.facts as { kind: string }[]).some((f) => f.kind === 'truncated')) return i;
  throw new Error('no truncation');
}

/** The orders-0 lane at a step, as the Timeline builds it. */
function ordersLane(trace: Trace, step: number) {
  const view = stateAt(trace, step);
  return new LaneCache().lanes(view.actors, truncationsAt(trace, view.step)).find((l) => l.key === 'orders-0');
}

describe('truncated records in the lanes', () => {
  it('unclean-election-loses-committed: none before broker-0 truncates; after, b and c on broker-0, unclean, committed', () => {
    const trace = run('unclean-election-loses-committed');
    const at = truncationStep(trace);
    expect(ordersLane(trace, at)?.replication?.truncations).toEqual([]);
    const cuts = ordersLane(trace, at + 1)?.replication?.truncations ?? [];
    expect(cuts.map((t) => [t.broker, t.fromOffset, t.toOffset, t.leaderEpoch, t.step, t.cause, t.highWatermark])).toEqual([
      ['broker-0', 1, 3, 2, at, 'unclean-election', 3],
    ]);
    const lane = ordersLane(trace, trace.steps.length);
    expect(truncatedAt(lane?.replication?.truncations ?? [], 'broker-0', 2)?.row.value).toBe('c');
    expect(truncatedAt(lane?.replication?.truncations ?? [], 'broker-1', 1)).toBeNull();
    // the leader's own row has d where b was
    expect(lane?.rows.map((r) => r.value)).toEqual(['a', 'd']);
  });

  it('acks-1-leader-failover-loss: b cut from broker-0 by a clean leader change, above its high watermark', () => {
    const trace = run('acks-1-leader-failover-loss');
    const at = truncationStep(trace);
    expect(ordersLane(trace, at)?.replication?.truncations).toEqual([]);
    const cuts = ordersLane(trace, trace.steps.length)?.replication?.truncations ?? [];
    expect(cuts.map((t) => [t.broker, t.fromOffset, t.toOffset, t.leaderEpoch, t.step, t.cause, t.highWatermark])).toEqual([
      ['broker-0', 1, 2, 1, at, 'leader-change', 1],
    ]);
    expect(cuts[0]?.records.map((r) => [r.offset, r.value, r.headers.event_id])).toEqual([[1, 'b', 'e2']]);
  });

  it('a run whose partitions have one replica has no truncations to fold', () => {
    const trace = run('opening-story');
    expect(truncationsAt(trace, trace.steps.length).size).toBe(0);
  });
});
