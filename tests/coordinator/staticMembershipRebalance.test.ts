/**
 * Static members (KIP-345) through a rebalance, rule by rule against Kafka 4.x's group coordinator
 * (GroupMetadataManager.completeClassicGroupJoin, updateStaticMemberThenRebalanceOrCompleteJoin,
 * maybeCompleteJoinPhase, classicGroupHeartbeatToClassicGroup; ClassicGroup.replaceStaticMember,
 * maybeElectNewJoinedLeader):
 * - the join phase that completes removes only the *dynamic* members that did not rejoin: a static
 *   one stays (its heartbeat rescheduled, pending its SyncGroup, in the assignment), and with nobody
 *   rejoined but static members left the phase waits another rebalance timeout;
 * - a known instance id that joins a group preparing a rebalance replaces its member (the old
 *   member's waiting JoinGroup is answered FENCED_INSTANCE_ID) and the phase completes once everyone
 *   has joined — not during an initial rebalance;
 * - the new member id's first expiry uses the old member's session timeout;
 * - a static member's heartbeat during a rebalance is a dynamic one's: REBALANCE_IN_PROGRESS, session kept.
 * The old code removed every member that had not rejoined when the join phase completed.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import {
  type ConsumerGroup,
  DEFAULT_GROUP_COORDINATOR_CONFIG,
  emptyGroup,
  type GroupEnv,
  heartbeat,
  join,
  onJoinTimer,
  onSessionTimer,
  onSyncTimer,
  staticMemberId,
  sync,
} from '../../src/sim/coordinator/classicGroup';
import { translateNote } from '../../src/sim/narration/notes';
import { oneBrokerMetadata } from '../fixtures/oneBrokerMetadata';
import { facts, joinOf, request, sends } from './groupRequests';

const meta = {
  ...oneBrokerMetadata,
  topics: { orders: { name: 'orders', partitions: 3, leaders: ['broker-0', 'broker-0', 'broker-0'] } },
};
const env: GroupEnv = { id: 'group-coordinator', meta, config: DEFAULT_GROUP_COORDINATOR_CONFIG };
const timers = (out: Out) => out.effects.flatMap((e) => (e.type === 'timer' ? [e] : []));

/**
 * A Stable group of generation 1: static a (instance a-1, member a-1-0, the leader) and dynamic d
 * (member d-1), both synced.
 */
function stableMixedGroup(): ConsumerGroup {
  let g = join(env, emptyGroup('g'), joinOf('a-1'), request('a.consumer'), 'a.consumer', 0, new Out());
  g = join(env, g, joinOf(), request('d.consumer'), 'd.consumer', 100, new Out());
  g = onJoinTimer(env, g, { initial: false }, 3000, new Out());
  g = sync(env, g, 'd-1', 1, request('d.consumer'), 3010, new Out());
  g = sync(env, g, 'a-1-0', 1, request('a.consumer'), 3020, new Out(), 'a-1');
  expect(g.state).toBe('Stable');
  expect(Object.keys(g.members)).toEqual(['a-1-0', 'd-1']);
  return g;
}

describe('completeClassicGroupJoin removes only the dynamic members that did not rejoin', () => {
  // a new dynamic member e joins (a rebalance); d rejoins; the static a (its process down) does not
  const g0 = stableMixedGroup();
  let g = join(env, g0, joinOf(), request('e.consumer'), 'e.consumer', 10000, new Out());
  g = join(env, g, joinOf(undefined, 'd-1'), request('d.consumer'), 'd.consumer', 10010, new Out());
  expect(g.state).toBe('PreparingRebalance');
  const out = new Out();
  const done = onJoinTimer(env, g, { initial: false }, 310000, out);

  it('the static member that did not rejoin stays in the next generation; the leadership goes to a member that rejoined', () => {
    expect(done.state).toBe('CompletingRebalance');
    expect(done.generationId).toBe(2);
    expect(Object.keys(done.members).sort()).toEqual(['a-1-0', 'd-1', 'e-2']);
    expect(staticMemberId(done, 'a-1')).toBe('a-1-0');
    // maybeElectNewJoinedLeader: a (the leader) is not awaiting a join, d is
    expect(done.leader).toBe('d-1');
    expect(facts(out)).toContainEqual(expect.objectContaining({ kind: 'rebalance', generationId: 2, members: ['a-1-0', 'd-1', 'e-2'] }));
    // only the members that rejoined are answered
    expect(
      sends(out)
        .map((s) => s.to)
        .sort(),
    ).toEqual(['d.consumer', 'e.consumer']);
  });

  it("its heartbeat expiry is rescheduled from now, it is pending its SyncGroup, and the leader's assignment includes it", () => {
    expect(timers(out)).toContainEqual(expect.objectContaining({ key: 'session:g:a-1-0', delay: 45000 }));
    expect(done.members['a-1-0']).toMatchObject({ pendingSync: true, isNew: false, sessionDeadline: 310000 + 45000 });
    const synced = sync(env, done, 'd-1', 2, request('d.consumer'), 310010, new Out());
    expect(synced.state).toBe('Stable');
    expect(synced.members['a-1-0']?.assignment).toHaveLength(1);
    expect(synced.stored.members.map((m) => m.memberId)).toContain('a-1-0');
  });

  it('if it never sends its SyncGroup it is removed at the pending-sync expiry (expirePendingSync), and the group rebalances', () => {
    let synced = sync(env, done, 'd-1', 2, request('d.consumer'), 310010, new Out());
    synced = sync(env, synced, 'e-2', 2, request('e.consumer'), 310020, new Out());
    const expiry = new Out();
    const after = onSyncTimer(env, synced, 2, 610000, expiry);
    expect(after.state).toBe('PreparingRebalance');
    expect(staticMemberId(after, 'a-1')).toBeNull();
  });

  it('the restarted instance that joins meanwhile replaces it without losing its place', () => {
    const rejoin = new Out();
    const next = join(env, done, joinOf('a-1'), request('a.new'), 'a.consumer', 320000, rejoin);
    expect(facts(rejoin)).toContainEqual(expect.objectContaining({ kind: 'staticMemberReplaced', oldMemberId: 'a-1-0' }));
    // CompletingRebalance: a rebalance (the leader may already hold the old member id)
    expect(next.state).toBe('PreparingRebalance');
  });
});

describe('no member rejoined, static members left (maybeElectNewJoinedLeader is false)', () => {
  // static a and b; a dynamic d whose session expires starts a rebalance nobody rejoins
  let g = join(env, emptyGroup('g'), joinOf('a-1'), request('a.consumer'), 'a.consumer', 0, new Out());
  g = join(env, g, joinOf('b-1'), request('b.consumer'), 'b.consumer', 10, new Out());
  g = join(env, g, joinOf(), request('d.consumer'), 'd.consumer', 20, new Out());
  g = onJoinTimer(env, g, { initial: false }, 3000, new Out());
  for (const [m, i] of [
    ['a-1-0', 'a-1'],
    ['b-1-1', 'b-1'],
    ['d-2', undefined],
  ] as const)
    g = sync(env, g, m, 1, request(m), 3010, new Out(), i);
  const preparing = onSessionTimer(env, g, 'd-2', 48100, new Out());
  expect(preparing.state).toBe('PreparingRebalance');
  const out = new Out();
  const waiting = onJoinTimer(env, preparing, { initial: false }, 348100, out);

  it('the join phase does not complete: same generation, the static members kept, another rebalance timeout armed', () => {
    expect(waiting.state).toBe('PreparingRebalance');
    expect(waiting.generationId).toBe(1);
    expect(Object.keys(waiting.members).sort()).toEqual(['a-1-0', 'b-1-1']);
    expect(timers(out)).toContainEqual(expect.objectContaining({ key: 'join:g', delay: 300000 }));
    expect(facts(out).some((f) => f.kind === 'rebalance')).toBe(false);
    expect(facts(out)).toContainEqual({
      kind: 'note',
      actor: 'group-coordinator',
      text: 'group g could not complete its rebalance because no member rejoined; static member(s) a-1-0, b-1-1 stay until they rejoin or their session expires',
    });
  });

  it('a restarted instance replaces its member, and the phase completes once the other is gone', () => {
    const replaced = join(env, waiting, joinOf('a-1'), request('a.new'), 'a.consumer', 350000, new Out());
    expect(replaced.state).toBe('PreparingRebalance');
    const out2 = new Out();
    const done = onSessionTimer(env, replaced, 'b-1-1', 393100, out2);
    expect(done.state).toBe('CompletingRebalance');
    expect(done.generationId).toBe(2);
    expect(Object.keys(done.members)).toEqual(['a-1-3']);
    expect(sends(out2)).toContainEqual(
      expect.objectContaining({ to: 'a.new', payload: expect.objectContaining({ error: 'NONE', generationId: 2 }) }),
    );
  });
});

describe('a known instance id joins a group preparing a rebalance', () => {
  it('answers the waiting old JoinGroup FENCED_INSTANCE_ID and completes the phase with the new member id', () => {
    const g0 = stableMixedGroup();
    // a (the old process) rejoins first; d has not rejoined yet
    let g = join(env, g0, joinOf('a-1', 'a-1-0'), request('a.old'), 'a.consumer', 10000, new Out());
    expect(g.state).toBe('PreparingRebalance');
    const out = new Out();
    g = join(env, g, joinOf('a-1'), request('a.new'), 'a.consumer', 10010, out);
    expect(sends(out)).toEqual([
      { rpc: 'JoinGroupResponse', to: 'a.old', payload: expect.objectContaining({ error: 'FENCED_INSTANCE_ID', memberId: 'a-1-0' }) },
    ]);
    expect(g.state).toBe('PreparingRebalance');
    expect(g.members['a-1-2']?.joinRequest).not.toBeNull();
    expect(g.leader).toBe('a-1-2');
    const done = new Out();
    g = join(env, g, joinOf(undefined, 'd-1'), request('d.consumer'), 'd.consumer', 10020, done);
    expect(g.state).toBe('CompletingRebalance');
    expect(g.generationId).toBe(2);
    expect(
      sends(done)
        .map((s) => [s.to, s.payload.memberId, s.payload.leader])
        .sort(),
    ).toEqual([
      ['a.new', 'a-1-2', 'a-1-2'],
      ['d.consumer', 'd-1', 'a-1-2'],
    ]);
  });

  it('not during an initial rebalance (previousState Empty): the delay runs on', () => {
    let g = join(env, emptyGroup('g'), joinOf('a-1'), request('a.old'), 'a.consumer', 0, new Out());
    g = join(env, g, joinOf('a-1'), request('a.new'), 'a.consumer', 100, new Out());
    expect(g.state).toBe('PreparingRebalance');
    expect(Object.keys(g.members)).toEqual(['a-1-1']);
    const done = onJoinTimer(env, g, { initial: true, delay: 3000, remaining: 297000 }, 3000, new Out());
    expect(done.state).toBe('CompletingRebalance');
  });
});

describe("the replacing member's first heartbeat expiry", () => {
  it("uses the old member's session timeout (rescheduled before updateMember); the request's is kept for the next", () => {
    const g0 = stableMixedGroup();
    const out = new Out();
    const g = join(env, g0, joinOf('a-1', '', 60000), request('a.new'), 'a.consumer', 20000, out);
    expect(timers(out)).toContainEqual(expect.objectContaining({ key: 'session:g:a-1-2', delay: 45000 }));
    expect(g.members['a-1-2']?.sessionTimeoutMs).toBe(60000);
    const hb = new Out();
    heartbeat(g, 'a-1-2', 1, 21000, hb, 'a-1');
    expect(timers(hb)).toContainEqual(expect.objectContaining({ key: 'session:g:a-1-2', delay: 60000 }));
  });
});

describe("a static member's heartbeat during a rebalance", () => {
  it('is REBALANCE_IN_PROGRESS and keeps its session, as a dynamic member’s', () => {
    const g0 = stableMixedGroup();
    // a new member joins: a rebalance
    const g = join(env, g0, joinOf(), request('e.consumer'), 'e.consumer', 10000, new Out());
    expect(g.state).toBe('PreparingRebalance');
    const out = new Out();
    const r = heartbeat(g, 'a-1-0', 1, 11000, out, 'a-1');
    expect(r.error).toBe('REBALANCE_IN_PROGRESS');
    expect(timers(out)).toContainEqual(expect.objectContaining({ key: 'session:g:a-1-0', delay: 45000 }));
  });
});

describe('a static member replaced in a Stable group before it sent its SyncGroup', () => {
  // a (the leader) and d rebalance into generation 1; the leader syncs (Stable), d's process restarts
  // before sending its SyncGroup: a static d this time
  function stableWithPendingFollower(): ConsumerGroup {
    let g = join(env, emptyGroup('g'), joinOf('a-1'), request('a.consumer'), 'a.consumer', 0, new Out());
    g = join(env, g, joinOf('d-1'), request('d.consumer'), 'd.consumer', 100, new Out());
    g = onJoinTimer(env, g, { initial: false }, 3000, new Out());
    g = sync(env, g, 'a-1-0', 1, request('a.consumer'), 3010, new Out(), 'a-1');
    expect(g.state).toBe('Stable');
    expect(g.members['d-1-1']?.pendingSync).toBe(true);
    return g;
  }

  it("leaves the old member id pending (replaceStaticMember does not touch pendingSyncMembers): the new member's SyncGroup does not cancel the pending-sync expiry", () => {
    const g = join(env, stableWithPendingFollower(), joinOf('d-1'), request('d.new'), 'd.consumer', 5000, new Out());
    expect(g.state).toBe('Stable');
    expect(g.members['d-1-2']?.pendingSync).toBe(false);
    expect(g.pendingSyncGone).toEqual(['d-1-1']);
    const out = new Out();
    const synced = sync(env, g, 'd-1-2', 1, request('d.new'), 5010, out, 'd-1');
    expect(sends(out)[0]?.payload).toMatchObject({ error: 'NONE', assignment: g.members['d-1-2']?.assignment });
    expect(out.effects).not.toContainEqual({ type: 'cancel', key: 'sync:g' });
    expect(synced.pendingSyncGone).toEqual(['d-1-1']);
  });

  it('so the pending-sync expiry rebalances the group (expirePendingSync: hasReceivedSyncFromAllMembers is false), removing nobody', () => {
    let g = join(env, stableWithPendingFollower(), joinOf('d-1'), request('d.new'), 'd.consumer', 5000, new Out());
    g = sync(env, g, 'd-1-2', 1, request('d.new'), 5010, new Out(), 'd-1');
    const out = new Out();
    const after = onSyncTimer(env, g, 1, 303000, out);
    expect(after.state).toBe('PreparingRebalance');
    expect(Object.keys(after.members).sort()).toEqual(['a-1-0', 'd-1-2']);
    expect(after.pendingSyncGone).toBeUndefined();
    expect(facts(out)).toContainEqual({
      kind: 'note',
      actor: 'group-coordinator',
      text: 'group g is rebalancing: d-1-1 sent no SyncGroup within the rebalance timeout',
    });
  });

  it('a replacement after the member synced leaves nothing pending: no rebalance at the expiry', () => {
    let g = stableWithPendingFollower();
    g = sync(env, g, 'd-1-1', 1, request('d.consumer'), 3020, new Out(), 'd-1');
    g = join(env, g, joinOf('d-1'), request('d.new'), 'd.consumer', 5000, new Out());
    expect(g.pendingSyncGone).toBeUndefined();
    expect(onSyncTimer(env, g, 1, 303000, new Out())).toBe(g);
  });
});

describe('a static member replaced in a Stable group with another subscription', () => {
  it('rebalances nothing: only the selected protocol is compared (selectProtocol), and the new subscription is stored', () => {
    const g0 = stableMixedGroup();
    const out = new Out();
    const g = join(env, g0, { ...joinOf('a-1'), topics: ['orders', 'payments'] }, request('a.new'), 'a.consumer', 20000, out);
    expect(g.state).toBe('Stable');
    expect(g.generationId).toBe(1);
    expect(facts(out).some((f) => f.kind === 'rebalance')).toBe(false);
    expect(g.members['a-1-2']?.topics).toEqual(['orders', 'payments']);
    expect(g.stored.members.find((m) => m.memberId === 'a-1-2')?.topics).toEqual(['orders', 'payments']);
    // its old partitions, not a new assignment
    expect(g.members['a-1-2']?.assignment).toEqual(g0.members['a-1-0']?.assignment);
  });
});

describe('the note of a join phase nobody rejoined, in English and Korean', () => {
  it('names the static members that stay', () => {
    const text =
      'group g could not complete its rebalance because no member rejoined; static member(s) a-1-0, b-1-1 stay until they rejoin or their session expires';
    expect(translateNote(text, 'en')).toBe(text);
    expect(translateNote(text, 'ko')).toBe(
      '그룹 g는 다시 참여한 멤버가 없어 리밸런스를 끝내지 못했습니다. 정적 멤버 a-1-0, b-1-1은 다시 참여하거나 세션이 만료될 때까지 그룹에 남습니다',
    );
  });
});
