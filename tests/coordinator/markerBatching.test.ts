/**
 * The marker channel sends as Kafka's TransactionMarkerChannelManager does (markerChannel.ts
 * `flushMarkers`): per destination broker, every marker queued for it when the InterBrokerSendThread
 * loops (generateRequests → drainQueuedTransactionMarkers, markersQueuePerBroker) goes into ONE
 * WriteTxnMarkers request, of every transaction; the channel's NetworkClient has
 * maxInFlightRequestsPerConnection = 1, so a broker has at most one request in flight and the
 * requests generated meanwhile wait (InterBrokerSendThread's unsentRequests, sent once
 * `networkClient.ready(node)`). TransactionMarkerRequestCompletionHandler handles each marker of an
 * answer on its own; a disconnect puts every marker of the request back in the queue.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { leaderOf } from '../../src/sim/cluster/metadata';
import {
  onMarkerReconnectBackoffOver,
  onMarkerRequestLost,
  onMarkerRetry,
  onMarkersResponse,
  startMarkers,
} from '../../src/sim/coordinator/markerChannel';
import type { TxnCoordinatorContext, TxnDraft } from '../../src/sim/coordinator/txnCoordinatorContext';
import type { Effect } from '../../src/sim/kernel/effects';
import { bootedCoordinator, preparedTxn } from './fixture';

interface SentMarkers {
  to: string;
  correlationId: number;
  markers: { transactionalId: string; producerId: number; partitions: { topic: string; partition: number }[] }[];
}

const markerRequests = (fx: readonly Effect[]): SentMarkers[] =>
  fx.flatMap((e) => (e.type === 'send' && e.rpc === 'WriteTxnMarkers' ? [{ to: e.to, ...(e.payload as Omit<SentMarkers, 'to'>) }] : []));

/** Which transactions a request carries, and their partitions: `tx:t-0,t-1`. */
const carried = (r: SentMarkers | undefined) =>
  (r?.markers ?? []).map((m) => `${m.transactionalId}:${m.partitions.map((p) => `${p.topic}-${p.partition}`).join(',')}`);

const completedTo = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'fact' && e.fact.kind === 'txnState'
      ? [`${(e.fact as { transactionalId?: string }).transactionalId}→${(e.fact as { to?: string }).to}`]
      : [],
  );

/** Transaction `id` (producer `pid`) prepared to commit, its markers queued in one step. */
function started(ctx: TxnCoordinatorContext, ids: readonly [string, number, readonly string[]][], now: number) {
  const d: TxnDraft = { ...ctx };
  const out = new Out();
  ids.forEach(([transactionalId, producerId, partitions], i) => {
    const m = { ...preparedTxn(partitions), transactionalId, producerId };
    d.txns = { ...d.txns, [transactionalId]: m };
    startMarkers(d, m, 'COMMIT', now, out, i === ids.length - 1);
  });
  return { ctx: d as TxnCoordinatorContext, effects: out.effects };
}

/** The broker answers request `r`: `error(transactionalId, partition)` per marker, per partition. */
function answer(
  ctx: TxnCoordinatorContext,
  r: SentMarkers | undefined,
  now: number,
  error: (id: string, partition: number) => string = () => 'NONE',
) {
  const out = new Out();
  const next = onMarkersResponse(
    ctx,
    {
      type: 'WriteTxnMarkersResponse',
      now,
      from: r?.to,
      envelopeId: 1,
      inReplyTo: 0,
      payload: {
        correlationId: r?.correlationId,
        markers: (r?.markers ?? []).map((m) => ({
          producerId: m.producerId,
          partitions: m.partitions.map((p) => ({ ...p, error: error(m.transactionalId, p.partition) })),
        })),
      },
    } as never,
    out,
  );
  return { ctx: next, effects: out.effects };
}

function lose(ctx: TxnCoordinatorContext, r: SentMarkers | undefined, now: number) {
  const out = new Out();
  const next = onMarkerRequestLost(
    ctx,
    {
      type: 'disconnected',
      now,
      envelopeId: 0,
      to: r?.to,
      rpc: 'WriteTxnMarkers',
      payload: { correlationId: r?.correlationId },
      timedOut: false,
      reason: 'refused',
    } as never,
    out,
  );
  return { ctx: next, effects: out.effects };
}

describe('one WriteTxnMarkers in flight per broker, carrying every marker queued for it', () => {
  const base = bootedCoordinator();
  const leader = leaderOf(base.meta, 't', 0) as string;
  // a partition of t whose leader is another broker
  const elsewhere = [1, 2].find((p) => leaderOf(base.meta, 't', p) !== leader) as number;

  it('markers of two transactions queued in one step for one broker go in one request, one marker per transaction', () => {
    const s = started(
      base,
      [
        ['tx', 1000, ['t-0']],
        ['tx2', 2000, ['t-0', `t-${elsewhere}`]],
      ],
      10,
    );
    const requests = markerRequests(s.effects);
    expect(requests.map((r) => [r.to, carried(r)])).toEqual(
      [
        [leader, ['tx:t-0', 'tx2:t-0']],
        [leaderOf(base.meta, 't', elsewhere) as string, [`tx2:t-${elsewhere}`]],
      ].sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)),
    );
    const toLeader = requests.find((r) => r.to === leader);
    expect(toLeader?.markers.map((m) => [m.producerId, (m as unknown as { coordinatorEpoch: number }).coordinatorEpoch])).toEqual([
      [1000, base.coordinatorEpoch],
      [2000, base.coordinatorEpoch],
    ]);
    expect(s.ctx.markerSends?.[leader]).toEqual({
      inFlight: { correlationId: toLeader?.correlationId, markers: expect.any(Array) },
      unsent: [],
    });
  });

  it('a transaction whose markers are queued while a request is in flight to that broker waits: its request goes when the answer comes', () => {
    const first = started(base, [['tx', 1000, ['t-0']]], 10);
    const [r1] = markerRequests(first.effects);
    expect(carried(r1)).toEqual(['tx:t-0']);
    // tx2 and then tx3 complete while r1 is in flight: nothing goes to the leader
    const second = started(first.ctx, [['tx2', 2000, ['t-0']]], 12);
    expect(markerRequests(second.effects)).toEqual([]);
    const third = started(second.ctx, [['tx3', 3000, ['t-0']]], 14);
    expect(markerRequests(third.effects)).toEqual([]);
    // each loop of the send thread drained its queue into a request of its own (generateRequests runs
    // every loop; the request waits in unsentRequests until the node is ready)
    expect(third.ctx.markerSends?.[leader]?.unsent.map((b) => b.markers.map((m) => m.transactionalId))).toEqual([['tx2'], ['tx3']]);
    // r1 answered: tx completes, the oldest waiting request goes, and only it
    const a1 = answer(third.ctx, r1, 20);
    expect(completedTo(a1.effects)).toEqual(['tx→CompleteCommit']);
    const [r2, ...more] = markerRequests(a1.effects);
    expect(more).toEqual([]);
    expect([r2?.to, carried(r2)]).toEqual([leader, ['tx2:t-0']]);
    const a2 = answer(a1.ctx, r2, 30);
    const [r3] = markerRequests(a2.effects);
    expect([r3?.to, carried(r3)]).toEqual([leader, ['tx3:t-0']]);
    const a3 = answer(a2.ctx, r3, 40);
    expect(completedTo(a3.effects)).toEqual(['tx3→CompleteCommit']);
    expect(a3.ctx.markerSends).toBeUndefined();
    expect(a3.ctx.markers).toEqual({});
  });

  it('a disconnect puts back every marker of the request and of those waiting behind it: at the backoff’s end they go in one request', () => {
    const first = started(base, [['tx', 1000, ['t-0']]], 10);
    const [r1] = markerRequests(first.effects);
    const second = started(first.ctx, [['tx2', 2000, ['t-0']]], 12);
    const lost = lose(second.ctx, r1, 20);
    expect(markerRequests(lost.effects)).toEqual([]);
    expect(lost.ctx.markerSends).toBeUndefined();
    expect(lost.ctx.markers.tx?.remaining).toEqual(['t-0']);
    expect(lost.ctx.markers.tx2?.remaining).toEqual(['t-0']);
    const out = new Out();
    const over = onMarkerReconnectBackoffOver(
      lost.ctx,
      { type: 'reconnectBackoffExpired', now: 70, key: `reconnect:${leader}`, data: { node: leader } } as never,
      out,
    );
    const [again, ...more] = markerRequests(out.effects);
    expect(more).toEqual([]);
    expect([again?.to, carried(again)]).toEqual([leader, ['tx:t-0', 'tx2:t-0']]);
    const done = answer(over, again, 80);
    expect(completedTo(done.effects)).toEqual(['tx→CompleteCommit', 'tx2→CompleteCommit']);
  });

  it('each marker of an answer is handled on its own: one completes, one is queued again after the pause, one is given up', () => {
    const s = started(
      base,
      [
        ['tx', 1000, ['t-0']],
        ['tx2', 2000, ['t-0']],
        ['tx3', 3000, ['t-0']],
      ],
      10,
    );
    const [r] = markerRequests(s.effects);
    expect(carried(r)).toEqual(['tx:t-0', 'tx2:t-0', 'tx3:t-0']);
    const errors: Record<string, string> = { tx: 'NONE', tx2: 'NOT_ENOUGH_REPLICAS', tx3: 'INVALID_PRODUCER_EPOCH' };
    const a = answer(s.ctx, r, 20, (id) => errors[id] as string);
    expect(completedTo(a.effects)).toEqual(['tx→CompleteCommit']);
    expect(a.ctx.markers.tx).toBeUndefined();
    // tx3 refused for good: no completion, its markers forgotten (abortSending)
    expect(a.ctx.markers.tx3).toBeUndefined();
    expect(a.ctx.txns.tx3?.state).toBe('PrepareCommit');
    // tx2 waits out the pause; nothing is sent meanwhile
    expect(a.ctx.markers.tx2).toMatchObject({ remaining: ['t-0'], inFlight: [], paused: ['t-0'] });
    expect(markerRequests(a.effects)).toEqual([]);
    const pause = a.effects.find((e) => e.type === 'timer' && e.name === 'markerRetry') as { key: string; delay: number; data: unknown };
    expect(pause).toMatchObject({
      key: `markerRetry:${r?.correlationId}`,
      delay: 100,
      data: { markers: [{ transactionalId: 'tx2', partitions: ['t-0'] }] },
    });
    const out = new Out();
    const retried = onMarkerRetry(a.ctx, { type: 'markerRetry', now: 120, data: pause.data } as never, out);
    const [again] = markerRequests(out.effects);
    expect([again?.to, carried(again)]).toEqual([leader, ['tx2:t-0']]);
    expect(completedTo(answer(retried, again, 130).effects)).toEqual(['tx2→CompleteCommit']);
  });

  it('the markers refused in one answer, of several transactions, are queued again together: one request after the pause', () => {
    const s = started(
      base,
      [
        ['tx', 1000, ['t-0']],
        ['tx2', 2000, ['t-0']],
      ],
      10,
    );
    const [r] = markerRequests(s.effects);
    const a = answer(s.ctx, r, 20, () => 'NOT_ENOUGH_REPLICAS');
    const timers = a.effects.filter((e) => e.type === 'timer' && e.name === 'markerRetry') as { data: unknown }[];
    expect(timers).toHaveLength(1);
    const out = new Out();
    onMarkerRetry(a.ctx, { type: 'markerRetry', now: 120, data: timers[0]?.data } as never, out);
    expect(markerRequests(out.effects).map((x) => [x.to, carried(x)])).toEqual([[leader, ['tx:t-0', 'tx2:t-0']]]);
  });

  it('an answer for a request no longer in flight (a stale correlation id) changes nothing and sends nothing', () => {
    const first = started(base, [['tx', 1000, ['t-0']]], 10);
    const [r1] = markerRequests(first.effects);
    const stale = answer(first.ctx, r1 && { ...r1, correlationId: r1.correlationId + 100 }, 20);
    expect(stale.effects).toEqual([]);
    expect(stale.ctx.markerSends).toEqual(first.ctx.markerSends);
  });
});
