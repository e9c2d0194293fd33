/**
 * exactly-once-output when no coordinator holds the group at the end of a run: its `__consumer_offsets`
 * partition has no leader (every ISR member down, unclean election off) or is still loading. Kafka
 * answers nothing for the group then (FindCoordinator → COORDINATOR_NOT_AVAILABLE); its committed
 * offsets wait in the partition's log, so "no group held" is not "no offsets committed".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../src/sim/checks/invariants';
import type { ConsumerGroup } from '../../src/sim/coordinator/classicGroup';
import { coordinatorPartitionFor } from '../../src/sim/producer/partitioner';
import { runScenario, type Trace, withMaxSteps } from '../../src/sim/run';
import { coordinatorGroups, groupOffsetsHeld } from '../../src/sim/trace/coordinatorGroups';
import type { Fact } from '../../src/sim/trace/facts';

const hosted = (owned: Record<number, { coordinatorEpoch: number; loading: unknown[] | null }>) => ({
  context: {
    groups: {},
    meta: { consumerOffsetsPartitions: 3 },
    hosted: { host: 'broker-0', owned, writes: {}, queued: {}, nextWriteId: 0, appending: [] },
  },
});

describe('groupOffsetsHeld: a coordinator answers for the group now', () => {
  const p = coordinatorPartitionFor('g0', 3);
  const other = (p + 1) % 3;

  it('the fixed group-coordinator holds every group', () => {
    expect(groupOffsetsHeld([['group-coordinator', { context: { groups: {} } }]], 'g0')).toBe(true);
  });

  it("a hosted coordinator holds the group once it has loaded the group's partition", () => {
    expect(groupOffsetsHeld([['broker-0.group-coordinator', hosted({ [p]: { coordinatorEpoch: 1, loading: null } })]], 'g0')).toBe(true);
  });

  it('not while it loads it (COORDINATOR_LOAD_IN_PROGRESS)', () => {
    expect(groupOffsetsHeld([['broker-0.group-coordinator', hosted({ [p]: { coordinatorEpoch: 1, loading: [] } })]], 'g0')).toBe(false);
  });

  it('not when the hosted coordinators lead other partitions only, or none (the partition offline, its broker down)', () => {
    expect(groupOffsetsHeld([['broker-0.group-coordinator', hosted({ [other]: { coordinatorEpoch: 1, loading: null } })]], 'g0')).toBe(
      false,
    );
    expect(
      groupOffsetsHeld(
        [
          ['broker-0.group-coordinator', hosted({})],
          ['broker-1.group-coordinator', hosted({})],
        ],
        'g0',
      ),
    ).toBe(false);
    expect(groupOffsetsHeld([['broker-0.txn-coordinator', { context: {} }]], 'g0')).toBe(false);
  });
});

const file = join(import.meta.dirname, 'regressions', 'offsets-partition-offline-at-end.json');
const trace = runScenario(JSON.parse(readFileSync(file, 'utf8')));
const facts = [...trace.steps].flatMap((s) => s.facts.map((f) => ({ step: s.i, fact: f as Fact })));
const outputOf = (t: Trace) =>
  checkInvariants(t)
    .filter((v) => v.invariant === 'exactly-once-output')
    .map((v) => v.message);
const end = trace.checkpoints[trace.checkpoints.length - 1];
if (!end) throw new Error('no checkpoint');

/** The trace, its last checkpoint's group coordinators replaced by those of checkpoint `cp`. */
function endHeldAs(cp: (typeof trace.checkpoints)[number]): Trace {
  const gcs = new Map(cp.actors.filter(([id]) => id.endsWith('.group-coordinator')));
  const actors = end?.actors.map(([id, s]) => [id, gcs.get(id) ?? s] as [string, unknown]) ?? [];
  const last = { ...(end as typeof cp), actors };
  return {
    scenario: trace.scenario,
    resolved: trace.resolved,
    built: trace.built,
    traceHash: trace.traceHash,
    stopReason: trace.stopReason,
    stopDetail: trace.stopDetail,
    endTime: trace.endTime,
    steps: trace.steps,
    envelopes: trace.envelopes,
    checkpoints: [...trace.checkpoints.slice(0, -1), last],
  };
}

describe('exactly-once-output when the group is held by no coordinator at the end', () => {
  it('the run: c0 commits offset 1 in its transaction, then __consumer_offsets is left without a leader to the end', () => {
    const commit = facts.find((f) => f.fact.kind === 'offsetsCommitted' && f.fact.groupId === 'g0');
    expect(commit?.fact).toMatchObject({ offsets: [{ topic: 'in0', partition: 0, offset: 1 }] });
    const lastChange = facts
      .filter((f) => f.fact.kind === 'leaderChange' && f.fact.topic === '__consumer_offsets' && f.fact.partition === 1)
      .at(-1);
    expect(lastChange?.fact).toMatchObject({ leader: null, isr: ['broker-0'] });
    expect(groupOffsetsHeld(end.actors, 'g0')).toBe(false);
    expect(coordinatorGroups(end.actors).g0).toBeUndefined();
  });

  it('its committed output is no violation', () => {
    expect(outputOf(trace)).toEqual([]);
  });

  it('a group still held is checked as before: with no offset committed, the output of p0-0 is one too many', () => {
    const before = trace.checkpoints.find((cp) => {
      const g: ConsumerGroup | undefined = coordinatorGroups(cp.actors).g0;
      return groupOffsetsHeld(cp.actors, 'g0') && g !== undefined && g.pending.length === 0 && g.committed['in0-0'] === undefined;
    });
    if (!before) throw new Error('no checkpoint holds g0 before its commit');
    expect(outputOf(endHeldAs(before))).toEqual([
      'group g0: event p0-0 is 1 time(s) in committed output (out-c0), but 0 input record(s) lie below the committed offsets',
    ]);
    // the state right after the commit: the last checkpoint of the run stopped at its step (the
    // checkpoint grid need not fall between the commit and broker-1's crash a few steps later)
    const commitStep = facts.find((f) => f.fact.kind === 'offsetsCommitted' && f.fact.groupId === 'g0')?.step as number;
    const after = runScenario(withMaxSteps(JSON.parse(readFileSync(file, 'utf8')), commitStep + 1)).checkpoints.at(-1);
    if (!after || !groupOffsetsHeld(after.actors, 'g0')) throw new Error('g0 is not held after its commit');
    expect(coordinatorGroups(after.actors).g0?.committed['in0-0']).toBe(1);
    expect(outputOf(endHeldAs(after))).toEqual([]);
  });
});
