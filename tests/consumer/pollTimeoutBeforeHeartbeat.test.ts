/**
 * A heartbeat that falls due with the poll timer expired too. AbstractCoordinator.HeartbeatThread.run
 * checks, on one pass of its loop, `heartbeat.sessionTimeoutExpired(now)` (markCoordinatorUnknown),
 * then `heartbeat.pollTimeoutExpired(now)` (handlePollTimeoutExpiry → maybeLeaveGroup: LeaveGroup for a
 * dynamic member, resetGenerationOnLeaveGroup), and only then `shouldHeartbeat(now)`; the next pass
 * finds the member UNJOINED (`hasNotJoinedGroup` → disable) and sends nothing. So a process back from
 * a pause longer than max.poll.interval.ms (but shorter than session.timeout.ms), whose heartbeat also
 * fell due during the pause, leaves without a heartbeat. On the old code the kernel handed over the
 * overdue heartbeat timer first and the member sent a Heartbeat with its old generation before it
 * left — for a static member (no LeaveGroup), a heartbeat that kept its old member alive at the
 * coordinator for another session.timeout.ms.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, membershipState } from '../../src/sim/consumer/consumer.machine';
import { pollTimeoutOverdue } from '../../src/sim/consumer/membership';
import { firstPollReturned, joinedAsLeader, sent, synced } from '../machines/consumerDriver';
import { inputOf, sends } from '../machines/harness';
import { context } from './fixture';

const scenario = (config: Record<string, unknown> = {}) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [
    {
      id: 'c',
      type: 'consumer',
      config: {
        'group.id': 'g',
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
        'max.poll.interval.ms': 6000,
        'session.timeout.ms': 15000,
        ...config,
      },
      topics: ['t'],
    },
  ],
});

/** A member STABLE with t-0 whose first poll() (the one that joined) returned one record at 40 ms: its poll timer runs to 6040. */
function polledOnce(config: Record<string, unknown> = {}) {
  const { m, sync } = joinedAsLeader(inputOf(scenario(config), 'c.consumer'));
  firstPollReturned(m, sent(synced(m, sync, [{ topic: 't', partition: 0 }]), 'OffsetFetch'), 30, 't', 40);
  return m;
}

describe('the poll timeout before a heartbeat due at the same wake-up', () => {
  it('pollTimeoutOverdue: the application outside poll(), in its generation, the poll deadline passed, the session not expired', () => {
    const base = { generationId: 1, memberId: 'c-0', pollWaiting: null, pollDeadline: 1000, sessionDeadline: 20000 };
    const ctx = context({ 'group.id': 'g' }, 1, base);
    expect(pollTimeoutOverdue(ctx, 999)).toBe(false);
    expect(pollTimeoutOverdue(ctx, 1000)).toBe(true);
    expect(pollTimeoutOverdue(context({ 'group.id': 'g' }, 1, { ...base, pollWaiting: 'c.app' }), 5000)).toBe(false);
    expect(pollTimeoutOverdue(context({ 'group.id': 'g' }, 1, { ...base, generationId: -1, memberId: '' }), 5000)).toBe(false);
    expect(pollTimeoutOverdue(context({ 'group.id': 'g' }, 1, { ...base, pollDeadline: null }), 5000)).toBe(false);
  });

  it('the context keeps the poll timer’s deadline: set when poll() returns', () => {
    const m = polledOnce();
    expect(m.context<ConsumerContext>().pollDeadline).toBe(6040);
  });

  it('a dynamic member: LeaveGroup and no Heartbeat; the overdue poll timer then does nothing', () => {
    const m = polledOnce();
    const fx = m.send({ type: 'heartbeatDue', key: 'heartbeat', data: {} }, 8040);
    expect(sends(fx)).toEqual(['LeaveGroup→group-coordinator']);
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: '', rejoinNeeded: true, pollDeadline: null });
    expect(membershipState(m.state())).toBe('STABLE');
    expect(sends(m.send({ type: 'pollTimeoutExpired', key: 'pollTimeout', data: {} }, 8040))).toEqual([]);
  });

  it('a static member: neither LeaveGroup nor Heartbeat', () => {
    const m = polledOnce({ 'group.instance.id': 'i1' });
    const fx = m.send({ type: 'heartbeatDue', key: 'heartbeat', data: {} }, 8040);
    expect(sends(fx)).toEqual([]);
    expect(fx.some((e) => e.type === 'cancel' && e.key === 'heartbeat')).toBe(true);
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: '', rejoinNeeded: true });
  });

  it('a heartbeat due before the poll deadline goes out as before', () => {
    const m = polledOnce();
    expect(sends(m.send({ type: 'heartbeatDue', key: 'heartbeat', data: {} }, 3010))).toEqual(['Heartbeat→group-coordinator']);
  });
});
