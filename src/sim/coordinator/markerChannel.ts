/**
 * The transaction markers of a transaction that is ending (Kafka's TransactionMarkerChannelManager):
 * once PrepareCommit/PrepareAbort is written, a WriteTxnMarkers request goes to the leader of every
 * partition of the transaction (one request per leader), a refused or lost request is sent again,
 * and when every partition has acknowledged its marker the coordinator writes
 * CompleteCommit/CompleteAbort.
 *
 * The channel's connections (TransactionMarkerChannelManager.apply builds its own NetworkClient,
 * `reconnectBackoffMs` 50 and `reconnectBackoffMax` 50, literals, not the broker's
 * reconnect.backoff.ms / reconnect.backoff.max.ms; its InterBrokerSendThread sends a queued request
 * only once `networkClient.ready(node)`): a request lost with its connection — refused by a broker
 * that is down or not listening yet (broker/listeners.ts), reset, or unanswered within
 * request.timeout.ms — is NetworkClient.processDisconnection: ClusterConnectionStates.disconnected
 * raises the node's reconnect backoff, and its markers, put back in the queue
 * (TransactionMarkerRequestCompletionHandler, `wasDisconnected` → addTxnMarkersToBrokerQueue), wait
 * until the backoff has passed; any answer from the node (ClusterConnectionStates.ready) resets it.
 * The model keeps the record with the clients' code (cluster/connectionStates.ts, `markerConnections`)
 * and arms a `reconnectBackoffExpired` timer for the backoff's end, which sends what waits for that
 * node. With base and maximum both 50 Kafka's ExponentialBackoff is constant (its exponent range is
 * 0, and it returns before the jitter): every backoff of this channel is 50 ms.
 */
import type { Out } from '../actors/out';
import { applyCurrentLeader } from '../cluster/clientMetadata';
import {
  backoffOver,
  type ConnectionStates,
  connecting,
  disconnected,
  isUnavailable,
  NO_CONNECTION_STATES,
  RECONNECT_TIMER,
  type ReconnectConfig,
  ready,
  takesClose,
} from '../cluster/connectionStates';
import { leaderOf } from '../cluster/metadata';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { TopicPartition, WriteTxnMarkersResponse } from '../protocol/messages';
import type { MetadataResponse } from '../protocol/replicationMessages';
import { keyOf, parseTopicPartition } from '../protocol/topicPartition';
import { askLeaders, LEADER_MOVED_ERRORS, takeLookupAnswer } from './markerMetadata';
import type { TxnMetadata } from './transactionMetadata';
import { type MarkerWork, persist, type TxnCoordinatorContext, type TxnDraft } from './txnCoordinatorContext';

/**
 * The coordinator epoch a transaction's markers carry (TransactionStateManager.getTransactionState's
 * `coordinatorEpoch`): that of the `__transaction_state` partition the transactional.id belongs to —
 * on a broker leading several, each partition's own leader epoch.
 */
function coordinatorEpochOf(d: TxnDraft, transactionalId: string): number {
  const owned = d.hosted?.owned[coordinatorPartitionFor(transactionalId, d.meta.transactionStatePartitions)];
  return owned?.coordinatorEpoch ?? d.coordinatorEpoch;
}

export function startMarkers(d: TxnDraft, m: TxnMetadata, result: 'COMMIT' | 'ABORT', now: number, out: Out): void {
  d.markers = {
    ...d.markers,
    [m.transactionalId]: { result, producerId: m.producerId, producerEpoch: m.producerEpoch, remaining: m.partitions, inFlight: [] },
  };
  sendMarkers(d, m.transactionalId, now, out);
  maybeComplete(d, m.transactionalId, now, out);
}

/**
 * The marker channel's NetworkClient reconnect backoff: TransactionMarkerChannelManager.apply passes
 * `reconnectBackoffMs = 50, reconnectBackoffMax = 50` to `new NetworkClient(…)` — a constant 50 ms,
 * whatever the broker's reconnect.backoff.ms says.
 */
export const MARKER_CHANNEL_RECONNECT: ReconnectConfig = { 'reconnect.backoff.ms': 50, 'reconnect.backoff.max.ms': 50 };

/** The timer for the end of a node's reconnect backoff (the clients' name: narration and labels know it). */
export const MARKER_RECONNECT_EXPIRED = 'reconnectBackoffExpired';

const connectionsOf = (d: { readonly markerConnections?: ConnectionStates }): ConnectionStates =>
  d.markerConnections ?? NO_CONNECTION_STATES;

/**
 * NetworkClient.processDisconnection on the marker channel, once per close (`takesClose`): the node's
 * reconnect backoff raised (ClusterConnectionStates.disconnected) and a timer for its end.
 */
export function markerNodeDisconnected(d: TxnDraft, node: ActorId, now: number, out: Out): void {
  const states = connectionsOf(d);
  if (!takesClose(states, node)) return;
  d.markerConnections = disconnected(states, node, now, MARKER_CHANNEL_RECONNECT);
  const backoff = d.markerConnections[node]?.reconnectBackoffMs ?? 0;
  if (backoff > 0) out.timer(RECONNECT_TIMER(node), MARKER_RECONNECT_EXPIRED, backoff, { node });
}

/** An answer came from the node: its connection works (ClusterConnectionStates.ready, the backoff reset). */
function markerNodeReady(d: TxnDraft, node: ActorId): void {
  if (d.markerConnections === undefined) return;
  const states = ready(d.markerConnections, node);
  d.markerConnections = Object.keys(states).length > 0 ? states : undefined;
}

/**
 * Sends WriteTxnMarkers for every remaining partition not already in flight, one request per leader —
 * except to a leader inside its reconnect backoff (InterBrokerSendThread.sendRequests: not
 * `networkClient.ready(node)`): those wait for the backoff's end (`onMarkerReconnectBackoffOver`).
 * A request to a node whose backoff has passed is the connection attempt (CONNECTING). A request to a
 * node whose attempt is under way goes on it (the model sends regardless, as the producer does its
 * transactional requests; Kafka's would wait for the connection): refused, it is the same close.
 */
export function sendMarkers(d: TxnDraft, transactionalId: string, now: number, out: Out): void {
  const work = d.markers[transactionalId];
  if (!work) return;
  const busy = new Set(work.inFlight.flatMap((r) => r.partitions));
  const byLeader = new Map<ActorId, TopicPartition[]>();
  for (const p of work.remaining) {
    if (busy.has(p)) continue;
    const tp = parseTopicPartition(p);
    const leader = leaderOf(d.meta, tp.topic, tp.partition);
    if (!leader || isUnavailable(connectionsOf(d), leader)) continue;
    byLeader.set(leader, [...(byLeader.get(leader) ?? []), tp]);
  }
  let inFlight = work.inFlight;
  for (const [leader, partitions] of [...byLeader].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const correlationId = d.nextCorrelationId;
    d.nextCorrelationId += 1;
    if (d.markerConnections !== undefined) d.markerConnections = connecting(d.markerConnections, leader, now);
    out.send(
      leader,
      'WriteTxnMarkers',
      {
        correlationId,
        markers: [
          {
            producerId: work.producerId,
            producerEpoch: work.producerEpoch,
            coordinatorEpoch: coordinatorEpochOf(d, transactionalId),
            result: work.result,
            partitions,
            transactionalId,
          },
        ],
      },
      // TransactionMarkerChannelManager's NetworkClient: the broker's request.timeout.ms
      { timeoutMs: d.config.requestTimeoutMs },
    );
    inFlight = [...inFlight, { correlationId, partitions: partitions.map(keyOf) }];
  }
  d.markers = { ...d.markers, [transactionalId]: { ...work, inFlight } };
}

/** Once every marker is acknowledged: CompleteCommit/CompleteAbort, partitions cleared. */
export function maybeComplete(d: TxnDraft, transactionalId: string, now: number, out: Out): void {
  const work = d.markers[transactionalId];
  const m = d.txns[transactionalId];
  if (!work || !m || work.remaining.length > 0) return;
  const { [transactionalId]: _done, ...rest } = d.markers;
  d.markers = rest;
  // prepareComplete clears a failed epoch fence's flag
  const { hasFailedEpochFence: _cleared, ...prepared } = m;
  persist(
    d,
    { ...prepared, state: work.result === 'COMMIT' ? 'CompleteCommit' : 'CompleteAbort', partitions: [], txnLastUpdateTimestamp: now },
    now,
    out,
  );
}

function markerRequestDone(d: TxnDraft, correlationId: number): { transactionalId: string; partitions: readonly string[] } | null {
  for (const [transactionalId, work] of Object.entries(d.markers)) {
    const request = work.inFlight.find((r) => r.correlationId === correlationId);
    if (!request) continue;
    const partitions = request.partitions;
    const inFlight = work.inFlight.filter((r) => r !== request);
    d.markers = { ...d.markers, [transactionalId]: { ...work, inFlight } };
    return { transactionalId, partitions };
  }
  return null;
}

/**
 * The pause before markers refused with a retriable error (NOT_ENOUGH_REPLICAS, NOT_LEADER_OR_FOLLOWER,
 * REQUEST_TIMED_OUT …) in an answer are sent again. *Simplified:* Kafka has none —
 * TransactionMarkerRequestCompletionHandler puts them back in the broker's queue
 * (addTxnMarkersToBrokerQueue) and the InterBrokerSendThread sends them on its next loop over a
 * connection that works (no reconnect backoff: the node answered), so a partition below its min ISR
 * is asked again every round trip, without bound for as long as the spell lasts; the model waits
 * 100 ms so that such a spell is not thousands of WriteTxnMarkers in the timeline (a marker lands up
 * to 100 ms later). Markers lost with their connection wait the channel's reconnect backoff instead,
 * as in Kafka (`onMarkerRequestLost`).
 */
const MARKER_RETRY_PAUSE_MS = 100;

export const onMarkersResponse = (
  ctx: TxnCoordinatorContext,
  ev: RpcEvent<WriteTxnMarkersResponse & { correlationId: number }>,
  out: Out,
): TxnCoordinatorContext => {
  const d: TxnDraft = { ...ctx };
  markerNodeReady(d, ev.from);
  const done = markerRequestDone(d, ev.payload.correlationId);
  if (!done) return d.markerConnections === ctx.markerConnections ? ctx : d;
  const work = d.markers[done.transactionalId] as MarkerWork;
  let remaining = work.remaining;
  let retry = false;
  const fencedBy: string[] = [];
  const moved: string[] = [];
  for (const r of ev.payload.markers)
    for (const p of r.partitions) {
      const name = keyOf(p);
      if (p.error === 'NONE') remaining = remaining.filter((x) => x !== name);
      else if (p.error === 'INVALID_PRODUCER_EPOCH' || p.error === 'TRANSACTION_COORDINATOR_FENCED') fencedBy.push(`${name} ${p.error}`);
      else retry = true;
      if (LEADER_MOVED_ERRORS.has(p.error)) moved.push(name);
    }
  if (fencedBy.length > 0) return abortSending(d, done.transactionalId, fencedBy, out);
  d.markers = { ...d.markers, [done.transactionalId]: { ...work, remaining } };
  if (moved.length > 0) askLeaders(d, moved, ev.from, out);
  if (retry)
    out.timer(`markerRetry:${done.transactionalId}`, 'markerRetry', MARKER_RETRY_PAUSE_MS, { transactionalId: done.transactionalId });
  maybeComplete(d, done.transactionalId, ev.now, out);
  return d;
};

/**
 * A marker refused for good — the producer's epoch or the coordinator's moved on
 * (INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED): TransactionMarkerRequestCompletionHandler
 * sets `abortSending` and removes the transaction's pending markers (`removeMarkersForTxn`); nothing
 * is retried and no CompleteCommit/CompleteAbort is written — the transaction stays Prepare* in this
 * coordinator's cache (a newer coordinator, or a newer producer epoch, owns it now). The answers of
 * its other requests still in flight find no markers and are ignored. (Kafka may still re-send a
 * partition another answer asks to retry, once, but never writes the completion either.)
 */
function abortSending(d: TxnDraft, transactionalId: string, refused: readonly string[], out: Out): TxnDraft {
  const { [transactionalId]: _gone, ...rest } = d.markers;
  d.markers = rest;
  out.cancel(`markerRetry:${transactionalId}`);
  out.fact({
    kind: 'note',
    actor: d.id,
    text: `${transactionalId}: markers refused for good (${refused.join(', ')}); stops sending its markers and writes no completion`,
  });
  return d;
}

/**
 * A WriteTxnMarkers request completed as a disconnect (refused by a broker that is down or not yet
 * listening, no answer within request.timeout.ms, a reset): NetworkClient.processDisconnection raises
 * the node's reconnect backoff (`markerNodeDisconnected`), and TransactionMarkerRequestCompletionHandler
 * (`wasDisconnected`) puts its markers back in the queue, each to the leader the metadata names now
 * (addTxnMarkersToBrokerQueue): a leader that moved gets them at once, the same node once its backoff
 * has passed (`onMarkerReconnectBackoffOver`).
 */
export const onMarkerRequestLost = (ctx: TxnCoordinatorContext, ev: DisconnectedEvent, out: Out): TxnCoordinatorContext => {
  const d: TxnDraft = { ...ctx };
  markerNodeDisconnected(d, ev.to, ev.now, out);
  const correlationId = (ev.payload as { correlationId?: number }).correlationId ?? -1;
  const done = markerRequestDone(d, correlationId);
  if (!done) return d.markerConnections === ctx.markerConnections ? ctx : d;
  askLeaders(d, done.partitions, ev.to, out);
  sendMarkers(d, done.transactionalId, ev.now, out);
  return d;
};

/**
 * The end of a node's reconnect backoff (ClusterConnectionStates: `canConnect` again): the markers
 * waiting go out, the request to that node being the connection attempt. Every waiting marker whose
 * leader is not inside a backoff goes, not only that node's: a partition whose leader moved while
 * its markers waited (the hosting broker's metadata changed, `onPartitionLeader`) goes to the new
 * leader now — Kafka would send it to the old one, be refused NOT_LEADER_OR_FOLLOWER, and queue it
 * for the new one — and a marker waiting for its `markerRetry` pause goes early (Kafka has no pause).
 */
export const onMarkerReconnectBackoffOver = (
  ctx: TxnCoordinatorContext,
  ev: TimerEvent<{ node: ActorId }>,
  out: Out,
): TxnCoordinatorContext => {
  if (ctx.markerConnections === undefined) return ctx;
  const d: TxnDraft = { ...ctx, markerConnections: backoffOver(ctx.markerConnections, ev.data.node) };
  for (const transactionalId of Object.keys(d.markers).sort()) sendMarkers(d, transactionalId, ev.now, out);
  return d;
};

export const onMarkerRetry = (ctx: TxnCoordinatorContext, ev: TimerEvent<{ transactionalId: string }>, out: Out): TxnCoordinatorContext => {
  const d: TxnDraft = { ...ctx };
  sendMarkers(d, ev.data.transactionalId, ev.now, out);
  return d;
};

/**
 * The hosting broker's metadata cache learned a partition's new leader (a PartitionChange): the
 * markers sent from now on go there (TransactionMarkerChannelManager looks each destination up in
 * the cache; those in flight to the old leader come back NOT_LEADER_OR_FOLLOWER or lost, and are
 * sent again). Markers of that partition waiting to be sent (not in flight) go now, to the new
 * leader, unless it is inside its reconnect backoff (`sendMarkers` skips it; the backoff's end sends
 * them): Kafka's InterBrokerSendThread re-reads the metadata cache on its next loop
 * (generateRequests → addTxnMarkersToBrokerQueue for what waits in markersQueueForUnknownBroker)
 * and sends what its broker queue holds once `networkClient.ready(node)`. *Simplified:* the model
 * sends at once, Kafka on the send thread's next wake-up (any marker queued, any answer, or at most
 * request.timeout.ms, NetworkClient.poll's bound). Like the end of a backoff, it also sends early the
 * transaction's other waiting markers (Kafka has no retry pause).
 */
export const onPartitionLeader = (
  ctx: TxnCoordinatorContext,
  args: { topic: string; partition: number; leaderId: ActorId | null; leaderEpoch: number },
  now: number,
  out: Out,
): TxnCoordinatorContext => {
  if (args.leaderId === null) return leaderless(ctx, args.topic, args.partition, args.leaderEpoch);
  const { meta, updated } = applyCurrentLeader(ctx.meta, args, { leaderId: args.leaderId, leaderEpoch: args.leaderEpoch });
  if (!updated) return ctx;
  const d: TxnDraft = { ...ctx, meta };
  const partition = keyOf({ topic: args.topic, partition: args.partition });
  for (const transactionalId of Object.keys(d.markers).sort()) {
    const work = d.markers[transactionalId] as MarkerWork;
    const waiting = work.remaining.includes(partition) && !work.inFlight.some((r) => r.partitions.includes(partition));
    if (waiting) sendMarkers(d, transactionalId, now, out);
  }
  return d;
};

/**
 * The partition has no leader (the controller fenced it and no ISR member is alive; a newer leader
 * epoch): KRaftMetadataCache.getPartitionLeaderEndpoint answers Node.noNode, addTxnMarkersToBrokerQueue
 * puts its markers in markersQueueForUnknownBroker, and nothing is sent for it until a leader is known
 * (`sendMarkers` skips a partition without a leader; `onPartitionLeader` sends them when one is).
 */
function leaderless(ctx: TxnCoordinatorContext, topic: string, partition: number, leaderEpoch: number): TxnCoordinatorContext {
  const t = ctx.meta.topics[topic];
  if (!t || partition >= t.partitions || leaderEpoch <= (t.leaderEpochs?.[partition] ?? 0)) return ctx;
  const leaders = [...t.leaders];
  leaders[partition] = null;
  const leaderEpochs = Array.from({ length: t.partitions }, (_, p) => t.leaderEpochs?.[p] ?? 0);
  leaderEpochs[partition] = leaderEpoch;
  return { ...ctx, meta: { ...ctx.meta, topics: { ...ctx.meta.topics, [topic]: { ...t, leaders, leaderEpochs } } } };
}

/**
 * The one-replica coordinator's leader lookup answered (markerMetadata.ts): when it names a newer
 * leader the waiting markers go there at once (Kafka reads each destination afresh from its metadata
 * cache). An answer that moves no leader sends nothing new: the markers wait for their `markerRetry`
 * (refused) or the end of their node's reconnect backoff (lost) — else a leader that is down but not
 * yet fenced by the controller (still the leader in every broker's metadata) was sent the markers
 * again every round trip of the lookup, thousands of WriteTxnMarkers until its session expired.
 * (`sendMarkers` skips a node inside its backoff in any case.)
 */
export const onLeaderLookupAnswered = (
  ctx: TxnCoordinatorContext,
  ev: RpcEvent<MetadataResponse & { correlationId: number }>,
  out: Out,
): TxnCoordinatorContext => {
  const d = takeLookupAnswer(ctx, ev);
  if (!d) return ctx;
  if (d.meta === ctx.meta) return d;
  for (const transactionalId of Object.keys(d.markers).sort()) sendMarkers(d, transactionalId, ev.now, out);
  return d;
};
