import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import { partitionRows } from '../../src/sim/trace/logView';
import { LaneCache } from '../../src/ui/timeline/laneCache';
import { buildLanes, collectPointers, type LaneModel } from '../../src/ui/timeline/laneModel';
import { openingStory } from './fixtures';

const plain = (lanes: LaneModel[]) =>
  lanes.map(({ lod: _lod, offsets, kinds, ...rest }) => ({ ...rest, offsets: Array.from(offsets), kinds: Array.from(kinds) }));

function walk(trace: Trace): void {
  const cache = new LaneCache();
  for (let step = 0; step <= trace.steps.length; step++) {
    const view = stateAt(trace, step);
    expect(plain(cache.lanes(view.actors))).toEqual(plain(buildLanes(partitionRows(view.actors), collectPointers(view.actors))));
  }
}

describe('lane cache', () => {
  it('gives the same lanes as building them from scratch, at every step', () => {
    walk(openingStory());
    for (const id of ['abort-hidden-from-read-committed', 'compaction-is-not-dedup']) {
      const preset = findPreset(id);
      if (preset) walk(runScenario(preset.scenario));
    }
  });

  it('keeps the records of a log that did not change', () => {
    const trace = openingStory();
    const cache = new LaneCache();
    const end = trace.steps.length;
    const a = cache.lanes(stateAt(trace, end - 1).actors).find((l) => l.key === 'orders-0');
    const b = cache.lanes(stateAt(trace, end).actors).find((l) => l.key === 'orders-0');
    expect(a?.offsets.length).toBe(2);
    expect(b?.rows).toBe(a?.rows);
    expect(b?.lod).toBe(a?.lod);
  });
});

describe('lane cache with replicated partitions', () => {
  it('draws the leader log holder of a replicated partition, follows a leader change and reads the row every step', async () => {
    const { createPartitionLog } = await import('../../src/sim/log/partitionLog');
    const { failedOver } = await import('./replicationFixtures');
    const trace = openingStory();
    const actors = new Map(stateAt(trace, trace.steps.length).actors);
    const holder = [...actors].find(([id, s]) => id.startsWith('broker-') && (s.context as { partitions?: object }).partitions)?.[0];
    if (!holder) throw new Error('no broker');
    // a follower's copy of orders-0 on another broker that has not fetched anything yet
    actors.set('broker-9', { value: 'running', context: { partitions: { 'orders-0': createPartitionLog('orders', 0) } } });
    let logHolder = holder;
    const source = () => new Map([['orders-0', { logHolder, replication: { ...failedOver, leader: logHolder } }]]);
    const cache = new LaneCache(source);
    const first = cache.lanes(actors).filter((l) => l.key === 'orders-0');
    expect(first).toHaveLength(1);
    expect(first[0]?.leader).toBe(holder);
    expect(first[0]?.offsets.length).toBe(2);
    expect(first[0]?.replication?.leader).toBe(holder);
    logHolder = 'broker-9';
    const moved = cache.lanes(actors).filter((l) => l.key === 'orders-0');
    expect(moved).toHaveLength(1);
    expect(moved[0]?.leader).toBe('broker-9');
    expect(moved[0]?.offsets.length).toBe(0);
    expect(moved[0]?.replication?.leader).toBe('broker-9');
  });

  it('reads no replication without a KRaft controller (one replica per partition)', () => {
    const trace = openingStory();
    const lanes = new LaneCache().lanes(stateAt(trace, trace.steps.length).actors);
    expect(lanes.length).toBeGreaterThan(0);
    expect(lanes.every((l) => l.replication === null)).toBe(true);
  });
});
