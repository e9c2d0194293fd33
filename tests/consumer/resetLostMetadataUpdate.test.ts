/**
 * A reset's ListOffsets lost (a disconnect, request.timeout.ms): OffsetFetcherUtils.onFailedResponseForResettingPositions
 * sets the partitions' next allowed retry to now + retry.backoff.ms (SubscriptionState.requestFailed) and
 * asks for a metadata update (metadata.requestUpdate(false)). Before, the model only set the retry time.
 * As everywhere in the model, the update is asked only where a leader can move (a replicated topic).
 */
import { describe, expect, it } from 'vitest';
import type { ConsumerContext } from '../../src/sim/consumer/consumerContext';
import { onListOffsetsLost, resetPositions, resetPositionsIfNeeded } from '../../src/sim/consumer/offsetFetcher';
import { context, run, sent, tp0 } from './fixture';

/** t-0 awaiting an earliest reset whose ListOffsets is in flight (sent at 0); `replicated`: its topic carries leader epochs. */
function resetInFlight(replicated: boolean): { ctx: ConsumerContext; correlationId: number } {
  const base = context({ 'auto.offset.reset': 'earliest' }, 1, { assignment: [tp0], positions: {}, pollWaiting: 'c.app' });
  const t = base.meta.topics.t;
  if (!t) throw new Error('no topic t');
  const ctx = replicated ? { ...base, meta: { ...base.meta, topics: { ...base.meta.topics, t: { ...t, leaderEpochs: [0] } } } } : base;
  const { d, effects } = run(ctx, (draft, out) => {
    resetPositions(draft, [tp0], out);
    resetPositionsIfNeeded(draft, 0, out);
  });
  const listOffsets = sent(effects).find((s) => s.rpc === 'ListOffsets');
  if (!listOffsets) throw new Error('no ListOffsets sent');
  return { ctx: d, correlationId: listOffsets.correlationId as number };
}

describe('a reset whose ListOffsets is lost', () => {
  it('asks for a metadata update and is due again after retry.backoff.ms', () => {
    const { ctx, correlationId } = resetInFlight(true);
    expect(ctx.metadata.updateRequested).toBe(false);
    const { d } = run(ctx, (draft) => onListOffsetsLost(draft, correlationId, 500));
    expect(d.metadata.updateRequested).toBe(true);
    expect(d.resetRetryAt).toEqual({ 't-0': 600 });
    expect(d.resetRequests).toEqual({});
    // not before the retry time; then asked again
    expect(sent(run(d, (draft, out) => resetPositionsIfNeeded(draft, 599, out)).effects)).toEqual([]);
    expect(sent(run(d, (draft, out) => resetPositionsIfNeeded(draft, 600, out)).effects)).toMatchObject([
      { rpc: 'ListOffsets', partitions: [{ ...tp0, timestamp: -2 }] },
    ]);
  });

  it('one replica (no leader epochs): no update, as for every refresh in the model; the retry time still', () => {
    const { ctx, correlationId } = resetInFlight(false);
    const { d } = run(ctx, (draft) => onListOffsetsLost(draft, correlationId, 500));
    expect(d.metadata.updateRequested).toBe(false);
    expect(d.resetRetryAt).toEqual({ 't-0': 600 });
  });

  it('a ListOffsets answered is not lost: an unknown correlation id changes nothing', () => {
    const { ctx } = resetInFlight(true);
    const { d } = run(ctx, (draft) => onListOffsetsLost(draft, 999, 500));
    expect(d.metadata).toEqual(ctx.metadata);
    expect(d.resetRetryAt).toEqual(ctx.resetRetryAt);
  });
});
