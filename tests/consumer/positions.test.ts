/** positions.ts (SubscriptionState): revocation, seek, assign() without a group, the rebalance listener. */
import { describe, expect, it } from 'vitest';
import { onPoll } from '../../src/sim/consumer/commits';
import { resetPositionsIfNeeded } from '../../src/sim/consumer/offsetFetcher';
import {
  assignAll,
  invokePartitionsAssigned,
  onListenerDone,
  onSeek,
  onSeekToBeginning,
  revokeAll,
} from '../../src/sim/consumer/positions';
import { appCall, context, replies, run, sent, tp0, tp1 } from './fixture';

describe('positions', () => {
  it('revokeAll forgets the assignment, positions, buffers and fetches (eager rebalance)', () => {
    const ctx = context({}, 1, { assignment: [tp0], positions: { 't-0': 3 }, fetching: { 't-0': 1 }, offsetsRequest: 2 });
    expect(run(ctx, (d) => revokeAll(d)).d).toMatchObject({
      assignment: [],
      positions: {},
      buffer: {},
      bufferEnd: {},
      fetching: {},
      offsetsRequest: null,
    });
  });

  it('seek moves one position, drops its buffer and in-flight fetch, answers; the next poll() fetches from there', () => {
    const ctx = context({}, 1, { assignment: [tp0], positions: { 't-0': 3 }, fetching: { 't-0': 1 } });
    const { d, effects } = run(ctx, (d, out) => onSeek(d, appCall('seek', { ...tp0, offset: 10 }), out));
    expect(d.positions).toEqual({ 't-0': 10 });
    expect(replies(effects)).toEqual([{ call: 'seek', ok: true }]);
    expect(sent(effects)).toEqual([]);
    expect(sent(run(d, (d, out) => onPoll(d, appCall('poll', {}), out)).effects)).toMatchObject([
      { rpc: 'Fetch', partitions: [{ fetchOffset: 10 }] },
    ]);
  });

  it('seekToBeginning resets every assigned partition to its earliest offset', () => {
    const ctx = context({}, 2, { assignment: [tp0, tp1], positions: { 't-0': 3, 't-1': 4 } });
    const seek = run(ctx, (d, out) => onSeekToBeginning(d, appCall('seekToBeginning', {}), out));
    expect(seek.d.positions).toEqual({});
    // KafkaConsumer.seekToBeginning sends nothing: the next poll()'s pass asks for them
    expect(sent(seek.effects)).toEqual([]);
    const { effects } = run({ ...seek.d, pollWaiting: 'c.app' }, (d, out) => resetPositionsIfNeeded(d, 0, out));
    // one ListOffsets for both: their one leader (OffsetFetcher.groupListOffsetRequests)
    expect(sent(effects)).toEqual([
      expect.objectContaining({
        rpc: 'ListOffsets',
        partitions: [
          { ...tp0, timestamp: -2 },
          { ...tp1, timestamp: -2 },
        ],
      }),
    ]);
  });

  it('assignAll (no group.id) takes every partition of the topics and resets them by auto.offset.reset', () => {
    const assigned = run(context({ 'group.id': null, 'auto.offset.reset': 'latest' }, 2), assignAll);
    expect(assigned.d.assignment).toEqual([tp0, tp1]);
    // assign() sends nothing: the first poll()'s pass asks for both
    expect(sent(assigned.effects)).toEqual([]);
    const { effects } = run({ ...assigned.d, pollWaiting: 'c.app' }, (d, out) => resetPositionsIfNeeded(d, 0, out));
    expect(sent(effects)).toEqual([
      expect.objectContaining({
        rpc: 'ListOffsets',
        partitions: [
          { ...tp0, timestamp: -1 },
          { ...tp1, timestamp: -1 },
        ],
      }),
    ]);
  });

  it('the rebalance listener: onPartitionsAssigned first; the offsets it sought are kept, the rest fetched from the group', () => {
    const ctx = context({}, 2, { rebalanceListener: true, assignment: [tp0, tp1], memberId: 'c-0', generationId: 1 });
    const invoked = run(ctx, invokePartitionsAssigned);
    expect(invoked.d.awaitingListener).toBe(true);
    expect(invoked.effects).toEqual([{ type: 'call', to: 'c.app', name: 'onPartitionsAssigned', args: { partitions: [tp0, tp1] } }]);
    const done = run(invoked.d, (d, out) => onListenerDone(d, appCall('partitionsAssignedDone', { offsets: { 't-0': 7 } }), out));
    expect(done.d.positions).toEqual({ 't-0': 7 });
    expect(sent(done.effects)).toMatchObject([{ rpc: 'OffsetFetch', partitions: [tp1] }]);
  });
});
