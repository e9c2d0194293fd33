/**
 * Views as accumulators (src/sim/trace/viewAccumulators.ts, src/sim/checks/indexJournal.ts): the
 * verdict and the summary read from a trace's accumulators are exactly what the views gave before
 * them (digests in fixtures/views.json, made at the commit before) at steps spread over every preset
 * and twelve random scenarios; and on random scenarios with random faults, the accumulator read at a
 * step — whatever steps were viewed before, in any order — equals the index refolded from scratch
 * over the steps before it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/sim/checks/indexJournal';
import { PRESETS } from '../../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { type PartitionRow, partitionRows } from '../../src/sim/trace/logView';
import { accumulatorsOf, eventlessTopicsOf, factStep } from '../../src/sim/trace/summary';
import type { TraceStep } from '../../src/sim/views';
import { scenarioArbWith } from '../properties/arbitraries';
import { cases, PROPERTY_SEED } from '../properties/modelProperty';
import fixtures from './fixtures/views.json';
import { viewDigest } from './viewDigest';

/** Random scenarios with faults and at least one consumer (with a sink where its mode writes to one). */
const withConsumers = scenarioArbWith({ consumers: { min: 1, max: 2 }, faults: { min: 1, max: 3 } });

type Described = { steps: number; digests: [number, string][] };

function expectDigests(trace: Trace, what: string, d: Described): void {
  expect(trace.steps.length, `${what}: steps`).toBe(d.steps);
  for (const [step, digest] of d.digests) expect(viewDigest(trace, step), `${what} at step ${step}`).toBe(digest);
}

/** The index refolded from scratch over the steps with facts before `step`. */
function refolded(trace: Trace, step: number, partitions: readonly PartitionRow[]) {
  const steps: TraceStep[] = [];
  for (let i = 0; i < step; i++) {
    const s = trace.steps.at(i) as TraceStep;
    if (s.facts.length > 0) steps.push(factStep(i, s.t, s.facts));
  }
  return buildIndex(steps, partitions, eventlessTopicsOf(trace));
}

describe('views as accumulators', () => {
  it('has a fixture for every preset', () => {
    expect(fixtures.presets.map((p) => p.id)).toEqual(PRESETS.map((p) => p.id));
  });

  for (const p of fixtures.presets)
    it(`${p.id}: the verdict, deliveries, errors and side effects at 30+ steps are those of the views before`, () => {
      const preset = PRESETS.find((x) => x.id === p.id);
      if (!preset) throw new Error(`no preset ${p.id}`);
      expectDigests(runScenario(preset.scenario), p.id, p as unknown as Described);
    });

  it('twelve random scenarios with faults: the same at 16+ steps each', () => {
    for (const [i, r] of fixtures.random.entries())
      expectDigests(runScenario(r.scenario as unknown as Scenario), `random #${i}`, r as unknown as Described);
  });

  it('the same steps viewed last-first: an accumulator read backwards gives the same views', () => {
    const p = fixtures.presets.find((x) => x.id === 'streams-eos-crash-restore') ?? fixtures.presets[0];
    const preset = PRESETS.find((x) => x.id === p?.id);
    if (!p || !preset) throw new Error('no preset');
    const trace = runScenario(preset.scenario);
    for (const [step, digest] of [...(p.digests as [number, string][])].reverse()) expect(viewDigest(trace, step)).toBe(digest);
  });

  it('random scenarios, steps at and after steps with facts, in random order: the index at a step is the one refolded from scratch', () => {
    fc.assert(
      fc.property(withConsumers, fc.boolean(), fc.array(fc.nat(1000), { minLength: 1, maxLength: 6 }), (scenario, lastFirst, at) => {
        const trace = runScenario(scenario);
        const acc = accumulatorsOf(trace);
        // folded to the end first (the page opens a run at its end), or only as far as each view asks
        if (lastFirst) acc.indexAt(trace.steps.length, []);
        const withFacts: number[] = [];
        for (let i = 0; i < trace.steps.length; i++) if ((trace.steps.at(i)?.facts.length ?? 0) > 0) withFacts.push(i);
        for (const a of at) {
          // a step with facts (its facts not yet taken) and the step after it (taken), or any step
          const i = withFacts[a % Math.max(1, withFacts.length)] ?? 0;
          for (const step of [i, i + 1, Math.floor((a * trace.steps.length) / 1000)]) {
            const rows = partitionRows(stateAt(trace, step).actors);
            const { stepTime, copyAt, ...index } = acc.indexAt(step, rows);
            const { stepTime: time0, copyAt: copyAt0, ...index0 } = refolded(trace, step, rows);
            expect(index).toEqual(index0);
            for (let k = 0; k <= step; k++) expect(stepTime(k)).toBe(time0(k));
            for (const c of index0.allCopies)
              expect(copyAt(c.topic, c.partition, c.offset)).toEqual(copyAt0(c.topic, c.partition, c.offset));
          }
        }
      }),
      { numRuns: cases(40), seed: PROPERTY_SEED + 31 },
    );
  });
});
