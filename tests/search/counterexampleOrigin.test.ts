/**
 * A counterexample Break it opens is not the person's edit of the preset: its scenario says Break it
 * found it (`foundBy: "break-it"`), and presetOrigin tells the header so. For every preset, a
 * counterexample of its Break it goal — with no fault or with one — is either the preset's own run
 * (not edited at all) or a counterexample of that preset, never a bare "edited". db-sink-duplicate's,
 * which the search finds as the preset's own crash spelt with its topic and partition, used to open
 * as "edited"; the share link keeps what it is.
 */
import { describe, expect, it } from 'vitest';
import type { Preset } from '../../src/sim/presets';
import { PRESETS } from '../../src/sim/presets';
import { decodeLink, encodeLink } from '../../src/sim/scenario/link';
import { presetOrigin, runFingerprint } from '../../src/sim/scenario/origin';
import { goalFor, spaceOf } from '../../src/sim/search/presetGoals';
import { counterexampleScenario } from '../../src/sim/search/report';
import { prepareBase } from '../../src/sim/search/runner';
import { type Counterexample, searchAll } from '../../src/sim/search/search';

const preset = (id: string): Preset => {
  const p = PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(id);
  return p;
};

/** Break it's own search of a preset's goal (k = 1), and its counterexample as the page opens it. */
function found(id: string) {
  const p = preset(id);
  const goal = goalFor(id);
  const base = prepareBase(p.scenario, { keepFaults: goal.keepFaults === true });
  const result = searchAll(base, { property: goal.property, maxFaults: 1, space: spaceOf(goal) });
  const ce = result.counterexample;
  if (!ce) throw new Error(`${id}: no counterexample`);
  return { preset: p, ce, scenario: counterexampleScenario(base, ce, goal.property) };
}

/** A counterexample of these faults, as the search reports one (what it broke does not matter here). */
const made = (faults: Counterexample['faults']): Counterexample => ({
  faults,
  k: faults.length,
  steps: faults.map((_, i) => i + 1),
  violation: { property: 'any', layer: 'log', subject: 'orders', status: 'lost', eventIds: [], sentence: 'lost' },
  traceHash: '',
  runSteps: 10,
  order: [] as unknown as Counterexample['order'],
  via: 'exhaustive',
});

describe('a counterexample Break it found, as the header names it', () => {
  it('db-sink-duplicate: the preset’s crash, found again, opens as a counterexample of the preset, not as edited', () => {
    const { preset: p, scenario } = found('db-sink-duplicate');
    expect(scenario.foundBy).toBe('break-it');
    // what differs from the preset: the search spells where the crash is with its topic and partition
    expect(scenario.faults?.[0]).toMatchObject({
      type: 'crash',
      target: 'billing',
      point: 'afterSideEffect',
      where: { topic: 'orders', partition: 0, offset: 0 },
    });
    expect(p.scenario.faults?.[0]).toMatchObject({ where: { offset: 0 } });
    expect(presetOrigin(scenario)).toMatchObject({ preset: { id: 'db-sink-duplicate' }, edited: true, counterexample: true });
    // the share link the panel opens carries it
    const d = decodeLink(encodeLink(scenario, { step: 0, selection: null, language: 'ko' }));
    if (!d.ok) throw new Error(d.error.message);
    expect(d.scenario.foundBy).toBe('break-it');
    expect(presetOrigin(d.scenario)?.counterexample).toBe(true);
  });

  it('offset-reset-replays-output: the configuration alone breaks, its scripted faults kept: the preset’s own run, not edited', () => {
    const { preset: p, ce, scenario } = found('offset-reset-replays-output');
    expect(ce.k).toBe(0);
    expect(runFingerprint(scenario)).toBe(runFingerprint(p.scenario));
    expect(presetOrigin(scenario)).toMatchObject({ edited: false, counterexample: false });
  });

  it('every preset: a counterexample with no fault or with one is the preset’s own run or its counterexample, never a bare edit', () => {
    for (const p of PRESETS) {
      const goal = goalFor(p.id);
      const base = prepareBase(p.scenario, { keepFaults: goal.keepFaults === true });
      const target = p.scenario.clients[0]?.id ?? 'broker-0';
      for (const faults of [[], [{ type: 'crash' as const, target, at: 5, durationMs: 1000 }]]) {
        const scenario = counterexampleScenario(base, made(faults), goal.property);
        const origin = presetOrigin(scenario);
        expect(origin?.preset.id, p.id).toBe(p.id);
        if (runFingerprint(scenario) === runFingerprint(p.scenario))
          expect(origin, p.id).toMatchObject({ edited: false, counterexample: false });
        else expect(origin, `${p.id} with ${faults.length} fault(s)`).toMatchObject({ edited: true, counterexample: true });
      }
    }
  });

  it('a scenario edited by hand is edited, not a counterexample', () => {
    const p = preset('db-sink-duplicate');
    expect(presetOrigin({ ...p.scenario, seed: p.scenario.seed + 1 })).toMatchObject({ edited: true, counterexample: false });
    // the mark alone changes no run: the preset with it is the preset
    expect(presetOrigin({ ...p.scenario, foundBy: 'break-it' })).toMatchObject({ edited: false, counterexample: false });
  });
});
