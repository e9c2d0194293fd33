/**
 * MEMBER_ID_REQUIRED (KIP-394): a new dynamic member's first JoinGroup (v4+, no member id) is answered
 * MEMBER_ID_REQUIRED with a member id the group holds as a pending member, and the client joins again
 * at once with it. GroupMetadataManager.classicGroupJoinNewDynamicMember, classicGroupJoinExistingMember
 * ("A rejoining pending member will be accepted"), expireClassicGroupMemberHeartbeat →
 * removePendingMemberAndUpdateClassicGroup, classicGroupLeaveToClassicGroup; ClassicGroup.addPendingMember,
 * hasAllMembersJoined, add, remove; AbstractCoordinator.JoinGroupResponseHandler and joinGroupIfNeeded
 * on the client's side.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import {
  type ConsumerGroup,
  DEFAULT_GROUP_COORDINATOR_CONFIG,
  emptyGroup,
  join,
  loadGroup,
  onJoinTimer,
  onSessionTimer,
  sync,
} from '../../src/sim/coordinator/classicGroup';
import { type GroupCoordinatorContext, groupCoordinatorMachine } from '../../src/sim/coordinator/groupCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { clientMetricsAt } from '../../src/sim/metrics/clientMetrics';
import { runScenario, stateAt } from '../../src/sim/run';
import { answer, bootAndPoll, sent } from '../machines/consumerDriver';
import { drive, inputOf } from '../machines/harness';
import { groupEnv, request } from './groupRequests';

const env = groupEnv;

/** A JoinGroup of the Java consumer (v9: requiresKnownMemberId). */
const joinReq = (memberId: string, groupInstanceId?: string) => ({
  memberId,
  ...(groupInstanceId ? { groupInstanceId } : {}),
  sessionTimeoutMs: 10000,
  rebalanceTimeoutMs: 30000,
  topics: ['orders'],
  requiresKnownMemberId: true,
});

type Send = Extract<Effect, { type: 'send' }>;
type TimerFx = Extract<Effect, { type: 'timer' }>;
const replies = (out: Out, rpc: string) => out.effects.filter((e): e is Send => e.type === 'send' && e.rpc === rpc).map((e) => e.payload);
const notes = (o: Out) => o.effects.flatMap((e) => (e.type === 'fact' ? [(e.fact as { text?: string }).text ?? ''] : []));
const timer = (out: Out, key: string) => out.effects.find((e): e is TimerFx => e.type === 'timer' && e.key === key);

/** a-0 alone in a Stable group of generation 1, joined through MEMBER_ID_REQUIRED. */
function stableWithA(): ConsumerGroup {
  const o = new Out();
  let g = join(env, emptyGroup('g'), joinReq(''), request('a.consumer'), 'a.consumer', 0, o);
  g = join(env, g, joinReq('a-0'), request('a.consumer'), 'a.consumer', 2, o);
  g = onJoinTimer(env, g, { initial: true, delay: 0, remaining: 0 }, 2, o);
  g = sync(env, g, 'a-0', 1, request('a.consumer'), 3, o);
  expect(g.state).toBe('Stable');
  return g;
}

describe('the coordinator: a new dynamic member (classicGroupJoinNewDynamicMember)', () => {
  it('is answered MEMBER_ID_REQUIRED with a member id, held pending with its session timeout; nothing else changes', () => {
    const out = new Out();
    const g = join(env, emptyGroup('g'), joinReq(''), request('a.consumer', 5), 'a.consumer', 100, out);
    expect(replies(out, 'JoinGroupResponse')).toEqual([
      { correlationId: 5, error: 'MEMBER_ID_REQUIRED', generationId: -1, memberId: 'a-0', leader: '' },
    ]);
    expect(g.pendingMembers).toEqual(['a-0']);
    expect(g.members).toEqual({});
    expect(g.state).toBe('Empty');
    // the heartbeat key, with the request's session timeout (not the new-member join timeout)
    expect(timer(out, 'session:g:a-0')).toMatchObject({ name: 'sessionExpired', delay: 10000 });
    expect(out.effects.filter((e) => e.type === 'timer')).toHaveLength(1);
  });

  it('joins when it sends JoinGroup again with that id: a new member, no longer pending, its expiry the new-member join timeout', () => {
    const first = new Out();
    let g = join(env, emptyGroup('g'), joinReq(''), request('a.consumer'), 'a.consumer', 100, first);
    const out = new Out();
    g = join(env, g, joinReq('a-0'), request('a.consumer', 6), 'a.consumer', 102, out);
    expect(g.pendingMembers).toBeUndefined();
    expect(g.members['a-0']).toMatchObject({ isNew: true, joinRequest: { correlationId: 6 } });
    expect(g.state).toBe('PreparingRebalance');
    expect(timer(out, 'session:g:a-0')).toMatchObject({ delay: DEFAULT_GROUP_COORDINATOR_CONFIG.newMemberJoinTimeoutMs });
    // the join phase completes with it (the initial delay is 0 here)
    const done = new Out();
    g = onJoinTimer(env, g, { initial: true, delay: 0, remaining: 0 }, 102, done);
    expect(replies(done, 'JoinGroupResponse')).toEqual([
      { correlationId: 6, error: 'NONE', generationId: 1, memberId: 'a-0', leader: 'a-0' },
    ]);
  });

  it('a static member skips it: added at once (classicGroupJoinNewStaticMember)', () => {
    const out = new Out();
    const g = join(env, emptyGroup('g'), joinReq('', 'i1'), request('a.consumer', 7), 'a.consumer', 100, out);
    expect(replies(out, 'JoinGroupResponse')).toEqual([]);
    expect(g.pendingMembers).toBeUndefined();
    expect(Object.keys(g.members)).toEqual(['i1-0']);
    expect(g.state).toBe('PreparingRebalance');
  });

  it('an older client (JoinGroup v3 and before) is added at once', () => {
    const out = new Out();
    const g = join(env, emptyGroup('g'), { ...joinReq(''), requiresKnownMemberId: false }, request('a.consumer'), 'a.consumer', 0, out);
    expect(replies(out, 'JoinGroupResponse')).toEqual([]);
    expect(Object.keys(g.members)).toEqual(['a-0']);
  });
});

describe('the coordinator: a pending member that does not join', () => {
  it('expires after its session timeout (removePendingMemberAndUpdateClassicGroup): a later JoinGroup with the id is UNKNOWN_MEMBER_ID', () => {
    let g = join(env, emptyGroup('g'), joinReq(''), request('a.consumer'), 'a.consumer', 100, new Out());
    expect(g.pendingMembers).toEqual(['a-0']);
    const expiry = new Out();
    g = onSessionTimer(env, g, 'a-0', 10100, expiry);
    expect(g.pendingMembers).toBeUndefined();
    // no JoinGroup waits to be answered: only a note says it
    expect(replies(expiry, 'JoinGroupResponse')).toEqual([]);
    expect(notes(expiry)).toEqual([expect.stringContaining('pending member a-0 did not join')]);
    expect(g.state).toBe('Empty');
    const late = new Out();
    join(env, g, joinReq('a-0'), request('a.consumer', 8), 'a.consumer', 10200, late);
    expect(replies(late, 'JoinGroupResponse')).toEqual([
      { correlationId: 8, error: 'UNKNOWN_MEMBER_ID', generationId: -1, memberId: 'a-0', leader: '' },
    ]);
  });

  it('holds the join phase back while pending (hasAllMembersJoined), and its expiry completes it', () => {
    // a-0 is Stable; b's first JoinGroup leaves b-1 pending; a-0 rejoins (a rebalance of its own)
    let g = stableWithA();
    g = join(env, g, joinReq(''), request('b.consumer'), 'b.consumer', 10, new Out());
    const rejoin = new Out();
    g = join(env, g, { ...joinReq('a-0'), topics: ['orders', 'payments'] }, request('a.consumer', 9), 'a.consumer', 11, rejoin);
    expect(g.state).toBe('PreparingRebalance');
    // every member has joined, but b-1 is pending: no answer yet
    expect(replies(rejoin, 'JoinGroupResponse')).toEqual([]);
    const expiry = new Out();
    g = onSessionTimer(env, g, 'b-1', 10010, expiry);
    expect(g.state).toBe('CompletingRebalance');
    expect(replies(expiry, 'JoinGroupResponse')).toEqual([
      { correlationId: 9, error: 'NONE', generationId: 2, memberId: 'a-0', leader: 'a-0' },
    ]);
  });

  it('is gone after a coordinator failover (the GroupMetadata record does not hold it)', () => {
    const g = join(env, stableWithA(), joinReq(''), request('b.consumer'), 'b.consumer', 10, new Out());
    expect(g.pendingMembers).toEqual(['b-1']);
    expect(loadGroup(g).pendingMembers).toBeUndefined();
  });
});

describe('the coordinator machine', () => {
  const scenario = {
    version: 1,
    seed: 1,
    topics: [{ name: 't', partitions: 1 }],
    clients: [
      { id: 'p', type: 'producer', script: [{ op: 'send', topic: 't', key: 'k', value: 'v' }] },
      { id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['t'] },
    ],
  };
  let env2 = 1;
  const rpc = (type: string, payload: Record<string, unknown>) => ({
    type,
    from: 'c.consumer',
    envelopeId: env2++,
    inReplyTo: null,
    payload,
  });
  const joinGroup = (memberId: string) =>
    rpc('JoinGroup', { correlationId: 0, groupId: 'g', memberId, sessionTimeoutMs: 45000, rebalanceTimeoutMs: 300000, topics: ['t'] });
  const joinAnswer = (fx: readonly Effect[]) =>
    fx.flatMap((e) => (e.type === 'send' && e.rpc === 'JoinGroupResponse' ? [e.payload as Record<string, unknown>] : []))[0];

  it('answers the consumer’s first JoinGroup MEMBER_ID_REQUIRED, and adds it on the second', () => {
    const m = drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
    const first = m.send(joinGroup(''), 10);
    expect(joinAnswer(first)).toMatchObject({ error: 'MEMBER_ID_REQUIRED', memberId: 'c-0' });
    expect(m.context<GroupCoordinatorContext>().groups.g?.pendingMembers).toEqual(['c-0']);
    const second = m.send(joinGroup('c-0'), 12);
    expect(joinAnswer(second)).toBeUndefined();
    expect(Object.keys(m.context<GroupCoordinatorContext>().groups.g?.members ?? {})).toEqual(['c-0']);
  });

  it('expires a pending member at its session timer; a LeaveGroup of a pending member is answered NONE and forgets it', () => {
    const m = drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
    m.send(joinGroup(''), 10);
    m.send({ type: 'sessionExpired', key: 'session:g:c-0', data: { groupId: 'g', memberId: 'c-0' } }, 45010);
    expect(m.context<GroupCoordinatorContext>().groups.g?.pendingMembers).toBeUndefined();
    m.send(joinGroup(''), 50000);
    expect(m.context<GroupCoordinatorContext>().groups.g?.pendingMembers).toEqual(['c-1']);
    const left = m.send(rpc('LeaveGroup', { correlationId: 1, groupId: 'g', memberId: 'c-1' }), 50001);
    const answerOf = left.find((e): e is Send => e.type === 'send' && e.rpc === 'LeaveGroupResponse');
    expect(answerOf?.payload).toMatchObject({ error: 'NONE', members: [{ memberId: 'c-1', error: 'NONE' }] });
    expect(left.some((e) => e.type === 'cancel' && e.key === 'session:g:c-1')).toBe(true);
    expect(m.context<GroupCoordinatorContext>().groups.g?.pendingMembers).toBeUndefined();
  });
});

describe('the consumer (AbstractCoordinator.JoinGroupResponseHandler, joinGroupIfNeeded)', () => {
  const scenario = {
    version: 1,
    seed: 1,
    topics: [{ name: 't', partitions: 1 }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['t'] }],
  };

  it('takes the member id from MEMBER_ID_REQUIRED and sends JoinGroup again at once with it, no backoff, no error fact', () => {
    const { m, polled } = bootAndPoll(inputOf(scenario, 'c.consumer'));
    const first = sent(polled, 'JoinGroup');
    expect(first?.payload.memberId).toBe('');
    const fx = m.send(
      answer('JoinGroupResponse', first?.payload.correlationId as number, {
        error: 'MEMBER_ID_REQUIRED',
        generationId: -1,
        memberId: 'c-0',
        leader: '',
      }),
      2,
    );
    const again = sent(fx, 'JoinGroup');
    expect(again?.payload).toMatchObject({ groupId: 'g', memberId: 'c-0' });
    expect(fx.some((e) => e.type === 'timer' && e.name === 'rejoinBackoff')).toBe(false);
    expect(fx.some((e) => e.type === 'fact')).toBe(false);
    expect(m.context<{ memberId: string; generationId: number }>()).toMatchObject({ memberId: 'c-0', generationId: -1 });
    expect(m.context<{ consumerCounts: { failedRebalances: number } }>().consumerCounts.failedRebalances).toBe(1);
    expect(m.state()).toContain('PREPARING_REBALANCE');
  });

  it('in a run: two JoinGroups per new member, one failed rebalance counted (failed-rebalance-total 1, rebalance-total 1)', () => {
    const trace = runScenario({
      ...scenario,
      clients: [{ id: 'p', type: 'producer', script: [{ op: 'send', topic: 't', key: 'k', value: 'v' }] }, ...scenario.clients],
    } as never);
    const joins = trace.envelopes.filter((e) => e.rpc === 'JoinGroup');
    expect(joins.map((e) => (e.payload as { memberId: string }).memberId)).toEqual(['', 'c-0']);
    const answers = trace.envelopes.filter((e) => e.rpc === 'JoinGroupResponse').map((e) => (e.payload as { error: string }).error);
    expect(answers).toEqual(['MEMBER_ID_REQUIRED', 'NONE']);
    const metrics = clientMetricsAt(trace, stateAt(trace, trace.steps.length), 'c');
    const byName = Object.fromEntries((metrics?.metrics ?? []).map((x) => [x.name, x.value]));
    expect(byName).toMatchObject({ 'failed-rebalance-total': 1, 'rebalance-total': 1, 'join-total': 1 });
  });
});
