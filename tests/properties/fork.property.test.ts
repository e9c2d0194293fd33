/**
 * Forks from checkpoints (src/sim/trace/fork.ts): an edit at step k runs on from the checkpoint
 * before k, and the fork is the run a full rerun of the edited scenario gives — the same traceHash,
 * steps, envelopes and state at any step — on random scenarios with random edits at random steps,
 * and on every preset.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { type RecordedTrace, runScenario, stateAt } from '../../src/sim/run';
import { type EditOutcome, injectEnvelopeFault, injectProcessFault } from '../../src/sim/scenario/edits';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import { forkRun } from '../../src/sim/trace/fork';
import { scenarioArb } from './arbitraries';
import { cases, PROPERTY_SEED } from './modelProperty';

type Edit = { kind: 'crash' | 'pause' | 'crash-restart'; who: number } | { kind: 'drop' | 'delay' | 'duplicate'; who: number };

function edit(scenario: Scenario, trace: RecordedTrace, step: number, e: Edit): EditOutcome | null {
  if (e.kind === 'crash' || e.kind === 'pause' || e.kind === 'crash-restart') {
    const action =
      e.kind === 'pause'
        ? { type: 'pause' as const, ms: 700 }
        : e.kind === 'crash'
          ? { type: 'crash' as const }
          : { type: 'crash' as const, restartAfterMs: 400 };
    // the process `who` names, or the next one that can take the fault (a broker left down, as in
    // min-insync-blocks-writes, refuses a crash)
    const n = trace.built.processes.length;
    let outcome: EditOutcome | null = null;
    for (let i = 0; i < n && !outcome?.ok; i++) {
      const p = trace.built.processes[(e.who + i) % n];
      if (p) outcome = injectProcessFault(scenario, { trace, step, process: p.id, action });
    }
    return outcome;
  }
  const inFlight = stateAt(trace, step).inFlight;
  const env = inFlight[e.who % Math.max(1, inFlight.length)];
  if (!env) return null;
  const action = e.kind === 'delay' ? { type: 'delay' as const, delayMs: 250 } : { type: e.kind };
  return injectEnvelopeFault(scenario, { trace, step, envelopeId: env.id, action });
}

/** Checks the fork against a full run; returns the step it ran on from. */
function checkFork(trace: RecordedTrace, step: number, outcome: EditOutcome | null, probe: number): number {
  if (!outcome?.ok) return -1;
  const v = validateScenario(outcome.scenario);
  if (!v.ok) throw new Error('an edit gave an invalid scenario');
  const fork = forkRun(trace, v.resolved, step);
  const full = runScenario(outcome.scenario);
  expect(fork.trace.traceHash).toBe(full.traceHash);
  expect(fork.trace.stopReason).toBe(full.stopReason);
  expect(fork.trace.steps.length).toBe(full.steps.length);
  const j = probe % (full.steps.length + 1);
  expect(fork.trace.steps.at(j)).toEqual(full.steps.at(j));
  const envelope = probe % Math.max(1, full.envelopes.length);
  expect(fork.trace.envelopes.at(envelope)).toEqual(full.envelopes.at(envelope));
  const a = stateAt(fork.trace, j);
  const b = stateAt(full, j);
  expect(a.actors).toEqual(b.actors);
  expect(a.inFlight).toEqual(b.inFlight);
  return fork.from;
}

const editArb: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('crash', 'pause', 'crash-restart', 'drop', 'delay', 'duplicate'),
  who: fc.nat(50),
}) as fc.Arbitrary<Edit>;

describe('forks from checkpoints', () => {
  it('random scenarios, random edits at random steps: a fork is the full run of the edited scenario', () => {
    let reused = 0;
    let forks = 0;
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 0, max: 1000 }), editArb, fc.nat(100000), (scenario, at, e, probe) => {
        const trace = runScenario(scenario);
        const step = Math.floor((at * trace.steps.length) / 1000);
        const from = checkFork(trace, step, edit(scenario, trace, step, e), probe);
        if (from >= 0) forks++;
        if (from > 0) reused++;
        expect(from).toBeLessThanOrEqual(step);
      }),
      { numRuns: cases(30), seed: PROPERTY_SEED + 21 },
    );
    // most forks really ran on from a checkpoint (the rest had no checkpoint before the edit to use)
    expect(reused).toBeGreaterThan(forks / 3);
  }, 600000);

  it.each(PRESETS.map((p) => [p.id, p.scenario] as const))(
    '%s: a crash and a drop at 3/4 of the run fork from a checkpoint',
    (_id, scenario) => {
      const trace = runScenario(scenario);
      const step = Math.floor((trace.steps.length * 3) / 4);
      const from = checkFork(trace, step, edit(scenario, trace, step, { kind: 'crash-restart', who: 1 }), 7);
      expect(from).toBeGreaterThanOrEqual(0);
      checkFork(trace, step, edit(scenario, trace, step, { kind: 'drop', who: 0 }), 11);
    },
  );

  it('a fork of a fork is the full run too (new faults placed among the fork’s own)', () => {
    const scenario = PRESETS.find((p) => p.id === 'opening-story')?.scenario as Scenario;
    const base = runScenario(scenario);
    const k1 = Math.floor(base.steps.length / 3);
    const e1 = edit(scenario, base, k1, { kind: 'pause', who: 2 });
    if (!e1?.ok) throw new Error('the first edit was refused');
    const v1 = validateScenario(e1.scenario);
    if (!v1.ok) throw new Error('invalid');
    const first = forkRun(base, v1.resolved, k1).trace;
    const k2 = Math.floor((first.steps.length * 2) / 3);
    const e2 = edit(e1.scenario, first, k2, { kind: 'crash-restart', who: 0 });
    checkFork(first, k2, e2, 5);
  });

  it('an added envelope fault that matches on payload values forks too (its counter read from the payloads)', () => {
    const preset = PRESETS.find((p) => p.id === 'commit-two-partitions')?.scenario as Scenario;
    const scenario = { ...preset, run: { ...preset.run, checkpointEvery: 16 } };
    const base = runScenario(scenario);
    // a ProduceResponse answers every partition of its request: `where` matches any of them
    const topicsOf = (e: { payload: unknown }) => ((e.payload as { responses?: { topic: string }[] }).responses ?? []).map((r) => r.topic);
    const responses = base.envelopes.filter((e) => e.rpc === 'ProduceResponse' && topicsOf(e).length > 0);
    // one sent after the first checkpoint past the start, so that there is a checkpoint to fork from
    const target = responses.find((e) => e.sentStep > base.built.options.checkpointEvery);
    if (!target) throw new Error('no ProduceResponse with a topic');
    const topic = topicsOf(target)[0] as string;
    const nth = responses.filter((e) => e.id <= target.id && topicsOf(e).includes(topic)).length;
    const edited = {
      ...scenario,
      faults: [...(scenario.faults ?? []), { type: 'drop' as const, rpc: 'ProduceResponse', where: { topic }, nth }],
    } as Scenario;
    const v = validateScenario(edited);
    if (!v.ok) throw new Error(v.errors.map((e) => e.message).join('; '));
    const fork = forkRun(base, v.resolved, target.sentStep + 1);
    expect(fork.from).toBeGreaterThan(0);
    expect(fork.from).toBeLessThanOrEqual(target.sentStep);
    expect(fork.trace.traceHash).toBe(runScenario(edited).traceHash);
    expect(fork.trace.envelopes.at(target.id)?.fate).toBe('dropped');
  });

  it('an edit the fork cannot reuse the run for (a configuration change) runs in full', () => {
    const scenario = PRESETS.find((p) => p.id === 'opening-story')?.scenario as Scenario;
    const base = runScenario(scenario);
    const changed = { ...scenario, run: { ...scenario.run, settleMs: 3000 } };
    const v = validateScenario(changed);
    if (!v.ok) throw new Error('invalid');
    const fork = forkRun(base, v.resolved, 30);
    expect(fork.from).toBe(0);
    expect(fork.trace.traceHash).toBe(runScenario(changed).traceHash);
  });
});
