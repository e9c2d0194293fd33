/**
 * A Fetch answered OFFSET_OUT_OF_RANGE keeps its error in the buffered CompletedFetch
 * (AbstractFetch.handleFetchSuccess buffers every partition's data); poll() handles it when it collects
 * it (FetchCollector.initialize → handleInitializeErrors), and only if the partition's position is still
 * the offset fetched — a seek in between makes it stale ("Discarding stale fetch response"). Before, the
 * model reset (or threw) when the answer arrived, even between polls and even if the application
 * sought elsewhere before its next poll().
 */
import { describe, expect, it } from 'vitest';
import { onPoll } from '../../src/sim/consumer/commits';
import type { ConsumerContext } from '../../src/sim/consumer/consumerContext';
import { onFetchResponse } from '../../src/sim/consumer/fetcher';
import { onSeek } from '../../src/sim/consumer/positions';
import { appCall, context, replies, response, run, sent, tp0 } from './fixture';

const outOfRange = {
  ...tp0,
  error: 'OFFSET_OUT_OF_RANGE' as const,
  highWatermark: -1,
  lastStableOffset: -1,
  logStartOffset: -1,
  batches: [],
  abortedTransactions: [],
};

/** A member holding t-0 at position 9, its Fetch (correlation id 3) in flight; no poll() waits unless `waiting`. */
function fetchingAt9(reset: 'earliest' | 'none', waiting = false): ConsumerContext {
  return context({ 'auto.offset.reset': reset, 'enable.auto.commit': false }, 1, {
    assignment: [tp0],
    positions: { 't-0': 9 },
    fetching: { 't-0': 3 },
    fetchingFrom: { 'broker-0': 3 },
    pollWaiting: waiting ? 'c.app' : null,
  });
}

/** The answer arrives (between polls unless a poll() waits). */
const answered = (ctx: ConsumerContext) =>
  run(ctx, (d, out) => onFetchResponse(d, response('FetchResponse', { correlationId: 3, partitions: [outOfRange] }), out)).d;

const seek = (ctx: ConsumerContext, offset: number) =>
  run(ctx, (d, out) => onSeek(d, appCall('seek', { topic: 't', partition: 0, offset }), out)).d;

const poll = (ctx: ConsumerContext, now = 10) => run(ctx, (d, out) => onPoll(d, appCall('poll', {}, now), out));

describe('OFFSET_OUT_OF_RANGE is handled when poll() collects the fetch', () => {
  it('between polls the answer changes nothing but the buffer: the position stays, no reset is asked for', () => {
    const d = answered(fetchingAt9('earliest'));
    expect(d.positions).toEqual({ 't-0': 9 });
    expect(d.resetTo).toEqual({});
    expect(d.fetchErrors).toEqual({ 't-0': { error: 'OFFSET_OUT_OF_RANGE', fetchOffset: 9 } });
  });

  it('the next poll() collects it: the partition is reset by auto.offset.reset (nothing fetched meanwhile)', () => {
    const { d, effects } = poll(answered(fetchingAt9('earliest')));
    expect(d.positions).toEqual({});
    expect(d.resetTo).toEqual({ 't-0': 'earliest' });
    expect(d.fetchErrors).toEqual({});
    expect(sent(effects).filter((s) => s.rpc === 'Fetch')).toEqual([]);
  });

  it('auto.offset.reset=none: the next poll() throws OffsetOutOfRangeException, not the answer', () => {
    const d = answered(fetchingAt9('none'));
    expect(d.pollError).toBeNull();
    const { effects } = poll(d);
    expect(replies(effects)).toEqual([{ call: 'poll', ok: false, error: 'OffsetOutOfRangeException' }]);
  });

  it('a poll() waiting collects it at once', () => {
    const d = answered(fetchingAt9('earliest', true));
    expect(d.positions).toEqual({});
    expect(d.resetTo).toEqual({ 't-0': 'earliest' });
  });
});

describe('a seek between the answer and the poll() makes it stale', () => {
  it('auto.offset.reset=none: after a seek to 3 the next poll() does not throw, it fetches from 3', () => {
    const { d, effects } = poll(seek(answered(fetchingAt9('none')), 3));
    expect(replies(effects)).toEqual([]);
    expect(d.pollError).toBeNull();
    expect(sent(effects)).toMatchObject([{ rpc: 'Fetch', to: 'broker-0', partitions: [{ fetchOffset: 3 }] }]);
  });

  it('with a reset policy: after a seek to 3 nothing is reset, the next poll() fetches from 3', () => {
    const { d, effects } = poll(seek(answered(fetchingAt9('earliest')), 3));
    expect(d.resetTo).toEqual({});
    expect(sent(effects)).toMatchObject([{ rpc: 'Fetch', partitions: [{ fetchOffset: 3 }] }]);
  });

  it('a seek back to the offset fetched is no staleness: the position is the fetch offset, so poll() resets it', () => {
    const { d, effects } = poll(seek(answered(fetchingAt9('earliest')), 9));
    expect(d.positions).toEqual({});
    expect(d.resetTo).toEqual({ 't-0': 'earliest' });
    expect(sent(effects).filter((s) => s.rpc === 'Fetch')).toEqual([]);
  });
});
