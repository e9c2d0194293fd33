/**
 * An OffsetCommit keeps the committing member's session (OffsetMetadataManager.commitOffset, after
 * validateOffsetCommit: "In the old consumer group protocol, the offset commits maintain the session
 * if the group is in Stable or PreparingRebalance state" → rescheduleClassicGroupMemberHeartbeat).
 * Before, only heartbeats did: a member whose commits got through while its heartbeats did not was
 * removed at its old deadline.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { type ConsumerGroup, emptyGroup, type GroupMember } from '../../src/sim/coordinator/classicGroup';
import { type GroupCoordinatorContext, groupCoordinatorMachine, onOffsetCommit } from '../../src/sim/coordinator/groupCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf } from '../machines/harness';

const SESSION_MS = 10000;
/** Group g in `state`, generation 3, with member m1 whose session expires at 10,001. */
const group = (state: ConsumerGroup['state']): ConsumerGroup => ({
  ...emptyGroup('g'),
  state,
  generationId: state === 'Empty' ? 0 : 3,
  members:
    state === 'Empty'
      ? {}
      : {
          m1: {
            memberId: 'm1',
            sessionTimeoutMs: SESSION_MS,
            sessionDeadline: 1 + SESSION_MS,
            joinRequest: null,
            syncRequest: null,
          } as unknown as GroupMember,
        },
});

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 'in', partitions: 1 }],
  clients: [{ id: 'c0', type: 'consumer', config: { 'group.id': 'g' }, topics: ['in'] }],
};

function commitAt(g: ConsumerGroup, now: number, member = { generationId: 3, memberId: 'm1' }) {
  const m = drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
  m.send({ type: 'boot' }, 0);
  const ctx: GroupCoordinatorContext = { ...m.context<GroupCoordinatorContext>(), groups: { g } };
  const out = new Out();
  const payload = { correlationId: 7, groupId: 'g', ...member, offsets: [{ topic: 'in', partition: 0, offset: 4 }] };
  const next = onOffsetCommit(
    ctx,
    { type: 'OffsetCommit', from: 'c0.consumer', envelopeId: 1, inReplyTo: null, now, payload } as never,
    out,
  );
  const sessionTimers = out.effects.filter((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer' && e.key === 'session:g:m1');
  const reply = out.effects.find((e) => e.type === 'send' && e.rpc === 'OffsetCommitResponse');
  return { member: next.groups.g?.members.m1, sessionTimers, error: reply?.type === 'send' ? reply.payload.error : undefined };
}

describe('an OffsetCommit keeps the member’s session', () => {
  for (const state of ['Stable', 'PreparingRebalance'] as const)
    it(`${state}: the heartbeat expiry moves to the commit + session.timeout.ms`, () => {
      const r = commitAt(group(state), 9000);
      expect(r.error).toBe('NONE');
      expect(r.sessionTimers.map((t) => t.delay)).toEqual([SESSION_MS]);
      expect(r.member?.sessionDeadline).toBe(9000 + SESSION_MS);
    });

  it('CompletingRebalance: refused REBALANCE_IN_PROGRESS, the session not kept', () => {
    const r = commitAt(group('CompletingRebalance'), 9000);
    expect(r.error).toBe('REBALANCE_IN_PROGRESS');
    expect(r.sessionTimers).toEqual([]);
    expect(r.member?.sessionDeadline).toBe(1 + SESSION_MS);
  });

  it('a commit that fails validation (a stale generation) keeps nothing', () => {
    const r = commitAt(group('Stable'), 9000, { generationId: 2, memberId: 'm1' });
    expect(r.error).toBe('ILLEGAL_GENERATION');
    expect(r.sessionTimers).toEqual([]);
  });

  it('a simple commit (no generation) to an Empty group has no session to keep', () => {
    const r = commitAt(group('Empty'), 9000, { generationId: -1, memberId: '' });
    expect(r.error).toBe('NONE');
    expect(r.sessionTimers).toEqual([]);
  });
});
