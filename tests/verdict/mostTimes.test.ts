/**
 * The verdict's badge for "more than once" shows the count its sentence names (mostTimes): a reader
 * who received evt-789 four times saw "×2" beside "received 4 times" before.
 */
import { describe, expect, it } from 'vitest';
import { mostTimes } from '../../src/sim/checks/verdictText';
import type { LayerFinding } from '../../src/sim/checks/verdictTypes';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';

const finding = (f: Partial<LayerFinding> & Pick<LayerFinding, 'layer' | 'status'>) => f as LayerFinding;

describe('mostTimes: the count a "more than once" badge shows', () => {
  it("is the most times the finding's sentence names for one event, per layer", () => {
    expect(
      mostTimes(
        finding({
          layer: 'delivery',
          status: 'more-than-once',
          repeated: [
            { eventId: 'a', topic: 't', offsets: [0, 0], states: ['plain', 'plain'] },
            { eventId: 'b', topic: 't', offsets: [1, 1, 2, 2], states: ['plain', 'plain', 'plain', 'plain'] },
          ],
        }),
      ),
    ).toBe(4);
    expect(mostTimes(finding({ layer: 'processing', status: 'more-than-once', repeated: [{ eventId: 'a', topic: 't', times: 3 }] }))).toBe(
      3,
    );
    expect(mostTimes(finding({ layer: 'sink', status: 'more-than-once', repeated: [{ eventId: 'a', times: 2 }] }))).toBe(2);
    expect(mostTimes(finding({ layer: 'delivery', status: 'once', repeated: [] }))).toBeNull();
  });

  it('agrees with the sentence of a real run: every "more than once" layer of streams-alos-crash-duplicate says "twice" and counts 2', () => {
    const preset = findPreset('streams-alos-crash-duplicate');
    if (!preset) throw new Error('no preset');
    const { verdict } = summarize(runScenario(preset.scenario));
    const repeated = verdict.layers.filter((l) => l.status === 'more-than-once');
    expect(repeated.length).toBeGreaterThan(0);
    for (const l of repeated) {
      expect(mostTimes(l)).toBe(2);
      expect(l.sentence).toMatch(/twice/);
    }
  });
});
