/**
 * endOffsets() asks again for a partition whose answer is an error, or whose leader it does not
 * know (OffsetFetcherUtils.handleListOffsetResponse: NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE,
 * OFFSET_NOT_AVAILABLE … "retrying"); it never reports −1, and never leaves a partition out. Before,
 * a Streams instance restarted after its changelog's leader moved took the −1 of the old leader's
 * NOT_LEADER_OR_FOLLOWER as the changelog's end, restored nothing and counted from zero.
 *
 * It asks in rounds, as OffsetFetcher.fetchOffsetsByTimes does: a round waits for every answer, then,
 * with partitions left (remainingToSearch), a metadata update (client.awaitMetadataUpdate), and asks
 * them all again, grouped by leader. Before, the model asked each failed request's partitions again
 * after retry.backoff.ms on a timer of their own, whatever the round's other answers and the metadata.
 */
import { describe, expect, it } from 'vitest';
import { onEndOffsets, onEndOffsetsMetadata } from '../../src/sim/consumer/endOffsets';
import { onListOffsetsLost, onListOffsetsResponse } from '../../src/sim/consumer/offsetFetcher';
import { keyOf } from '../../src/sim/protocol/topicPartition';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { appCall, context, replies, response, run, sent, tp0, tp1 } from './fixture';

const leaderless = (ctx: ReturnType<typeof context>) => {
  const topic = ctx.meta.topics.t;
  if (!topic) throw new Error('no topic t');
  return { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...topic, leaders: [topic.leaders[0] ?? null, null] } } } };
};

/** t-0 led by broker-0, t-1 by broker-1. */
const twoLeaders = (ctx: ReturnType<typeof context>) => {
  const topic = ctx.meta.topics.t;
  if (!topic) throw new Error('no topic t');
  return { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...topic, leaders: ['broker-0', 'broker-1'] } } } };
};

const answer = (correlationId: number, partitions: readonly object[]) =>
  response('ListOffsetsResponse', { correlationId, partitions }) as never;

describe('endOffsets()', () => {
  it('a partition whose leader is unknown is a partition to retry: asked in the next round, not left out of the answer', () => {
    const asked = run(leaderless(context({}, 2, { assignment: [tp0, tp1] })), (d, out) =>
      onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out),
    );
    expect(sent(asked.effects)).toMatchObject([{ rpc: 'ListOffsets', partitions: [{ partition: 0 }] }]);
    expect(asked.d.metadata.updateRequested).toBe(true);
    expect(replies(asked.effects)).toEqual([]);
    expect(asked.d.endOffsets?.retry).toEqual(['t-1']);
  });

  it('an error answer is not an end offset: no reply, a metadata update awaited, the partition asked again, then answered', () => {
    const asked = run(context({}, 1, { assignment: [tp0] }), (d, out) =>
      onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out),
    );
    const correlationId = sent(asked.effects)[0]?.correlationId as number;
    const refused = run(asked.d, (d, out) =>
      onListOffsetsResponse(d, answer(correlationId, [{ ...tp0, error: 'NOT_LEADER_OR_FOLLOWER', offset: -1 }]), out),
    );
    expect(replies(refused.effects)).toEqual([]);
    expect(refused.d.metadata.updateRequested).toBe(true);
    const again = run(refused.d, (d, out) => onEndOffsetsMetadata(d, out));
    const resent = sent(again.effects)[0];
    expect(resent).toMatchObject({ rpc: 'ListOffsets', isolationLevel: 'read_uncommitted', partitions: [{ partition: 0, timestamp: -1 }] });
    const answered = run(again.d, (d, out) =>
      onListOffsetsResponse(d, answer(resent?.correlationId as number, [{ ...tp0, error: 'NONE', offset: 7 }]), out),
    );
    expect(replies(answered.effects)).toEqual([{ call: 'endOffsets', ok: true, offsets: { 't-0': 7 } }]);
  });
});

describe('endOffsets() in rounds (OffsetFetcher.fetchOffsetsByTimes)', () => {
  it("a failed partition waits for the round's other answers and a metadata update, with no timer of its own", () => {
    const asked = run(twoLeaders(context({}, 2, { assignment: [tp0, tp1] })), (d, out) =>
      onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out),
    );
    const [to0, to1] = sent(asked.effects);
    const failed = run(asked.d, (d, out) =>
      onListOffsetsResponse(d, answer(to0?.correlationId as number, [{ ...tp0, error: 'NOT_LEADER_OR_FOLLOWER', offset: -1 }]), out),
    );
    // broker-1's answer still awaited: nothing asked, no retry timer
    expect(failed.effects.filter((e) => e.type === 'send' || e.type === 'timer')).toEqual([]);
    const roundOver = run(failed.d, (d, out) =>
      onListOffsetsResponse(d, answer(to1?.correlationId as number, [{ ...tp1, error: 'NONE', offset: 5 }]), out),
    );
    expect(roundOver.effects.filter((e) => e.type === 'send' || e.type === 'timer')).toEqual([]);
    expect(roundOver.d.metadata.updateRequested).toBe(true);
    expect(roundOver.d.endOffsets).toMatchObject({ awaitingMetadata: true, remaining: [{ ...tp0, timestamp: -1 }], offsets: { 't-1': 5 } });
    // the metadata answer: the next round asks t-0 alone (t-1's offset kept)
    const next = run(roundOver.d, (d, out) => onEndOffsetsMetadata(d, out));
    expect(sent(next.effects)).toMatchObject([{ rpc: 'ListOffsets', to: 'broker-0', partitions: [{ ...tp0, timestamp: -1 }] }]);
  });

  it('a lost request fails its round: the other answers are not waited for, every partition of the round asked after the update', () => {
    const asked = run(twoLeaders(context({}, 2, { assignment: [tp0, tp1] })), (d, out) =>
      onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out),
    );
    const [to0, to1] = sent(asked.effects);
    const lost = run(asked.d, (d, _out) => onListOffsetsLost(d, to0?.correlationId as number, 30));
    expect(lost.effects).toEqual([]);
    expect(lost.d.endOffsets?.awaitingMetadata).toBe(true);
    // broker-1's late answer belongs to the failed round
    const late = run(lost.d, (d, out) =>
      onListOffsetsResponse(d, answer(to1?.correlationId as number, [{ ...tp1, error: 'NONE', offset: 5 }]), out),
    );
    expect(replies(late.effects)).toEqual([]);
    const next = run(late.d, (d, out) => onEndOffsetsMetadata(d, out));
    expect(sent(next.effects).map((s) => [s.to, (s.partitions as { partition: number }[]).map((p) => p.partition)])).toEqual([
      ['broker-0', [0]],
      ['broker-1', [1]],
    ]);
  });
});

describe('a Streams instance restarted after its changelog leader moved', () => {
  // the changelog (3 replicas) is led by broker-2, which crashes at 6 s and returns as a follower;
  // the instance restarts at 25 s, its restore consumer still naming broker-2 as the leader
  const scenario = {
    version: 1,
    seed: 51,
    cluster: { brokers: 3 },
    topics: [
      { name: 'page-views', partitions: 1 },
      { name: 'view-counts', partitions: 1 },
      { name: 'page-counter-count-store-changelog', partitions: 1, replicationFactor: 3 },
    ],
    clients: [
      {
        id: 'web',
        type: 'producer',
        script: [
          { op: 'send', topic: 'page-views', key: 'page-a', value: 'view', headers: { event_id: 'view-1' }, at: 3500 },
          { op: 'flush' },
          { op: 'send', topic: 'page-views', key: 'page-a', value: 'view', headers: { event_id: 'view-2' }, delayMs: 300 },
          { op: 'flush' },
          { op: 'send', topic: 'page-views', key: 'page-a', value: 'view', headers: { event_id: 'view-3' }, delayMs: 300 },
          { op: 'flush' },
          { op: 'send', topic: 'page-views', key: 'page-a', value: 'view', headers: { event_id: 'view-4' }, at: 30000 },
          { op: 'flush' },
        ],
      },
      {
        id: 'counter',
        type: 'streams',
        config: { 'processing.guarantee': 'exactly_once_v2', 'application.id': 'page-counter', 'commit.interval.ms': 1000 },
        inputTopic: 'page-views',
        outputTopic: 'view-counts',
      },
      {
        id: 'dashboard',
        type: 'consumer',
        config: { 'group.id': 'dashboard', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
        topics: ['view-counts'],
        processing: { mode: 'at-least-once' },
      },
    ],
    faults: [
      { type: 'crash', target: 'broker-2', at: 6000, durationMs: 15000, note: "the changelog's leader dies; broker-0 takes over" },
      { type: 'crash', target: 'counter', at: 25000, durationMs: 1000, note: 'the Streams instance restarts and restores its store' },
    ],
  };

  it('restores its store and counts on: the fourth view of page-a is counted 4', () => {
    const counts = summarize(runScenario(scenario)).partitions.find((p) => keyOf(p) === 'view-counts-0');
    expect(counts?.records.filter((r) => r.key === 'page-a').map((r) => r.value)).toEqual(['1', '2', '3', '4']);
  });
});
