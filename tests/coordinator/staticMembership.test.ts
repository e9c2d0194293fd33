/**
 * Static membership (KIP-345) in the group coordinator, classic protocol (Kafka 4.x
 * GroupMetadataManager.classicGroupJoinNewStaticMember → updateStaticMemberThenRebalanceOrCompleteJoin,
 * ClassicGroup.replaceStaticMember / staticMemberId / validateMember): a join without a member id
 * whose group.instance.id the group maps replaces that member — in a Stable group without a
 * rebalance, in CompletingRebalance with one —, the replaced member id is FENCED_INSTANCE_ID for
 * every request after, a session expiry still removes a static member, and the GroupMetadata record
 * keeps the mapping for a coordinator that loads the group. The old code had no instance id: the
 * restarted member joined as a new member and the group rebalanced.
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
  loadGroup,
  onJoinTimer,
  onLoaded,
  onSessionTimer,
  rangeAssign,
  staticMemberId,
  sync,
} from '../../src/sim/coordinator/classicGroup';
import {
  type GroupCoordinatorContext,
  offsetCommitGroupError,
  onLeaveGroup,
  txnOffsetCommitGroupError,
} from '../../src/sim/coordinator/groupCoordinator.machine';
import { groupMetadataRecord } from '../../src/sim/coordinator/offsetsHosted';
import { oneBrokerMetadata } from '../fixtures/oneBrokerMetadata';
import { facts, joinOf, request, sends } from './groupRequests';

const env: GroupEnv = { id: 'group-coordinator', meta: oneBrokerMetadata, config: DEFAULT_GROUP_COORDINATOR_CONFIG };
const member = (g: ConsumerGroup, prefix: string) => Object.keys(g.members).find((id) => id.startsWith(prefix)) as string;

/** Two static members (instances a-1 and b-1, processes a and b) in a Stable group of generation 1. */
function stableGroup(): { g: ConsumerGroup; a: string; b: string } {
  let g = join(env, emptyGroup('g'), joinOf('a-1'), request('a.consumer'), 'a.consumer', 0, new Out());
  g = join(env, g, joinOf('b-1'), request('b.consumer'), 'b.consumer', 100, new Out());
  g = onJoinTimer(env, g, { initial: false }, 3000, new Out());
  const a = member(g, 'a-1-');
  const b = member(g, 'b-1-');
  g = sync(env, g, b, 1, request('b.consumer'), 3010, new Out(), 'b-1');
  g = sync(env, g, a, 1, request('a.consumer'), 3020, new Out(), 'a-1');
  return { g, a, b };
}

describe('static members join with their instance id', () => {
  it('a new static member is added under <group.instance.id>-<n> and mapped (ClassicGroup.generateMemberId, staticMembers)', () => {
    const { g, a, b } = stableGroup();
    expect([a, b]).toEqual(['a-1-0', 'b-1-1']);
    expect(g.state).toBe('Stable');
    expect(g.generationId).toBe(1);
    expect(g.leader).toBe('a-1-0');
    expect(staticMemberId(g, 'a-1')).toBe('a-1-0');
    expect(g.members['a-1-0']?.assignment).toEqual([{ topic: 'orders', partition: 0 }]);
  });
});

describe('a known instance id joins a Stable group without a member id (a restart within session.timeout.ms)', () => {
  it('replaces the member without a rebalance: its assignment and leadership move to the new id, the generation stays, the JoinGroup is answered at once', () => {
    const { g } = stableGroup();
    const out = new Out();
    const next = join(env, g, joinOf('a-1'), request('a.consumer'), 'a.consumer', 9000, out);
    expect(next.state).toBe('Stable');
    expect(next.generationId).toBe(1);
    expect(Object.keys(next.members).sort()).toEqual(['a-1-2', 'b-1-1']);
    expect(next.members['a-1-2']).toMatchObject({
      groupInstanceId: 'a-1',
      assignment: [{ topic: 'orders', partition: 0 }],
      joinRequest: null,
    });
    expect(next.leader).toBe('a-1-2');
    expect(staticMemberId(next, 'a-1')).toBe('a-1-2');
    expect(facts(out).some((f) => f.kind === 'rebalance')).toBe(false);
    expect(facts(out)).toContainEqual({
      kind: 'staticMemberReplaced',
      groupId: 'g',
      groupInstanceId: 'a-1',
      oldMemberId: 'a-1-0',
      newMemberId: 'a-1-2',
      generationId: 1,
      state: 'Stable',
    });
    expect(sends(out)).toEqual([
      {
        rpc: 'JoinGroupResponse',
        to: 'a.consumer',
        payload: expect.objectContaining({ error: 'NONE', generationId: 1, memberId: 'a-1-2', leader: 'a-1-2' }),
      },
    ]);
    // the old id's expiry is gone, the new id's scheduled; the GroupMetadata record names the new id
    expect(out.effects).toContainEqual({ type: 'cancel', key: 'session:g:a-1-0' });
    expect(out.effects.some((e) => e.type === 'timer' && e.key === 'session:g:a-1-2')).toBe(true);
    expect(next.stored.members.map((m) => [m.memberId, m.groupInstanceId])).toEqual([
      ['a-1-2', 'a-1'],
      ['b-1-1', 'b-1'],
    ]);
    // its SyncGroup (a Stable group) gets the assignment back
    const syncOut = new Out();
    sync(env, next, 'a-1-2', 1, request('a.consumer'), 9010, syncOut, 'a-1');
    expect(sends(syncOut)[0]?.payload).toMatchObject({ error: 'NONE', assignment: [{ topic: 'orders', partition: 0 }] });
  });

  it('the replaced member id is fenced: Heartbeat, SyncGroup, OffsetCommit, TxnOffsetCommit and LeaveGroup get FENCED_INSTANCE_ID', () => {
    const { g } = stableGroup();
    const next = join(env, g, joinOf('a-1'), request('a.consumer'), 'a.consumer', 9000, new Out());
    const old = { memberId: 'a-1-0', generationId: 1, groupInstanceId: 'a-1' };
    expect(heartbeat(next, old.memberId, 1, 9100, new Out(), 'a-1').error).toBe('FENCED_INSTANCE_ID');
    const syncOut = new Out();
    sync(env, next, old.memberId, 1, request('a.consumer'), 9100, syncOut, 'a-1');
    expect(sends(syncOut)[0]?.payload).toMatchObject({ error: 'FENCED_INSTANCE_ID' });
    expect(offsetCommitGroupError(next, old)).toBe('FENCED_INSTANCE_ID');
    expect(txnOffsetCommitGroupError(next, old)).toBe('FENCED_INSTANCE_ID');
    const ctx = { id: 'group-coordinator', meta: oneBrokerMetadata, config: DEFAULT_GROUP_COORDINATOR_CONFIG, groups: { g: next } };
    const leaveOut = new Out();
    const after = onLeaveGroup(
      ctx as unknown as GroupCoordinatorContext,
      { type: 'LeaveGroup', now: 9100, from: 'a.consumer', envelopeId: 99, inReplyTo: null, payload: { groupId: 'g', ...old } },
      leaveOut,
    );
    expect(sends(leaveOut)[0]?.payload).toMatchObject({ members: [{ memberId: 'a-1-0', error: 'FENCED_INSTANCE_ID' }] });
    expect(after.groups.g).toBe(next);
    // a JoinGroup with the old member id too (validateMember "join-group")
    const joinOut = new Out();
    join(env, next, joinOf('a-1', 'a-1-0'), request('a.consumer'), 'a.consumer', 9100, joinOut);
    expect(sends(joinOut)[0]?.payload).toMatchObject({ error: 'FENCED_INSTANCE_ID', memberId: 'a-1-0' });
    // the new member id is valid; an instance id the group does not map is UNKNOWN_MEMBER_ID
    expect(heartbeat(next, 'a-1-2', 1, 9100, new Out(), 'a-1').error).toBe('NONE');
    expect(heartbeat(next, 'a-1-2', 1, 9100, new Out(), 'z-9').error).toBe('UNKNOWN_MEMBER_ID');
  });
});

describe('a known instance id joins a group completing a rebalance', () => {
  it('rebalances (the leader may already hold the old member id), and the old member waiting in SyncGroup is answered FENCED_INSTANCE_ID', () => {
    let g = join(env, emptyGroup('g'), joinOf('a-1'), request('a.consumer'), 'a.consumer', 0, new Out());
    g = join(env, g, joinOf('b-1'), request('b.consumer'), 'b.consumer', 100, new Out());
    g = onJoinTimer(env, g, { initial: false }, 3000, new Out());
    // b (a follower) waits in its SyncGroup for the leader's
    g = sync(env, g, 'b-1-1', 1, request('b.old'), 3010, new Out(), 'b-1');
    expect(g.state).toBe('CompletingRebalance');
    const out = new Out();
    const next = join(env, g, joinOf('b-1'), request('b.new'), 'b.consumer', 3500, out);
    expect(next.state).toBe('PreparingRebalance');
    expect(sends(out).find((s) => s.to === 'b.old')?.payload).toMatchObject({ error: 'FENCED_INSTANCE_ID' });
    expect(facts(out)).toContainEqual(
      expect.objectContaining({ kind: 'staticMemberReplaced', state: 'CompletingRebalance', newMemberId: 'b-1-2' }),
    );
    expect(facts(out)).toContainEqual({
      kind: 'note',
      actor: 'group-coordinator',
      text: 'group g is rebalancing: static member b-1-2 (group.instance.id b-1) replaced b-1-1',
    });
    // the leader rejoins: the rebalance completes with the new member id in generation 2
    const done = join(env, next, joinOf('a-1', 'a-1-0'), request('a.consumer'), 'a.consumer', 3600, new Out());
    expect(done.state).toBe('CompletingRebalance');
    expect(done.generationId).toBe(2);
    expect(Object.keys(done.members).sort()).toEqual(['a-1-0', 'b-1-2']);
  });
});

describe('a static member whose session expires', () => {
  it('is removed and the group rebalances; the instance joining later is a new member, added with a rebalance', () => {
    const { g } = stableGroup();
    const out = new Out();
    const expired = onSessionTimer(env, g, 'a-1-0', 48100, out);
    expect(expired.state).toBe('PreparingRebalance');
    expect(staticMemberId(expired, 'a-1')).toBeNull();
    const rejoined = new Out();
    const next = join(env, expired, joinOf('a-1'), request('a.consumer'), 'a.consumer', 50000, rejoined);
    expect(facts(rejoined).some((f) => f.kind === 'staticMemberReplaced')).toBe(false);
    expect(next.members['a-1-2']).toMatchObject({ groupInstanceId: 'a-1', isNew: true });
  });
});

describe('the GroupMetadata record keeps the static mapping', () => {
  it('a coordinator that loads the group (failover, restart) maps the instance id, and replaces without a rebalance', () => {
    const { g } = stableGroup();
    const loaded = onLoaded(loadGroup(g), 60000, new Out());
    expect(loaded.state).toBe('Stable');
    expect(staticMemberId(loaded, 'a-1')).toBe('a-1-0');
    const out = new Out();
    const next = join(env, loaded, joinOf('a-1'), request('a.consumer'), 'a.consumer', 61000, out);
    expect(next.generationId).toBe(1);
    expect(facts(out).some((f) => f.kind === 'rebalance')).toBe(false);
    expect(next.members['a-1-2']?.assignment).toEqual([{ topic: 'orders', partition: 0 }]);
    // the replicated coordinator's record (offsetsHosted.ts) carries it too
    const record = JSON.parse(groupMetadataRecord(next).value) as { members: { memberId: string; groupInstanceId?: string }[] };
    expect(record.members.map((m) => [m.memberId, m.groupInstanceId])).toEqual([
      ['a-1-2', 'a-1'],
      ['b-1-1', 'b-1'],
    ]);
  });
});

describe('the range assignor orders static members by group.instance.id (AbstractPartitionAssignor.MemberInfo.compareTo)', () => {
  it('static members first, by instance id, whatever their member ids; then dynamic ones by member id', () => {
    const meta = {
      ...oneBrokerMetadata,
      topics: { orders: { name: 'orders', partitions: 3, leaders: ['broker-0', 'broker-0', 'broker-0'] } },
    };
    const m = (memberId: string, groupInstanceId?: string) => ({
      memberId,
      ...(groupInstanceId ? { groupInstanceId } : {}),
      clientId: memberId,
      sessionTimeoutMs: 45000,
      rebalanceTimeoutMs: 300000,
      topics: ['orders'],
      joinRequest: null,
      syncRequest: null,
      assignment: [],
      sessionDeadline: 0,
      isNew: false,
      pendingSync: false,
    });
    // by member id alone the dynamic a-0 would come first
    const out = rangeAssign([m('a-0'), m('z-1-3', 'z-1'), m('m-2-4', 'm-2')], meta);
    expect(out['m-2-4']).toEqual([{ topic: 'orders', partition: 0 }]);
    expect(out['z-1-3']).toEqual([{ topic: 'orders', partition: 1 }]);
    expect(out['a-0']).toEqual([{ topic: 'orders', partition: 2 }]);
  });
});
