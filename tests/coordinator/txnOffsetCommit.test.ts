/**
 * The group checks of a TxnOffsetCommit (OffsetMetadataManager.validateTransactionalOffsetCommit,
 * ClassicGroup.validateOffsetCommit with isTransactional, 4.0 line), on txnOffsetCommitGroupError;
 * and when they run: after the commit's verification with the transaction coordinator
 * (CoordinatorRuntime.scheduleTransactionalWriteOperation), on the group as it is then.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { type ConsumerGroup, emptyGroup, type GroupMember } from '../../src/sim/coordinator/classicGroup';
import {
  type GroupCoordinatorContext,
  groupCoordinatorMachine,
  onAddedToTxn,
  onTxnOffsetCommit,
  txnOffsetCommitGroupError,
} from '../../src/sim/coordinator/groupCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf } from '../machines/harness';

/** Group g in `state`, generation 3, with member m1. */
const group = (state: ConsumerGroup['state']): ConsumerGroup => ({
  ...emptyGroup('g'),
  state,
  generationId: 3,
  members: { m1: { memberId: 'm1' } as unknown as GroupMember },
});

describe('TxnOffsetCommit: group, member and generation checks', () => {
  it('a group the coordinator does not know: ILLEGAL_GENERATION with a generation, accepted without one (a simple group)', () => {
    expect(txnOffsetCommitGroupError(undefined, { generationId: 3, memberId: 'm1' })).toBe('ILLEGAL_GENERATION');
    expect(txnOffsetCommitGroupError(undefined, { generationId: -1, memberId: '' })).toBeNull();
  });

  it('no generation on an Empty group is accepted, even with a member id', () => {
    expect(txnOffsetCommitGroupError(group('Empty'), { generationId: -1, memberId: 'x' })).toBeNull();
  });

  it('an unknown member → UNKNOWN_MEMBER_ID; a stale generation → ILLEGAL_GENERATION (KIP-447)', () => {
    expect(txnOffsetCommitGroupError(group('Stable'), { generationId: 3, memberId: 'zz' })).toBe('UNKNOWN_MEMBER_ID');
    expect(txnOffsetCommitGroupError(group('Stable'), { generationId: 2, memberId: 'm1' })).toBe('ILLEGAL_GENERATION');
    expect(txnOffsetCommitGroupError(group('Stable'), { generationId: 3, memberId: 'm1' })).toBeNull();
  });

  it('unlike OffsetCommit, no REBALANCE_IN_PROGRESS while the group completes a rebalance', () => {
    expect(txnOffsetCommitGroupError(group('CompletingRebalance'), { generationId: 3, memberId: 'm1' })).toBeNull();
  });
});

describe('TxnOffsetCommit: verified first, then checked against the group as it is then', () => {
  const scenario = {
    version: 1,
    seed: 1,
    cluster: { 'transaction.version': 2 },
    topics: [{ name: 'in', partitions: 1 }],
    clients: [{ id: 'c0', type: 'consumer', config: { 'group.id': 'g' }, topics: ['in'] }],
  };
  const coordinator = (g: ConsumerGroup): GroupCoordinatorContext => {
    const m = drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
    m.send({ type: 'boot' }, 0);
    return { ...m.context<GroupCoordinatorContext>(), groups: { g } };
  };
  const commit = (ctx: GroupCoordinatorContext): { ctx: GroupCoordinatorContext; effects: Effect[] } => {
    const out = new Out();
    const payload = {
      correlationId: 7,
      transactionalId: 'tx',
      groupId: 'g',
      producerId: 1001,
      producerEpoch: 0,
      generationId: 3,
      memberId: 'm1',
      offsets: [{ topic: 'in', partition: 0, offset: 1 }],
    };
    const ev = { type: 'TxnOffsetCommit', from: 'c0.producer', envelopeId: 1, inReplyTo: null, now: 10, payload };
    return { ctx: onTxnOffsetCommit(ctx, ev as never, out), effects: out.effects };
  };
  /** The transaction coordinator's v4+ answer to the coordinator's AddPartitionsToTxn `request`: every partition NONE. */
  const verified = (
    ctx: GroupCoordinatorContext,
    request: Record<string, unknown>,
  ): { ctx: GroupCoordinatorContext; effects: Effect[] } => {
    const out = new Out();
    const transactions = request.transactions as { transactionalId: string; partitions: object[] }[];
    const resultsByTransaction = transactions.map((t) => ({
      transactionalId: t.transactionalId,
      partitions: t.partitions.map((p) => ({ ...p, error: 'NONE' })),
    }));
    const ev = {
      type: 'AddPartitionsToTxnResponse',
      from: 'txn-coordinator',
      envelopeId: 2,
      inReplyTo: 9,
      now: 20,
      payload: { correlationId: request.correlationId, error: 'NONE', resultsByTransaction },
    };
    return { ctx: onAddedToTxn(ctx, ev as never, out), effects: out.effects };
  };
  const sent = (fx: readonly Effect[]) =>
    fx.flatMap((e) => (e.type === 'send' ? [{ rpc: e.rpc, payload: e.payload as Record<string, unknown> }] : []));

  it('a member the group dropped while the verification was out is refused when the answer comes: nothing is written', () => {
    const first = commit(coordinator(group('Stable')));
    // protocol v2: the coordinator adds __consumer_offsets to the transaction before anything else
    expect(sent(first.effects).map((s) => s.rpc)).toEqual(['AddPartitionsToTxn']);
    const request = sent(first.effects)[0]?.payload as Record<string, unknown>;
    // meanwhile the group rebalanced without m1 (generation 4)
    const moved = { ...first.ctx, groups: { g: { ...group('Stable'), generationId: 4, members: {} } } };
    const answer = verified(moved, request);
    expect(sent(answer.effects)).toEqual([{ rpc: 'TxnOffsetCommitResponse', payload: { correlationId: 7, error: 'UNKNOWN_MEMBER_ID' } }]);
    expect(answer.ctx.groups.g?.pending).toEqual([]);
  });

  it('a stale member is still verified first (the offsets partition joins its transaction), then refused', () => {
    const stale = commit(coordinator({ ...group('Stable'), generationId: 4 }));
    expect(sent(stale.effects).map((s) => s.rpc)).toEqual(['AddPartitionsToTxn']);
    const answer = verified(stale.ctx, sent(stale.effects)[0]?.payload as Record<string, unknown>);
    expect(sent(answer.effects)[0]?.payload.error).toBe('ILLEGAL_GENERATION');
  });

  it('a current member is written once verified', () => {
    const first = commit(coordinator(group('Stable')));
    const answer = verified(first.ctx, sent(first.effects)[0]?.payload as Record<string, unknown>);
    expect(sent(answer.effects)[0]?.payload.error).toBe('NONE');
    expect(answer.ctx.groups.g?.pending.length).toBe(1);
  });
});
