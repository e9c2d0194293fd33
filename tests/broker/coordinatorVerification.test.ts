/**
 * The broker's side of its group coordinator's TxnOffsetCommit verification
 * (ReplicaManager.maybeSendPartitionToTransactionCoordinator → AddPartitionsToTxnManager): the
 * `verifyTxnOffsetCommit` call joins the broker's own queue — one AddPartitionsToTxn in flight per
 * transaction coordinator, the rest waiting — and each answer goes back in-process
 * (`txnOffsetCommitVerified`, the coordinator's id, the raw error). The old model had no such call:
 * the group coordinator sent its own AddPartitionsToTxn.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { onVerifyTxnOffsetCommit, type VerifyTxnOffsetCommitArgs } from '../../src/sim/broker/coordinatorVerification';
import { onVerification, onVerificationLost } from '../../src/sim/broker/produceRequest';
import { type ClusterMetadata, CONSUMER_OFFSETS_TOPIC } from '../../src/sim/cluster/metadata';
import { txnOffsetCommitVerificationError } from '../../src/sim/coordinator/groupCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { appendProducerBatch } from '../../src/sim/log/partitionLog';
import { transactionStateTopic } from '../../src/sim/scenario/build';
import { BROKERS, hostBroker } from '../replication/hostBroker';

const KEY = `${CONSUMER_OFFSETS_TOPIC}-0`;
const meta: ClusterMetadata = {
  brokers: BROKERS,
  topics: { [CONSUMER_OFFSETS_TOPIC]: transactionStateTopic(BROKERS, 1, 3, CONSUMER_OFFSETS_TOPIC) },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'broker-0.group-coordinator',
  transactionStatePartitions: 1,
  consumerOffsetsPartitions: 1,
};
const GC = 'broker-0.group-coordinator';
const args = (id: number, transactionalId: string, producerId: number, producerEpoch = 0): VerifyTxnOffsetCommitArgs => ({
  id,
  transactionalId,
  producerId,
  producerEpoch,
  partition: { topic: CONSUMER_OFFSETS_TOPIC, partition: 0 },
  verifyOnly: false,
});

type Send = Extract<Effect, { type: 'send' }>;
type Call = Extract<Effect, { type: 'call' }>;
const sends = (out: Out) => out.effects.filter((e): e is Send => e.type === 'send' && e.rpc === 'AddPartitionsToTxn');
const calls = (out: Out) => out.effects.filter((e): e is Call => e.type === 'call').map((c) => [c.to, c.name, c.args]);
const transactionsOf = (s: Send | undefined) => (s?.payload.transactions as { transactionalId: string }[]).map((t) => t.transactionalId);

function verify(ctx: BrokerContext, a: VerifyTxnOffsetCommitArgs): { ctx: BrokerContext; out: Out } {
  const out = new Out();
  return { ctx: onVerifyTxnOffsetCommit(ctx, GC, a, 10, out), out };
}

describe("the group coordinator's verification goes through its broker's queue", () => {
  const broker = hostBroker(CONSUMER_OFFSETS_TOPIC, meta, BROKERS, { leading: true, transactionVersion: 2 });

  it('the first leaves at once from the broker (v4+ form); a second, of another transaction, waits for its answer', () => {
    const first = verify(broker, args(7, 'app-0', 1001));
    expect(sends(first.out).map((s) => [s.to, transactionsOf(s)])).toEqual([['txn-coordinator', ['app-0']]]);
    expect((sends(first.out)[0]?.payload.transactions as object[])[0]).toEqual({
      transactionalId: 'app-0',
      producerId: 1001,
      producerEpoch: 0,
      verifyOnly: false,
      partitions: [{ topic: CONSUMER_OFFSETS_TOPIC, partition: 0 }],
    });
    const second = verify(first.ctx, args(3, 'other-0', 1002));
    expect(sends(second.out)).toEqual([]);
    expect(calls(second.out)).toEqual([]);
    // the answer: app-0's result goes back to the coordinator under its id; other-0 leaves now
    const out = new Out();
    const correlationId = sends(first.out)[0]?.payload.correlationId as number;
    const resultsByTransaction = [
      { transactionalId: 'app-0', partitions: [{ topic: CONSUMER_OFFSETS_TOPIC, partition: 0, error: 'NONE' }] },
    ];
    const ev = { type: 'AddPartitionsToTxnResponse', from: 'txn-coordinator', envelopeId: 9, inReplyTo: 1, now: 60 };
    const answered = onVerification(second.ctx, { ...ev, payload: { correlationId, error: 'NONE', resultsByTransaction } } as never, out);
    expect(calls(out)).toEqual([[GC, 'txnOffsetCommitVerified', { id: 7, error: 'NONE' }]]);
    expect(sends(out).map(transactionsOf)).toEqual([['other-0']]);
    // that request lost: NETWORK_EXCEPTION back to the coordinator (it answers COORDINATOR_LOAD_IN_PROGRESS)
    const lost = new Out();
    const next = sends(out)[0]?.payload;
    onVerificationLost(answered, { payload: next as Record<string, unknown>, now: 90 }, lost);
    expect(calls(lost)).toEqual([[GC, 'txnOffsetCommitVerified', { id: 3, error: 'NETWORK_EXCEPTION' }]]);
    expect(txnOffsetCommitVerificationError('NETWORK_EXCEPTION')).toBe('COORDINATOR_LOAD_IN_PROGRESS');
  });

  it('a waiting verification of the same transactional.id and epoch is replaced: the older is answered NETWORK_EXCEPTION (addTxnData)', () => {
    const busy = verify(broker, args(1, 'x-0', 1000)).ctx;
    const older = verify(busy, args(2, 'app-0', 1001));
    const newer = verify(older.ctx, args(3, 'app-0', 1001));
    expect(calls(newer.out)).toEqual([[GC, 'txnOffsetCommitVerified', { id: 2, error: 'NETWORK_EXCEPTION' }]]);
    expect(newer.ctx.verificationQueue[0]?.waiting.map((t) => t.answerTo?.id)).toEqual([3]);
  });

  it('an ongoing transaction of this epoch in the offsets partition needs none: answered NONE at once, nothing sent', () => {
    const log = broker.partitions[KEY];
    if (!log) throw new Error('no offsets partition');
    const batch = { producerId: 1001, producerEpoch: 0, baseSequence: -1, isTransactional: true, records: [] };
    const record = { key: 'app/in-0', value: '1', headers: {}, timestamp: 0 };
    const withTxn = { ...broker, partitions: { [KEY]: appendProducerBatch(log, { ...batch, records: [record] }, 0).log } };
    const r = verify(withTxn, args(7, 'app-0', 1001));
    expect(sends(r.out)).toEqual([]);
    expect(calls(r.out)).toEqual([[GC, 'txnOffsetCommitVerified', { id: 7, error: 'NONE' }]]);
    // another epoch is verified
    expect(sends(verify(withTxn, args(8, 'app-0', 1001, 1)).out)).toHaveLength(1);
  });

  it('a broker that no longer leads the offsets partition answers NOT_LEADER_OR_FOLLOWER (the coordinator: NOT_COORDINATOR)', () => {
    const follower = hostBroker(CONSUMER_OFFSETS_TOPIC, meta, BROKERS, { leading: false, transactionVersion: 2 });
    const r = verify(follower, args(7, 'app-0', 1001));
    expect(sends(r.out)).toEqual([]);
    expect(calls(r.out)).toEqual([[GC, 'txnOffsetCommitVerified', { id: 7, error: 'NOT_LEADER_OR_FOLLOWER' }]]);
    expect(txnOffsetCommitVerificationError('NOT_LEADER_OR_FOLLOWER')).toBe('NOT_COORDINATOR');
  });
});
