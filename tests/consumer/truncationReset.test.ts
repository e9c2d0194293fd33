/**
 * A truncation found without a known epoch (the leader has no epoch at or below the position's:
 * OffsetsForLeaderEpoch answers −1) puts the partition AWAIT_RESET (SubscriptionState.maybeCompleteValidation
 * → requestOffsetReset), and its ListOffsets goes with the next pass of poll()'s grouped resets
 * (OffsetFetcher.resetPositionsIfNeeded: one request per leader). Before, each such partition was reset
 * on its own request, sent while the answer was handled.
 */
import { describe, expect, it } from 'vitest';
import type { ConsumerContext, ConsumerInput } from '../../src/sim/consumer/consumerContext';
import { initialContext } from '../../src/sim/consumer/consumerContext';
import type { EventOf } from '../../src/sim/consumer/events';
import { fetchWhilePolling } from '../../src/sim/consumer/fetcher';
import { resetPositionsIfNeeded } from '../../src/sim/consumer/offsetFetcher';
import { onOffsetsForLeaderEpochResponse } from '../../src/sim/consumer/positionValidation';
import { inputOf } from '../machines/harness';
import { response, run, sent, tp0, tp1 } from './fixture';

/** A consumer of t-0 and t-1 (two replicas each), both read to offset 3 in leader epoch 0, now led by broker-1 in epoch 2. */
function afterLeaderChange(): ConsumerContext {
  const scenario = {
    version: 1,
    seed: 1,
    cluster: { brokers: 3 },
    topics: [{ name: 't', partitions: 2, replicationFactor: 2 }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['t'] }],
  };
  const ctx = initialContext(inputOf(scenario, 'c.consumer') as ConsumerInput);
  const t = ctx.meta.topics.t as NonNullable<ConsumerContext['meta']['topics'][string]>;
  return {
    ...ctx,
    assignment: [tp0, tp1],
    pollWaiting: 'c.app',
    positions: { 't-0': 3, 't-1': 3 },
    validation: {
      offsetEpochs: { 't-0': { offset: 3, epoch: 0 }, 't-1': { offset: 3, epoch: 0 } },
      leaderEpochs: { 't-0': 0, 't-1': 0 },
      awaiting: {},
      fetched: {},
    },
    meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...t, leaders: ['broker-1', 'broker-1'], leaderEpochs: [2, 2] } } },
  };
}

describe('truncations without a known epoch are reset together', () => {
  it('both partitions of one OffsetsForLeaderEpoch answer: one ListOffsets naming both, at the pass after the answer', () => {
    const validating = run(afterLeaderChange(), fetchWhilePolling);
    const request = sent(validating.effects).find((s) => s.rpc === 'OffsetsForLeaderEpoch');
    expect(request?.to).toBe('broker-1');
    const unknown = response(
      'OffsetsForLeaderEpochResponse',
      {
        correlationId: request?.correlationId as number,
        partitions: [tp0, tp1].map((tp) => ({ ...tp, error: 'NONE', leaderEpoch: -1, endOffset: -1 })),
      },
      100,
    ) as unknown as EventOf<'OffsetsForLeaderEpochResponse'>;
    const answered = run(validating.d, (d, out) => onOffsetsForLeaderEpochResponse(d, unknown, out));
    // AWAIT_RESET, nothing sent while the answer is handled
    expect(sent(answered.effects).filter((s) => s.rpc === 'ListOffsets')).toEqual([]);
    expect(answered.d.resetTo).toEqual({ 't-0': 'earliest', 't-1': 'earliest' });
    const pass = run(answered.d, (d, out) => resetPositionsIfNeeded(d, 100, out));
    expect(sent(pass.effects)).toEqual([
      expect.objectContaining({
        rpc: 'ListOffsets',
        to: 'broker-1',
        partitions: [
          { ...tp0, timestamp: -2 },
          { ...tp1, timestamp: -2 },
        ],
      }),
    ]);
  });
});
