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
