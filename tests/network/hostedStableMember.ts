/**
 * The coordinator-lookup tests' member of a group whose coordinator lives on a `__consumer_offsets`
 * leader (tests/fixtures/hostedGroup.ts): driven from its boot to STABLE, and the lookup's answers.
 */
import { expect } from 'vitest';
import { membershipState } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { HOSTED_GROUP_CONSUMER, HOSTED_GROUP_COORDINATOR } from '../fixtures/hostedGroup';
import { answer, bootAndPoll, recordsOf, sent } from '../machines/consumerDriver';
import { type Driven, inputOf } from '../machines/harness';
import { metadataOfT, partitionT0 } from '../machines/replicatedTopic';

/** The `coordinatorLookupRetry` timer an answer armed, if any. */
export const lookupRetryTimer = (fx: readonly Effect[]) =>
  fx.find((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer' && e.name === 'coordinatorLookupRetry');

/** The FetchResponse to `fetch` (t-0, from the broker it went to) with the records at `offsets`. */
export const fetchAnswer = (fetch: ReturnType<typeof sent>, offsets: number[]) =>
  answer('FetchResponse', fetch?.payload.correlationId as number, { partitions: [recordsOf(offsets)] }, fetch?.to);

/** FindCoordinator `find` answered COORDINATOR_NOT_AVAILABLE by broker-0 at `now`. */
export const lookupNotAvailable = (m: Driven, find: ReturnType<typeof sent>, now: number) =>
  m.send(answer('FindCoordinatorResponse', find?.payload.correlationId as number, { error: 'COORDINATOR_NOT_AVAILABLE' }, 'broker-0'), now);

/**
 * A member STABLE in generation 1 with coordinator broker-1, joined from its application's first
 * poll(), which returned record 0 of t-0 (position 1); no request in flight and the application
 * outside poll(); `config` is added to the consumer's.
 */
export function stableHostedMember(config: Record<string, unknown> = {}): Driven {
  const scenario = {
    ...HOSTED_GROUP_CONSUMER,
    clients: [{ ...HOSTED_GROUP_CONSUMER.clients[0], config: { ...HOSTED_GROUP_CONSUMER.clients[0]?.config, ...config } }],
  };
  const coordinator = HOSTED_GROUP_COORDINATOR;
  // subscribe() sends nothing: the application's first poll() looks the coordinator up and joins
  const { m, polled } = bootAndPoll(inputOf(scenario, 'c.consumer'));
  const find = sent(polled, 'FindCoordinator');
  const found = { error: 'NONE', coordinator };
  const join = sent(m.send(answer('FindCoordinatorResponse', find?.payload.correlationId as number, found, 'broker-0'), 2), 'JoinGroup');
  const joined = { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' };
  const sync = sent(m.send(answer('JoinGroupResponse', join?.payload.correlationId as number, joined, coordinator), 4), 'SyncGroup');
  const assignment = { error: 'NONE', assignment: [{ topic: 't', partition: 0 }] };
  const offsets = sent(
    m.send(answer('SyncGroupResponse', sync?.payload.correlationId as number, assignment, coordinator), 6),
    'OffsetFetch',
  );
  const committed = { error: 'NONE', offsets: [{ topic: 't', partition: 0, offset: 0 }] };
  const fetch = sent(m.send(answer('OffsetFetchResponse', offsets?.payload.correlationId as number, committed, coordinator), 8), 'Fetch');
  expect(membershipState(m.state())).toBe('STABLE');
  // the first poll() returns record 0 (position 1); its prefetch comes back empty: the application is outside poll()
  const prefetch = sent(m.send(fetchAnswer(fetch, [0]), 9), 'Fetch');
  m.send(fetchAnswer(prefetch, []), 10);
  expect(m.context<{ pollWaiting: string | null }>().pollWaiting).toBeNull();
  return m;
}

/**
 * Fails the lookup `first` `n` times from `from`: each backoff's delay, the Metadata update after it
 * (no FindCoordinator before its answer), the next FindCoordinator to broker-0.
 */
export function failLookups(m: Driven, first: ReturnType<typeof sent>, from: number, n: number) {
  let find = first;
  let now = from;
  const delays: number[] = [];
  for (let i = 0; i < n; i++) {
    const timer = lookupRetryTimer(lookupNotAvailable(m, find, now));
    delays.push(timer?.delay as number);
    now += timer?.delay as number;
    const slept = m.send({ type: 'coordinatorLookupRetry', data: timer?.data }, now);
    expect(sent(slept, 'FindCoordinator')).toBeUndefined();
    const metadata = sent(slept, 'Metadata');
    expect(metadata).toBeDefined();
    now += 2;
    find = sent(
      m.send(
        answer('MetadataResponse', metadata?.payload.correlationId as number, metadataOfT(partitionT0('broker-0', 0)), metadata?.to),
        now,
      ),
      'FindCoordinator',
    );
    expect(find?.to).toBe('broker-0');
    now += 2;
  }
  return { delays, find, now };
}
