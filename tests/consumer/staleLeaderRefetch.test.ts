/**
 * After a Fetch answered with a metadata error, Kafka's fetcher asks for a metadata update when poll()
 * collects the error (FetchCollector.handleInitializeErrors → FetchUtils.requestMetadataUpdate) and
 * nothing else: the partition is fetchable again, and the next pass of poll() fetches it from its
 * position's currentLeader (AbstractFetch.prepareFetchRequests) — the stale leader, until a KIP-951
 * currentLeader hint or the Metadata answer moves it. Only a partition whose leader is unknown is
 * skipped ("missing the current leader node": a metadata update). Before, the model held such a
 * partition back until the Metadata answer.
 */
import { describe, expect, it } from 'vitest';
import type { ConsumerContext } from '../../src/sim/consumer/consumerContext';
import { fetchWhilePolling, onFetchResponse, servePoll } from '../../src/sim/consumer/fetcher';
import type { KafkaError } from '../../src/sim/protocol/errors';
import { context, fetchErrorPartition, response, run, sent, timers, tp0 } from './fixture';

const errorAnswer = (error: KafkaError, extra: Record<string, unknown> = {}) => fetchErrorPartition(error, extra);

/** t-0 at position 4 (leader broker-0, epoch 0: a replicated topic), its Fetch in flight; a poll() waits unless `waiting` is false. */
function fetchingAt4(waiting = true): ConsumerContext {
  const ctx = context({}, 1, {
    assignment: [tp0],
    positions: { 't-0': 4 },
    fetching: { 't-0': 3 },
    fetchingFrom: { 'broker-0': 3 },
    pollWaiting: waiting ? 'c.app' : null,
  });
  const t = ctx.meta.topics.t;
  if (!t) throw new Error('no topic t');
  return { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...t, leaderEpochs: [0] } } } };
}

const answer = (ctx: ConsumerContext, partition: ReturnType<typeof errorAnswer>) =>
  run(ctx, (d, out) => onFetchResponse(d, response('FetchResponse', { correlationId: 3, partitions: [partition] }), out));

describe('a metadata error, then the next fetch', () => {
  for (const error of ['NOT_LEADER_OR_FOLLOWER', 'UNKNOWN_TOPIC_OR_PARTITION', 'FENCED_LEADER_EPOCH', 'KAFKA_STORAGE_ERROR'] as const)
    it(`${error} without a leader hint: a metadata update, and t-0 fetched again at once from broker-0, the leader it knows`, () => {
      const { d, effects } = answer(fetchingAt4(), errorAnswer(error));
      expect(d.metadata.updateRequested).toBe(true);
      expect(sent(effects)).toMatchObject([
        { rpc: 'Fetch', to: 'broker-0', partitions: [{ ...tp0, fetchOffset: 4, currentLeaderEpoch: 0 }] },
      ]);
      expect(d.fetching).toEqual({ 't-0': expect.any(Number) });
    });

  it('with a KIP-951 hint of a newer epoch: fetched at once from the leader it names', () => {
    const { d, effects } = answer(
      fetchingAt4(),
      errorAnswer('NOT_LEADER_OR_FOLLOWER', { currentLeader: { leaderId: 'broker-1', leaderEpoch: 1 } }),
    );
    expect(d.metadata.updateRequested).toBe(true);
    expect(sent(effects)).toMatchObject([{ rpc: 'Fetch', to: 'broker-1', partitions: [{ fetchOffset: 4, currentLeaderEpoch: 1 }] }]);
  });

  it('between polls: the error waits in the buffer (no update yet, nothing fetched); the next poll() asks for the update and fetches', () => {
    const { d, effects } = answer(fetchingAt4(false), errorAnswer('NOT_LEADER_OR_FOLLOWER'));
    expect(effects).toEqual([]);
    expect(d.metadata.updateRequested).toBe(false);
    // poll(): collectFetch (the error), then sendFetches
    const polled = run({ ...d, pollWaiting: 'c.app' }, (draft, out) => {
      servePoll(draft, out);
      fetchWhilePolling(draft, out);
    });
    expect(polled.d.metadata.updateRequested).toBe(true);
    expect(sent(polled.effects)).toMatchObject([{ rpc: 'Fetch', to: 'broker-0', partitions: [{ fetchOffset: 4 }] }]);
  });

  it('the stale leader answers again before the Metadata answer: *simplified* pacing, t-0 waits retry.backoff.ms (Kafka: fetched again at once)', () => {
    const first = answer(fetchingAt4(), errorAnswer('NOT_LEADER_OR_FOLLOWER'));
    const refetch = sent(first.effects)[0];
    expect(refetch?.correlationId).toEqual(expect.any(Number));
    // the update asked for is still pending (its Metadata request not answered yet)
    const pending = { ...first.d, metadata: { ...first.d.metadata, inFlight: 99 } };
    const second = run(pending, (d, out) =>
      onFetchResponse(
        d,
        response('FetchResponse', { correlationId: refetch?.correlationId as number, partitions: [errorAnswer('NOT_LEADER_OR_FOLLOWER')] }),
        out,
      ),
    );
    expect(sent(second.effects)).toEqual([]);
    expect(timers(second.effects)).toEqual([{ name: 'fetchRetry', delay: 100 }]);
    // the retry's end: fetched again from the leader it knows
    expect(sent(run(second.d, (d, out) => fetchWhilePolling(d, out)).effects)).toMatchObject([{ rpc: 'Fetch', to: 'broker-0' }]);
  });

  it('a partition whose metadata names no leader is not fetched: a metadata update instead', () => {
    const ctx = fetchingAt4();
    const t = ctx.meta.topics.t;
    if (!t) throw new Error('no topic t');
    const leaderless = { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...t, leaders: [null] } } } };
    const { d, effects } = answer(leaderless, errorAnswer('NOT_LEADER_OR_FOLLOWER'));
    expect(sent(effects)).toEqual([]);
    expect(d.metadata.updateRequested).toBe(true);
  });
});
