/**
 * Which group, member and generation may commit (OffsetMetadataManager.validateOffsetCommit and
 * validateTransactionalOffsetCommit over ClassicGroup.validateOffsetCommit), on
 * offsetCommitValidation.ts; and what the Java consumer's commitSync() throws for each answer
 * (ConsumerCoordinator.OffsetCommitResponseHandler).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { commitFailed } from '../../src/sim/consumer/commits';
import type { PendingCommit } from '../../src/sim/consumer/consumerContext';
import { type ConsumerGroup, emptyGroup, type GroupMember } from '../../src/sim/coordinator/classicGroup';
import { type GroupCoordinatorContext, groupCoordinatorMachine, onOffsetCommit } from '../../src/sim/coordinator/groupCoordinator.machine';
import { offsetCommitGroupError, txnOffsetCommitGroupError } from '../../src/sim/coordinator/offsetCommitValidation';
import { context, replies, run, tp0 } from '../consumer/fixture';
import { drive, inputOf } from '../machines/harness';

/** Group g in `state`, generation 3, with member m1 (Empty: no members). */
const group = (state: ConsumerGroup['state']): ConsumerGroup => ({
  ...emptyGroup('g'),
  state,
  generationId: 3,
  members: state === 'Empty' ? {} : { m1: { memberId: 'm1' } as unknown as GroupMember },
});

describe('OffsetCommit: the group checks', () => {
  it('an unknown group: GROUP_ID_NOT_FOUND with a generation (v9+), accepted without one (a simple group)', () => {
    expect(offsetCommitGroupError(undefined, { generationId: 3, memberId: 'm1' })).toBe('GROUP_ID_NOT_FOUND');
    expect(offsetCommitGroupError(undefined, { generationId: 0, memberId: '' })).toBe('GROUP_ID_NOT_FOUND');
    expect(offsetCommitGroupError(undefined, { generationId: -1, memberId: '' })).toBeNull();
  });

  it('no generation on an Empty group is accepted whatever member id it carries', () => {
    expect(offsetCommitGroupError(group('Empty'), { generationId: -1, memberId: '' })).toBeNull();
    expect(offsetCommitGroupError(group('Empty'), { generationId: -1, memberId: 'old-member' })).toBeNull();
  });

  it('neither member id nor generation on a group with members: UNKNOWN_MEMBER_ID', () => {
    for (const state of ['Stable', 'PreparingRebalance', 'CompletingRebalance'] as const)
      expect(offsetCommitGroupError(group(state), { generationId: -1, memberId: '' })).toBe('UNKNOWN_MEMBER_ID');
  });

  it('a member id or a generation: the member must be known, then its generation current', () => {
    expect(offsetCommitGroupError(group('Stable'), { generationId: 3, memberId: 'zz' })).toBe('UNKNOWN_MEMBER_ID');
    expect(offsetCommitGroupError(group('Stable'), { generationId: -1, memberId: 'm1' })).toBe('ILLEGAL_GENERATION');
    expect(offsetCommitGroupError(group('Stable'), { generationId: 2, memberId: 'm1' })).toBe('ILLEGAL_GENERATION');
    expect(offsetCommitGroupError(group('Empty'), { generationId: 3, memberId: 'm1' })).toBe('UNKNOWN_MEMBER_ID');
    expect(offsetCommitGroupError(group('Stable'), { generationId: 3, memberId: 'm1' })).toBeNull();
    expect(offsetCommitGroupError(group('PreparingRebalance'), { generationId: 3, memberId: 'm1' })).toBeNull();
  });

  it('a valid member while the group completes a rebalance: REBALANCE_IN_PROGRESS', () => {
    expect(offsetCommitGroupError(group('CompletingRebalance'), { generationId: 3, memberId: 'm1' })).toBe('REBALANCE_IN_PROGRESS');
  });

  it('a Dead group: COORDINATOR_NOT_AVAILABLE, for either commit', () => {
    expect(offsetCommitGroupError(group('Dead'), { generationId: -1, memberId: '' })).toBe('COORDINATOR_NOT_AVAILABLE');
    expect(txnOffsetCommitGroupError(group('Dead'), { generationId: 3, memberId: 'm1' })).toBe('COORDINATOR_NOT_AVAILABLE');
  });

  it('TxnOffsetCommit differs in three places: ILLEGAL_GENERATION for an unknown group, no member check without ids, no state check', () => {
    expect(txnOffsetCommitGroupError(undefined, { generationId: 3, memberId: 'm1' })).toBe('ILLEGAL_GENERATION');
    expect(txnOffsetCommitGroupError(group('Stable'), { generationId: -1, memberId: '' })).toBeNull();
    expect(txnOffsetCommitGroupError(group('CompletingRebalance'), { generationId: 3, memberId: 'm1' })).toBeNull();
  });
});

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 'in', partitions: 1 }],
  clients: [{ id: 'c0', type: 'consumer', config: { 'group.id': 'g' }, topics: ['in'] }],
};

function commitTo(groups: Record<string, ConsumerGroup>, member: { generationId: number; memberId: string }) {
  const m = drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
  m.send({ type: 'boot' }, 0);
  const ctx: GroupCoordinatorContext = { ...m.context<GroupCoordinatorContext>(), groups };
  const out = new Out();
  const payload = { correlationId: 7, groupId: 'g', ...member, offsets: [{ topic: 'in', partition: 0, offset: 4 }] };
  const next = onOffsetCommit(
    ctx,
    { type: 'OffsetCommit', from: 'c0.consumer', envelopeId: 1, inReplyTo: null, now: 50, payload } as never,
    out,
  );
  const reply = out.effects.find((e) => e.type === 'send' && e.rpc === 'OffsetCommitResponse');
  const committed = out.effects.some((e) => e.type === 'fact' && e.fact.kind === 'offsetsCommitted');
  return { groups: next.groups, committed, error: reply?.type === 'send' ? reply.payload.error : undefined };
}

describe('OffsetCommit at the coordinator', () => {
  it('with a generation to a group it does not know: GROUP_ID_NOT_FOUND, nothing written, no group created', () => {
    const r = commitTo({}, { generationId: 3, memberId: 'm1' });
    expect(r).toMatchObject({ error: 'GROUP_ID_NOT_FOUND', committed: false });
    expect(r.groups.g).toBeUndefined();
  });

  it('without a generation to a group it does not know: a simple group is created Empty and the offset committed', () => {
    const r = commitTo({}, { generationId: -1, memberId: '' });
    expect(r).toMatchObject({ error: 'NONE', committed: true });
    expect(r.groups.g?.state).toBe('Empty');
    expect(r.groups.g?.committed).toMatchObject({ 'in-0': 4 });
  });

  it('a member id left over but no generation, on an Empty group: accepted', () => {
    expect(commitTo({ g: group('Empty') }, { generationId: -1, memberId: 'old-member' })).toMatchObject({ error: 'NONE', committed: true });
  });
});

describe('what commitSync() throws', () => {
  const member = { memberId: 'c-0', generationId: 2, assignment: [tp0], positions: { 't-0': 5 } };
  const inFlight: PendingCommit = {
    correlationId: 7,
    generationId: 2,
    memberId: 'c-0',
    offsets: [{ ...tp0, offset: 5 }],
    waiter: 'c.app',
    purpose: 'sync',
    attempts: 0,
    deadline: 60000,
  };
  const failWith = (error: string) =>
    run(context({}, 1, { ...member, commitInFlight: inFlight }), (d, out) => commitFailed(d, out, inFlight, error, 10));

  it('the group moved on: CommitFailedException, and the member rejoins', () => {
    const r = failWith('UNKNOWN_MEMBER_ID');
    expect(replies(r.effects)).toEqual([{ call: 'commitSync', ok: false, error: 'CommitFailedException' }]);
    expect(r.d).toMatchObject({ memberId: '', generationId: -1, rejoinNeeded: true });
  });

  it('GROUP_ID_NOT_FOUND is not one the handler expects: KafkaException ("Unexpected error in commit"), no rejoin', () => {
    const r = failWith('GROUP_ID_NOT_FOUND');
    expect(replies(r.effects)).toEqual([{ call: 'commitSync', ok: false, error: 'KafkaException' }]);
    expect(r.d).toMatchObject({ memberId: 'c-0', generationId: 2 });
    expect(r.d.rejoinNeeded).not.toBe(true);
  });
});
