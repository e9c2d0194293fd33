/**
 * The marker channel's reconnect backoff (markerChannel.ts), on its own. Kafka's
 * TransactionMarkerChannelManager.apply builds its NetworkClient with `reconnectBackoffMs` 50 and
 * `reconnectBackoffMax` 50 (literals, not the broker's reconnect.backoff.* configs): its
 * ClusterConnectionStates' ExponentialBackoff has an exponent range of 0, so every backoff is 50 ms,
 * however many attempts in a row failed. The InterBrokerSendThread sends a queued request only once
 * `networkClient.ready(node)`; a request completed as a disconnect puts its markers back in the queue
 * (TransactionMarkerRequestCompletionHandler, `wasDisconnected`); an answer makes the node READY and
 * resets the failed attempts.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { reconnectBackoff } from '../../src/sim/cluster/connectionStates';
import { leaderOf } from '../../src/sim/cluster/metadata';
import {
  MARKER_CHANNEL_RECONNECT,
  onMarkerReconnectBackoffOver,
  onMarkerRequestLost,
  onMarkersResponse,
  onPartitionLeader,
  startMarkers,
} from '../../src/sim/coordinator/markerChannel';
import type { TxnCoordinatorContext, TxnDraft } from '../../src/sim/coordinator/txnCoordinatorContext';
import type { Effect } from '../../src/sim/kernel/effects';
import { bootedCoordinator, preparedTxn } from './fixture';

const coordinator = bootedCoordinator;

const markerRequests = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'send' && e.rpc === 'WriteTxnMarkers'
      ? [{ to: e.to, correlationId: (e.payload as { correlationId: number }).correlationId, transactionalId: txnOf(e.payload) }]
      : [],
  );
// the transactions whose markers the request carries (one request per broker carries every marker queued for it)
const txnOf = (payload: unknown) => (payload as { markers: { transactionalId: string }[] }).markers.map((m) => m.transactionalId).join('+');
const reconnectTimers = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'timer' && e.name === 'reconnectBackoffExpired' ? [{ key: e.key, delay: e.delay, data: e.data }] : []));

function started(ctx: TxnCoordinatorContext, transactionalId: string, partitions: readonly string[], now: number) {
  const d: TxnDraft = { ...ctx };
  const out = new Out();
  const m = { ...preparedTxn(partitions), transactionalId };
  d.txns = { ...d.txns, [transactionalId]: m };
  startMarkers(d, m, 'COMMIT', now, out);
  return { ctx: d as TxnCoordinatorContext, effects: out.effects };
}

function refuse(ctx: TxnCoordinatorContext, to: string, correlationId: number, now: number) {
  const out = new Out();
  const next = onMarkerRequestLost(
    ctx,
    {
      type: 'disconnected',
      now,
      envelopeId: 0,
      to,
      rpc: 'WriteTxnMarkers',
      payload: { correlationId },
      timedOut: false,
      reason: 'refused',
    },
    out,
  );
  return { ctx: next, effects: out.effects };
}

function backoffOver(ctx: TxnCoordinatorContext, node: string, now: number) {
  const out = new Out();
  const next = onMarkerReconnectBackoffOver(
    ctx,
    { type: 'reconnectBackoffExpired', now, key: `reconnect:${node}`, data: { node } } as never,
    out,
  );
  return { ctx: next, effects: out.effects };
}

function acknowledge(ctx: TxnCoordinatorContext, from: string, correlationId: number, partition: number, now: number) {
  const out = new Out();
  const next = onMarkersResponse(
    ctx,
    {
      type: 'WriteTxnMarkersResponse',
      now,
      from,
      envelopeId: 1,
      inReplyTo: 0,
      payload: { correlationId, markers: [{ producerId: 1000, partitions: [{ topic: 't', partition, error: 'NONE' }] }] },
    } as never,
    out,
  );
  return { ctx: next, effects: out.effects };
}

describe('the marker channel’s reconnect backoff', () => {
  it('is the NetworkClient’s of TransactionMarkerChannelManager.apply: 50 and 50, a constant 50 ms whatever the attempts', () => {
    expect(MARKER_CHANNEL_RECONNECT).toEqual({ 'reconnect.backoff.ms': 50, 'reconnect.backoff.max.ms': 50 });
    expect([0, 1, 2, 3, 5, 10].map((n) => reconnectBackoff(MARKER_CHANNEL_RECONNECT, n))).toEqual([50, 50, 50, 50, 50, 50]);
    // a client's defaults (50, 1000) would grow: the channel's do not
    expect([0, 1, 2, 3, 4, 5].map((n) => reconnectBackoff({ 'reconnect.backoff.ms': 50, 'reconnect.backoff.max.ms': 1000 }, n))).toEqual([
      50, 100, 200, 400, 800, 1000,
    ]);
  });

  it('after repeated refused connections to one leader: each refusal waits 50 ms, nothing goes to it meanwhile, the attempts count up', () => {
    let ctx = coordinator();
    const leader = leaderOf(ctx.meta, 't', 0) as string;
    const first = started(ctx, 'tx', ['t-0'], 10);
    ctx = first.ctx;
    let [req] = markerRequests(first.effects);
    expect(req?.to).toBe(leader);
    const backoffs: number[] = [];
    const attempts: number[] = [];
    const sentAt: number[] = [10];
    let now = 20;
    for (let i = 0; i < 4; i++) {
      const refused = refuse(ctx, leader, req?.correlationId ?? -1, now);
      ctx = refused.ctx;
      // no marker goes while the node is inside its backoff
      expect(markerRequests(refused.effects)).toEqual([]);
      const [timer] = reconnectTimers(refused.effects);
      expect(timer).toEqual({ key: `reconnect:${leader}`, delay: 50, data: { node: leader } });
      backoffs.push(timer?.delay ?? -1);
      attempts.push(ctx.markerConnections?.[leader]?.failedAttempts ?? -1);
      expect(ctx.markerConnections?.[leader]).toMatchObject({ state: 'DISCONNECTED', blackedOut: true, lastConnectAttemptMs: now });
      // the backoff's end sends them again: that request is the connection attempt
      now += timer?.delay ?? 0;
      const over = backoffOver(ctx, leader, now);
      ctx = over.ctx;
      [req] = markerRequests(over.effects);
      expect(req?.to).toBe(leader);
      sentAt.push(now);
      expect(ctx.markerConnections?.[leader]).toMatchObject({ state: 'CONNECTING', blackedOut: false });
      now += 10;
    }
    expect(backoffs).toEqual([50, 50, 50, 50]);
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(sentAt).toEqual([10, 70, 130, 190, 250]);
  });

  it('an answer resets it: the node is READY again, and the next refusal counts from the first attempt', () => {
    let ctx = coordinator();
    const leader = leaderOf(ctx.meta, 't', 0) as string;
    const first = started(ctx, 'tx', ['t-0'], 10);
    let [req] = markerRequests(first.effects);
    ctx = refuse(first.ctx, leader, req?.correlationId ?? -1, 20).ctx;
    const again = backoffOver(ctx, leader, 70);
    [req] = markerRequests(again.effects);
    ctx = refuse(again.ctx, leader, req?.correlationId ?? -1, 80).ctx;
    expect(ctx.markerConnections?.[leader]?.failedAttempts).toBe(2);
    const third = backoffOver(ctx, leader, 130);
    [req] = markerRequests(third.effects);
    const acked = acknowledge(third.ctx, leader, req?.correlationId ?? -1, 0, 140);
    ctx = acked.ctx;
    expect(ctx.txns.tx?.state).toBe('CompleteCommit');
    expect(ctx.markerConnections).toBeUndefined();
    // the next transaction's marker to that leader goes at once, and its refusal is a first failed attempt again
    const next = started(ctx, 'tx2', ['t-0'], 200);
    const [second] = markerRequests(next.effects);
    expect(second?.to).toBe(leader);
    const refusedAgain = refuse(next.ctx, leader, second?.correlationId ?? -1, 210);
    expect(refusedAgain.ctx.markerConnections?.[leader]).toMatchObject({ failedAttempts: 1, reconnectBackoffMs: 50 });
  });

  it('holds another transaction’s markers to a node inside its backoff, and sends both in one request when it ends', () => {
    let ctx = coordinator();
    const leader = leaderOf(ctx.meta, 't', 0) as string;
    const first = started(ctx, 'tx', ['t-0'], 10);
    const [req] = markerRequests(first.effects);
    ctx = refuse(first.ctx, leader, req?.correlationId ?? -1, 20).ctx;
    const second = started(ctx, 'tx2', ['t-0'], 30);
    expect(markerRequests(second.effects)).toEqual([]);
    const over = backoffOver(second.ctx, leader, 70);
    expect(markerRequests(over.effects).map((r) => `${r.transactionalId}→${r.to}`)).toEqual([`tx+tx2→${leader}`]);
  });

  it('one close of the connection raises the backoff once, and fails the request waiting behind the lost one (checkDisconnects)', () => {
    let ctx = coordinator();
    const leader = leaderOf(ctx.meta, 't', 0) as string;
    const a = started(ctx, 'tx', ['t-0'], 10);
    const b = started(a.ctx, 'tx2', ['t-0'], 10);
    const [ra] = markerRequests(a.effects);
    // tx2’s request waits behind tx’s: one request in flight per broker
    expect(markerRequests(b.effects)).toEqual([]);
    expect(b.ctx.markerSends?.[leader]?.unsent).toHaveLength(1);
    const one = refuse(b.ctx, leader, ra?.correlationId ?? -1, 20);
    ctx = one.ctx;
    expect(reconnectTimers(one.effects)).toHaveLength(1);
    expect(ctx.markerConnections?.[leader]?.failedAttempts).toBe(1);
    expect(ctx.markerSends).toBeUndefined();
    expect([ctx.markers.tx?.inFlight, ctx.markers.tx2?.inFlight]).toEqual([[], []]);
    expect(markerRequests(backoffOver(ctx, leader, 70).effects).map((r) => `${r.transactionalId}→${r.to}`)).toEqual([`tx+tx2→${leader}`]);
  });

  it('a partition whose leader moved while its markers waited goes to the new leader at once (addTxnMarkersToBrokerQueue looks it up afresh)', () => {
    let ctx = coordinator();
    const leader = leaderOf(ctx.meta, 't', 0) as string;
    const other = ctx.meta.brokers.find((b) => b !== leader) as string;
    const first = started(ctx, 'tx', ['t-0'], 10);
    const [req] = markerRequests(first.effects);
    // the hosting broker's metadata names a new leader before the loss is told
    ctx = onPartitionLeader(first.ctx, { topic: 't', partition: 0, leaderId: other, leaderEpoch: 5 }, 15, new Out());
    const lost = refuse(ctx, leader, req?.correlationId ?? -1, 20);
    expect(markerRequests(lost.effects).map((r) => r.to)).toEqual([other]);
  });
});

/**
 * A hosted coordinator learns a partition's new leader from its broker (onPartitionLeader): the
 * markers of that partition that wait (not in flight) go to the new leader at once, unless that node
 * is inside its reconnect backoff. Kafka: addTxnMarkersToBrokerQueue puts markers whose leader is
 * unknown (getPartitionLeaderEndpoint: Node.noNode) in markersQueueForUnknownBroker; every loop of the
 * InterBrokerSendThread (generateRequests) looks them up again in the metadata cache and, once a leader
 * is known, queues them for it; sendRequests sends only when `networkClient.ready(node)`.
 */
describe('a leader learned while markers wait', () => {
  function waitingOn(ctx: TxnCoordinatorContext, transactionalId: string, partition: string, now: number) {
    const first = started(ctx, transactionalId, [partition], now);
    const [req] = markerRequests(first.effects);
    const lost = refuse(first.ctx, req?.to ?? '', req?.correlationId ?? -1, now + 1);
    return { ctx: lost.ctx, to: req?.to ?? '', effects: lost.effects };
  }

  it('sends the waiting markers to the new leader at once', () => {
    const base = coordinator();
    const leader = leaderOf(base.meta, 't', 0) as string;
    const other = base.meta.brokers.find((b) => b !== leader) as string;
    const waiting = waitingOn(base, 'tx', 't-0', 10);
    // refused: its leader is inside its backoff, nothing goes meanwhile
    expect(waiting.to).toBe(leader);
    expect(markerRequests(waiting.effects)).toEqual([]);
    const out = new Out();
    const next = onPartitionLeader(waiting.ctx, { topic: 't', partition: 0, leaderId: other, leaderEpoch: 5 }, 20, out);
    expect(markerRequests(out.effects).map((r) => [r.to, r.transactionalId])).toEqual([[other, 'tx']]);
    expect(next.markers.tx?.inFlight.flatMap((r) => r.partitions)).toEqual(['t-0']);
  });

  it('a new leader inside its own reconnect backoff: nothing goes until that backoff ends', () => {
    const base = coordinator();
    const leader = leaderOf(base.meta, 't', 0) as string;
    const otherPartition = [1, 2].find((p) => leaderOf(base.meta, 't', p) !== leader) as number;
    const other = leaderOf(base.meta, 't', otherPartition) as string;
    // other refused a request of tx2: it is inside its backoff
    const first = waitingOn(base, 'tx2', `t-${otherPartition}`, 10);
    expect(first.to).toBe(other);
    const second = waitingOn(first.ctx, 'tx', 't-0', 12);
    const out = new Out();
    const moved = onPartitionLeader(second.ctx, { topic: 't', partition: 0, leaderId: other, leaderEpoch: 5 }, 20, out);
    expect(markerRequests(out.effects)).toEqual([]);
    const over = backoffOver(moved, other, 60);
    expect(
      markerRequests(over.effects)
        .map((r) => [r.to, r.transactionalId])
        .sort(),
    ).toEqual([[other, 'tx+tx2']]);
  });

  it('markers in flight are not sent twice, and a leader epoch the coordinator already knows sends nothing', () => {
    const base = coordinator();
    const leader = leaderOf(base.meta, 't', 0) as string;
    const other = base.meta.brokers.find((b) => b !== leader) as string;
    const first = started(base, 'tx', ['t-0'], 10);
    const out = new Out();
    const moved = onPartitionLeader(first.ctx, { topic: 't', partition: 0, leaderId: other, leaderEpoch: 5 }, 20, out);
    expect(markerRequests(out.effects)).toEqual([]);
    expect(moved.markers.tx?.inFlight).toHaveLength(1);
    const waiting = waitingOn(base, 'tx', 't-0', 10);
    const stale = new Out();
    const known = base.meta.topics.t?.leaderEpochs?.[0] ?? 0;
    expect(onPartitionLeader(waiting.ctx, { topic: 't', partition: 0, leaderId: other, leaderEpoch: known }, 20, stale)).toBe(waiting.ctx);
    expect(stale.effects).toEqual([]);
  });
});
