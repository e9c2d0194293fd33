/**
 * Where the coordinator's timeout meets protocol v2's verification and the application's catch
 * block. A transaction is open past transaction.timeout.ms; the producer sends to a new partition
 * just before the coordinator's cleanup run aborts it (the epoch 0 → 1), and commits. The leader's
 * verification meets the abort (CONCURRENT_TRANSACTIONS while it completes, then PRODUCER_FENCED,
 * which AddPartitionsToTxnManager turns into INVALID_PRODUCER_EPOCH), so commitTransaction() throws
 * InvalidProducerEpochException. KafkaProducer's javadoc loop closes the producer only on
 * ProducerFencedException, OutOfOrderSequenceException and AuthorizationException; for any other
 * KafkaException it calls abortTransaction() — here a v2 retry (the stored epoch is the request's + 1):
 * NONE, the producer takes epoch 1 and goes on. The model's application stopped as if fenced.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

const timedOutThenCommit = {
  version: 1,
  seed: 1,
  topics: [{ name: 'orders', partitions: 2 }],
  clients: [
    {
      id: 'app',
      type: 'producer',
      config: { 'transactional.id': 'app-1', 'transaction.timeout.ms': 3000, 'linger.ms': 0 },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'orders', partition: 0, key: 'k', value: 'a1', headers: { event_id: 'a1' } },
        { op: 'send', topic: 'orders', partition: 1, key: 'k', value: 'a2', headers: { event_id: 'a2' }, at: 9999 },
        { op: 'commitTransaction', delayMs: 10 },
        { op: 'beginTransaction', delayMs: 100 },
        { op: 'send', topic: 'orders', partition: 1, key: 'k', value: 'a3', headers: { event_id: 'a3' } },
        { op: 'commitTransaction', delayMs: 10 },
      ],
    },
  ],
  faults: [],
};

describe('commitTransaction() throws InvalidProducerEpochException after the coordinator timed the transaction out', () => {
  it('the application aborts (a protocol v2 retry: NONE) and its next transaction commits', () => {
    const trace = runScenario(timedOutThenCommit);
    const replies: string[] = [];
    const notes: string[] = [];
    let committed: string[] = [];
    for (let i = 0; ; i++) {
      const s = trace.steps.at(i);
      if (!s) break;
      if (s.actor === 'app.app' && s.label === 'reply') {
        const d = s.detail as { call: string; ok: boolean; error: string | null };
        if (d.call.endsWith('Transaction') && d.call !== 'beginTransaction') replies.push(`${d.call} ${d.ok ? 'ok' : d.error}`);
      }
      for (const f of s.facts as Fact[]) {
        if (f.kind === 'note' && f.actor === 'app.app') notes.push(f.text);
        if (f.kind === 'txnState' && f.to === 'CompleteCommit') committed = [...committed, `${f.producerEpoch}`];
      }
    }
    expect(replies).toEqual(['commitTransaction INVALID_PRODUCER_EPOCH', 'abortTransaction ok', 'commitTransaction ok']);
    expect(notes.some((n) => n.includes('fenced and stops'))).toBe(false);
    // the next transaction ran at epoch 1 (the abort's answer) and its commit bumped to 2
    expect(committed).toEqual(['2']);
  });
});
