/**
 * The consumer sends one ListOffsets per leader, naming every partition it looks up there
 * (OffsetFetcher.resetPositionsAsync and sendListOffsetsRequests → groupListOffsetRequests →
 * sendListOffsetRequest(node, …)); a partition answered with an error is asked again on its own
 * (OffsetFetcherUtils.handleListOffsetResponse: partitions to retry), the others kept; and a reset's
 * answer applies only to a partition still awaiting a reset of the strategy that request asked
 * (SubscriptionState.maybeSeekUnvalidated: "an alternative reset has been requested"). Before, the
 * model sent one ListOffsets per partition and applied the first answer while the position was unknown.
 */
import { describe, expect, it } from 'vitest';
import { onOffsetFetchResponse } from '../../src/sim/consumer/commits';
import type { ConsumerContext } from '../../src/sim/consumer/consumerContext';
import { onEndOffsets, onEndOffsetsMetadata } from '../../src/sim/consumer/endOffsets';
import { onListOffsetsResponse, resetPositionsIfNeeded } from '../../src/sim/consumer/offsetFetcher';
import { onSeekToBeginning } from '../../src/sim/consumer/positions';
import { runScenario } from '../../src/sim/run';
import { appCall, context, replies, response, run, sent, tp0, tp1 } from './fixture';
import { sendThenRead } from './sendThenRead';

const tp2 = { topic: 't', partition: 2 };

/**
 * A member of generation 1 assigned t-0, t-1 and t-2 without positions, its application waiting in
 * poll(); t-0 and t-2 led by broker-0, t-1 by broker-1.
 */
function twoLeaders(config: Record<string, unknown> = {}): ConsumerContext {
  const ctx = context(config, 3, {
    memberId: 'c-0',
    generationId: 1,
    assignment: [tp0, tp1, tp2],
    positions: {},
    offsetsRequest: 4,
    pollWaiting: 'c.app',
  });
  const topic = ctx.meta.topics.t;
  if (!topic) throw new Error('no topic t');
  return { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...topic, leaders: ['broker-0', 'broker-1', 'broker-0'] } } } };
}

/** The OffsetFetch answer: no committed offset for any of them, so all three are reset. */
const noCommitted = response('OffsetFetchResponse', {
  correlationId: 4,
  error: 'NONE' as const,
  offsets: [tp0, tp1, tp2].map((tp) => ({ ...tp, offset: -1, error: 'NONE' as const })),
});

const listOffsetsAnswer = (correlationId: number, partitions: readonly Record<string, unknown>[]) =>
  response('ListOffsetsResponse', { correlationId, partitions }) as never;

describe('a reset: one ListOffsets per leader', () => {
  it('the partitions without a committed offset are asked in one ListOffsets per leader, each with its timestamp', () => {
    const { d, effects } = run(twoLeaders({ 'auto.offset.reset': 'earliest' }), (d, out) => onOffsetFetchResponse(d, noCommitted, out));
    const requests = sent(effects).filter((s) => s.rpc === 'ListOffsets');
    expect(requests).toEqual([
      expect.objectContaining({
        to: 'broker-0',
        partitions: [
          { ...tp0, timestamp: -2 },
          { ...tp2, timestamp: -2 },
        ],
      }),
      expect.objectContaining({ to: 'broker-1', partitions: [{ ...tp1, timestamp: -2 }] }),
    ]);
    // one answer sets both of its partitions' positions
    const answered = run(d, (d, out) =>
      onListOffsetsResponse(
        d,
        listOffsetsAnswer(requests[0]?.correlationId as number, [
          { ...tp0, error: 'NONE', offset: 3 },
          { ...tp2, error: 'NONE', offset: 7 },
        ]),
        out,
      ),
    );
    expect(answered.d.positions).toEqual({ 't-0': 3, 't-2': 7 });
  });

  it('seekToBeginning resets every assigned partition with one ListOffsets per leader', () => {
    const ctx = { ...twoLeaders(), positions: { 't-0': 4, 't-1': 5, 't-2': 6 } };
    const { effects } = run(ctx, (d, out) => {
      onSeekToBeginning(d, appCall('seekToBeginning', {}) as never, out);
      resetPositionsIfNeeded(d, 0, out);
    });
    expect(sent(effects).map((s) => [s.to, (s.partitions as { partition: number }[]).map((p) => p.partition)])).toEqual([
      ['broker-0', [0, 2]],
      ['broker-1', [1]],
    ]);
  });

  it('an error for one partition of a grouped answer: that partition alone is asked again, the other is reset', () => {
    const asked = run(twoLeaders({ 'auto.offset.reset': 'latest' }), (d, out) => onOffsetFetchResponse(d, noCommitted, out));
    const toBroker0 = sent(asked.effects).find((s) => s.rpc === 'ListOffsets' && s.to === 'broker-0');
    const answered = run(asked.d, (d, out) =>
      onListOffsetsResponse(
        d,
        listOffsetsAnswer(toBroker0?.correlationId as number, [
          { ...tp0, error: 'NONE', offset: 9 },
          { ...tp2, error: 'NOT_LEADER_OR_FOLLOWER', offset: -1 },
        ]),
        out,
      ),
    );
    expect(answered.d.positions).toEqual({ 't-0': 9 });
    expect(answered.d.metadata.updateRequested).toBe(true);
    // requestFailed(t-2, now + retry.backoff.ms): not due before 100, asked by the first pass of poll() then
    expect(answered.d.resetRetryAt?.['t-2']).toBe(100);
    const early = run(answered.d, (d, out) => resetPositionsIfNeeded(d, 99, out));
    expect(sent(early.effects)).toEqual([]);
    const again = run(early.d, (d, out) => resetPositionsIfNeeded(d, 100, out));
    expect(sent(again.effects)).toEqual([
      expect.objectContaining({ rpc: 'ListOffsets', to: 'broker-0', partitions: [{ ...tp2, timestamp: -1 }] }),
    ]);
  });
});

describe("a reset's answer applies only to the strategy the partition still awaits", () => {
  it('auto.offset.reset=latest asked, then seekToBeginning: the latest answer is passed over, the earliest one applied', () => {
    const ctx = context({ 'auto.offset.reset': 'latest' }, 1, {
      memberId: 'c-0',
      generationId: 1,
      assignment: [tp0],
      positions: {},
      offsetsRequest: 4,
      pollWaiting: 'c.app',
    });
    const latest = run(ctx, (d, out) =>
      onOffsetFetchResponse(
        d,
        response('OffsetFetchResponse', {
          correlationId: 4,
          error: 'NONE' as const,
          offsets: [{ ...tp0, offset: -1, error: 'NONE' as const }],
        }),
        out,
      ),
    );
    const latestRequest = sent(latest.effects).find((s) => s.rpc === 'ListOffsets');
    expect(latestRequest).toMatchObject({ partitions: [{ ...tp0, timestamp: -1 }] });
    // seekToBeginning (requestOffsetReset clears the retry time): due at the next pass, the latest still in flight
    const seek = run(latest.d, (d, out) => {
      onSeekToBeginning(d, appCall('seekToBeginning', {}) as never, out);
      resetPositionsIfNeeded(d, 0, out);
    });
    const earliestRequest = sent(seek.effects).find((s) => s.rpc === 'ListOffsets');
    expect(earliestRequest).toMatchObject({ partitions: [{ ...tp0, timestamp: -2 }] });
    // the answer to auto.offset.reset's latest arrives first: "an alternative reset has been requested"
    const stale = run(seek.d, (d, out) =>
      onListOffsetsResponse(d, listOffsetsAnswer(latestRequest?.correlationId as number, [{ ...tp0, error: 'NONE', offset: 10 }]), out),
    );
    expect(stale.d.positions).toEqual({});
    const applied = run(stale.d, (d, out) =>
      onListOffsetsResponse(d, listOffsetsAnswer(earliestRequest?.correlationId as number, [{ ...tp0, error: 'NONE', offset: 0 }]), out),
    );
    expect(applied.d.positions).toEqual({ 't-0': 0 });
  });
});

describe('endOffsets(): one ListOffsets per leader', () => {
  it('grouped by leader; a partition answered with an error is asked again alone, and the answer comes once all are known', () => {
    const asked = run(twoLeaders(), (d, out) => onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out));
    const requests = sent(asked.effects);
    expect(requests.map((s) => [s.to, (s.partitions as { partition: number }[]).map((p) => p.partition)])).toEqual([
      ['broker-0', [0, 2]],
      ['broker-1', [1]],
    ]);
    const [toBroker0, toBroker1] = requests;
    const first = run(asked.d, (d, out) =>
      onListOffsetsResponse(
        d,
        listOffsetsAnswer(toBroker0?.correlationId as number, [
          { ...tp0, error: 'NONE', offset: 4 },
          { ...tp2, error: 'NOT_LEADER_OR_FOLLOWER', offset: -1 },
        ]),
        out,
      ),
    );
    expect(replies(first.effects)).toEqual([]);
    const second = run(first.d, (d, out) =>
      onListOffsetsResponse(d, listOffsetsAnswer(toBroker1?.correlationId as number, [{ ...tp1, error: 'NONE', offset: 5 }]), out),
    );
    // the round is over: a metadata update awaited before t-2 is asked again
    expect(replies(second.effects)).toEqual([]);
    expect(sent(second.effects)).toEqual([]);
    expect(second.d.endOffsets?.awaitingMetadata).toBe(true);
    const again = run(second.d, (d, out) => onEndOffsetsMetadata(d, out));
    const resent = sent(again.effects);
    expect(resent).toEqual([
      expect.objectContaining({ to: 'broker-0', isolationLevel: 'read_uncommitted', partitions: [{ ...tp2, timestamp: -1 }] }),
    ]);
    const done = run(again.d, (d, out) =>
      onListOffsetsResponse(d, listOffsetsAnswer(resent[0]?.correlationId as number, [{ ...tp2, error: 'NONE', offset: 6 }]), out),
    );
    expect(replies(done.effects)).toEqual([{ call: 'endOffsets', ok: true, offsets: { 't-0': 4, 't-1': 5, 't-2': 6 } }]);
  });
});

describe('a reset and endOffsets() waiting on the same partition at once', () => {
  it('each retries on its own: the reset at a pass of poll(), endOffsets() on its timer', () => {
    // auto.offset.reset=latest resets t-2 and endOffsets() asks for its end; both answers are NOT_LEADER_OR_FOLLOWER
    const reset = run(twoLeaders({ 'auto.offset.reset': 'latest' }), (d, out) => onOffsetFetchResponse(d, noCommitted, out));
    const resetTo0 = sent(reset.effects).find((s) => s.rpc === 'ListOffsets' && s.to === 'broker-0');
    const ends = run(reset.d, (d, out) => onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out));
    const endsTo0 = sent(ends.effects).find((s) => s.to === 'broker-0');
    const failed = (correlationId: number) =>
      listOffsetsAnswer(correlationId, [
        { ...tp0, error: 'NONE', offset: 4 },
        { ...tp2, error: 'NOT_LEADER_OR_FOLLOWER', offset: -1 },
      ]);
    const a = run(ends.d, (d, out) => onListOffsetsResponse(d, failed(endsTo0?.correlationId as number), out));
    const b = run(a.d, (d, out) => onListOffsetsResponse(d, failed(resetTo0?.correlationId as number), out));
    // endOffsets() keeps t-2 for its next round (broker-1's answer still awaited); the reset's t-2 is due at 100
    expect(b.d.endOffsets?.retry).toEqual(['t-2']);
    expect(b.d.resetRetryAt?.['t-2']).toBe(100);
  });
});

describe('as a whole run: a new group member of four partitions on two brokers', () => {
  const trace = runScenario(sendThenRead(2, { partitions: 4 }));

  it('resets its positions with one ListOffsets per broker, naming every partition that broker leads', () => {
    const asked = trace.envelopes.filter((e) => e.rpc === 'ListOffsets' && e.from === 'reader.consumer');
    expect(asked.map((e) => e.to).sort()).toEqual(['broker-0', 'broker-1']);
    const named = asked.flatMap((e) => (e.payload as { partitions: { partition: number }[] }).partitions.map((p) => p.partition));
    expect(named.sort()).toEqual([0, 1, 2, 3]);
  });
});
