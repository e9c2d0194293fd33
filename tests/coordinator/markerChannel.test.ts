/**
 * markerChannel.ts (TransactionMarkerChannelManager) on its own: one WriteTxnMarkers per partition
 * leader, a refused marker retried after a pause, a lost request sent again, CompleteCommit
 * written only when every partition has acknowledged, and a marker refused for good (the producer's or
 * the coordinator's epoch moved on) ending the sending without a completion.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { leaderOf } from '../../src/sim/cluster/metadata';
import { onMarkerRequestLost, onMarkerRetry, onMarkersResponse, startMarkers } from '../../src/sim/coordinator/markerChannel';
import type { TxnCoordinatorContext, TxnDraft } from '../../src/sim/coordinator/txnCoordinatorContext';
import type { Effect } from '../../src/sim/kernel/effects';
import { bootedCoordinator, preparedTxn } from './fixture';

const coordinator = bootedCoordinator;

const prepared = preparedTxn;

function run(ctx: TxnCoordinatorContext, fn: (d: TxnDraft, out: Out) => void): { d: TxnDraft; effects: Effect[] } {
  const d: TxnDraft = { ...ctx };
  const out = new Out();
  fn(d, out);
  return { d, effects: out.effects };
}

const markerRequests = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'send' && e.rpc === 'WriteTxnMarkers'
      ? [{ to: e.to, correlationId: (e.payload as { correlationId: number }).correlationId, payload: e.payload }]
      : [],
  );
const completed = (fx: readonly Effect[]) =>
  fx.filter((e) => e.type === 'fact' && (e.fact as { kind: string; to?: string }).to === 'CompleteCommit').length;

describe('the marker channel', () => {
  it('sends one WriteTxnMarkers per leader, each carrying that leader’s partitions', () => {
    const ctx = coordinator();
    const { d, effects } = run(ctx, (d, out) => {
      d.txns = { ...d.txns, tx: prepared(['t-0', 't-1', 't-2']) };
      startMarkers(d, prepared(['t-0', 't-1', 't-2']), 'COMMIT', 10, out);
    });
    const leaders = new Set([0, 1, 2].map((p) => leaderOf(ctx.meta, 't', p)));
    expect(
      markerRequests(effects)
        .map((r) => r.to)
        .sort(),
    ).toEqual([...leaders].sort());
    expect((d.markers.tx?.inFlight ?? []).flatMap((r) => r.partitions).sort()).toEqual(['t-0', 't-1', 't-2']);
    expect(completed(effects)).toBe(0);
  });

  it('writes CompleteCommit only once every partition acknowledged; a refused marker is retried after a pause', () => {
    let ctx = coordinator();
    const first = run(ctx, (d, out) => {
      d.txns = { ...d.txns, tx: prepared(['t-0']) };
      startMarkers(d, prepared(['t-0']), 'COMMIT', 10, out);
    });
    ctx = first.d;
    const [req] = markerRequests(first.effects);
    const response = (error: string) => ({
      type: 'WriteTxnMarkersResponse' as const,
      now: 20,
      from: req?.to ?? '',
      envelopeId: 1,
      inReplyTo: 0,
      payload: {
        correlationId: req?.correlationId ?? -1,
        markers: [{ producerId: 1000, partitions: [{ topic: 't', partition: 0, error }] }],
      },
    });
    const refusedOut = new Out();
    const refused = onMarkersResponse(ctx, response('NOT_LEADER_OR_FOLLOWER') as never, refusedOut);
    expect(refused.markers.tx?.remaining).toEqual(['t-0']);
    expect(refusedOut.effects.filter((e) => e.type === 'timer').map((e) => (e as { name: string }).name)).toEqual(['markerRetry']);
    expect(completed(refusedOut.effects)).toBe(0);
    const retryOut = new Out();
    const pause = refusedOut.effects.find((e) => e.type === 'timer');
    // one pause per answer: what it refused, per transaction
    expect(pause).toMatchObject({
      key: `markerRetry:${req?.correlationId}`,
      delay: 100,
      data: { markers: [{ transactionalId: 'tx', partitions: ['t-0'] }] },
    });
    const retried = onMarkerRetry(refused, { type: 'markerRetry', now: 120, data: (pause as { data: unknown }).data } as never, retryOut);
    const [again] = markerRequests(retryOut.effects);
    expect(again?.to).toBe(req?.to);
    const okOut = new Out();
    const done = onMarkersResponse(
      retried,
      { ...response('NONE'), payload: { ...response('NONE').payload, correlationId: again?.correlationId } } as never,
      okOut,
    );
    expect(done.markers.tx).toBeUndefined();
    expect(completed(okOut.effects)).toBe(1);
    expect(done.txns.tx?.state).toBe('CompleteCommit');
  });

  it.each(['INVALID_PRODUCER_EPOCH', 'TRANSACTION_COORDINATOR_FENCED'])(
    'a marker refused %s stops the sending: no retry, no CompleteCommit, the other answers ignored (abortSending)',
    (error) => {
      const ctx = coordinator();
      const first = run(ctx, (d, out) => {
        d.txns = { ...d.txns, tx: prepared(['t-0', 't-1', 't-2']) };
        startMarkers(d, prepared(['t-0', 't-1', 't-2']), 'COMMIT', 10, out);
      });
      const requests = markerRequests(first.effects);
      expect(requests.length).toBeGreaterThan(1);
      const answer = (r: (typeof requests)[number], err: (p: number) => string) => ({
        type: 'WriteTxnMarkersResponse' as const,
        now: 20,
        from: r.to,
        envelopeId: 1,
        inReplyTo: 0,
        payload: {
          correlationId: r.correlationId,
          markers: [
            {
              producerId: 1000,
              partitions: (r.payload as { markers: { partitions: { topic: string; partition: number }[] }[] }).markers[0]?.partitions.map(
                (p) => ({ ...p, error: err(p.partition) }),
              ),
            },
          ],
        },
      });
      const [one, ...others] = requests;
      if (!one) throw new Error('no request');
      const refusedOut = new Out();
      const refused = onMarkersResponse(first.d, answer(one, () => error) as never, refusedOut);
      expect(refused.markers.tx).toBeUndefined();
      expect(refused.txns.tx?.state).toBe('PrepareCommit');
      expect(refusedOut.effects.some((e) => e.type === 'timer')).toBe(false);
      expect(completed(refusedOut.effects)).toBe(0);
      // the other leaders acknowledge theirs: still no completion, nothing sent
      let after = refused;
      for (const r of others) {
        const out = new Out();
        after = onMarkersResponse(after, answer(r, () => 'NONE') as never, out);
        expect(out.effects).toEqual([]);
      }
      expect(after.txns.tx?.state).toBe('PrepareCommit');
    },
  );

  it('a lost request (disconnected) puts its markers back: they wait for their leader’s reconnect backoff, not the retry pause', () => {
    const ctx = coordinator();
    const first = run(ctx, (d, out) => {
      d.txns = { ...d.txns, tx: prepared(['t-0']) };
      startMarkers(d, prepared(['t-0']), 'COMMIT', 10, out);
    });
    const [req] = markerRequests(first.effects);
    const lostOut = new Out();
    const lost = onMarkerRequestLost(
      first.d,
      {
        type: 'disconnected',
        now: 30,
        to: req?.to,
        reason: 'refused',
        timedOut: false,
        payload: { correlationId: req?.correlationId },
      } as never,
      lostOut,
    );
    expect(lost.markers.tx?.inFlight).toEqual([]);
    expect(markerRequests(lostOut.effects)).toEqual([]);
    const timers = lostOut.effects.flatMap((e) => (e.type === 'timer' ? [{ name: e.name, delay: e.delay, key: e.key }] : []));
    expect(timers).toEqual([{ name: 'reconnectBackoffExpired', delay: 50, key: `reconnect:${req?.to}` }]);
  });
});
