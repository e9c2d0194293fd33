/** fetcher.ts (Fetcher, OffsetFetcher): which partitions are fetched, what poll() gets, resets and endOffsets(). */
import { describe, expect, it } from 'vitest';
import { onEndOffsets } from '../../src/sim/consumer/endOffsets';
import { fetchWhilePolling, onFetchResponse, servePoll } from '../../src/sim/consumer/fetcher';
import { onListOffsetsResponse, resetPositionsIfNeeded } from '../../src/sim/consumer/offsetFetcher';
import { onSeek } from '../../src/sim/consumer/positions';
import type { RecordForApp } from '../../src/sim/protocol/messages';
import { appCall, context, replies, response, run, sent, timers, tp0, tp1 } from './fixture';

const rec = (partition: number, offset: number): RecordForApp => ({ topic: 't', partition, offset, key: 'k', value: 'v', headers: {} });

describe('fetcher', () => {
  it('fetchWhilePolling: one Fetch per broker, naming its partitions with a position, nothing buffered and nothing in flight', () => {
    const ctx = context({}, 2, {
      assignment: [tp0, tp1],
      positions: { 't-0': 4, 't-1': 0 },
      buffer: { 't-1': [rec(1, 0)] },
      pollWaiting: 'c.app',
    });
    const { d, effects } = run(ctx, fetchWhilePolling);
    expect(sent(effects)).toMatchObject([{ rpc: 'Fetch', to: 'broker-0', partitions: [{ topic: 't', partition: 0, fetchOffset: 4 }] }]);
    expect(Object.keys(d.fetching)).toEqual(['t-0']);
    expect(sent(run(d, fetchWhilePolling).effects)).toEqual([]);
    // no poll() waiting (the application is processing): nothing is fetched
    expect(sent(run({ ...ctx, pollWaiting: null }, fetchWhilePolling).effects)).toEqual([]);
  });

  it('servePoll hands at most max.poll.records, in partition order, and moves the positions', () => {
    const ctx = context({ 'max.poll.records': 3 }, 2, {
      assignment: [tp1, tp0],
      positions: { 't-0': 0, 't-1': 0 },
      buffer: { 't-0': [rec(0, 0), rec(0, 1)], 't-1': [rec(1, 0), rec(1, 1)] },
      bufferEnd: { 't-0': 2, 't-1': 2 },
      fetching: { 't-0': 1, 't-1': 2 },
      pollWaiting: 'c.app',
    });
    const { d, effects } = run(ctx, servePoll);
    const [reply] = replies(effects);
    expect((reply?.records as RecordForApp[]).map((r) => `${r.partition}@${r.offset}`)).toEqual(['0@0', '0@1', '1@0']);
    expect(d.positions).toEqual({ 't-0': 2, 't-1': 1 });
    expect(d.pollWaiting).toBeNull();
    expect(effects.filter((e) => e.type === 'fact')).toHaveLength(3);
  });

  it("a fetch's control batches after its last record are passed over only when poll() looks for one more record (CompletedFetch.fetchRecords, nextFetchedRecord)", () => {
    // t-0 fetched offsets 0..2 and the COMMIT marker at 3: its next offset is 4
    const fetched = (maxPollRecords: number) =>
      context({ 'max.poll.records': maxPollRecords }, 1, {
        assignment: [tp0],
        positions: { 't-0': 0 },
        buffer: { 't-0': [rec(0, 0), rec(0, 1), rec(0, 2)] },
        bufferEnd: { 't-0': 4 },
        pollWaiting: 'c.app',
      });
    // budget left after the last record: the marker is passed over in the same poll()
    const roomy = run(fetched(4), servePoll);
    expect(roomy.d.positions).toEqual({ 't-0': 4 });
    expect(roomy.d.bufferEnd).toEqual({});
    expect(sent(roomy.effects)).toMatchObject([{ rpc: 'Fetch', partitions: [{ fetchOffset: 4 }] }]);
    // the budget ends on the last record: the position stays on the marker, and the partition is not fetched
    const exact = run(fetched(3), servePoll);
    expect((replies(exact.effects)[0]?.records as RecordForApp[]).map((r) => r.offset)).toEqual([0, 1, 2]);
    expect(exact.d.positions).toEqual({ 't-0': 3 });
    expect(exact.d.bufferEnd).toEqual({ 't-0': 4 });
    expect(sent(exact.effects)).toEqual([]);
    // the next poll() passes over the marker and returns at once, empty (the position moved); then t-0 is fetched from 4
    const next = run({ ...exact.d, pollWaiting: 'c.app' }, servePoll);
    expect(replies(next.effects).map((r) => r?.records)).toEqual([[]]);
    expect(next.d.positions).toEqual({ 't-0': 4 });
    expect(sent(next.effects)).toMatchObject([{ rpc: 'Fetch', partitions: [{ fetchOffset: 4 }] }]);
    // a seek drops that rest of the fetch: a poll() then fetches from the new position
    const sought = run(exact.d, (d, out) => onSeek(d, appCall('seek', { topic: 't', partition: 0, offset: 1 }), out));
    expect(sought.d.bufferEnd).toEqual({});
    expect(sent(run({ ...sought.d, pollWaiting: 'c.app' }, fetchWhilePolling).effects)).toMatchObject([
      { rpc: 'Fetch', partitions: [{ fetchOffset: 1 }] },
    ]);
  });

  it('onFetchResponse: OFFSET_OUT_OF_RANGE is kept for poll(), which forgets the position and resets it; another error retries after retry.backoff.ms', () => {
    const ctx = context({ 'auto.offset.reset': 'earliest' }, 1, { assignment: [tp0], positions: { 't-0': 9 }, fetching: { 't-0': 3 } });
    const base = {
      ...tp0,
      highWatermark: 0,
      lastStableOffset: 0,
      logStartOffset: 0,
      batches: [],
      abortedTransactions: [],
    };
    const range = run(ctx, (d, out) =>
      onFetchResponse(
        d,
        response('FetchResponse', { correlationId: 3, partitions: [{ ...base, error: 'OFFSET_OUT_OF_RANGE' as const }] }),
        out,
      ),
    );
    // no poll() waits: the error is buffered with the answer (a CompletedFetch), the position stays
    expect(range.d.positions).toEqual({ 't-0': 9 });
    expect(range.d.fetchErrors).toEqual({ 't-0': { error: 'OFFSET_OUT_OF_RANGE', fetchOffset: 9 } });
    // the next poll() collects it: AWAIT_RESET, and that pass asks for it (resetPositionsIfNeeded)
    const collected = run({ ...range.d, pollWaiting: 'c.app' }, servePoll);
    expect(collected.d.positions).toEqual({});
    expect(collected.d.resetTo).toEqual({ 't-0': 'earliest' });
    expect(collected.d.fetchErrors).toEqual({});
    const pass = run(collected.d, (d, out) => resetPositionsIfNeeded(d, 0, out));
    expect(sent(pass.effects)).toMatchObject([{ rpc: 'ListOffsets', partitions: [{ ...tp0, timestamp: -2 }] }]);
    const other = run(ctx, (d, out) =>
      onFetchResponse(
        d,
        response('FetchResponse', { correlationId: 3, partitions: [{ ...base, error: 'CORRUPT_MESSAGE' as const }] }),
        out,
      ),
    );
    expect(timers(other.effects)).toEqual([{ name: 'fetchRetry', delay: 100 }]);
    // FetchCollector.handleInitializeErrors: a metadata error asks for an update when poll() collects it
    const stale = run(ctx, (d, out) =>
      onFetchResponse(
        d,
        response('FetchResponse', { correlationId: 3, partitions: [{ ...base, error: 'NOT_LEADER_OR_FOLLOWER' as const }] }),
        out,
      ),
    );
    expect(stale.effects).toEqual([]);
    expect(stale.d.metadata.updateRequested).toBe(false);
    expect(stale.d.positions).toEqual({ 't-0': 9 });
    // a poll() collects it: the update is asked for, and t-0 is fetched again from the leader it knows
    const refetched = run({ ...stale.d, pollWaiting: 'c.app' }, (d, out) => {
      servePoll(d, out);
      fetchWhilePolling(d, out);
    });
    expect(refetched.d.metadata.updateRequested).toBe(true);
    expect(sent(refetched.effects)).toMatchObject([{ rpc: 'Fetch', to: 'broker-0', partitions: [{ fetchOffset: 9 }] }]);
    // a stale answer (another correlation id) is ignored
    expect(
      run(ctx, (d, out) =>
        onFetchResponse(d, response('FetchResponse', { correlationId: 2, partitions: [{ ...base, error: 'NONE' as const }] }), out),
      ).effects,
    ).toEqual([]);
  });

  it('a fetch of markers only moves the position when poll() collects it: at once if a poll() waits, else at the next one', () => {
    // a COMMIT marker at offset 9 (FetchCollector.fetchRecords runs inside poll(), after its auto-commit)
    const marker = {
      baseOffset: 9,
      lastOffset: 9,
      producerId: 7,
      producerEpoch: 0,
      baseSequence: -1,
      lastSequence: -1,
      isTransactional: true,
      isControl: true,
      controlType: 'COMMIT',
      records: [],
      appendTime: 5,
    };
    const answer = response('FetchResponse', {
      correlationId: 3,
      partitions: [
        { ...tp0, error: 'NONE', highWatermark: 10, lastStableOffset: 10, logStartOffset: 0, batches: [marker], abortedTransactions: [] },
      ],
    } as never);
    const between = context({ 'isolation.level': 'read_committed' }, 1, {
      assignment: [tp0],
      positions: { 't-0': 9 },
      fetching: { 't-0': 3 },
    });
    const idle = run(between, (d, out) => onFetchResponse(d, answer, out));
    expect(idle.d.positions).toEqual({ 't-0': 9 });
    expect(idle.d.bufferEnd).toEqual({ 't-0': 10 });
    // and the partition is not fetched again until then
    expect(sent(idle.effects)).toEqual([]);
    const polled = run({ ...idle.d, pollWaiting: 'c.app' }, (d, out) => servePoll(d, out));
    expect(polled.d.positions).toEqual({ 't-0': 10 });
    expect(polled.d.bufferEnd).toEqual({});
    const waiting = run({ ...between, pollWaiting: 'c.app' }, (d, out) => onFetchResponse(d, answer, out));
    expect(waiting.d.positions).toEqual({ 't-0': 10 });
  });

  it('endOffsets(): one ListOffsets per leader for every assigned partition it leads, answered once all are back', () => {
    const ctx = context({}, 2, { assignment: [tp0, tp1] });
    const asked = run(ctx, (d, out) => onEndOffsets(d, appCall('endOffsets', { isolationLevel: 'read_uncommitted' }), out));
    const requests = sent(asked.effects);
    expect(requests).toMatchObject([
      {
        rpc: 'ListOffsets',
        isolationLevel: 'read_uncommitted',
        partitions: [
          { ...tp0, timestamp: -1 },
          { ...tp1, timestamp: -1 },
        ],
      },
    ]);
    expect(requests).toHaveLength(1);
    const answer = response('ListOffsetsResponse', {
      correlationId: requests[0]?.correlationId as number,
      partitions: [
        { ...tp0, error: 'NONE', offset: 10 },
        { ...tp1, error: 'NONE', offset: 20 },
      ],
    } as const);
    const answered = run(asked.d, (d, out) => onListOffsetsResponse(d, answer, out));
    expect(replies(answered.effects)).toEqual([{ call: 'endOffsets', ok: true, offsets: { 't-0': 10, 't-1': 20 } }]);
    expect(answered.d.endOffsets).toBeNull();
  });
});
