/**
 * endOffsets() asks again for a partition whose answer is an error, or whose leader it does not
 * know (OffsetFetcherUtils.handleListOffsetResponse: NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE,
 * OFFSET_NOT_AVAILABLE … "retrying"); it never reports −1, and never leaves a partition out. Before,
 * a Streams instance restarted after its changelog's leader moved took the −1 of the old leader's
 * NOT_LEADER_OR_FOLLOWER as the changelog's end, restored nothing and counted from zero.
 */
import { describe, expect, it } from 'vitest';
import { onEndOffsets, onListOffsetsResponse, onListOffsetsRetry } from '../../src/sim/consumer/offsetFetcher';
import { keyOf } from '../../src/sim/protocol/topicPartition';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { appCall, context, replies, response, run, sent, tp0, tp1 } from './fixture';

const leaderless = (ctx: ReturnType<typeof context>) => {
  const topic = ctx.meta.topics.t;
  if (!topic) throw new Error('no topic t');
  return { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...topic, leaders: [topic.leaders[0] ?? null, null] } } } };
};

describe('endOffsets()', () => {
  it('a partition whose leader is unknown is asked again later, not left out of the answer', () => {
    const asked = run(leaderless(context({}, 2, { assignment: [tp0, tp1] })), (d, out) =>
      onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out),
    );
    expect(sent(asked.effects)).toMatchObject([{ rpc: 'ListOffsets', partitions: [{ partition: 0 }] }]);
    expect(asked.effects).toContainEqual(
      expect.objectContaining({ type: 'timer', name: 'listOffsetsRetry', key: expect.stringMatching(/^endOffsets:\d+$/) }),
    );
    expect(replies(asked.effects)).toEqual([]);
    expect(Object.values(asked.d.endOffsets?.requests ?? {})).toEqual([['t-0'], ['t-1']]);
  });

  it('an error answer is not an end offset: no reply, a metadata update, the partition asked again, then answered', () => {
    const asked = run(context({}, 1, { assignment: [tp0] }), (d, out) =>
      onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out),
    );
    const correlationId = sent(asked.effects)[0]?.correlationId as number;
    const refused = run(asked.d, (d, out) =>
      onListOffsetsResponse(
        d,
        response('ListOffsetsResponse', { correlationId, partitions: [{ ...tp0, error: 'NOT_LEADER_OR_FOLLOWER', offset: -1 }] }) as never,
        out,
      ),
    );
    expect(replies(refused.effects)).toEqual([]);
    expect(refused.d.metadata.updateRequested).toBe(true);
    const retry = refused.effects.find((e) => e.type === 'timer' && e.name === 'listOffsetsRetry');
    expect(retry).toBeDefined();
    const again = run(refused.d, (d, out) =>
      onListOffsetsRetry(d, { type: 'listOffsetsRetry', now: 100, data: (retry as unknown as { data: never }).data } as never, out),
    );
    const resent = sent(again.effects)[0];
    expect(resent).toMatchObject({ rpc: 'ListOffsets', isolationLevel: 'read_uncommitted', partitions: [{ partition: 0, timestamp: -1 }] });
    const answered = run(again.d, (d, out) =>
      onListOffsetsResponse(
        d,
        response('ListOffsetsResponse', {
          correlationId: resent?.correlationId,
          partitions: [{ ...tp0, error: 'NONE', offset: 7 }],
        }) as never,
        out,
      ),
    );
    expect(replies(answered.effects)).toEqual([{ call: 'endOffsets', ok: true, offsets: { 't-0': 7 } }]);
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
