/**
 * The verdict view kept as the run goes (src/sim/checks/verdictLedger.ts, journalQueries.ts): read at
 * steps in random order — after any other steps were read, forwards or backwards — it is exactly the
 * verdict computed from scratch from the steps before it and the logs at it (less the row of every
 * event, which the view does not hold), for every preset and for random scenarios with faults. And
 * the ledger does answer (no fallback to the full index) wherever no record was removed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IntervalLog } from '../../src/sim/checks/intervalLog';
import { PRESETS } from '../../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import { partitionHeads } from '../../src/sim/trace/logView';
import { accumulatorsOf, factStep, verdictAt, verdictViewAt } from '../../src/sim/trace/summary';
import type { TraceStep } from '../../src/sim/views';
import { scenarioArbWith } from '../properties/arbitraries';
import { cases, PROPERTY_SEED } from '../properties/modelProperty';

const withConsumers = scenarioArbWith({ consumers: { min: 1, max: 2 }, faults: { min: 1, max: 3 } });

/** The verdict at `step` from scratch: every fact before it folded anew, the logs at it read in full. */
function fromScratch(trace: Trace, step: number) {
  const steps: TraceStep[] = [];
  for (let i = 0; i < step; i++) {
    const s = trace.steps.at(i) as TraceStep;
    if (s.facts.length > 0) steps.push(factStep(i, s.t, s.facts));
  }
  const { events: _, ...view } = verdictAt(trace, steps, stateAt(trace, step), undefined, step >= trace.steps.length);
  return view;
}

/** `n` steps of the run (both ends among them) in an order drawn from `seed`. */
function shuffledSteps(length: number, n: number, seed: number): number[] {
  const out = [0, length, ...Array.from({ length: n }, (_, k) => Math.floor(((k + 1) * length) / (n + 1)))];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}

describe('the verdict view from the ledger', () => {
  for (const preset of PRESETS)
    it(`${preset.id}: at 12 steps in random order, the verdict from scratch`, () => {
      const trace = runScenario(preset.scenario);
      for (const step of shuffledSteps(trace.steps.length, 10, preset.id.length)) {
        expect(verdictViewAt(trace, stateAt(trace, step)), `${preset.id} at ${step}`).toEqual(fromScratch(trace, step));
      }
    });

  it('answers from the ledger, not the full index, in runs where no record is removed', () => {
    for (const id of ['throughput-exactly-once', 'db-sink-inbox', 'outbox-cdc', 'streams-eos-crash-restore', 'hanging-transaction']) {
      const trace = runScenario((PRESETS.find((p) => p.id === id) as (typeof PRESETS)[number]).scenario);
      for (const step of [0, Math.floor(trace.steps.length / 2), trace.steps.length])
        expect(
          accumulatorsOf(trace).verdictQueriesAt(step, partitionHeads(stateAt(trace, step).actors)),
          `${id} at ${step}`,
        ).not.toBeNull();
    }
  });

  it('random scenarios with faults, steps in random order: the verdict from scratch', () => {
    fc.assert(
      fc.property(withConsumers, fc.array(fc.nat(1000), { minLength: 1, maxLength: 6 }), (scenario, at) => {
        const trace = runScenario(scenario);
        for (const a of at) {
          const step = Math.floor((a * trace.steps.length) / 1000);
          expect(verdictViewAt(trace, stateAt(trace, step))).toEqual(fromScratch(trace, step));
        }
      }),
      { numRuns: cases(40), seed: PROPERTY_SEED + 47 },
    );
  });
});

describe('IntervalLog', () => {
  it('the items alive at a step, read in any order, are those opened before it and not closed before it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(40), fc.option(fc.nat(60), { nil: undefined })), { maxLength: 60 }),
        fc.array(fc.nat(200), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 16 }),
        (spans, reads, every) => {
          // opened in step order, each closed (if at all) at or after it opened
          let step = 0;
          const items = spans.map(([gap, len], id) => {
            step += gap % 5;
            return { id, open: step, close: len === undefined ? Number.POSITIVE_INFINITY : step + len };
          });
          const log = new IntervalLog<number>(every);
          const events = [
            ...items.map((it) => ({ at: it.open, kind: 0, it })),
            ...items.filter((it) => it.close !== Number.POSITIVE_INFINITY).map((it) => ({ at: it.close, kind: 1, it })),
          ].sort((a, b) => a.at - b.at || a.kind - b.kind);
          const ids = new Map<number, number>();
          let e = 0;
          // fold up to the largest step read, then read in the given order
          const last = Math.max(...reads);
          for (let s = 0; s <= last; s++)
            for (; e < events.length && (events[e] as (typeof events)[number]).at === s; e++) {
              const ev = events[e] as (typeof events)[number];
              if (ev.kind === 0) ids.set(ev.it.id, log.open(s, ev.it.id));
              else log.close(ids.get(ev.it.id) as number, s);
            }
          for (const r of reads)
            expect(log.aliveAt(r)).toEqual(items.filter((it) => it.open < r && !(it.close < r) && it.open <= last).map((it) => it.id));
        },
      ),
      { numRuns: cases(200), seed: PROPERTY_SEED + 48 },
    );
  });
});
