/**
 * A failed heartbeat is retried after the backoff, not after heartbeat.interval.ms. Kafka:
 * AbstractCoordinator.HeartbeatThread.run's listener calls Heartbeat.failHeartbeat() for every
 * failure but RebalanceInProgressException and FencedInstanceIdException — a disconnect or a request
 * timeout (a DisconnectException: CoordinatorResponseHandler.onFailure also marks the coordinator
 * unknown), COORDINATOR_NOT_AVAILABLE / NOT_COORDINATOR (HeartbeatResponseHandler marks it unknown),
 * an unexpected error — and failHeartbeat sets the heartbeat timer to
 * retryBackoff.backoff(heartbeatAttempts++): ExponentialBackoff(retry.backoff.ms 100, ×2,
 * retry.backoff.max.ms 1000, jitter 0.2; *the model has no jitter*). Heartbeat.receiveHeartbeat (an
 * answer, or REBALANCE_IN_PROGRESS) sets the attempts back to 0. The thread looks an unknown
 * coordinator up at once (coordinatorUnknown → lookupCoordinator) and sends nothing while the member
 * has not joined (hasNotJoinedGroup).
 *
 * On the old code a lost heartbeat changed nothing and the next one went out heartbeat.interval.ms
 * after it: three lost in a row (the audit's scenario) meant 9 s without a heartbeat, so the
 * coordinator removed a member Kafka keeps.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, membershipState } from '../../src/sim/consumer/consumer.machine';
import { SESSION_TIMER } from '../../src/sim/consumer/sessionTimer';
import type { Effect } from '../../src/sim/kernel/effects';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { heartbeatResetScenario, pausedMemberScenario } from '../fixtures/groupAudit';
import { answer, bootAndPoll, firstPollReturned, joinedAsLeader, lost, sent, synced } from '../machines/consumerDriver';
import { type Driven, inputOf, sends } from '../machines/harness';

const call = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'c.app', args });
const scenario = (cluster?: Record<string, unknown>) => ({
  version: 1,
  seed: 1,
  ...(cluster ? { cluster } : {}),
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'enable.auto.commit': false }, topics: ['t'] }],
});
/** The delays the step armed the heartbeat timer with. */
const heartbeatTimers = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'timer' && e.key === 'heartbeat' && e.name === 'heartbeatDue' ? [e.delay] : []));
const attempts = (m: Driven) => m.context<ConsumerContext>().heartbeatAttempts;

/** A member STABLE with t-0 (the leader of generation 1), its first poll() (the one that joined) returned at 22. */
function stable(): Driven {
  const { m, sync } = joinedAsLeader(inputOf(scenario(), 'c.consumer'));
  const offsets = sent(synced(m, sync, [{ topic: 't', partition: 0 }]), 'OffsetFetch');
  expect(membershipState(m.state())).toBe('STABLE');
  firstPollReturned(m, offsets, 20);
  return m;
}

/** The heartbeat falls due at `at`: the Heartbeat it sends. */
const heartbeat = (m: Driven, at: number) => {
  const fx = m.send({ type: 'heartbeatDue' }, at);
  expect(heartbeatTimers(fx)).toEqual([3000]);
  return sent(fx, 'Heartbeat');
};

describe('a failed heartbeat: the next one after retry.backoff.ms doubling to retry.backoff.max.ms', () => {
  it('lost heartbeats (request timeout or broken connection): 100, 200, 400, 800, 1000, 1000 ms; an answer sets the attempts back, so the next loss waits 100 again', () => {
    const m = stable();
    let t = 3010;
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const fx = m.send(lost(heartbeat(m, t)), t);
      // NetworkClient's disconnect: the error is shown, the member keeps its generation
      expect(fx).toContainEqual(expect.objectContaining({ type: 'fact', fact: expect.objectContaining({ during: 'Heartbeat' }) }));
      delays.push(...heartbeatTimers(fx));
      t += delays.at(-1) as number;
    }
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(attempts(m)).toBe(6);
    expect(membershipState(m.state())).toBe('STABLE');
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: 1, memberId: 'c-0', rejoinNeeded: false });

    const answered = heartbeat(m, t);
    // an answer: nothing but the session timer started again (Heartbeat.receiveHeartbeat)
    expect(m.send(answer('HeartbeatResponse', answered?.payload.correlationId as number, { error: 'NONE' }), t + 2)).toEqual([
      { type: 'timer', key: SESSION_TIMER, name: 'heartbeatSessionExpired', delay: 45000, data: {}, background: true },
    ]);
    expect(attempts(m)).toBe(0);
    expect(heartbeatTimers(m.send(lost(heartbeat(m, t + 3000)), t + 3000))).toEqual([100]);
  });

  it("the coordinator's errors (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, and the unexpected COORDINATOR_LOAD_IN_PROGRESS): no rejoin, the backoff; REBALANCE_IN_PROGRESS counts as answered", () => {
    const m = stable();
    const refused = (error: string, at: number) => m.send(answer('HeartbeatResponse', 99, { error }), at);
    expect(heartbeatTimers(refused('NOT_COORDINATOR', 3002))).toEqual([100]);
    expect(heartbeatTimers(refused('COORDINATOR_NOT_AVAILABLE', 3104))).toEqual([200]);
    expect(heartbeatTimers(refused('COORDINATOR_LOAD_IN_PROGRESS', 3306))).toEqual([400]);
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: 1, rejoinNeeded: false, heartbeatAttempts: 3 });
    // HeartbeatThread: a RebalanceInProgressException calls receiveHeartbeat (heartbeats go on at the interval)
    expect(heartbeatTimers(refused('REBALANCE_IN_PROGRESS', 3708))).toEqual([]);
    expect(m.context<ConsumerContext>()).toMatchObject({ rejoinNeeded: true, heartbeatAttempts: 0 });
    expect(heartbeatTimers(refused('NOT_COORDINATOR', 6710))).toEqual([100]);
  });

  it('while the SyncGroup is in flight too (heartbeats run from the JoinGroup answer); not where they do not run: a member rejoining, or one whose generation was reset', () => {
    const syncing = joinedAsLeader(inputOf(scenario(), 'c.consumer')).m;
    expect(membershipState(syncing.state())).toBe('COMPLETING_REBALANCE');
    expect(heartbeatTimers(syncing.send(lost(heartbeat(syncing, 3010)), 3010))).toEqual([100]);

    // a heartbeat in flight as the member starts rejoining (PREPARING_REBALANCE: hasNotJoinedGroup)
    const rejoining = stable();
    const inFlight = heartbeat(rejoining, 3010);
    rejoining.send(call('poll'), 3011);
    rejoining.send(answer('HeartbeatResponse', 99, { error: 'UNKNOWN_MEMBER_ID' }), 3012);
    expect(membershipState(rejoining.state())).toBe('PREPARING_REBALANCE');
    const late = rejoining.send(lost(inFlight), 3013);
    expect(heartbeatTimers(late)).toEqual([]);

    // STABLE, but its generation reset by a refused commitSync (UNJOINED: the heartbeat thread is disabled)
    const reset = stable();
    const hb = heartbeat(reset, 3010);
    const commit = sent(reset.send(call('commitSync', { offsets: [{ topic: 't', partition: 0, offset: 0 }] }), 3011), 'OffsetCommit');
    reset.send(answer('OffsetCommitResponse', commit?.payload.correlationId as number, { error: 'ILLEGAL_GENERATION' }), 3012);
    expect(membershipState(reset.state())).toBe('STABLE');
    expect(heartbeatTimers(reset.send(lost(hb), 3013))).toEqual([]);
    expect(heartbeatTimers(reset.send(answer('HeartbeatResponse', 98, { error: 'NOT_COORDINATOR' }), 3014))).toEqual([]);
  });

  it('a coordinator on a __consumer_offsets leader, forgotten with the lost heartbeat, is looked up at once; the heartbeat after the backoff goes to the one found', () => {
    // the application's first poll() looks the coordinator up and joins
    const { m, polled } = bootAndPoll(inputOf(scenario({ brokers: 3, 'offsets.topic.replication.factor': 3 }), 'c.consumer'));
    const coordinator = 'broker-1.group-coordinator';
    const found = (lookup: ReturnType<typeof sent>, at: number) =>
      m.send(answer('FindCoordinatorResponse', lookup?.payload.correlationId as number, { error: 'NONE', coordinator }, lookup?.to), at);
    const join = sent(found(sent(polled, 'FindCoordinator'), 2), 'JoinGroup');
    expect(join?.to).toBe(coordinator);
    const joined = m.send(
      answer(
        'JoinGroupResponse',
        join?.payload.correlationId as number,
        { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' },
        coordinator,
      ),
      10,
    );
    synced(m, sent(joined, 'SyncGroup'), [{ topic: 't', partition: 0 }]);
    const hb = heartbeat(m, 3010);
    expect(hb?.to).toBe(coordinator);

    const fx = m.send(lost(hb), 3010);
    expect(heartbeatTimers(fx)).toEqual([100]);
    const lookup = sent(fx, 'FindCoordinator');
    expect(lookup?.payload).toMatchObject({ key: 'g', keyType: 'group' });
    // the coordinator moved (a coordinator still named but inside its reconnect backoff stays unknown:
    // tests/network/coordinatorLookup.test.ts)
    const moved = 'broker-2.group-coordinator';
    const answered = m.send(
      answer('FindCoordinatorResponse', lookup?.payload.correlationId as number, { error: 'NONE', coordinator: moved }, lookup?.to),
      3012,
    );
    expect(sends(answered)).toEqual([]);
    expect(sent(m.send({ type: 'heartbeatDue' }, 3110), 'Heartbeat')?.to).toBe(moved);
  });
});

const fromC1 = (t: Trace, rpc: string) => [...t.envelopes].filter((e) => e && e.rpc === rpc && e.from === 'c1.consumer');
const c1Errors = (t: Trace) =>
  t.steps.flatMap((s) => (s.facts as Fact[]).flatMap((f) => (f.kind === 'clientError' && f.client === 'c1' ? [f.error] : [])));

describe("the audit's scenarios", () => {
  it('three heartbeats lost in a row (f2-heartbeat-retry): retried 100 and 200 ms later, the fourth answered; c1 stays in generation 2 and the group does not rebalance', () => {
    const t = runScenario(heartbeatResetScenario());
    const lostAt = t.steps.filter((s) => s.actor === 'c1.consumer' && s.kind === 'disconnected').map((s) => s.t);
    expect(lostAt).toEqual([15010, 15110, 15310]);
    const heartbeats = fromC1(t, 'Heartbeat').map((e) => e.sentAt);
    expect(heartbeats.filter((at) => at >= 15000 && at < 16000)).toEqual([15010, 15110, 15310, 15710]);
    expect(c1Errors(t)).not.toContain('UNKNOWN_MEMBER_ID');
    expect(t.steps.some((s) => s.label === 'sessionExpired')).toBe(false);
    // c1 joined twice at the start (c2's arrival rebalanced the group), never again: its first join's
    // two JoinGroups (MEMBER_ID_REQUIRED, then with the member id) and its rejoin
    expect(fromC1(t, 'JoinGroup')).toHaveLength(3);
    expect(fromC1(t, 'Heartbeat').every((e) => (e.payload as { generationId: number }).generationId === 2 || e.sentAt < 15000)).toBe(true);
  });

  it('the paused member (f1-commit-refused): its lost heartbeat is retried 200 ms later, so it rejoins before late-0 exists: every record is processed once', () => {
    const t = runScenario(pausedMemberScenario());
    const rejoin = fromC1(t, 'JoinGroup').find((e) => e.sentAt > 33011);
    expect(rejoin?.sentAt).toBeLessThan(33300);
    const processing = summarize(t).verdict.layers.filter((l) => l.layer === 'processing');
    expect(processing.map((l) => [l.subject, l.status])).toEqual([
      ['c1', 'once'],
      ['c2', 'once'],
    ]);
  });
});
