/**
 * The group coordinator's rules, one test per rule, on its handlers directly (classicGroup.ts and the
 * machine's TxnOffsetCommit path): GroupMetadataManager / ClassicGroup / ClassicGroupMember of Kafka's
 * group-coordinator module.
 */

import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { Out, type PendingRequest } from '../src/sim/actors/out';
import { CONSUMER_OFFSETS_TOPIC } from '../src/sim/cluster/metadata';
import {
  type ConsumerGroup,
  DEFAULT_GROUP_COORDINATOR_CONFIG,
  emptyGroup,
  heartbeat,
  join,
  loadGroup,
  onJoinTimer,
  onLoaded,
  onSessionTimer,
  onSyncTimer,
  sync,
} from '../src/sim/coordinator/classicGroup';
import {
  type GroupCoordinatorContext,
  groupCoordinatorMachine,
  needsTxnVerification,
  txnOffsetCommitVerificationError,
} from '../src/sim/coordinator/groupCoordinator.machine';
import type { Effect } from '../src/sim/kernel/effects';
import { createPartitionLog } from '../src/sim/log/partitionLog';
import { groupEnv, oneBrokerMeta } from './coordinator/groupRequests';

const meta = oneBrokerMeta;
const env = groupEnv;

let envelope = 0;
const request = (from: string, correlationId = 0): PendingRequest => ({ from, envelopeId: envelope++, correlationId });
const joinReq = (memberId: string) => ({ memberId, sessionTimeoutMs: 10000, rebalanceTimeoutMs: 30000, topics: ['orders'] });

type Send = Extract<Effect, { type: 'send' }>;
const replies = (out: Out, rpc: string) => out.effects.filter((e): e is Send => e.type === 'send' && e.rpc === rpc);
const timers = (out: Out, name: string) => out.effects.filter((e) => e.type === 'timer' && e.name === name);

/** Two members a-0 and b-1 in a Stable group of generation 1 (a-0 leads). */
function stableGroup(): ConsumerGroup {
  const o = new Out();
  let g = join(env, emptyGroup('g'), joinReq(''), request('a.consumer'), 'a.consumer', 0, o);
  g = join(env, g, joinReq(''), request('b.consumer'), 'b.consumer', 0, o);
  g = onJoinTimer(env, g, { initial: true, delay: 0, remaining: 0 }, 0, o);
  g = sync(env, g, 'b-1', 1, request('b.consumer'), 1, o);
  g = sync(env, g, 'a-0', 1, request('a.consumer'), 1, o);
  expect(g.state).toBe('Stable');
  return g;
}

/** The same group after b-1 rejoined with a new subscription (a rebalance): a-0 has not rejoined yet. */
function preparing(): ConsumerGroup {
  const o = new Out();
  const g = join(env, stableGroup(), { ...joinReq('b-1'), topics: ['orders', 'payments'] }, request('b.consumer', 7), 'b.consumer', 100, o);
  expect(g.state).toBe('PreparingRebalance');
  return g;
}

describe('heartbeat expiry (GroupMetadataManager.expireClassicGroupMemberHeartbeat)', () => {
  it('keeps a member waiting in JoinGroup: its heartbeat is satisfied (ClassicGroupMember.hasSatisfiedHeartbeat)', () => {
    const out = new Out();
    const g = onSessionTimer(env, preparing(), 'b-1', 60000, out);
    expect(Object.keys(g.members).sort()).toEqual(['a-0', 'b-1']);
    expect(replies(out, 'JoinGroupResponse')).toEqual([]);
  });

  it('keeps a member waiting in SyncGroup', () => {
    const o = new Out();
    let g = join(env, preparing(), joinReq('a-0'), request('a.consumer'), 'a.consumer', 200, o);
    expect(g.state).toBe('CompletingRebalance');
    g = sync(env, g, 'b-1', 2, request('b.consumer', 9), 201, o);
    const out = new Out();
    g = onSessionTimer(env, g, 'b-1', 60000, out);
    expect(g.members['b-1']?.syncRequest).not.toBeNull();
    expect(g.state).toBe('CompletingRebalance');
  });

  it('removes a member that is not waiting and sent no heartbeat, and the group rebalances', () => {
    const out = new Out();
    const g = onSessionTimer(env, preparing(), 'a-0', 60000, out);
    expect(Object.keys(g.members)).toEqual(['b-1']);
    // b-1 was the only one left and had rejoined: the join phase completes at once
    expect(g.state).toBe('CompletingRebalance');
    expect(replies(out, 'JoinGroupResponse').map((r) => r.payload)).toEqual([
      { correlationId: 7, error: 'NONE', generationId: 2, memberId: 'b-1', leader: 'b-1' },
    ]);
  });

  it('gives a new member waiting in its first JoinGroup the new-member join timeout, then answers it UNKNOWN_MEMBER_ID', () => {
    const out = new Out();
    let g = join(env, stableGroup(), joinReq(''), request('c.consumer', 3), 'c.consumer', 500, out);
    expect(g.members['c-2']?.isNew).toBe(true);
    expect(timers(out, 'sessionExpired').find((t) => t.type === 'timer' && t.key === 'session:g:c-2')).toMatchObject({
      delay: DEFAULT_GROUP_COORDINATOR_CONFIG.newMemberJoinTimeoutMs,
    });
    const expiry = new Out();
    g = onSessionTimer(env, g, 'c-2', 500 + 300000, expiry);
    expect(g.members['c-2']).toBeUndefined();
    expect(replies(expiry, 'JoinGroupResponse')[0]?.payload).toMatchObject({ correlationId: 3, error: 'UNKNOWN_MEMBER_ID' });
  });
});

describe('the join and sync phases', () => {
  it('answers members waiting in SyncGroup REBALANCE_IN_PROGRESS when a rebalance starts (resetAndPropagateAssignmentWithError)', () => {
    const o = new Out();
    let g = join(env, preparing(), joinReq('a-0'), request('a.consumer'), 'a.consumer', 200, o);
    g = sync(env, g, 'b-1', 2, request('b.consumer', 11), 201, o);
    const out = new Out();
    g = join(env, g, joinReq(''), request('c.consumer'), 'c.consumer', 202, out);
    expect(g.state).toBe('PreparingRebalance');
    expect(replies(out, 'SyncGroupResponse').map((r) => r.payload)).toEqual([
      { correlationId: 11, error: 'REBALANCE_IN_PROGRESS', assignment: [] },
    ]);
    expect(g.members['b-1']?.syncRequest).toBeNull();
  });

  it('the leader is the member that joined first, whatever its id, and stays while it rejoins (ClassicGroup.add, maybeElectNewJoinedLeader)', () => {
    const o = new Out();
    // b joins before a: b-0 leads, though a-1 sorts first
    let g = join(env, emptyGroup('g'), joinReq(''), request('b.consumer'), 'b.consumer', 0, o);
    g = join(env, g, joinReq(''), request('a.consumer'), 'a.consumer', 0, o);
    const first = new Out();
    g = onJoinTimer(env, g, { initial: true, delay: 0, remaining: 0 }, 0, first);
    expect(g.leader).toBe('b-0');
    expect(replies(first, 'JoinGroupResponse').map((r) => r.payload.leader)).toEqual(['b-0', 'b-0']);
    // a member whose id sorts before every other joins: the next generation keeps b-0
    g = sync(env, g, 'b-0', 1, request('b.consumer'), 1, o);
    g = join(env, g, joinReq(''), request('0.consumer'), '0.consumer', 10, o);
    g = join(env, g, joinReq('b-0'), request('b.consumer'), 'b.consumer', 11, o);
    const second = new Out();
    g = join(env, g, joinReq('a-1'), request('a.consumer'), 'a.consumer', 12, second);
    expect(g.generationId).toBe(2);
    expect(g.leader).toBe('b-0');
  });

  it('a leader that leaves is replaced by the first member left in join order (ClassicGroup.remove)', () => {
    const o = new Out();
    let g = join(env, emptyGroup('g'), joinReq(''), request('c.consumer'), 'c.consumer', 0, o);
    g = join(env, g, joinReq(''), request('b.consumer'), 'b.consumer', 0, o);
    g = join(env, g, joinReq(''), request('a.consumer'), 'a.consumer', 0, o);
    g = onJoinTimer(env, g, { initial: true, delay: 0, remaining: 0 }, 0, o);
    expect(g.leader).toBe('c-0');
    g = onSessionTimer(env, g, 'c-0', 60000, new Out());
    expect(g.leader).toBe('b-1');
  });

  it('answers a JoinGroup with a member id the group does not know UNKNOWN_MEMBER_ID', () => {
    const out = new Out();
    const g = join(env, stableGroup(), joinReq('gone-9'), request('x.consumer', 4), 'x.consumer', 10, out);
    expect(g.state).toBe('Stable');
    expect(replies(out, 'JoinGroupResponse')[0]?.payload).toMatchObject({ correlationId: 4, error: 'UNKNOWN_MEMBER_ID' });
  });

  it('tells a follower that rejoins a Stable group with the same subscription the current generation, without a rebalance', () => {
    const out = new Out();
    const g = join(env, stableGroup(), joinReq('b-1'), request('b.consumer', 5), 'b.consumer', 10, out);
    expect(g.state).toBe('Stable');
    expect(replies(out, 'JoinGroupResponse')[0]?.payload).toMatchObject({ error: 'NONE', generationId: 1, leader: 'a-0' });
  });

  it("completes the sync phase on the leader's SyncGroup, answers the waiting followers and stores the GroupMetadata record", () => {
    const o = new Out();
    let g = join(env, preparing(), joinReq('a-0'), request('a.consumer'), 'a.consumer', 200, o);
    g = sync(env, g, 'b-1', 2, request('b.consumer', 12), 201, o);
    expect(g.state).toBe('CompletingRebalance');
    const out = new Out();
    g = sync(env, g, 'a-0', 2, request('a.consumer', 13), 202, out);
    expect(g.state).toBe('Stable');
    expect(replies(out, 'SyncGroupResponse').map((r) => r.payload)).toEqual([
      { correlationId: 13, error: 'NONE', assignment: [{ topic: 'orders', partition: 0 }] },
      { correlationId: 12, error: 'NONE', assignment: [{ topic: 'orders', partition: 1 }] },
    ]);
    expect(g.stored).toMatchObject({ generationId: 2, leader: 'a-0' });
    expect(g.stored.members.map((m) => [m.memberId, m.assignment])).toEqual([
      ['a-0', [{ topic: 'orders', partition: 0 }]],
      ['b-1', [{ topic: 'orders', partition: 1 }]],
    ]);
  });

  it('removes members that joined but sent no SyncGroup within the rebalance timeout (expirePendingSync)', () => {
    const o = new Out();
    let g = join(env, preparing(), joinReq('a-0'), request('a.consumer'), 'a.consumer', 200, o);
    expect(timers(o, 'syncExpired')).toHaveLength(1);
    g = sync(env, g, 'b-1', 2, request('b.consumer', 14), 201, o);
    const out = new Out();
    g = onSyncTimer(env, g, 2, 200 + 30000, out);
    expect(Object.keys(g.members)).toEqual(['b-1']);
    expect(replies(out, 'SyncGroupResponse')[0]?.payload).toMatchObject({ correlationId: 14, error: 'REBALANCE_IN_PROGRESS' });
  });

  it('answers a heartbeat of an unknown member or a stale generation without rescheduling anyone', () => {
    const out = new Out();
    expect(heartbeat(stableGroup(), 'b-1', 0, 10, out).error).toBe('ILLEGAL_GENERATION');
    expect(heartbeat(stableGroup(), 'zz', 1, 10, out).error).toBe('UNKNOWN_MEMBER_ID');
    expect(timers(out, 'sessionExpired')).toEqual([]);
    expect(heartbeat(preparing(), 'a-0', 1, 10, out).error).toBe('REBALANCE_IN_PROGRESS');
    expect(timers(out, 'sessionExpired')).toHaveLength(1);
  });
});

describe('failover (GroupMetadataManager.replay and onLoaded)', () => {
  it('loads members, generation and assignment from the last GroupMetadata record and reschedules their heartbeats', () => {
    const before = preparing();
    const loaded = loadGroup(before);
    expect(loaded.state).toBe('Stable');
    expect(loaded.generationId).toBe(1);
    expect(Object.values(loaded.members).map((m) => [m.memberId, m.assignment, m.joinRequest])).toEqual([
      ['a-0', [{ topic: 'orders', partition: 0 }], null],
      ['b-1', [{ topic: 'orders', partition: 1 }], null],
    ]);
    const out = new Out();
    onLoaded(loaded, 5000, out);
    expect(timers(out, 'sessionExpired').map((t) => (t.type === 'timer' ? t.key : ''))).toEqual(['session:g:a-0', 'session:g:b-1']);
  });

  it('a group that never stored a generation with members loads Empty', () => {
    const o = new Out();
    const g = join(env, emptyGroup('g'), joinReq(''), request('a.consumer'), 'a.consumer', 0, o);
    expect(loadGroup(g)).toMatchObject({ state: 'Empty', generationId: 0, members: {} });
  });

  it('the coordinator machine keeps its members across a crash and restart', () => {
    const effects: Effect[] = [];
    const actor = createActor(groupCoordinatorMachine, {
      input: { id: 'group-coordinator', meta, config: env.config, logs: [] },
    });
    actor.on('*', (e) => effects.push(e as Effect));
    actor.start();
    const rpc = (type: string, payload: Record<string, unknown>, now: number, from = 'a.consumer') =>
      actor.send({ type, now, from, envelopeId: envelope++, inReplyTo: null, payload } as never);
    rpc('JoinGroup', { correlationId: 0, groupId: 'g', ...joinReq('') }, 0);
    // answered MEMBER_ID_REQUIRED (a-0): the member joins again with it
    rpc('JoinGroup', { correlationId: 0, groupId: 'g', ...joinReq('a-0') }, 0);
    actor.send({ type: 'joinPhaseCheck', now: 0, key: 'join:g', data: { groupId: 'g', initial: true, delay: 0, remaining: 0 } } as never);
    rpc('SyncGroup', { correlationId: 1, groupId: 'g', generationId: 1, memberId: 'a-0' }, 1);
    actor.send({ type: 'crash' } as never);
    actor.send({ type: 'restart', now: 300, from: 'group-coordinator', args: {} } as never);
    effects.length = 0;
    rpc('Heartbeat', { correlationId: 2, groupId: 'g', generationId: 1, memberId: 'a-0' }, 301);
    const answer = effects.find((e): e is Send => e.type === 'send' && e.rpc === 'HeartbeatResponse');
    expect(answer?.payload).toMatchObject({ error: 'NONE' });
    expect((actor.getSnapshot().context as GroupCoordinatorContext).groups.g?.state).toBe('Stable');
  });
});

describe('TxnOffsetCommit verification (KIP-890)', () => {
  const offsetsPartition = (p: number) => createPartitionLog(CONSUMER_OFFSETS_TOPIC, p);
  const commit = { transactionalId: 't', groupId: 'g', producerId: 7, producerEpoch: 0, generationId: -1, memberId: '', offsets: [] };

  it('verifies under protocol v1 only with transaction.partition.verification.enable, always under v2', () => {
    const log = offsetsPartition(0);
    expect(needsTxnVerification({ ...env.config, transactionVersion: 1, verification: true }, log, commit)).toBe(true);
    expect(needsTxnVerification({ ...env.config, transactionVersion: 1, verification: false }, log, commit)).toBe(false);
    expect(needsTxnVerification({ ...env.config, transactionVersion: 2, verification: false }, log, commit)).toBe(true);
  });

  it('maps what the transaction coordinator answers to what the client sees', () => {
    expect(txnOffsetCommitVerificationError('TRANSACTION_ABORTABLE')).toBe('TRANSACTION_ABORTABLE');
    expect(txnOffsetCommitVerificationError('PRODUCER_FENCED')).toBe('INVALID_PRODUCER_EPOCH');
    expect(txnOffsetCommitVerificationError('NETWORK_EXCEPTION')).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    expect(txnOffsetCommitVerificationError('CONCURRENT_TRANSACTIONS')).toBe('CONCURRENT_TRANSACTIONS');
  });

  /** The transaction coordinator's v4+ answer to `verify`: `error` for each of its partitions. */
  function answerTo(verify: Send | undefined, error: string) {
    const transactions = (verify?.payload.transactions ?? []) as { transactionalId: string; partitions: object[] }[];
    const resultsByTransaction = transactions.map((t) => ({
      transactionalId: t.transactionalId,
      partitions: t.partitions.map((p) => ({ ...p, error })),
    }));
    const payload = { correlationId: verify?.payload.correlationId, error: 'NONE', resultsByTransaction };
    return { type: 'AddPartitionsToTxnResponse', now: 12, from: 'txn-coordinator', envelopeId: 2, inReplyTo: 0, payload };
  }

  function coordinator(verification: boolean) {
    const effects: Effect[] = [];
    const actor = createActor(groupCoordinatorMachine, {
      input: {
        id: 'group-coordinator',
        meta,
        config: { ...env.config, transactionVersion: 1 as const, verification },
        logs: [0, 1, 2].map(offsetsPartition),
      },
    });
    actor.on('*', (e) => effects.push(e as Effect));
    actor.start();
    actor.send({
      type: 'TxnOffsetCommit',
      now: 10,
      from: 'app.producer',
      envelopeId: 1,
      inReplyTo: null,
      payload: { correlationId: 5, ...commit, offsets: [{ topic: 'orders', partition: 0, offset: 3 }] },
    } as never);
    return { actor, effects };
  }

  it('protocol v1: a TxnOffsetCommit whose partition is not in the transaction is refused TRANSACTION_ABORTABLE and writes nothing', () => {
    const { actor, effects } = coordinator(true);
    const verify = effects.find((e): e is Send => e.type === 'send' && e.rpc === 'AddPartitionsToTxn');
    // the v4+ form (the coordinator's broker's AddPartitionsToTxnManager): one transaction
    expect(verify?.payload).toMatchObject({ transactions: [{ transactionalId: 't', producerId: 7, producerEpoch: 0, verifyOnly: true }] });
    actor.send(answerTo(verify, 'TRANSACTION_ABORTABLE') as never);
    const answer = effects.find((e): e is Send => e.type === 'send' && e.rpc === 'TxnOffsetCommitResponse');
    expect(answer?.payload).toEqual({ correlationId: 5, error: 'TRANSACTION_ABORTABLE' });
    const ctx = actor.getSnapshot().context as GroupCoordinatorContext;
    expect(Object.values(ctx.logs).every((l) => l.logEndOffset === 0)).toBe(true);
    expect(ctx.groups.g?.pending ?? []).toEqual([]);
  });

  it('protocol v1: a verified TxnOffsetCommit is written as pending offsets', () => {
    const { actor, effects } = coordinator(true);
    const verify = effects.find((e): e is Send => e.type === 'send' && e.rpc === 'AddPartitionsToTxn');
    actor.send(answerTo(verify, 'NONE') as never);
    expect(effects.find((e): e is Send => e.type === 'send' && e.rpc === 'TxnOffsetCommitResponse')?.payload).toEqual({
      correlationId: 5,
      error: 'NONE',
    });
    expect((actor.getSnapshot().context as GroupCoordinatorContext).groups.g?.pending).toEqual([
      { producerId: 7, offsets: { 'orders-0': 3 }, writtenAt: { 'orders-0': 0 } },
    ]);
  });

  it('protocol v1 without verification writes at once', () => {
    const { effects } = coordinator(false);
    expect(effects.some((e) => e.type === 'send' && e.rpc === 'AddPartitionsToTxn')).toBe(false);
    expect(effects.find((e): e is Send => e.type === 'send' && e.rpc === 'TxnOffsetCommitResponse')?.payload).toEqual({
      correlationId: 5,
      error: 'NONE',
    });
  });

  it('a verification that cannot reach the transaction coordinator is answered COORDINATOR_LOAD_IN_PROGRESS', () => {
    const { actor, effects } = coordinator(true);
    const verify = effects.find((e): e is Send => e.type === 'send' && e.rpc === 'AddPartitionsToTxn');
    actor.send({
      type: 'disconnected',
      now: 11,
      envelopeId: 0,
      to: 'txn-coordinator',
      rpc: 'AddPartitionsToTxn',
      payload: verify?.payload,
    } as never);
    expect(effects.find((e): e is Send => e.type === 'send' && e.rpc === 'TxnOffsetCommitResponse')?.payload).toEqual({
      correlationId: 5,
      error: 'COORDINATOR_LOAD_IN_PROGRESS',
    });
  });
});
