/**
 * A position reset (auto.offset.reset, seekToBeginning) of a partition whose leader is unknown waits
 * for one: OffsetFetcher.groupListOffsetRequests asks for a metadata update and leaves the partition
 * AWAIT_RESET without a retry time, so every pass of poll() asks again — at least every
 * retry.backoff.ms while a position is missing (pollForFetches). Before, the model dropped the reset,
 * and the partition was never read again.
 */
import { describe, expect, it } from 'vitest';
import { resetPositions, resetPositionsIfNeeded } from '../../src/sim/consumer/offsetFetcher';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { context, run, sent, tp0 } from './fixture';
import { sendThenRead } from './sendThenRead';

/** A member assigned t-0 with no position, waiting in poll(), whose metadata knows no leader for t-0. */
function leaderless() {
  const ctx = context({ 'auto.offset.reset': 'earliest' }, 1, { assignment: [tp0], positions: {}, pollWaiting: 'c.app' });
  const topic = ctx.meta.topics.t;
  if (!topic) throw new Error('no topic t');
  return { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, t: { ...topic, leaders: [null] } } } } as typeof ctx;
}

describe('a reset with no leader known', () => {
  it("sends nothing, asks for a metadata update, and poll()'s next pass comes after retry.backoff.ms (a background timer)", () => {
    const { d, effects } = run(leaderless(), (draft, out) => {
      resetPositions(draft, [tp0], out);
      resetPositionsIfNeeded(draft, 0, out);
    });
    expect(sent(effects)).toEqual([]);
    expect(effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'pollPass', delay: 100, background: true }));
    expect(d.metadata).not.toEqual(leaderless().metadata);
    expect(d.resetRetryAt).toBeUndefined();
  });

  it('the next pass, still without a leader, waits again; once one is known it sends ListOffsets (earliest) there', () => {
    const marked = run(leaderless(), (draft, out) => resetPositions(draft, [tp0], out)).d;
    const again = run(marked, (draft, out) => resetPositionsIfNeeded(draft, 100, out));
    expect(sent(again.effects)).toEqual([]);
    expect(again.effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'pollPass' }));
    const led = run({ ...marked, meta: context().meta }, (draft, out) => resetPositionsIfNeeded(draft, 100, out));
    expect(sent(led.effects)).toMatchObject([
      { rpc: 'ListOffsets', to: 'broker-0', partitions: [{ topic: 't', partition: 0, timestamp: -2 }] },
    ]);
  });

  it('a partition that already has a position, or is no longer assigned, is not asked for', () => {
    const marked = run(leaderless(), (draft, out) => resetPositions(draft, [tp0], out)).d;
    const positioned = run({ ...marked, positions: { 't-0': 4 } }, (draft, out) => resetPositionsIfNeeded(draft, 100, out));
    expect(positioned.effects.filter((e) => e.type === 'timer' || e.type === 'send')).toEqual([]);
    const revoked = run({ ...marked, assignment: [] }, (draft, out) => resetPositionsIfNeeded(draft, 100, out));
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
