/**
 * The consumer's own session timer. Kafka (AbstractCoordinator.HeartbeatThread.run, Heartbeat):
 * `heartbeat.sessionTimeoutExpired(now)` — session.timeout.ms since the last heartbeat answered
 * (receiveHeartbeat: NONE or REBALANCE_IN_PROGRESS), since the JoinGroup answer that enabled the
 * thread (resetTimeouts) or since a FindCoordinator answer (resetSessionTimeout) — is checked at each
 * wake-up before a heartbeat is sent, and with the coordinator known calls
 * markCoordinatorUnknown("session timed out without receiving a heartbeat response"): the coordinator
 * is forgotten and its connection closed (`client.disconnectAsync`), so every group request in flight
 * on it fails with a DisconnectException and is retried on a new connection.
 *
 * The old model had only the coordinator's side of session.timeout.ms: a member whose heartbeats went
 * unanswered kept its connection until each request on it passed request.timeout.ms, so a stalled
 * OffsetFetch was retried 15 s later than Kafka retries it, and a member back from a pause longer
 * than the session sent a Heartbeat first.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import { type ConsumerContext, membershipState } from '../../src/sim/consumer/consumer.machine';
import { giveUpOnCoordinator, onHeartbeatSessionExpired, SESSION_TIMER, sessionExpired } from '../../src/sim/consumer/sessionTimer';
import type { Effect } from '../../src/sim/kernel/effects';
import { runScenario, type Trace } from '../../src/sim/run';
import { answer, joinedAsLeader, sent, synced } from '../machines/consumerDriver';
import { type Driven, inputOf } from '../machines/harness';
import { context, run } from './fixture';

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'enable.auto.commit': false }, topics: ['t'] }],
};
/** Metadata with the group coordinator on the leader of __consumer_offsets-0 (broker-1). */
const HOSTED_GROUP_META = {
  brokers: ['broker-0', 'broker-1'],
  topics: {
    __consumer_offsets: { name: '__consumer_offsets', partitions: 1, leaders: ['broker-1'], replicas: [['broker-1', 'broker-0']] },
  },
  groupCoordinator: 'broker-1.group-coordinator',
  consumerOffsetsPartitions: 1,
} as unknown as ClusterMetadata;
const sessionTimers = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'timer' && e.key === SESSION_TIMER ? [e.delay] : []));
const closes = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'closeConnection' ? [e.to] : []));
const notes = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'fact' && e.fact.kind === 'note' ? [(e.fact as unknown as { text: string }).text] : []));

/** A member STABLE with t-0, joined at 10 (the JoinGroup answer) and synced at 20. */
function stable(): Driven {
  const { m, sync } = joinedAsLeader(inputOf(scenario, 'c.consumer'));
  synced(m, sync, [{ topic: 't', partition: 0 }]);
  expect(membershipState(m.state())).toBe('STABLE');
  return m;
}

describe('the session timer runs from the JoinGroup answer, a heartbeat answered, a coordinator found', () => {
  it('the JoinGroup answer (HeartbeatThread.enable → resetTimeouts) starts it: session.timeout.ms', () => {
    const { m, joined } = joinedAsLeader(inputOf(scenario, 'c.consumer'));
    expect(sessionTimers(joined)).toEqual([45000]);
    expect(m.context<ConsumerContext>().sessionDeadline).toBe(45010);
  });

  it('an answered heartbeat, and REBALANCE_IN_PROGRESS (receiveHeartbeat), start it again; another error does not', () => {
    const m = stable();
    const hb = (at: number) => sent(m.send({ type: 'heartbeatDue' }, at), 'Heartbeat');
    const h1 = hb(3010);
    expect(sessionTimers(m.send(answer('HeartbeatResponse', h1?.payload.correlationId as number, { error: 'NONE' }), 3012))).toEqual([
      45000,
    ]);
    expect(m.context<ConsumerContext>().sessionDeadline).toBe(48012);
    const h2 = hb(6010);
    m.send(answer('HeartbeatResponse', h2?.payload.correlationId as number, { error: 'REBALANCE_IN_PROGRESS' }), 6012);
    expect(m.context<ConsumerContext>().sessionDeadline).toBe(51012);
    const h3 = hb(9010);
    expect(
      sessionTimers(m.send(answer('HeartbeatResponse', h3?.payload.correlationId as number, { error: 'NOT_COORDINATOR' }), 9012)),
    ).toEqual([]);
    expect(m.context<ConsumerContext>().sessionDeadline).toBe(51012);
  });

  it('a rejoin, a reset generation and close() stop it with the heartbeats (the thread is disabled)', () => {
    const m = stable();
    const h = sent(m.send({ type: 'heartbeatDue' }, 3010), 'Heartbeat');
    const fx = m.send(answer('HeartbeatResponse', h?.payload.correlationId as number, { error: 'UNKNOWN_MEMBER_ID' }), 3012);
    expect(fx).toContainEqual({ type: 'cancel', key: SESSION_TIMER });
    expect(fx).toContainEqual({ type: 'cancel', key: 'heartbeat' });
  });
});

describe('an expired session: the coordinator marked unknown and its connection closed', () => {
  it('expired only at the deadline, with a generation and a known coordinator', () => {
    const c = context({}, 1, { generationId: 1, memberId: 'c-0', sessionDeadline: 45010 });
    expect(sessionExpired({ ...c }, 45009)).toBe(false);
    expect(sessionExpired({ ...c }, 45010)).toBe(true);
    expect(sessionExpired({ ...c, generationId: -1 }, 50000)).toBe(false);
    // a coordinator on a __consumer_offsets leader that is already unknown: the thread looks it up instead
    expect(sessionExpired({ ...c, meta: HOSTED_GROUP_META, groupCoordinator: null }, 50000)).toBe(false);
    expect(sessionExpired({ ...c, meta: HOSTED_GROUP_META, groupCoordinator: 'broker-1' }, 50000)).toBe(true);
  });

  it('the stand-alone coordinator: its connection closed, found again at once, so the timer starts again', () => {
    // the heartbeat thread went round at 10 (enabled): its wake-ups are 100 ms apart from there, 45010 one of them
    const c = context({}, 1, { generationId: 1, memberId: 'c-0', sessionDeadline: 45010, heartbeatWokeAt: 10 });
    const { d, effects } = run(c, (draft, out) => onHeartbeatSessionExpired(draft, 45010, out));
    expect(closes(effects)).toEqual(['group-coordinator']);
    expect(notes(effects)).toEqual([
      'no Heartbeat answered for session.timeout.ms (45000 ms): the heartbeat thread marks the group coordinator unknown and closes its connection to it (session timed out without receiving a heartbeat response)',
    ]);
    expect(sessionTimers(effects)).toEqual([45000]);
    expect(d.sessionDeadline).toBe(90010);
  });

  it('a coordinator on a __consumer_offsets leader: forgotten (the heartbeat thread looks it up), the timer waits for it to be found', () => {
    const c = context({}, 1, {
      meta: HOSTED_GROUP_META,
      groupCoordinator: 'broker-1',
      generationId: 1,
      memberId: 'c-0',
      sessionDeadline: 45010,
    });
    const { d, effects } = run(c, (draft, out) => giveUpOnCoordinator(draft, 45010, out));
    expect(closes(effects)).toEqual(['broker-1']);
    expect(d.groupCoordinator).toBeNull();
    expect(sessionTimers(effects)).toEqual([]);
  });

  it('a deadline between two wake-ups of the heartbeat thread (every retry.backoff.ms from its last round) is seen at the next one', () => {
    // the last heartbeat went out at 42004; the session (from 3002) ends at 48002: the thread wakes at 48004
    const c = context({}, 1, { generationId: 1, memberId: 'c-0', sessionDeadline: 48002, heartbeatWokeAt: 42004 });
    const atDeadline = run(c, (draft, out) => onHeartbeatSessionExpired(draft, 48002, out));
    expect(closes(atDeadline.effects)).toEqual([]);
    expect(sessionTimers(atDeadline.effects)).toEqual([2]);
    const woke = run(atDeadline.d, (draft, out) => onHeartbeatSessionExpired(draft, 48004, out));
    expect(closes(woke.effects)).toEqual(['group-coordinator']);
    // a heartbeat answered in between: nothing to give up at the wake-up
    const answered = run({ ...atDeadline.d, sessionDeadline: 93003 }, (draft, out) => onHeartbeatSessionExpired(draft, 48004, out));
    expect(closes(answered.effects)).toEqual([]);
  });

  it('a session timer held by a pause fires late: the thread, its wait long over, sees the expiry at once', () => {
    const c = context({}, 1, { generationId: 1, memberId: 'c-0', sessionDeadline: 48002, heartbeatWokeAt: 42004 });
    expect(closes(run(c, (draft, out) => onHeartbeatSessionExpired(draft, 60001, out)).effects)).toEqual(['group-coordinator']);
  });

  it('a heartbeat thread that wakes past its deadline (a pause) gives up first and does not heartbeat; it wakes again after retry.backoff.ms', () => {
    const m = stable();
    const fx = m.send({ type: 'heartbeatDue' }, 60000);
    expect(sent(fx, 'Heartbeat')).toBeUndefined();
    expect(closes(fx)).toEqual(['group-coordinator']);
    expect(fx).toContainEqual(expect.objectContaining({ type: 'timer', key: 'heartbeat', delay: 100 }));
    // the next wake-up heartbeats (the stand-alone coordinator is known again)
    expect(sent(m.send({ type: 'heartbeatDue' }, 60100), 'Heartbeat')).toBeDefined();
  });
});

/** Steps of a run as "time actor label", with the notes they made. */
const lines = (t: Trace, actor: RegExp) =>
  [...t.steps].filter((s) => actor.test(s.actor)).map((s) => `${s.t} ${s.label}${s.facts.some((f) => f.kind === 'note') ? ' [note]' : ''}`);

describe('in a run: a stalled connection to the coordinator', () => {
  // an OffsetFetch lost on the way stalls the connection: every Heartbeat behind it is lost too
  const stalled = {
    ...scenario,
    topics: [{ name: 't', partitions: 1 }],
    faults: [
      { type: 'drop', rpc: 'OffsetFetch', from: 'c.consumer', to: 'group-coordinator' },
      { type: 'drop', rpc: 'OffsetFetchResponse', from: 'group-coordinator', to: 'c.consumer' },
    ],
  };

  it('session.timeout.ms after the JoinGroup answer the member closes the connection and sends the OffsetFetch again on a new one (request.timeout.ms would have been 15 s later)', () => {
    const t = runScenario(stalled);
    const own = lines(t, /^c\.consumer$/);
    // the JoinGroup answered NONE (the one before it: MEMBER_ID_REQUIRED)
    const joined = [...t.steps].find(
      (s) =>
        s.actor === 'c.consumer' &&
        s.label === 'JoinGroupResponse' &&
        (t.envelopeAt(s.envelope ?? -1)?.payload as { error?: string } | undefined)?.error === 'NONE',
    )?.t as number;
    // the heartbeat thread went round last at 46004 (a heartbeat; the failures at 33004 notified it there):
    // the deadline joined + 45000 = 48002 falls between its wake-ups, seen at 48004
    const seen = joined + 45000 + 2;
    expect(own).toContain(`${joined + 45000} heartbeatSessionExpired`);
    expect(own).toContain(`${seen} heartbeatSessionExpired [note]`);
    // the requests in flight complete as disconnects by the client's own close
    const closed = [...t.steps].filter(
      (s) => s.kind === 'disconnected' && (s.detail as { reason?: string } | null)?.reason === 'client-close',
    );
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.every((s) => s.t === seen)).toBe(true);
    // the OffsetFetch that was stalled behind the dropped answer is answered on the new connection, long before its request.timeout.ms
    const next = [...t.steps].find((s) => s.actor === 'group-coordinator' && s.label === 'OffsetFetch' && s.t > seen);
    expect(next?.t).toBeLessThan(seen + 1000);
  });
});
