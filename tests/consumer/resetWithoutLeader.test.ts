/**
 * A position reset (auto.offset.reset, seekToBeginning) of a partition whose leader is unknown waits
 * for one: OffsetFetcher.groupListOffsetRequests asks for a metadata update and retries the
 * partition after retry.backoff.ms (SubscriptionState keeps it AWAIT_RESET). Before, the model
 * dropped the reset, and the partition was never read again.
 */
import { describe, expect, it } from 'vitest';
import { onListOffsetsRetry, resetPositions } from '../../src/sim/consumer/offsetFetcher';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { context, run, sent, tp0 } from './fixture';
import { sendThenRead } from './sendThenRead';

/** A member assigned t-0 with no position, whose metadata knows no leader for t-0. */
function leaderless() {
  const ctx = context({ 'auto.offset.reset': 'earliest' }, 1, { assignment: [tp0], positions: {} });
  const topic = ctx.meta.topics.t;
  if (!topic) throw new Error('no topic t');
  return { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...topic, leaders: [null] } } } } as typeof ctx;
}

describe('a reset with no leader known', () => {
  it('sends nothing, asks for a metadata update and tries again after retry.backoff.ms (a background timer)', () => {
    const { d, effects } = run(leaderless(), (draft, out) => resetPositions(draft, [tp0], out));
    expect(sent(effects)).toEqual([]);
    expect(effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'listOffsetsRetry', delay: 100, background: true }));
    expect(d.metadata).not.toEqual(leaderless().metadata);
  });

  it('the retry, still without a leader, waits again; once one is known it sends ListOffsets (earliest) there', () => {
    const data = {
      lostCorrelationId: -1,
      payload: { isolationLevel: 'read_uncommitted', partitions: [{ topic: 't', partition: 0, timestamp: -2 }] },
    };
    const ev = { type: 'listOffsetsRetry', key: 'listOffsets:t-0', now: 100, data } as never;
    const again = run(leaderless(), (draft, out) => onListOffsetsRetry(draft, ev, out));
    expect(sent(again.effects)).toEqual([]);
    expect(again.effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'listOffsetsRetry' }));
    const led = run(context({ 'auto.offset.reset': 'earliest' }, 1, { assignment: [tp0], positions: {} }), (draft, out) =>
      onListOffsetsRetry(draft, ev, out),
    );
    expect(sent(led.effects)).toMatchObject([
      { rpc: 'ListOffsets', to: 'broker-0', partitions: [{ topic: 't', partition: 0, timestamp: -2 }] },
    ]);
  });

  it('a partition that already has a position, or is no longer assigned, is not retried', () => {
    const ev = {
      type: 'listOffsetsRetry',
      key: 'listOffsets:t-0',
      now: 100,
      data: {
        lostCorrelationId: -1,
        payload: { isolationLevel: 'read_uncommitted', partitions: [{ topic: 't', partition: 0, timestamp: -2 }] },
      },
    } as never;
    const positioned = run({ ...leaderless(), positions: { 't-0': 4 } }, (draft, out) => onListOffsetsRetry(draft, ev, out));
    expect(positioned.effects.filter((e) => e.type === 'timer' || e.type === 'send')).toEqual([]);
    const revoked = run({ ...leaderless(), assignment: [] }, (draft, out) => onListOffsetsRetry(draft, ev, out));
    expect(revoked.effects.filter((e) => e.type === 'timer' || e.type === 'send')).toEqual([]);
  });
});

describe('as a whole run: the partition offline while the consumer first resets it', () => {
  // orders-0 on broker-0 and broker-1, both down from 1 s to 21 s; the reader has no committed offset
  const trace = runScenario(
    sendThenRead(3, { replicationFactor: 2 }, [
      { type: 'crash', target: 'broker-0', at: 1000, durationMs: 20000 },
      { type: 'crash', target: 'broker-1', at: 1000, durationMs: 20000 },
    ]),
  );

  it('the reader resets once the leader is back and processes e1', () => {
    const processed = trace.steps.flatMap((st) => (st.facts as Fact[]).filter((f) => f.kind === 'processed').map(() => st.t));
    expect(processed.length).toBeGreaterThanOrEqual(1);
    expect(processed[0]).toBeGreaterThan(21000);
  });
});
