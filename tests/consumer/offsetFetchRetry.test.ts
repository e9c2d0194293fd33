/**
 * How often the consumer asks again for its committed offsets while a transaction holds them
 * (UNSTABLE_OFFSET_COMMIT) or the coordinator is moving: ConsumerCoordinator.fetchCommittedOffsets
 * sleeps `retryBackoff.backoff(attempts++)` between attempts — retry.backoff.ms (100) doubling up to
 * retry.backoff.max.ms (1000). The model waited a constant retry.backoff.ms.
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { answer, joinedAsLeader, lost, positionsFetched, sent, synced } from '../machines/consumerDriver';
import { inputOf } from '../machines/harness';

const retryDelay = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'timer' && e.name === 'offsetsRetry' ? [e.delay] : []))[0];

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'isolation.level': 'read_committed' }, topics: ['t'] }],
};

describe('OffsetFetch retries back off exponentially (ConsumerCoordinator.fetchCommittedOffsets)', () => {
  it('100, 200, 400, 800, then 1000 ms while the offsets stay unstable; a lost request counts too', () => {
    const { m, sync } = joinedAsLeader(inputOf(scenario, 'c.consumer'));
    let fetch = sent(synced(m, sync, [{ topic: 't', partition: 0 }]), 'OffsetFetch');
    const delays: number[] = [];
    let now = 30;
    for (let i = 0; i < 6; i++) {
      const fx =
        i === 3
          ? m.send(lost(fetch), now)
          : m.send(
              answer('OffsetFetchResponse', fetch?.payload.correlationId as number, { error: 'UNSTABLE_OFFSET_COMMIT', offsets: [] }),
              now,
            );
      delays.push(retryDelay(fx) as number);
      now += delays.at(-1) as number;
      fetch = sent(m.send({ type: 'offsetsRetry', key: 'offsets', data: {} }, now), 'OffsetFetch');
      expect(fetch, `attempt ${i + 2}`).toBeDefined();
    }
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
    // an answer with offsets ends the attempts: the next failure waits retry.backoff.ms again
    positionsFetched(m, fetch, now + 1);
    expect(m.context<{ offsetsAttempts: number }>().offsetsAttempts).toBe(0);
  });
});
