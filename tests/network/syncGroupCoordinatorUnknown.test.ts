/**
 * A JoinGroup answered while the coordinator has become unknown: AbstractCoordinator.sendSyncGroupRequest
 * → `if (coordinatorUnknown()) return RequestFuture.coordinatorNotAvailable()` — no SyncGroup is sent;
 * joinGroupIfNeeded takes the retriable failure (requestRejoin, `timer.sleep(retryBackoffMs)`) and
 * JoinGroup goes again after ensureCoordinatorReady. The old model held the SyncGroup until a
 * FindCoordinator named a coordinator, then sent it there. Meanwhile the member is COMPLETING_REBALANCE
 * (JoinGroupResponseHandler set it and enabled the heartbeat thread; requestRejoin changes no state)
 * until initiateJoinGroup sets PREPARING_REBALANCE; the model before kept it PREPARING_REBALANCE.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, membershipState } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { HOSTED_GROUP_CONSUMER, HOSTED_GROUP_COORDINATOR } from '../fixtures/hostedGroup';
import { answer, bootAndPoll, sent } from '../machines/consumerDriver';
import { inputOf, sends } from '../machines/harness';

const scenario = HOSTED_GROUP_CONSUMER;
const COORDINATOR = HOSTED_GROUP_COORDINATOR;
const timers = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'timer' ? [`${e.name}:${e.delay}`] : []));

describe('SyncGroup with the coordinator unknown (sendSyncGroupRequest: coordinatorNotAvailable)', () => {
  it('no SyncGroup: COORDINATOR_NOT_AVAILABLE, FindCoordinator at once, JoinGroup again after retry.backoff.ms to the coordinator found', () => {
    // the application's first poll() looks the coordinator up and joins (it waits meanwhile)
    const { m, polled } = bootAndPoll(inputOf(scenario, 'c.consumer'));
    const find = sent(polled, 'FindCoordinator');
    const found = { error: 'NONE', coordinator: COORDINATOR };
    const join = sent(m.send(answer('FindCoordinatorResponse', find?.payload.correlationId as number, found, 'broker-0'), 2), 'JoinGroup');
    expect(join?.to).toBe(COORDINATOR);
    // the coordinator is marked unknown while the JoinGroup waits (a commit answered NOT_COORDINATOR;
    // in Kafka, read in the same network poll as the JoinGroup answer)
    // the poll() waiting for the join looks it up at once (its loop's next pass: pollLookup.ts onPollPass)
    const marked = m.send(answer('OffsetCommitResponse', 999, { error: 'NOT_COORDINATOR' }, COORDINATOR), 10);
    expect(m.context<ConsumerContext>().groupCoordinator).toBeNull();
    expect(sends(marked)).toEqual(['FindCoordinator→broker-0']);

    const joined = { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' };
    const fx = m.send(answer('JoinGroupResponse', join?.payload.correlationId as number, joined, COORDINATOR), 12);
    // no SyncGroup, and no second lookup: the one in flight is answered next
    expect(sends(fx)).toEqual([]);
    expect(fx).toContainEqual(
      expect.objectContaining({ type: 'fact', fact: expect.objectContaining({ error: 'COORDINATOR_NOT_AVAILABLE', during: 'SyncGroup' }) }),
    );
    expect(timers(fx)).toContain('rejoinBackoff:100');
    expect(membershipState(m.state())).toBe('COMPLETING_REBALANCE');
    expect(m.context<ConsumerContext>()).toMatchObject({ memberId: 'c-0', generationId: 1 });

    // the lookup answered: nothing is sent until the backoff is over (no SyncGroup held for it)
    const lookup = sent(marked, 'FindCoordinator');
    const moved = { error: 'NONE', coordinator: 'broker-2.group-coordinator' };
    expect(sends(m.send(answer('FindCoordinatorResponse', lookup?.payload.correlationId as number, moved, 'broker-0'), 14))).toEqual([]);
    const rejoin = sent(m.send({ type: 'rejoinBackoff' }, 112), 'JoinGroup');
    expect(rejoin?.to).toBe('broker-2.group-coordinator');
    expect(rejoin?.payload.memberId).toBe('c-0');
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
  });

  it('until that JoinGroup the member is COMPLETING_REBALANCE with its heartbeat thread enabled (heartbeat and session timers), then PREPARING_REBALANCE without heartbeats', () => {
    // the application's first poll() looks the coordinator up and joins (it waits meanwhile)
    const { m, polled } = bootAndPoll(inputOf(scenario, 'c.consumer'));
    const find = sent(polled, 'FindCoordinator');
    const found = { error: 'NONE', coordinator: COORDINATOR };
    const join = sent(m.send(answer('FindCoordinatorResponse', find?.payload.correlationId as number, found, 'broker-0'), 2), 'JoinGroup');
    m.send(answer('OffsetCommitResponse', 999, { error: 'NOT_COORDINATOR' }, COORDINATOR), 10);
    const joined = { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' };
    const fx = m.send(answer('JoinGroupResponse', join?.payload.correlationId as number, joined, COORDINATOR), 12);
    // HeartbeatThread.enable → resetTimeouts: the heartbeat timer and the session timer start
    expect(timers(fx)).toEqual(expect.arrayContaining(['heartbeatDue:3000', 'heartbeatSessionExpired:45000']));
    expect(membershipState(m.state())).toBe('COMPLETING_REBALANCE');
    const again = m.send({ type: 'rejoinBackoff' }, 112);
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    // initiateJoinGroup: PREPARING_REBALANCE, where the heartbeat thread sends nothing (hasNotJoinedGroup)
    expect(again).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'cancel', key: 'heartbeat' })]));
  });

  it('a known coordinator: SyncGroup goes at once (unchanged)', () => {
    // the application's first poll() looks the coordinator up and joins (it waits meanwhile)
    const { m, polled } = bootAndPoll(inputOf(scenario, 'c.consumer'));
    const find = sent(polled, 'FindCoordinator');
    const found = { error: 'NONE', coordinator: COORDINATOR };
    const join = sent(m.send(answer('FindCoordinatorResponse', find?.payload.correlationId as number, found, 'broker-0'), 2), 'JoinGroup');
    const joined = { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' };
    const fx = m.send(answer('JoinGroupResponse', join?.payload.correlationId as number, joined, COORDINATOR), 12);
    expect(sends(fx)).toEqual([`SyncGroup→${COORDINATOR}`]);
    expect(membershipState(m.state())).toBe('COMPLETING_REBALANCE');
  });
});
