/**
 * commitSync() and close()'s auto-commit wait for an unknown coordinator the way poll() does:
 * ConsumerCoordinator.commitOffsetsSync calls coordinatorUnknownAndUnreadySync(timer) →
 * AbstractCoordinator.ensureCoordinatorReady(timer) before each attempt — a failed lookup sleeps
 * `retryBackoff.backoff(attempts++)` (retry.backoff.ms doubling to retry.backoff.max.ms, attempts from 0
 * at each call) then `client.awaitMetadataUpdate(timer)`. The old model looked up for such a held
 * commit every retry.backoff.ms, without the metadata update.
 */
import { describe, expect, it } from 'vitest';
import type { ConsumerContext } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { HOSTED_GROUP_COORDINATOR } from '../fixtures/hostedGroup';
import { answer, sent } from '../machines/consumerDriver';
import { sends } from '../machines/harness';
import { failLookups, lookupNotAvailable, stableHostedMember } from './hostedStableMember';

const COORDINATOR = HOSTED_GROUP_COORDINATOR;
const notAvailable = lookupNotAvailable;
const commitSync = { type: 'commitSync', from: 'c.app', args: { offsets: [{ topic: 't', partition: 0, offset: 3 }] } };
const stable = stableHostedMember;
/** The `commitDeadline` timer an event armed. */
const deadlineTimer = (fx: readonly Effect[]) =>
  fx.find((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer' && e.name === 'commitDeadline');

describe('commitSync() and close() wait for the coordinator in ensureCoordinatorReady, with its doubling backoff', () => {
  it('commitSync() held for an unknown coordinator: lookups 100, 200, 400, 800, 1000 ms apart, each after a Metadata answer; found, the commit goes there', () => {
    const m = stable();
    // outside poll(): a heartbeat answered NOT_COORDINATOR, the heartbeat thread's lookup in flight
    const find = sent(m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010), 'FindCoordinator');
    expect(sends(m.send(commitSync, 3011))).toEqual([]);
    const { delays, find: last, now } = failLookups(m, find, 3012, 5);
    expect(delays).toEqual([100, 200, 400, 800, 1000]);
    const found = { error: 'NONE', coordinator: 'broker-2.group-coordinator' };
    const fx = m.send(answer('FindCoordinatorResponse', last?.payload.correlationId as number, found, 'broker-0'), now);
    expect(sends(fx)).toContain('OffsetCommit→broker-2.group-coordinator');
    expect(m.context<ConsumerContext>()).toMatchObject({ lookupAttempts: 0 });
  });

  it('the heartbeat thread sends no FindCoordinator meanwhile (ensureCoordinatorReady holds the lock)', () => {
    const m = stable();
    const find = sent(m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010), 'FindCoordinator');
    m.send(commitSync, 3011);
    notAvailable(m, find, 3012);
    expect(sent(m.send({ type: 'heartbeatThreadLookup' }, 3110), 'FindCoordinator')).toBeUndefined();
  });

  it("close()'s auto-commit held for an unknown coordinator backs off the same way", () => {
    const m = stable({ 'enable.auto.commit': true });
    const find = sent(m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010), 'FindCoordinator');
    expect(sends(m.send({ type: 'close', from: 'c.app', args: {} }, 3011))).toEqual([]);
    expect(m.state()).toBe('closing');
    expect(failLookups(m, find, 3012, 3).delays).toEqual([100, 200, 400]);
  });
});

describe("commitOffsetsSync's timer: no attempt at or after the deadline (`while (timer.notExpired())`)", () => {
  it('a commitSync() held for the coordinator until default.api.timeout.ms throws TimeoutException there, without a request', () => {
    const m = stable();
    m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010);
    const held = m.send(commitSync, 3011);
    expect(held).toContainEqual(expect.objectContaining({ type: 'timer', name: 'commitDeadline', delay: 60000 }));
    const deadline = deadlineTimer(held);
    const fx = m.send({ type: 'commitDeadline', data: deadline?.data }, 63011);
    expect(sends(fx)).toEqual([]);
    expect(fx).toContainEqual({
      type: 'call',
      to: 'c.app',
      name: 'reply',
      args: { call: 'commitSync', ok: false, error: 'TimeoutException' },
    });
    expect(m.context<ConsumerContext>().coordinatorWaiting).toEqual([]);
    expect(m.context<ConsumerContext>().commitInFlight).toBeNull();
  });

  it("close()'s commit held until its timeout ends there: the consumer closes (no LeaveGroup: the coordinator unknown)", () => {
    const m = stable({ 'enable.auto.commit': true });
    m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010);
    const held = m.send({ type: 'close', from: 'c.app', args: {} }, 3011);
    const deadline = deadlineTimer(held);
    expect(deadline?.delay).toBe(30000);
    const fx = m.send({ type: 'commitDeadline', data: deadline?.data }, 33011);
    expect(m.state()).toBe('closed');
    expect(sends(fx)).toEqual([]);
    expect(fx).toContainEqual({ type: 'call', to: 'c.app', name: 'reply', args: { call: 'close', ok: true } });
  });

  it('a retry that falls due at the deadline is not sent: commitSync() throws TimeoutException', () => {
    const m = stable();
    const first = sent(m.send(commitSync, 10), 'OffsetCommit');
    // a retriable refusal 50 ms before the deadline: the backoff is cut to the deadline
    const fx = m.send(
      answer('OffsetCommitResponse', first?.payload.correlationId as number, { error: 'COORDINATOR_LOAD_IN_PROGRESS' }, COORDINATOR),
      59960,
    );
    expect(fx).toContainEqual(expect.objectContaining({ type: 'timer', name: 'commitRetry', delay: 50 }));
    const retry = m.send({ type: 'commitRetry' }, 60010);
    expect(sends(retry)).toEqual([]);
    expect(retry).toContainEqual({
      type: 'call',
      to: 'c.app',
      name: 'reply',
      args: { call: 'commitSync', ok: false, error: 'TimeoutException' },
    });
  });

  it('a commitSync() whose request is still unanswered at default.api.timeout.ms throws TimeoutException then; the late answer completes nothing', () => {
    const m = stable();
    const sentAt = m.send(commitSync, 10);
    const request = sent(sentAt, 'OffsetCommit');
    // client.poll(future, timer) returns at the deadline with the future not done: the loop ends
    const deadline = deadlineTimer(sentAt);
    expect(deadline?.delay).toBe(60000);
    const fx = m.send({ type: 'commitDeadline', data: deadline?.data }, 60010);
    expect(sends(fx)).toEqual([]);
    expect(fx).toContainEqual({
      type: 'call',
      to: 'c.app',
      name: 'reply',
      args: { call: 'commitSync', ok: false, error: 'TimeoutException' },
    });
    expect(m.context<ConsumerContext>().commitInFlight).toBeNull();
    // the answer after it: no second reply, no retry
    const late = m.send(answer('OffsetCommitResponse', request?.payload.correlationId as number, { error: 'NONE' }, COORDINATOR), 60020);
    expect(late.filter((e) => e.type === 'call')).toEqual([]);
    expect(sends(late)).toEqual([]);
  });

  it("close()'s commit unanswered at its timeout: the consumer leaves the group and closes", () => {
    const m = stable({ 'enable.auto.commit': true });
    const fx0 = m.send({ type: 'close', from: 'c.app', args: {} }, 3011);
    expect(sent(fx0, 'OffsetCommit')).toBeDefined();
    const deadline = deadlineTimer(fx0);
    const fx = m.send({ type: 'commitDeadline', data: deadline?.data }, 33011);
    expect(m.state()).toBe('closed');
    expect(sends(fx)).toEqual([`LeaveGroup→${COORDINATOR}`]);
    expect(fx).toContainEqual({ type: 'call', to: 'c.app', name: 'reply', args: { call: 'close', ok: true } });
  });

  it('the deadline is put off while a retry backs off (the retry ends the commit if due then), and goes with a commit that ends', () => {
    const m = stable();
    const first = sent(m.send(commitSync, 10), 'OffsetCommit');
    const refused = m.send(
      answer('OffsetCommitResponse', first?.payload.correlationId as number, { error: 'COORDINATOR_LOAD_IN_PROGRESS' }, COORDINATOR),
      20,
    );
    expect(refused).toContainEqual({ type: 'cancel', key: 'commitDeadline' });
    const retry = m.send({ type: 'commitRetry' }, 120);
    expect(retry).toContainEqual(expect.objectContaining({ type: 'timer', name: 'commitDeadline', delay: 59890 }));
    const ok = m.send(
      answer('OffsetCommitResponse', sent(retry, 'OffsetCommit')?.payload.correlationId as number, { error: 'NONE' }, COORDINATOR),
      130,
    );
    expect(ok).toContainEqual({ type: 'cancel', key: 'commitDeadline' });
  });
});
