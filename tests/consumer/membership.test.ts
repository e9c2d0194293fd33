/** membership.ts (AbstractCoordinator/ConsumerCoordinator): join, sync, heartbeat and their guards, directly. */
import { describe, expect, it } from 'vitest';
import {
  heartbeatRejoinsAfterCommit,
  heartbeatRejoinsNow,
  onClose,
  onHeartbeatResponse,
  onJoined,
  onJoinFailed,
  onSynced,
  onSyncFailed,
  startRejoin,
  syncFailure,
} from '../../src/sim/consumer/membership';
import { appCall, context, replies, response, run, sent, timers, tp0, tp1 } from './fixture';

const member = { memberId: 'c-0', generationId: 3 };

describe('membership', () => {
  it('onJoined starts heartbeats (heartbeatThread.enable()), keeps the generation and member id and sends SyncGroup with them', () => {
    const { d, effects } = run(context(), (d, out) =>
      onJoined(
        d,
        response('JoinGroupResponse', { correlationId: 0, error: 'NONE', generationId: 3, memberId: 'c-0', leader: 'c-0' } as const),
        out,
      ),
    );
    expect(d).toMatchObject(member);
    // the heartbeat thread's timers: the first heartbeat, and the member's session (from this answer)
    expect(timers(effects)).toEqual([
      { name: 'heartbeatDue', delay: 3000 },
      { name: 'heartbeatSessionExpired', delay: 45000 },
    ]);
    expect(sent(effects)).toEqual([
      { rpc: 'SyncGroup', to: 'group-coordinator', correlationId: 0, groupId: 'g', generationId: 3, memberId: 'c-0' },
    ]);
  });

  it('onJoinFailed forgets an unknown member id and joins again at once; a coordinator error waits for retry.backoff.ms (joinGroupIfNeeded)', () => {
    const refused = (error: 'UNKNOWN_MEMBER_ID' | 'NOT_COORDINATOR') =>
      run(context({}, 1, { memberId: 'c-0' }), (d, out) =>
        onJoinFailed(
          d,
          response('JoinGroupResponse', { correlationId: 0, error, generationId: -1, memberId: '', leader: '' } as const),
          out,
        ),
      );
    const unknown = refused('UNKNOWN_MEMBER_ID');
    expect(unknown.d.memberId).toBe('');
    expect(timers(unknown.effects)).toEqual([]);
    expect(sent(unknown.effects).map((s) => s.rpc)).toEqual(['JoinGroup']);
    const moved = refused('NOT_COORDINATOR');
    expect(timers(moved.effects)).toEqual([{ name: 'rejoinBackoff', delay: 100 }]);
    expect(sent(moved.effects)).toEqual([]);
  });

  it('syncFailure: a coordinator moved rejoins after the backoff; REBALANCE_IN_PROGRESS, UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION at once; anything else (COORDINATOR_LOAD_IN_PROGRESS) is thrown from poll()', () => {
    expect(syncFailure('NOT_COORDINATOR')).toBe('rejoin-after-backoff');
    expect(syncFailure('COORDINATOR_NOT_AVAILABLE')).toBe('rejoin-after-backoff');
    expect(syncFailure('REBALANCE_IN_PROGRESS')).toBe('rejoin');
    expect(syncFailure('UNKNOWN_MEMBER_ID')).toBe('rejoin');
    expect(syncFailure('ILLEGAL_GENERATION')).toBe('rejoin');
    expect(syncFailure('COORDINATOR_LOAD_IN_PROGRESS')).toBe('throw');
    const { d, effects } = run(context({}, 1, { memberId: 'c-0', generationId: 2, pollWaiting: 'c.app' }), (d, out) =>
      onSyncFailed(
        d,
        response('SyncGroupResponse', { correlationId: 1, error: 'COORDINATOR_LOAD_IN_PROGRESS', assignment: [] } as const),
        out,
      ),
    );
    expect(replies(effects)).toEqual([{ call: 'poll', ok: false, error: 'KafkaException' }]);
    expect(d.pollError).toEqual({ exception: 'KafkaException', thrown: true });
  });

  it('onSynced takes the assignment, starts the auto-commit timer (heartbeats run on from the JoinGroup answer), and asks for the committed offsets', () => {
    const { d, effects } = run(context({}, 2, member), (d, out) =>
      onSynced(d, response('SyncGroupResponse', { correlationId: 1, error: 'NONE', assignment: [tp0, tp1] } as const, 7000), out),
    );
    expect(d.assignment).toEqual([tp0, tp1]);
    expect(d.nextAutoCommitAt).toBe(7000 + 5000);
    expect(timers(effects)).toEqual([]);
    expect(sent(effects).map((s) => s.rpc)).toEqual(['OffsetFetch']);
  });

  it('onSynced: a rejoin asked for during the rebalance (an OffsetCommit answered REBALANCE_IN_PROGRESS) is done with (rejoinNeeded = false)', () => {
    const { d } = run(context({}, 2, { ...member, rejoinNeeded: true }), (d, out) =>
      onSynced(d, response('SyncGroupResponse', { correlationId: 1, error: 'NONE', assignment: [tp0] } as const, 7000), out),
    );
    expect(d.rejoinNeeded).toBe(false);
  });

  it('onSyncFailed: a success that finds the generation reset meanwhile fails as ILLEGAL_GENERATION (SyncGroupResponseHandler)', () => {
    const { effects } = run(context({}, 2, { memberId: 'c-0', generationId: -1 }), (d, out) =>
      onSyncFailed(d, response('SyncGroupResponse', { correlationId: 1, error: 'NONE', assignment: [tp0] } as const, 7000), out),
    );
    expect(effects).toContainEqual({
      type: 'fact',
      fact: { kind: 'clientError', client: expect.any(String), error: 'ILLEGAL_GENERATION', during: 'SyncGroup', fatal: false },
    });
  });

  it('onHeartbeatResponse: REBALANCE_IN_PROGRESS keeps the session (heartbeats go on), ILLEGAL_GENERATION forgets the generation and stops them', () => {
    const rebalance = run(context({}, 1, member), (d, out) =>
      onHeartbeatResponse(d, response('HeartbeatResponse', { correlationId: 9, error: 'REBALANCE_IN_PROGRESS' } as const), out),
    );
    expect(rebalance.d).toMatchObject({ ...member, rejoinNeeded: true });
    expect(rebalance.effects.some((e) => e.type === 'cancel')).toBe(false);
    const illegal = run(context({}, 1, member), (d, out) =>
      onHeartbeatResponse(d, response('HeartbeatResponse', { correlationId: 9, error: 'ILLEGAL_GENERATION' } as const), out),
    );
    expect(illegal.d).toMatchObject({ memberId: 'c-0', generationId: -1, rejoinNeeded: true });
    expect(illegal.effects).toContainEqual({ type: 'cancel', key: 'heartbeat' });
    const coordinator = run(context({}, 1, member), (d, out) =>
      onHeartbeatResponse(d, response('HeartbeatResponse', { correlationId: 9, error: 'NOT_COORDINATOR' } as const), out),
    );
    // Heartbeat.failHeartbeat: no rejoin, the next heartbeat after retry.backoff.ms (heartbeatRetryBackoff.test.ts)
    expect(coordinator.effects).toEqual([
      { type: 'timer', key: 'heartbeat', name: 'heartbeatDue', delay: 100, data: {}, background: true },
    ]);
    expect(coordinator.d.rejoinNeeded).toBe(false);
  });

  it('heartbeat guards: rejoin now only inside poll(); through onJoinPrepare only if the answer leaves a generation to commit with', () => {
    const polling = context({ 'enable.auto.commit': true }, 1, {
      ...member,
      assignment: [tp0],
      positions: { 't-0': 4 },
      pollWaiting: 'c.app',
    });
    const ev = (error: 'REBALANCE_IN_PROGRESS' | 'UNKNOWN_MEMBER_ID' | 'NONE') =>
      response('HeartbeatResponse', { correlationId: 9, error });
    expect(heartbeatRejoinsNow(polling, ev('REBALANCE_IN_PROGRESS'))).toBe(true);
    expect(heartbeatRejoinsNow({ ...polling, pollWaiting: null }, ev('REBALANCE_IN_PROGRESS'))).toBe(false);
    expect(heartbeatRejoinsNow(polling, ev('NONE'))).toBe(false);
    expect(heartbeatRejoinsAfterCommit(polling, ev('REBALANCE_IN_PROGRESS'))).toBe(true);
    expect(heartbeatRejoinsAfterCommit(polling, ev('UNKNOWN_MEMBER_ID'))).toBe(false);
    expect(
      heartbeatRejoinsAfterCommit({ ...polling, config: { ...polling.config, 'enable.auto.commit': false } }, ev('REBALANCE_IN_PROGRESS')),
    ).toBe(false);
  });

  it('startRejoin revokes every partition (eager), stops heartbeats and sends JoinGroup with the member id', () => {
    const { d, effects } = run(context({}, 1, { ...member, assignment: [tp0], positions: { 't-0': 4 }, rejoinNeeded: true }), startRejoin);
    expect(d).toMatchObject({ assignment: [], positions: {}, rejoinNeeded: false });
    expect(effects[0]).toEqual({ type: 'cancel', key: 'heartbeat' });
    expect(sent(effects)).toMatchObject([{ rpc: 'JoinGroup', memberId: 'c-0', rebalanceTimeoutMs: 300000 }]);
  });

  it('onClose sends LeaveGroup only for a member of the group, and answers close()', () => {
    const inGroup = run(context({}, 1, member), (d, out) => onClose(d, appCall('close', {}), out));
    expect(sent(inGroup.effects).map((s) => s.rpc)).toEqual(['LeaveGroup']);
    expect(replies(inGroup.effects)).toEqual([{ call: 'close', ok: true }]);
    const notYet = run(context(), (d, out) => onClose(d, appCall('close', {}), out));
    expect(sent(notYet.effects)).toEqual([]);
  });

  it('maybeLeaveGroup: no LeaveGroup from a member whose generation an error reset (UNJOINED), unless its JoinGroup is in flight', () => {
    const reset = { memberId: 'c-0', generationId: -1 };
    const unjoined = run(context({}, 1, reset), (d, out) => onClose(d, appCall('close', {}), out));
    expect(sent(unjoined.effects)).toEqual([]);
    expect(replies(unjoined.effects)).toEqual([{ call: 'close', ok: true }]);
    const joining = run(context({}, 1, reset), (d, out) => onClose(d, appCall('close', {}), out, true));
    expect(sent(joining.effects).map((s) => s.rpc)).toEqual(['LeaveGroup']);
  });

  it('maybeLeaveGroup: no LeaveGroup, and no FindCoordinator, while the coordinator is unknown', () => {
    const ctx = context({}, 1, member);
    const replicated = {
      ...ctx.meta,
      topics: {
        ...ctx.meta.topics,
        __consumer_offsets: { name: '__consumer_offsets', partitions: 1, leaders: ['broker-0'], replicas: [['broker-0']] },
      },
    };
    const unknown = run({ ...ctx, meta: replicated, groupCoordinator: null } as typeof ctx, (d, out) =>
      onClose(d, appCall('close', {}), out),
    );
    expect(sent(unknown.effects)).toEqual([]);
    const known = run({ ...ctx, meta: replicated, groupCoordinator: 'broker-0' } as typeof ctx, (d, out) =>
      onClose(d, appCall('close', {}), out),
    );
    expect(sent(known.effects).map((s) => [s.rpc, s.to])).toEqual([['LeaveGroup', 'broker-0']]);
  });
});
