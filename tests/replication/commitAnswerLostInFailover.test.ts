/**
 * Where the coordinator's failover meets protocol v2's EndTxn retry rule. broker-0 leads
 * __transaction_state and hosts the coordinator; it appends PrepareCommit, its followers fetch the
 * record, and broker-0 fails before the append is acknowledged — so the producer never gets its
 * EndTxn answer. broker-1 is elected once broker-0's session expires, loads PrepareCommit from its
 * replica and sends the markers again (TransactionStateManager.loadTransactionsForTxnTopicPartition,
 * with the completion pending: `prepareComplete`). The producer's EndTxn(COMMIT) retried with its old
 * epoch is answered CONCURRENT_TRANSACTIONS while that completion is pending, then — CompleteCommit
 * stored at the bumped epoch — NONE with the bumped epoch, as a retry (endTransaction's
 * `retryOnEpochBump`: stored epoch = request epoch + 1). The commit happens once; the
 * read_committed reader sees the record once. (Kept as a check of that combination: the failover
 * tests of txnCoordinatorOnLeader.test.ts answer the commit before the failover.)
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { HOSTED_TXN_CLUSTER } from './hostBroker';

const commitAnswerLost = {
  version: 1,
  seed: 1,
  cluster: HOSTED_TXN_CLUSTER,
  topics: [{ name: 'orders', partitions: 1, replicationFactor: 3, leaders: [1] }],
  clients: [
    {
      id: 'app',
      type: 'producer',
      startAt: 500,
      config: { 'transactional.id': 'app-1', 'linger.ms': 0 },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e1' } },
        { op: 'commitTransaction', at: 3000 },
      ],
    },
    {
      id: 'reader',
      type: 'consumer',
      config: { 'group.id': 'reader', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
      topics: ['orders'],
      processing: { mode: 'at-least-once' },
    },
  ],
  faults: [
    { type: 'slowReplication', target: 'broker-1', at: 0, delayMs: 100 },
    { type: 'slowReplication', target: 'broker-2', at: 0, delayMs: 100 },
    { type: 'crash', target: 'broker-0', at: 3150, durationMs: 30000 },
  ],
};

describe('an EndTxn whose PrepareCommit was replicated but never acknowledged (the coordinator failed)', () => {
  it('the new coordinator completes the commit, and the retried EndTxn is CONCURRENT_TRANSACTIONS, then NONE at the bumped epoch', () => {
    const trace = runScenario(commitAnswerLost);
    const answers: string[] = [];
    const states: string[] = [];
    for (let i = 0; ; i++) {
      const s = trace.steps.at(i);
      if (!s) break;
      if (s.label === 'EndTxnResponse' && s.envelope !== null) {
        const p = trace.envelopes.at(s.envelope)?.payload as { error: string; producerEpoch: number };
        answers.push(`${p.error} ${p.producerEpoch}`);
      }
      for (const f of s.facts as Fact[]) if (f.kind === 'txnState') states.push(`${s.actor} ${f.to} ${f.producerEpoch}`);
    }
    // broker-0 never learned its PrepareCommit write succeeded; broker-1 completes it
    expect(states).toEqual([
      'broker-0.txn-coordinator Empty 0',
      'broker-0.txn-coordinator Ongoing 0',
      'broker-1.txn-coordinator CompleteCommit 1',
    ]);
    expect(answers.at(-1)).toBe('NONE 1');
    expect(answers.slice(0, -1).every((a) => a === 'CONCURRENT_TRANSACTIONS -1')).toBe(true);
    expect(answers.length).toBeGreaterThan(1);
    const verdict = summarize(trace).verdict.layers.map((l) => `${l.layer}:${l.status}`);
    expect(verdict).toEqual(['log:once', 'delivery:once', 'processing:once', 'loss:once']);
  });
});
