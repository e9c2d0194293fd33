/**
 * A member that leaves a group which is preparing a rebalance: a LeaveGroup goes through
 * maybeCompleteJoinPhase (GroupMetadataManager.classicGroupLeaveToClassicGroup, case
 * PREPARING_REBALANCE), which does nothing during an initial rebalance (`previousState() == EMPTY`:
 * "this is an initial rebalance"), so the join waits out group.initial.rebalance.delay.ms; a member
 * removed because its session expired completes the join at once when everyone left has joined
 * (removeMemberAndUpdateClassicGroup). On the old code a LeaveGroup completed the initial join at once.
 */
import { describe, expect, it } from 'vitest';
import { Out, type PendingRequest } from '../../src/sim/actors/out';
import { DEFAULT_GROUP_COORDINATOR_CONFIG, emptyGroup, type GroupEnv, join, removeMember } from '../../src/sim/coordinator/classicGroup';
import { oneBrokerMetadata } from '../fixtures/oneBrokerMetadata';

const meta = oneBrokerMetadata;
const env: GroupEnv = { id: 'group-coordinator', meta, config: DEFAULT_GROUP_COORDINATOR_CONFIG };
let envelope = 0;
const request = (from: string): PendingRequest => ({ from, envelopeId: envelope++, correlationId: 0 });
const joinRequest = { memberId: '', sessionTimeoutMs: 45000, rebalanceTimeoutMs: 300000, topics: ['orders'] };

/** a joins an Empty group at 0 (the initial rebalance, its 3000 ms delay), b at 500. */
function twoJoined() {
  let g = join(env, emptyGroup('g'), joinRequest, request('a.consumer'), 'a.consumer', 0, new Out());
  g = join(env, g, joinRequest, request('b.consumer'), 'b.consumer', 500, new Out());
  const b = Object.keys(g.members).find((id) => id.startsWith('b')) as string;
  return { g, b };
}
const answered = (out: Out) =>
  out.effects.flatMap((e) => (e.type === 'send' && e.rpc === 'JoinGroupResponse' ? [(e.payload as { error: string }).error] : []));

describe('a member removed while the initial rebalance waits out its delay', () => {
  it('a LeaveGroup leaves the join waiting for group.initial.rebalance.delay.ms', () => {
    const { g, b } = twoJoined();
    expect(g.state).toBe('PreparingRebalance');
    const out = new Out();
    const after = removeMember(env, g, b, `${b} left the group`, 1000, out, true);
    expect(after.state).toBe('PreparingRebalance');
    expect(after.generationId).toBe(g.generationId);
    // only the leaving member's own JoinGroup is answered (UNKNOWN_MEMBER_ID); a's still waits
    expect(answered(out)).toEqual(['UNKNOWN_MEMBER_ID']);
    expect(out.effects.some((e) => e.type === 'cancel' && e.key === 'join:g')).toBe(false);
  });

  it('an expired session completes the join at once', () => {
    const { g, b } = twoJoined();
    const out = new Out();
    const after = removeMember(env, g, b, `member ${b} sent no heartbeat`, 1000, out);
    expect(after.state).toBe('CompletingRebalance');
    expect(after.generationId).toBe(g.generationId + 1);
    expect(answered(out)).toEqual(['UNKNOWN_MEMBER_ID', 'NONE']);
  });
});
