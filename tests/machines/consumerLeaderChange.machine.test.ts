/**
 * The consumer follows a partition's leader (FetchCollector.handleInitializeErrors →
 * requestMetadataUpdate, KIP-951's currentLeader in AbstractFetch, prepareFetchRequests skipping a
 * partition without a leader), driven directly: after a metadata error the partition is fetched again
 * at once from the leader the consumer knows — the stale one — while the Metadata request goes; once
 * the answer names the new leader, the next Fetch goes there from the same position. A partition
 * whose metadata names no leader waits in AWAITING_METADATA.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, consumerMachine, fetchingState } from '../../src/sim/consumer/consumer.machine';
import type { ConsumerInput } from '../../src/sim/consumer/consumerContext';
import type { Effect } from '../../src/sim/kernel/effects';
import type { PartitionMetadata } from '../../src/sim/protocol/replicationMessages';
import { fetchErrorPartition } from '../consumer/fixture';
import { plainBatch } from '../fixtures/plainBatch';
import { type Driven, drive, inputOf } from './harness';
import { metadataOfT, partitionT0 as part, threeBrokerScenario, withReplicatedT } from './replicatedTopic';

type SendEffect = Extract<Effect, { type: 'send' }>;
let envelope = 1;
const answer = (type: string, to: SendEffect | undefined, payload: Record<string, unknown>, from = 'group-coordinator') => ({
  type,
  from,
  envelopeId: envelope++,
  inReplyTo: 0,
  payload: { correlationId: to?.payload.correlationId as number, ...payload },
});
const all = (fx: readonly Effect[], rpc: string) => fx.filter((e): e is SendEffect => e.type === 'send' && e.rpc === rpc);
const sent = (fx: readonly Effect[], rpc: string) => all(fx, rpc).pop();

const scenario = threeBrokerScenario([
  { id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['t'] },
]);

const input = (replicated: boolean): ConsumerInput => withReplicatedT(inputOf(scenario, 'c.consumer') as ConsumerInput, replicated);

/**
 * A member of generation 1 with t-0 at its committed offset `offset`, its first Fetch in flight to
 * broker-0. Its application waits in its first poll(), the one that joined (fetches go out only from
 * inside poll()).
 */
function fetchingFromBroker0(offset = 0, replicated = true) {
  const m = drive(consumerMachine, input(replicated));
  m.send({ type: 'boot' }, 0);
  // the application's first poll() joins the group and waits
  const join = sent(m.send({ type: 'poll', from: 'c.app', args: {} }, 0), 'JoinGroup');
  const sync = sent(
    m.send(answer('JoinGroupResponse', join, { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' }), 10),
    'SyncGroup',
  );
  const offsets = sent(
    m.send(answer('SyncGroupResponse', sync, { error: 'NONE', assignment: [{ topic: 't', partition: 0 }] }), 20),
    'OffsetFetch',
  );
  const fx = m.send(
    answer('OffsetFetchResponse', offsets, { error: 'NONE', offsets: [{ topic: 't', partition: 0, offset, error: 'NONE' }] }),
    30,
  );
  const fetch = sent(fx, 'Fetch');
  expect(fetch).toMatchObject({ to: 'broker-0', payload: { partitions: [{ fetchOffset: offset }] } });
  return { m, fetch };
}

const fetchError = (m: Driven, fetch: SendEffect | undefined, error: string, now: number, extra: Record<string, unknown> = {}) =>
  m.send(
    answer(
      'FetchResponse',
      fetch,
      {
        partitions: [fetchErrorPartition(error, extra)],
      },
      fetch?.to,
    ),
    now,
  );

const metadataAnswer = (m: Driven, request: SendEffect | undefined, p: PartitionMetadata, now: number) =>
  m.send(answer('MetadataResponse', request, metadataOfT(p), request?.to), now);

const fetching = (m: Driven) => fetchingState(m.state());

describe('the consumer follows the leader', () => {
  for (const error of [
    'NOT_LEADER_OR_FOLLOWER',
    'REPLICA_NOT_AVAILABLE',
    'FENCED_LEADER_EPOCH',
    'OFFSET_NOT_AVAILABLE',
    'KAFKA_STORAGE_ERROR',
  ]) {
    it(`${error}: fetched again at once from the stale leader, a metadata update asked; after the Metadata answer, from the new leader`, () => {
      const { m, fetch } = fetchingFromBroker0(7);
      const fx = fetchError(m, fetch, error, 40);
      // AbstractFetch.prepareFetchRequests: position.currentLeader is still broker-0
      const stale = sent(fx, 'Fetch');
      expect(stale).toMatchObject({ to: 'broker-0', payload: { partitions: [{ fetchOffset: 7 }] } });
      const metadata = sent(fx, 'Metadata');
      expect(metadata).toMatchObject({ to: 'broker-0', background: true, payload: { topics: ['t'] } });
      expect(fetching(m)).toBe('ASSIGNED.FETCH_IN_FLIGHT');
      // the answer names broker-1; t-0's fetch from broker-0 is still in flight
      expect(all(metadataAnswer(m, metadata, part('broker-1', 1), 50), 'Fetch')).toEqual([]);
      const again = sent(fetchError(m, stale, error, 55), 'Fetch');
      expect(again).toMatchObject({ to: 'broker-1', payload: { partitions: [{ fetchOffset: 7, currentLeaderEpoch: 1 }] } });
      expect(fetching(m)).toBe('ASSIGNED.FETCH_IN_FLIGHT');
      expect(m.context<ConsumerContext>().positions['t-0']).toBe(7);
    });
  }

  it('NOT_LEADER_OR_FOLLOWER with a currentLeader hint: fetched from that leader at once, and metadata refreshed', () => {
    const { m, fetch } = fetchingFromBroker0(3);
    const fx = fetchError(m, fetch, 'NOT_LEADER_OR_FOLLOWER', 40, { currentLeader: { leaderId: 'broker-2', leaderEpoch: 4 } });
    expect(sent(fx, 'Fetch')).toMatchObject({ to: 'broker-2', payload: { partitions: [{ fetchOffset: 3, currentLeaderEpoch: 4 }] } });
    expect(sent(fx, 'Metadata')?.to).toBe('broker-0');
    expect(fetching(m)).toBe('ASSIGNED.FETCH_IN_FLIGHT');
  });

  it('an offline partition is not fetched: AWAITING_METADATA, metadata asked again with backoff, fetched once a leader is elected', () => {
    const { m, fetch } = fetchingFromBroker0(5);
    const fx = fetchError(m, fetch, 'NOT_LEADER_OR_FOLLOWER', 40);
    const first = sent(fx, 'Metadata');
    const stale = sent(fx, 'Fetch');
    expect(stale?.to).toBe('broker-0');
    const offline = metadataAnswer(m, first, part(null, 1), 50);
    expect(all(offline, 'Fetch')).toEqual([]);
    // LEADER_NOT_AVAILABLE asks for another update: the first at once (a newer epoch), then with backoff
    const second = sent(offline, 'Metadata');
    // the stale leader answers again: the metadata names no leader now, so nothing is fetched
    expect(all(fetchError(m, stale, 'NOT_LEADER_OR_FOLLOWER', 55), 'Fetch')).toEqual([]);
    expect(fetching(m)).toBe('ASSIGNED.AWAITING_METADATA');
    const same = metadataAnswer(m, second, part(null, 1), 60);
    expect(all(same, 'Metadata')).toEqual([]);
    expect(same).toContainEqual(expect.objectContaining({ type: 'timer', name: 'metadataUpdateDue', delay: 100 }));
    expect(all(m.send({ type: 'fetchRetry' }, 100), 'Fetch')).toEqual([]);
    const third = sent(m.send({ type: 'metadataUpdateDue' }, 160), 'Metadata');
    const elected = metadataAnswer(m, third, part('broker-2', 2), 170);
    expect(sent(elected, 'Fetch')).toMatchObject({ to: 'broker-2', payload: { partitions: [{ fetchOffset: 5, currentLeaderEpoch: 2 }] } });
  });

  it('after records were consumed, the position it resumes from on the new leader is the one after them', () => {
    const { m, fetch } = fetchingFromBroker0(0);
    const batch = plainBatch([
      { offset: 0, value: 'a' },
      { offset: 1, value: 'b' },
    ]);
    // the waiting poll() returns records 0 and 1; its prefetch asks for 2
    const returned = m.send(
      answer(
        'FetchResponse',
        fetch,
        {
          partitions: [
            {
              error: 'NONE',
              topic: 't',
              partition: 0,
              highWatermark: 2,
              lastStableOffset: 2,
              logStartOffset: 0,
              batches: [batch],
              abortedTransactions: [],
            },
          ],
        },
        'broker-0',
      ),
      40,
    );
    const next = sent(returned, 'Fetch');
    expect(next?.payload).toMatchObject({ partitions: [{ fetchOffset: 2 }] });
    m.send({ type: 'poll', from: 'c.app', args: {} }, 50);
    const fx = fetchError(m, next, 'NOT_LEADER_OR_FOLLOWER', 60);
    const stale = sent(fx, 'Fetch');
    expect(stale).toMatchObject({ to: 'broker-0', payload: { partitions: [{ fetchOffset: 2 }] } });
    metadataAnswer(m, sent(fx, 'Metadata'), part('broker-1', 1), 70);
    expect(sent(fetchError(m, stale, 'NOT_LEADER_OR_FOLLOWER', 75), 'Fetch')).toMatchObject({
      to: 'broker-1',
      payload: { partitions: [{ fetchOffset: 2 }] },
    });
  });

  it('a Fetch lost with its leader (replicated topic) asks another broker for metadata and fetches from the leader it names', () => {
    const { m, fetch } = fetchingFromBroker0(4);
    const fx = m.send(
      {
        type: 'disconnected',
        envelopeId: envelope++,
        to: 'broker-0',
        rpc: 'Fetch',
        payload: fetch?.payload,
        timedOut: false,
        reason: 'peer-down',
      },
      40,
    );
    const metadata = sent(fx, 'Metadata');
    expect(metadata?.to).toBe('broker-1');
    expect(sent(metadataAnswer(m, metadata, part('broker-1', 1), 50), 'Fetch')).toMatchObject({
      to: 'broker-1',
      payload: { partitions: [{ fetchOffset: 4 }] },
    });
  });

  it('one replica (no leader epochs): a lost Fetch refreshes nothing and is retried from the same broker, without currentLeaderEpoch', () => {
    const { m, fetch } = fetchingFromBroker0(4, false);
    expect((fetch?.payload.partitions as unknown[])[0]).not.toHaveProperty('currentLeaderEpoch');
    const fx = m.send(
      {
        type: 'disconnected',
        envelopeId: envelope++,
        to: 'broker-0',
        rpc: 'Fetch',
        payload: fetch?.payload,
        timedOut: true,
        reason: 'timeout',
      },
      30030,
    );
    expect(all(fx, 'Metadata')).toEqual([]);
    // no retry timer of its own: the end of broker-0's reconnect backoff (50 ms) lets the fetch go
    expect(all(fx, 'Fetch')).toEqual([]);
    const reconnected = m.send({ type: 'reconnectBackoffExpired', key: 'reconnect:broker-0', data: { node: 'broker-0' } }, 30080);
    expect(sent(reconnected, 'Fetch')?.to).toBe('broker-0');
  });
});
