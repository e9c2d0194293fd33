/**
 * The verdict's counter of producers that failed fatally without a fence (checks/producerFatal.ts):
 * the rule on single facts, one count per producer, and the presets that show each kind — the
 * expired transactional.id is no fence, a zombie's PRODUCER_FENCED is — at the end and at the step
 * where the producer failed, with the verdict panel's step links counting the same.
 */
import { describe, expect, it } from 'vitest';
import { isFence, isProducerFatalNotFence } from '../../src/sim/checks/producerFatal';
import { findPreset } from '../../src/sim/presets';
import { runScenario, type Trace } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { eventlessTopicsOf } from '../../src/sim/views';
import { counterSteps } from '../../src/ui/verdict/counterSteps';

const fact = (error: string, during: string, fatal = true) => ({ fatal, error, during });

describe('which fatal errors are fences', () => {
  it('PRODUCER_FENCED, INVALID_PRODUCER_EPOCH and INVALID_TXN_STATE fence a producer', () => {
    for (const error of ['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'INVALID_TXN_STATE']) {
      expect(isFence(fact(error, 'EndTxn'))).toBe(true);
      expect(isProducerFatalNotFence(fact(error, 'EndTxn'))).toBe(false);
    }
  });

  it('an expired transactional.id, a too long transaction timeout and a poisoned producer are fatal without a fence', () => {
    for (const [error, during] of [
      ['INVALID_PRODUCER_ID_MAPPING', 'Produce'],
      ['INVALID_TRANSACTION_TIMEOUT', 'InitProducerId'],
      ['IllegalStateException', 'commitTransaction'],
    ] as const) {
      expect(isProducerFatalNotFence(fact(error, during))).toBe(true);
      expect(isFence(fact(error, during))).toBe(false);
    }
  });

  it('a retriable error is neither, and a consumer’s fatal group error is no producer’s', () => {
    expect(isProducerFatalNotFence(fact('INVALID_PRODUCER_ID_MAPPING', 'Produce', false))).toBe(false);
    expect(isFence(fact('PRODUCER_FENCED', 'Produce', false))).toBe(false);
    for (const during of ['JoinGroup', 'SyncGroup', 'Heartbeat', 'commitSync'])
      expect(isProducerFatalNotFence(fact('FENCED_INSTANCE_ID', during))).toBe(false);
  });
});

const run = (id: string): Trace => {
  const preset = findPreset(id);
  if (!preset) throw new Error(id);
  return runScenario(preset.scenario);
};

/** The first step whose facts hold a fatal clientError of `client`. */
const firstFatalStep = (trace: Trace, client: string): number =>
  trace.steps.findIndex((s) =>
    (s.facts as readonly { kind: string; client?: string; fatal?: boolean }[]).some(
      (f) => f.kind === 'clientError' && f.client === client && f.fatal === true,
    ),
  );

describe('the verdict counts producers failed fatally, not fenced', () => {
  it('transactional-id-expired: one, from the step its Produce was refused INVALID_PRODUCER_ID_MAPPING, and none fenced', () => {
    const trace = run('transactional-id-expired');
    const end = summarize(trace).verdict.counters;
    expect(end.producersFatal).toBe(1);
    expect(end.producersFenced).toBe(0);
    const fatalFacts = trace.steps.flatMap((s) =>
      (s.facts as readonly { kind: string; client?: string; error?: string; fatal?: boolean }[])
        .filter((f) => f.kind === 'clientError' && f.fatal === true)
        .map((f) => ({ client: f.client as string, error: f.error, step: s.i })),
    );
    expect(fatalFacts[0]?.error).toBe('INVALID_PRODUCER_ID_MAPPING');
    // the producer's later refusals (commitTransaction() …) are the same producer: still one
    expect(new Set(fatalFacts.map((f) => f.client)).size).toBe(1);
    const at = firstFatalStep(trace, fatalFacts[0]?.client as string);
    expect(summarize(trace, at).verdict.counters.producersFatal).toBe(0);
    expect(summarize(trace, at + 1).verdict.counters.producersFatal).toBe(1);
    // the panel's step link points at that step
    expect(counterSteps(trace.steps, trace.steps.length, eventlessTopicsOf(trace)).producersFatal).toEqual([at]);
  });

  it('zombie-fencing: the zombie is fenced, and no producer failed otherwise', () => {
    const end = summarize(run('zombie-fencing')).verdict.counters;
    expect(end.producersFenced).toBeGreaterThan(0);
    expect(end.producersFatal).toBe(0);
  });

  it('lost-ack-idempotent: nothing failed fatally', () => {
    const end = summarize(run('lost-ack-idempotent')).verdict.counters;
    expect(end.producersFatal).toBe(0);
    expect(end.producersFenced).toBe(0);
  });
});
