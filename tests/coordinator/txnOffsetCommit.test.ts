/**
 * The group checks of a TxnOffsetCommit (OffsetMetadataManager.validateTransactionalOffsetCommit,
 * ClassicGroup.validateOffsetCommit with isTransactional, 4.0 line), on txnOffsetCommitGroupError.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerGroup, emptyGroup, type GroupMember } from '../../src/sim/coordinator/classicGroup';
import { txnOffsetCommitGroupError } from '../../src/sim/coordinator/groupCoordinator.machine';

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
