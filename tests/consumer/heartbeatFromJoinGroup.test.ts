/**
 * A classic consumer heartbeats from its JoinGroup answer, not from its SyncGroup answer:
 * AbstractCoordinator.JoinGroupResponseHandler.handle sets COMPLETING_REBALANCE and calls
 * heartbeatThread.enable() (Heartbeat.resetTimeouts: the next heartbeat heartbeat.interval.ms from
 * then) before it sends SyncGroup, and SyncGroupResponseHandler resets no heartbeat timer. While the
 * SyncGroup is in flight a REBALANCE_IN_PROGRESS answer is ignored (HeartbeatResponseHandler asks
 * for a rejoin only in STABLE); ILLEGAL_GENERATION resets the generation, so the SyncGroup's success
 * fails and the member joins again. Back in PREPARING_REBALANCE no heartbeat goes out
 * (HeartbeatThread.run: hasNotJoinedGroup()). On the old code heartbeats started at the SyncGroup
 * answer, one round trip late.
 */
import { describe, expect, it } from 'vitest';
import { membershipState } from '../../src/sim/consumer/consumer.machine';
import type { ConsumerContext } from '../../src/sim/consumer/consumerContext';
import { SESSION_TIMER } from '../../src/sim/consumer/sessionTimer';
import type { Effect } from '../../src/sim/kernel/effects';
import { runScenario } from '../../src/sim/run';
import { answer, bootAndPoll, lost, sent, synced } from '../machines/consumerDriver';
import { inputOf } from '../machines/harness';

const scenario = (network = { latencyMs: 1, jitterMs: 0, links: [] }, heartbeatIntervalMs = 3000) => ({
  version: 1,
  seed: 1,
  network,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'heartbeat.interval.ms': heartbeatIntervalMs }, topics: ['t'] }],
});
const heartbeatTimers = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'timer' && e.name === 'heartbeatDue' ? [e.delay] : []));
const stopsHeartbeats = (fx: readonly Effect[]) => fx.some((e) => e.type === 'cancel' && e.key === 'heartbeat');

/** A member booted, joined from its first poll() (which waits) and answered as the leader of generation 1 at 10: the machine, the JoinGroup answer's effects, its SyncGroup (in flight). */
function syncing() {
  const { m, polled } = bootAndPoll(inputOf(scenario(), 'c.consumer'));
  const join = sent(polled, 'JoinGroup');
  const joined = m.send(
    answer('JoinGroupResponse', join?.payload.correlationId as number, { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' }),
    10,
  );
  return { m, joined, sync: sent(joined, 'SyncGroup') };
}

describe('heartbeats from the JoinGroup answer (COMPLETING_REBALANCE)', () => {
  it('the JoinGroup answer arms the heartbeat (heartbeat.interval.ms) as it sends SyncGroup; the SyncGroup answer re-arms nothing', () => {
    const { m, joined, sync } = syncing();
    expect(membershipState(m.state())).toBe('COMPLETING_REBALANCE');
    expect(heartbeatTimers(joined)).toEqual([3000]);
    expect(sync?.payload).toMatchObject({ generationId: 1, memberId: 'c-0' });
    const fx = synced(m, sync, [{ topic: 't', partition: 0 }]);
    expect(membershipState(m.state())).toBe('STABLE');
    expect(heartbeatTimers(fx)).toEqual([]);
  });

  it('a heartbeat due while the SyncGroup is in flight goes out, with the new generation', () => {
    const { m } = syncing();
    const fx = m.send({ type: 'heartbeatDue' }, 3010);
    expect(sent(fx, 'Heartbeat')?.payload).toMatchObject({ groupId: 'g', generationId: 1, memberId: 'c-0' });
    expect(heartbeatTimers(fx)).toEqual([3000]);
    expect(membershipState(m.state())).toBe('COMPLETING_REBALANCE');
  });

  it('REBALANCE_IN_PROGRESS while syncing is ignored; ILLEGAL_GENERATION resets the generation and the SyncGroup success then rejoins', () => {
    const ignored = syncing();
    // ignored, but it counts as answered (Heartbeat.receiveHeartbeat): only the session timer starts again
    expect(ignored.m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3020)).toEqual([
      { type: 'timer', key: SESSION_TIMER, name: 'heartbeatSessionExpired', delay: 45000, data: {}, background: true },
    ]);
    expect(ignored.m.context<ConsumerContext>()).toMatchObject({ generationId: 1, rejoinNeeded: false });

    const reset = syncing();
    const fx = reset.m.send(answer('HeartbeatResponse', 99, { error: 'ILLEGAL_GENERATION' }), 3020);
    expect(stopsHeartbeats(fx)).toBe(true);
    expect(reset.m.context<ConsumerContext>()).toMatchObject({ generationId: -1, rejoinNeeded: true });
    const after = synced(reset.m, reset.sync, [{ topic: 't', partition: 0 }]);
    expect(sent(after, 'JoinGroup')).toBeDefined();
    expect(membershipState(reset.m.state())).toBe('PREPARING_REBALANCE');
  });

  it('a SyncGroup failure that goes back to PREPARING_REBALANCE stops heartbeats (thrown, or at once)', () => {
    for (const error of ['COORDINATOR_LOAD_IN_PROGRESS', 'REBALANCE_IN_PROGRESS']) {
      const { m, sync } = syncing();
      const fx = m.send(answer('SyncGroupResponse', sync?.payload.correlationId as number, { error, assignment: [] }), 20);
      expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
      expect(stopsHeartbeats(fx)).toBe(true);
    }
  });

  it('a SyncGroup refused by a moved coordinator, or lost, leaves the member COMPLETING_REBALANCE, heartbeats on, until the JoinGroup after retry.backoff.ms', () => {
    const failures: ((sync: ReturnType<typeof sent>) => { type: string } & Record<string, unknown>)[] = [
      (sync) => answer('SyncGroupResponse', sync?.payload.correlationId as number, { error: 'NOT_COORDINATOR', assignment: [] }),
      (sync) => lost(sync),
    ];
    for (const failure of failures) {
      const { m, sync } = syncing();
      const fx = m.send(failure(sync), 20);
      expect(membershipState(m.state())).toBe('COMPLETING_REBALANCE');
      expect(stopsHeartbeats(fx)).toBe(false);
      const again = m.send({ type: 'rejoinBackoff', key: 'rejoin', data: {} }, 120);
      expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
      expect(stopsHeartbeats(again)).toBe(true);
      expect(sent(again, 'JoinGroup')).toBeDefined();
    }
  });

  it('a whole run (100 ms each way, heartbeat.interval.ms=150): the first Heartbeat leaves 150 ms after the JoinGroup answer, before the SyncGroup answer', () => {
    const trace = runScenario(scenario({ latencyMs: 100, jitterMs: 0, links: [] }, 150) as never);
    // the JoinGroup answered NONE (the first is MEMBER_ID_REQUIRED: the member id, and a second JoinGroup)
    const answered = (s: { envelope: number | null }) =>
      (trace.envelopeAt(s.envelope ?? -1)?.payload as { error?: string } | undefined)?.error === 'NONE';
    const at = (label: string) => trace.steps.find((s) => s.actor === 'c.consumer' && s.label === label && answered(s))?.t as number;
    const firstHeartbeat = trace.steps.find(
      (s) => s.actor === 'c.consumer' && s.sent.some((i) => trace.envelopeAt(i)?.rpc === 'Heartbeat'),
    );
    expect(firstHeartbeat?.t).toBe(at('JoinGroupResponse') + 150);
    expect(firstHeartbeat?.t).toBeLessThan(at('SyncGroupResponse'));
  });
});
