/**
 * The classic group coordinator and members it does not know (GroupMetadataManager, October 2024
 * snapshot), each failing on the model before it followed them:
 * - JoinGroup with a member id for a group it does not know: `classicGroupJoinToClassicGroup` →
 *   `getOrMaybeCreateClassicGroup(groupId, isUnknownMember=false)` throws GroupIdNotFoundException →
 *   UNKNOWN_MEMBER_ID with the request's member id, and no group is created (the model stored an Empty one);
 * - LeaveGroup answers per member (`classicGroupLeaveToClassicGroup`): a member it does not know
 *   (`validateMember`), or any member of a group it does not know (`GroupCoordinatorService.leaveGroup`'s
 *   UNKNOWN_MEMBER_ID handler), is UNKNOWN_MEMBER_ID in its entry, the request NONE (the model: NONE only);
 * - a member that leaves while its SyncGroup waits (CompletingRebalance): `removeCurrentMemberFromClassicGroup`
 *   completes only a waiting JoinGroup (`completeJoinFuture`) and `ClassicGroup.remove` drops the member, so
 *   that SyncGroup is not answered; the rebalance answers the members still in the group (the model answered
 *   the leaving member's SyncGroup UNKNOWN_MEMBER_ID).
 */
import { describe, expect, it } from 'vitest';
import { type GroupCoordinatorContext, groupCoordinatorMachine } from '../../src/sim/coordinator/groupCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { narrate } from '../../src/sim/narration/narrate';
import { runScenario, type Trace } from '../../src/sim/run';
import { drive, inputOf, joinNewMember } from '../machines/harness';

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 2 }],
  clients: [
    { id: 'a', type: 'consumer', config: { 'group.id': 'g' }, topics: ['t'] },
    { id: 'b', type: 'consumer', config: { 'group.id': 'g' }, topics: ['t'] },
  ],
};

let envelope = 1;
const rpc = (type: string, from: string, payload: Record<string, unknown>) => ({
  type,
  from,
  envelopeId: envelope++,
  inReplyTo: null,
  payload: { correlationId: 0, groupId: 'g', ...payload },
});
const joinGroup = (from: string, memberId: string) =>
  rpc('JoinGroup', from, { memberId, sessionTimeoutMs: 45000, rebalanceTimeoutMs: 30000, topics: ['t'] });
const answers = (fx: readonly Effect[], name: string): Record<string, unknown>[] =>
  fx.flatMap((e) => (e.type === 'send' && e.rpc === name ? [{ to: e.to, ...(e.payload as Record<string, unknown>) }] : []));
const coordinator = () => drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
const groups = (m: ReturnType<typeof coordinator>) => m.context<GroupCoordinatorContext>().groups;

/** a and b joined and the join phase completed: the group CompletingRebalance, both member ids. */
function completing() {
  const m = coordinator();
  const fx = [...joinNewMember(m, joinGroup('a.consumer', ''), 0), ...joinNewMember(m, joinGroup('b.consumer', ''), 100)];
  let now = 100;
  let timers = fx.filter((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer' && e.name === 'joinPhaseCheck');
  let joined: ReturnType<typeof answers> = [];
  while (joined.length === 0 && timers.length > 0) {
    const t = timers[timers.length - 1] as Extract<Effect, { type: 'timer' }>;
    now += t.delay;
    const out = m.send({ type: 'joinPhaseCheck', key: t.key, data: t.data }, now);
    joined = answers(out, 'JoinGroupResponse');
    timers = out.filter((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer' && e.name === 'joinPhaseCheck');
  }
  expect(groups(m).g?.state).toBe('CompletingRebalance');
  const idOf = (to: string) => joined.find((j) => j.to === to)?.memberId as string;
  return { m, a: idOf('a.consumer'), b: idOf('b.consumer'), now };
}

describe('JoinGroup with a member id for a group the coordinator does not know', () => {
  it('UNKNOWN_MEMBER_ID with that member id; no group is created', () => {
    const m = coordinator();
    const fx = m.send(joinGroup('a.consumer', 'a-member-7'), 10);
    expect(answers(fx, 'JoinGroupResponse')).toEqual([
      { to: 'a.consumer', correlationId: 0, error: 'UNKNOWN_MEMBER_ID', generationId: -1, memberId: 'a-member-7', leader: '' },
    ]);
    expect(groups(m).g).toBeUndefined();
    expect(fx.filter((e) => e.type === 'timer')).toEqual([]);
  });

  it('without a member id the group is created and the member joins', () => {
    const m = coordinator();
    joinNewMember(m, joinGroup('a.consumer', ''), 10);
    expect(Object.keys(groups(m).g?.members ?? {})).toHaveLength(1);
  });
});

describe('LeaveGroup answers per member', () => {
  it('a member the group does not know: UNKNOWN_MEMBER_ID in its entry, the request NONE, the group untouched', () => {
    const { m, a } = completing();
    const before = groups(m).g;
    const fx = m.send(rpc('LeaveGroup', 'x.consumer', { memberId: 'x-gone' }), 4000);
    expect(answers(fx, 'LeaveGroupResponse')).toEqual([
      { to: 'x.consumer', correlationId: 0, error: 'NONE', members: [{ memberId: 'x-gone', error: 'UNKNOWN_MEMBER_ID' }] },
    ]);
    expect(groups(m).g).toBe(before);
    expect(groups(m).g?.members[a]).toBeDefined();
  });

  it('a group the coordinator does not know: the same', () => {
    const m = coordinator();
    const fx = m.send(rpc('LeaveGroup', 'x.consumer', { memberId: 'x-1' }), 10);
    expect(answers(fx, 'LeaveGroupResponse')).toMatchObject([
      { error: 'NONE', members: [{ memberId: 'x-1', error: 'UNKNOWN_MEMBER_ID' }] },
    ]);
    expect(groups(m).g).toBeUndefined();
  });

  it('a member waiting in SyncGroup leaves: its SyncGroup is not answered; the member is gone and the group rebalances', () => {
    const { m, a, b, now } = completing();
    const generationId = groups(m).g?.generationId;
    // b (a follower) waits for the leader's SyncGroup
    expect(
      answers(m.send(rpc('SyncGroup', 'b.consumer', { memberId: b, generationId, assignments: [] }), now + 10), 'SyncGroupResponse'),
    ).toEqual([]);
    const fx = m.send(rpc('LeaveGroup', 'b.consumer', { memberId: b }), now + 20);
    expect(answers(fx, 'LeaveGroupResponse')).toMatchObject([{ error: 'NONE', members: [{ memberId: b, error: 'NONE' }] }]);
    expect(answers(fx, 'SyncGroupResponse')).toEqual([]);
    expect(groups(m).g?.members[b]).toBeUndefined();
    expect(groups(m).g?.members[a]).toBeDefined();
    expect(groups(m).g?.state).toBe('PreparingRebalance');
  });
});

describe('the LeaveGroup answer as the timeline tells it', () => {
  // a consumer that leaves on max.poll.interval.ms (tests/consumer/pollTimeout.test.ts's scenario); its answer's entry made UNKNOWN_MEMBER_ID
  const t = runScenario({
    version: 1,
    seed: 1,
    run: { maxTimeMs: 20000 },
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      { id: 'p', type: 'producer', script: [{ op: 'send', topic: 'orders', key: 'k', value: 'v' }, { op: 'flush' }] },
      {
        id: 'billing',
        type: 'consumer',
        config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false, 'max.poll.interval.ms': 1000 },
        topics: ['orders'],
        processing: { mode: 'at-least-once', processingMs: 2000 },
      },
    ],
  });
  const step = t.steps.find((s) => s.label === 'LeaveGroupResponse');
  const withEntry = (error: string): Trace => {
    const at = (i: number) => {
      const e = t.envelopes.at(i);
      if (!e || i !== step?.envelope) return e;
      const p = e.payload as { members: { memberId: string }[] };
      return { ...e, payload: { ...p, members: [{ memberId: p.members[0]?.memberId, error }] } };
    };
    return { ...t, envelopes: Object.assign(Object.create(t.envelopes), { at }) };
  };

  it('NONE: the consumer has left; UNKNOWN_MEMBER_ID in its entry: the coordinator did not know it', () => {
    expect(narrate(t, step?.i as number, 'en')).toContain('has left its group');
    const unknown = withEntry('UNKNOWN_MEMBER_ID');
    expect(narrate(unknown, step?.i as number, 'en')).toContain('UNKNOWN_MEMBER_ID in its entry of the LeaveGroup answer');
    expect(narrate(unknown, step?.i as number, 'ko')).toContain('LeaveGroup 응답의 해당 항목이 UNKNOWN_MEMBER_ID');
  });
});
