/**
 * The two coordinators on their own, without the kernel: the transaction coordinator's
 * per-transactional.id states (TransactionState) and availability, the group coordinator's
 * per-group states (ClassicGroupState) and availability — transitions and the effects they emit.
 */
import { describe, expect, it } from 'vitest';
import { canGroupTransition } from '../../src/sim/coordinator/classicGroupState';
import type { GroupCoordinatorContext } from '../../src/sim/coordinator/groupCoordinator.machine';
import { groupCoordinatorMachine } from '../../src/sim/coordinator/groupCoordinator.machine';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/transactionCoordinator.machine';
import { transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf, joinNewMember, sends } from './harness';

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [
    { id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] },
    { id: 'c', type: 'consumer', config: { 'group.id': 'g' }, topics: ['t'] },
  ],
};

let envelope = 100;
const request = (type: string, from: string, payload: Record<string, unknown>, correlationId = envelope) => ({
  type,
  from,
  envelopeId: envelope++,
  inReplyTo: null,
  payload: { correlationId, ...payload },
});
const replies = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'send' && e.inReplyTo !== undefined ? [{ rpc: e.rpc, ...e.payload }] : []));
const txnFacts = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'fact' && (e.fact as { kind: string }).kind === 'txnState' ? [e.fact as unknown as { from: string; to: string }] : [],
  );

describe('transaction coordinator', () => {
  const start = () => {
    const m = drive(transactionCoordinatorMachine, inputOf(scenario, 'txn-coordinator'));
    const init = m.send(
      request('InitProducerId', 'p.producer', { transactionalId: 'tx', transactionTimeoutMs: 60000, producerId: -1, producerEpoch: -1 }),
      1,
    );
    return { m, init };
  };
  const addPartition = () =>
    request('AddPartitionsToTxn', 'p.producer', {
      transactionalId: 'tx',
      producerId: 1000,
      producerEpoch: 0,
      partitions: [{ topic: 't', partition: 0 }],
      verifyOnly: false,
    });
  const txn = (m: ReturnType<typeof start>['m']) => m.context<TxnCoordinatorContext>().txns.tx;

  it('InitProducerId creates the transactional.id Empty, with a producer id and epoch 0', () => {
    const { m, init } = start();
    expect(m.state()).toBe('serving');
    expect(txn(m)).toMatchObject({ state: 'Empty', producerId: 1000, producerEpoch: 0 });
    expect(replies(init)).toEqual([
      expect.objectContaining({ rpc: 'InitProducerIdResponse', error: 'NONE', producerId: 1000, producerEpoch: 0 }),
    ]);
    expect(txnFacts(init)).toEqual([expect.objectContaining({ from: '(new)', to: 'Empty' })]);
  });

  it('Empty → Ongoing → PrepareCommit → CompleteCommit: AddPartitionsToTxn, EndTxn, the markers acknowledged', () => {
    const { m } = start();
    m.send(addPartition(), 2);
    expect(txn(m)?.state).toBe('Ongoing');
    const end = m.send(request('EndTxn', 'p.producer', { transactionalId: 'tx', producerId: 1000, producerEpoch: 0, committed: true }), 3);
    expect(txnFacts(end).map((f) => `${f.from}>${f.to}`)).toEqual(['Ongoing>PrepareCommit']);
    expect(replies(end)).toEqual([expect.objectContaining({ rpc: 'EndTxnResponse', error: 'NONE' })]);
    const markers = end.find((e) => e.type === 'send' && e.rpc === 'WriteTxnMarkers');
    expect(sends(end)).toContain('WriteTxnMarkers→broker-0');
    const ack = m.send(
      {
        type: 'WriteTxnMarkersResponse',
        from: 'broker-0',
        envelopeId: envelope++,
        inReplyTo: 0,
        payload: {
          correlationId: (markers as unknown as { payload: { correlationId: number } }).payload.correlationId,
          markers: [{ producerId: 1000, partitions: [{ topic: 't', partition: 0, error: 'NONE' }] }],
        },
      },
      4,
    );
    expect(txnFacts(ack).map((f) => `${f.from}>${f.to}`)).toEqual(['PrepareCommit>CompleteCommit']);
    expect(txn(m)?.state).toBe('CompleteCommit');
  });

  it('a second InitProducerId while Ongoing fences the open transaction: PrepareEpochFence, then PrepareAbort, CONCURRENT_TRANSACTIONS', () => {
    const { m } = start();
    m.send(addPartition(), 2);
    const fx = m.send(
      request('InitProducerId', 'q.producer', { transactionalId: 'tx', transactionTimeoutMs: 60000, producerId: -1, producerEpoch: -1 }),
      3,
    );
    expect(txnFacts(fx).map((f) => `${f.from}>${f.to}`)).toEqual(['Ongoing>PrepareEpochFence', 'PrepareEpochFence>PrepareAbort']);
    expect(replies(fx)).toEqual([expect.objectContaining({ rpc: 'InitProducerIdResponse', error: 'CONCURRENT_TRANSACTIONS' })]);
  });

  it('serving → down (the cache is lost) → loading (COORDINATOR_LOAD_IN_PROGRESS) → serving (replayed from __transaction_state)', () => {
    const { m } = start();
    m.send({ type: 'crash' }, 5);
    expect(m.state()).toBe('down');
    expect(m.context<TxnCoordinatorContext>().txns).toEqual({});
    const restart = m.send({ type: 'restart' }, 6);
    expect(m.state()).toBe('loading');
    expect(restart).toContainEqual(expect.objectContaining({ type: 'timer', name: 'loaded' }));
    const refused = m.send(
      request('InitProducerId', 'p.producer', { transactionalId: 'tx', transactionTimeoutMs: 60000, producerId: -1, producerEpoch: -1 }),
      7,
    );
    expect(replies(refused)).toEqual([expect.objectContaining({ error: 'COORDINATOR_LOAD_IN_PROGRESS' })]);
    m.send({ type: 'loaded', key: 'load', data: {} }, 60);
    expect(m.state()).toBe('serving');
    expect(txn(m)).toMatchObject({ state: 'Empty', producerId: 1000 });
  });
});

describe('group coordinator', () => {
  const start = () => drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
  const group = (m: ReturnType<typeof start>) => m.context<GroupCoordinatorContext>().groups.g;
  const join = (memberId = '') =>
    request('JoinGroup', 'c.consumer', { groupId: 'g', memberId, sessionTimeoutMs: 45000, rebalanceTimeoutMs: 300000, topics: ['t'] });

  it('Empty → PreparingRebalance → CompletingRebalance → Stable, each an allowed ClassicGroupState transition', () => {
    const m = start();
    const seen: string[] = [];
    const fx = joinNewMember(m, join(), 1);
    seen.push(group(m)?.state as string);
    // the first member waits group.initial.rebalance.delay.ms: the join phase completes when its timer fires
    expect(replies(fx)).toEqual([]);
    const timer = fx.find((e) => e.type === 'timer' && e.name === 'joinPhaseCheck');
    if (timer?.type !== 'timer') throw new Error('no join phase timer');
    const joined = m.send({ type: timer.name, key: timer.key, data: timer.data ?? {} }, 1 + timer.delay);
    seen.push(group(m)?.state as string);
    const answer = replies(joined)[0] as { rpc: string; error: string; memberId: string; generationId: number };
    expect(answer).toMatchObject({ rpc: 'JoinGroupResponse', error: 'NONE', generationId: 1 });
    const synced = m.send(request('SyncGroup', 'c.consumer', { groupId: 'g', generationId: 1, memberId: answer.memberId }), 5000);
    seen.push(group(m)?.state as string);
    expect(replies(synced)).toEqual([
      expect.objectContaining({ rpc: 'SyncGroupResponse', error: 'NONE', assignment: [{ topic: 't', partition: 0 }] }),
    ]);
    expect(seen).toEqual(['PreparingRebalance', 'CompletingRebalance', 'Stable']);
    for (const [from, to] of [
      ['Empty', seen[0]],
      [seen[0], seen[1]],
      [seen[1], seen[2]],
    ])
      expect(canGroupTransition(from as never, to as never)).toBe(true);
  });

  it('serving → down answers requests COORDINATOR_LOAD_IN_PROGRESS; restart serves again', () => {
    const m = start();
    m.send({ type: 'crash' }, 1);
    expect(m.state()).toBe('down');
    expect(replies(m.send(join(), 2))).toEqual([expect.objectContaining({ error: 'COORDINATOR_LOAD_IN_PROGRESS' })]);
    m.send({ type: 'restart' }, 3);
    expect(m.state()).toBe('serving');
  });
});
