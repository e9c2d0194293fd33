/**
 * Protocol v1's client-side epoch bump (KIP-360, TransactionManager.maybeTransitionToErrorState:
 * `clientSideEpochBumpRequired` when `needToTriggerEpochBumpFromClient() && !isCompleting()`), in the
 * two cases the model missed:
 * - a record refused by send() itself (KafkaProducer.doSend's catch calls maybeTransitionToErrorState:
 *   RecordTooLargeException) — the abort that follows ends with an InitProducerId that bumps the epoch;
 * - two batches failed by one ProduceResponse of a commit: the first moves COMMITTING_TRANSACTION to
 *   ABORTABLE_ERROR, which is not completing, so the second sets the flag.
 * Before, neither set it: the abort ended without an InitProducerId, the epoch still 0.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import type { Fact } from '../src/sim/trace/facts';

/** How many InitProducerId requests reached the coordinator, and the epochs the producer was given. */
function bumps(scenario: Scenario): { initProducerIds: number; epochs: number[] } {
  const trace = runScenario(scenario);
  let initProducerIds = 0;
  const epochs: number[] = [];
  for (let i = 0; i < trace.steps.length; i++) {
    const s = trace.steps.at(i);
    if (!s) continue;
    if (s.kind === 'deliver' && s.label === 'InitProducerId') initProducerIds += 1;
    for (const f of s.facts as Fact[]) if (f.kind === 'producerId') epochs.push(f.producerEpoch);
  }
  return { initProducerIds, epochs };
}

const producer = (config: Record<string, string | number>, script: unknown[]) =>
  ({
    version: 1,
    seed: 1,
    cluster: { 'transaction.version': 1 },
    topics: [{ name: 'ledger', partitions: 2, config: { 'cleanup.policy': 'compact' } }],
    clients: [{ id: 'svc', type: 'producer', config: { 'transactional.id': 'svc-1', ...config }, script }],
  }) as unknown as Scenario;

describe('protocol v1: the client-side epoch bump', () => {
  it('a record send() refuses (RecordTooLargeException): the abort bumps the epoch', () => {
    const r = bumps(
      producer({ 'max.request.size': 100 }, [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'ledger', key: 'k', value: 'x'.repeat(150), headers: { event_id: 'e1' } },
        { op: 'commitTransaction' },
      ]),
    );
    expect(r).toEqual({ initProducerIds: 2, epochs: [0, 1] });
  });

  it('two batches of a commit refused in one response (INVALID_RECORD, null keys on a compacted topic): the abort bumps the epoch', () => {
    const r = bumps(
      producer({ 'linger.ms': 1000 }, [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'ledger', key: null, partition: 0, value: 'a', headers: { event_id: 'e1' } },
        { op: 'send', topic: 'ledger', key: null, partition: 1, value: 'b', headers: { event_id: 'e2' } },
        { op: 'commitTransaction' },
      ]),
    );
    expect(r).toEqual({ initProducerIds: 2, epochs: [0, 1] });
  });
});
