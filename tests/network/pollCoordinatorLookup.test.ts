/**
 * The main thread's coordinator lookup inside poll() (ClassicKafkaConsumer.poll →
 * ConsumerCoordinator.poll → coordinatorUnknownAndUnreadySync → AbstractCoordinator.ensureCoordinatorReady):
 * with the coordinator unknown a poll() looks it up at once; a failed lookup sleeps
 * `retryBackoff.backoff(attempts++)` (retry.backoff.ms doubling to retry.backoff.max.ms), then
 * `client.awaitMetadataUpdate(timer)`, then asks again; ensureCoordinatorReady is synchronized, so the
 * heartbeat thread's lookups wait meanwhile. The old model looked up only for a held request or on the
 * heartbeat thread's wake-up, every retry.backoff.ms.
 */
import { describe, expect, it } from 'vitest';
import type { ConsumerContext } from '../../src/sim/consumer/consumer.machine';
import { HOSTED_GROUP_COORDINATOR } from '../fixtures/hostedGroup';
import { answer, sent } from '../machines/consumerDriver';
import { sends } from '../machines/harness';
import { metadataOfT, partitionT0 } from '../machines/replicatedTopic';
import { failLookups, lookupNotAvailable, lookupRetryTimer, stableHostedMember } from './hostedStableMember';

const COORDINATOR = HOSTED_GROUP_COORDINATOR;
const poll = { type: 'poll', from: 'c.app', args: {} };
const retryTimer = lookupRetryTimer;
const notAvailable = lookupNotAvailable;
const stable = stableHostedMember;

describe('inside poll(): ensureCoordinatorReady looks the coordinator up, with its own doubling backoff', () => {
  it('a failed lookup while poll() waits: the next after 100, 200, 400, 800, 1000, 1000 ms, each after a Metadata answer (awaitMetadataUpdate)', () => {
    const m = stable();
    m.send(poll, 10);
    // a heartbeat answered NOT_COORDINATOR: the coordinator unknown, FindCoordinator at once
    const first = sent(m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010), 'FindCoordinator');
    expect(first).toBeDefined();
    const { delays, find, now } = failLookups(m, first, 3012, 6);
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
    // found: the attempts start again from 0
    m.send(
      answer(
        'FindCoordinatorResponse',
        find?.payload.correlationId as number,
        { error: 'NONE', coordinator: 'broker-2.group-coordinator' },
        'broker-0',
      ),
      now,
    );
    expect(m.context<ConsumerContext>()).toMatchObject({ groupCoordinator: 'broker-2.group-coordinator', lookupAttempts: 0 });
  });

  it("the heartbeat thread's wake-up sends no FindCoordinator while poll() waits (ensureCoordinatorReady holds the coordinator's lock)", () => {
    const m = stable();
    m.send(poll, 10);
    const find = sent(m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010), 'FindCoordinator');
    notAvailable(m, find, 3012);
    const woke = m.send({ type: 'heartbeatThreadLookup' }, 3110);
    expect(sent(woke, 'FindCoordinator')).toBeUndefined();
    expect(woke).toContainEqual(expect.objectContaining({ type: 'timer', name: 'heartbeatThreadLookup', delay: 100 }));
  });

  it('a poll() that starts with the coordinator unknown looks it up at once, whatever backoff a lookup outside poll() left', () => {
    const m = stable();
    // outside poll(): the heartbeat's NOT_COORDINATOR, a lookup at once (the heartbeat thread), answered COORDINATOR_NOT_AVAILABLE
    const find = sent(m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010), 'FindCoordinator');
    expect(retryTimer(notAvailable(m, find, 3012))?.delay).toBe(100);
    const fx = m.send(poll, 3020);
    expect(sends(fx)).toContain('FindCoordinator→broker-0');
  });
});

describe("the heartbeat thread's heartbeat while poll() waits for the coordinator", () => {
  it('heartbeatDue with the coordinator unknown: the Heartbeat waits for it, no FindCoordinator of its own; it goes once poll() finds the coordinator', () => {
    const m = stable();
    m.send(poll, 10);
    const find = sent(m.send(answer('HeartbeatResponse', 99, { error: 'NOT_COORDINATOR' }, COORDINATOR), 3010), 'FindCoordinator');
    notAvailable(m, find, 3012);
    // failHeartbeat re-armed the heartbeat after 100 ms: it comes while poll()'s lookup sleeps
    expect(sends(m.send({ type: 'heartbeatDue' }, 3110))).toEqual([]);
    const slept = m.send({ type: 'coordinatorLookupRetry', data: { metadata: true } }, 3112);
    const metadata = sent(slept, 'Metadata');
    const again = sent(
      m.send(
        answer('MetadataResponse', metadata?.payload.correlationId as number, metadataOfT(partitionT0('broker-0', 0)), metadata?.to),
        3114,
      ),
      'FindCoordinator',
    );
    const found = { error: 'NONE', coordinator: 'broker-2.group-coordinator' };
    const fx = m.send(answer('FindCoordinatorResponse', again?.payload.correlationId as number, found, 'broker-0'), 3116);
    expect(sends(fx)).toEqual(['Heartbeat→broker-2.group-coordinator']);
  });
});
