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
import { type ClusterMetadata, leaderOf } from '../cluster/metadata';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { WriteTxnMarkersResponse } from '../protocol/messages';
import type { MetadataResponse } from '../protocol/replicationMessages';
import { keyOf, parseTopicPartition } from '../protocol/topicPartition';
import { askLeaders, LEADER_MOVED_ERRORS, takeLookupAnswer } from './markerMetadata';
import type { TxnMetadata } from './transactionMetadata';
import {
  type MarkerBatch,
  type MarkerBatchEntry,
  type MarkerSends,
  type MarkerWork,
  persist,
  type TxnCoordinatorContext,
  type TxnDraft,
} from './txnCoordinatorContext';

/**
 * The coordinator epoch a transaction's markers carry (TransactionStateManager.getTransactionState's
 * `coordinatorEpoch`): that of the `__transaction_state` partition the transactional.id belongs to —
 * on a broker leading several, each partition's own leader epoch.
 */
function coordinatorEpochOf(d: TxnDraft, transactionalId: string): number {
  const owned = d.hosted?.owned[coordinatorPartitionFor(transactionalId, d.meta.transactionStatePartitions)];
  return owned?.coordinatorEpoch ?? d.coordinatorEpoch;
}

/**
 * A hosted coordinator's write of the transaction was acknowledged: once none is left in flight, its
 * markers are queued (and go, `flushMarkers`).
 */
export function releaseMarkersAfterWrite(d: TxnDraft, transactionalId: string, now: number, out: Out): void {
  const work = d.markers[transactionalId];
  if (!work?.awaitingWrite || Object.values(d.hosted?.writes ?? {}).some((w) => w.transactionalId === transactionalId)) return;
  const { awaitingWrite: _released, ...queued } = work;
  d.markers = { ...d.markers, [transactionalId]: queued };
  flushMarkers(d, now, out);
}

/**
 * TransactionMarkerChannelManager.addTxnMarkersToSend: the transaction's markers are queued
 * (`addTxnMarkersToBrokerQueue`) and, unless `flush` is false (the caller queues others in the same
 * step and runs the channel's loop once, `flushMarkers`), the channel's loop runs.
 */
export function startMarkers(d: TxnDraft, m: TxnMetadata, result: 'COMMIT' | 'ABORT', now: number, out: Out, flush = true): void {
  const awaitingWrite = Object.values(d.hosted?.writes ?? {}).some((w) => w.transactionalId === m.transactionalId);
  d.markers = {
    ...d.markers,
    [m.transactionalId]: {
      result,
      producerId: m.producerId,
      producerEpoch: m.producerEpoch,
      remaining: m.partitions,
      inFlight: [],
      ...(awaitingWrite ? { awaitingWrite: true as const } : {}),
    },
  };
  maybeComplete(d, m.transactionalId, now, out);
  if (flush) flushMarkers(d, now, out);
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

/** The transactional.id's partition of __transaction_state is led and loaded here (a hosted coordinator; a stand-alone one always). */
function servedHere(d: TxnDraft, transactionalId: string): boolean {
  if (!d.hosted) return true;
  const owned = d.hosted.owned[coordinatorPartitionFor(transactionalId, d.meta.transactionStatePartitions)];
  return owned !== undefined && !owned.loading;
}

/** A transaction's partitions in no request and not pausing: what its queue holds (TxnMarkerQueue). */
function queuedPartitions(work: MarkerWork): string[] {
  if (work.awaitingWrite) return [];
  const taken = new Set([...work.inFlight.flatMap((r) => r.partitions), ...(work.paused ?? [])]);
  return work.remaining.filter((p) => !taken.has(p));
}

const sendsOf = (d: TxnDraft, node: ActorId): MarkerSends => d.markerSends?.[node] ?? { unsent: [] };

function putSends(d: TxnDraft, node: ActorId, sends: MarkerSends): void {
  const { [node]: _old, ...rest } = d.markerSends ?? {};
  const empty = sends.inFlight === undefined && sends.unsent.length === 0;
  const next = empty ? rest : { ...rest, [node]: sends };
  d.markerSends = Object.keys(next).length > 0 ? next : undefined;
}

/**
 * One loop of the channel's InterBrokerSendThread (pollOnce), run at the end of every step of the
 * coordinator that may have queued markers:
 *
 * - generateRequests → drainQueuedTransactionMarkers: every marker queued for a broker — of every
 *   transaction (TxnMarkerQueue, markersQueuePerBroker; the destination is each partition's leader in
 *   the metadata now, addTxnMarkersToBrokerQueue) — goes into ONE new WriteTxnMarkers request to it,
 *   which joins that broker's unsent requests (InterBrokerSendThread.drainGeneratedRequests). A
 *   partition without a leader stays queued (markersQueueForUnknownBroker) until one is known.
 * - sendRequests: a broker's oldest unsent request goes once `networkClient.ready(node)` — nothing
 *   in flight to it (the channel's NetworkClient is built with maxInFlightRequestsPerConnection = 1)
 *   and not inside its reconnect backoff. The rest wait for its answer.
 *
 * A broker inside its reconnect backoff gets no new request: its markers stay queued and all go in
 * one request once the backoff is over (`onMarkerReconnectBackoffOver`). Kafka drains them into a
 * request on every loop and InterBrokerSendThread.checkDisconnects fails it at once
 * (`connectionFailed(node)`, completed as a disconnect), which puts them back in the queue: the
 * same request, once the node may be tried again. A request to a node whose backoff has passed is
 * the connection attempt (CONNECTING).
 */
export function flushMarkers(d: TxnDraft, now: number, out: Out): void {
  const states = connectionsOf(d);
  const byLeader = new Map<ActorId, MarkerBatchEntry[]>();
  for (const transactionalId of Object.keys(d.markers).sort()) {
    if (!servedHere(d, transactionalId)) continue;
    const perLeader = new Map<ActorId, string[]>();
    for (const p of queuedPartitions(d.markers[transactionalId] as MarkerWork)) {
      const tp = parseTopicPartition(p);
      const leader = leaderOf(d.meta, tp.topic, tp.partition);
      if (!leader || isUnavailable(states, leader)) continue;
      perLeader.set(leader, [...(perLeader.get(leader) ?? []), p]);
    }
    const work = d.markers[transactionalId] as MarkerWork;
    const coordinatorEpoch = coordinatorEpochOf(d, transactionalId);
    for (const [leader, partitions] of perLeader) {
      const entry = {
        transactionalId,
        producerId: work.producerId,
        producerEpoch: work.producerEpoch,
        coordinatorEpoch,
        result: work.result,
        partitions,
      };
      byLeader.set(leader, [...(byLeader.get(leader) ?? []), entry]);
    }
  }
  for (const [leader, markers] of [...byLeader].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const correlationId = d.nextCorrelationId;
    d.nextCorrelationId += 1;
    for (const m of markers) {
      const work = d.markers[m.transactionalId] as MarkerWork;
      d.markers = {
        ...d.markers,
        [m.transactionalId]: { ...work, inFlight: [...work.inFlight, { correlationId, partitions: m.partitions }] },
      };
    }
    const sends = sendsOf(d, leader);
    putSends(d, leader, { ...sends, unsent: [...sends.unsent, { correlationId, markers }] });
  }
  for (const node of Object.keys(d.markerSends ?? {}).sort() as ActorId[]) {
    const sends = sendsOf(d, node);
    const [next, ...rest] = sends.unsent;
    if (sends.inFlight !== undefined || next === undefined || isUnavailable(connectionsOf(d), node)) continue;
    putSends(d, node, { inFlight: next, unsent: rest });
    sendBatch(d, node, next, now, out);
  }
}

/** The WriteTxnMarkersRequest of a batch: one TxnMarkerEntry per transaction, its partitions to this broker. */
function sendBatch(d: TxnDraft, node: ActorId, batch: MarkerBatch, now: number, out: Out): void {
  if (d.markerConnections !== undefined) d.markerConnections = connecting(d.markerConnections, node, now);
  const markers = batch.markers.map((m) => ({
    producerId: m.producerId,
    producerEpoch: m.producerEpoch,
    coordinatorEpoch: m.coordinatorEpoch,
    result: m.result,
    partitions: m.partitions.map(parseTopicPartition),
    transactionalId: m.transactionalId,
  }));
  // TransactionMarkerChannelManager's NetworkClient: the broker's request.timeout.ms
  out.send(node, 'WriteTxnMarkers', { correlationId: batch.correlationId, markers }, { timeoutMs: d.config.requestTimeoutMs });
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

/**
 * The transaction's part of request `correlationId` is over: its partitions leave `inFlight`. False
 * when the transaction no longer waits for that request (its markers completed, were given up, or
 * this coordinator no longer serves it — TransactionMarkerRequestCompletionHandler's NOT_COORDINATOR
 * and COORDINATOR_LOAD_IN_PROGRESS cases, `removeMarkersForTxn`).
 */
function takeRequest(d: TxnDraft, transactionalId: string, correlationId: number): boolean {
  const work = d.markers[transactionalId];
  if (!work || !servedHere(d, transactionalId) || !work.inFlight.some((r) => r.correlationId === correlationId)) return false;
  d.markers = { ...d.markers, [transactionalId]: { ...work, inFlight: work.inFlight.filter((r) => r.correlationId !== correlationId) } };
  return true;
}

/** The request in flight to `node` with this correlation id, taken off the channel (null: not one of its requests). */
function takeInFlight(d: TxnDraft, node: ActorId, correlationId: number | undefined): MarkerBatch | null {
  const sends = d.markerSends?.[node];
  if (!sends?.inFlight || sends.inFlight.correlationId !== correlationId) return null;
  putSends(d, node, { unsent: sends.unsent });
  return sends.inFlight;
}

/**
 * The pause before markers refused with a retriable error (NOT_ENOUGH_REPLICAS, NOT_LEADER_OR_FOLLOWER,
 * REQUEST_TIMED_OUT …) in an answer are queued again. *Simplified:* Kafka has none —
 * TransactionMarkerRequestCompletionHandler puts them back in the broker's queue
 * (addTxnMarkersToBrokerQueue) and the InterBrokerSendThread sends them on its next loop over a
 * connection that works (no reconnect backoff: the node answered), so a partition below its min ISR
 * is asked again every round trip, without bound for as long as the spell lasts; the model waits
 * 100 ms so that such a spell is not thousands of WriteTxnMarkers in the timeline (a marker lands up
 * to 100 ms later). One pause per answer (`markerRetry:<correlation id>`): every marker the answer
 * refused — of every transaction in the request — is queued again at its end, together, as Kafka
 * queues them in one onComplete. Other markers to that broker do not wait for it, and a partition
 * the metadata already gives another leader than the broker that refused it does not pause: it goes
 * to that leader at once, as Kafka's would. The 100 is not retry.backoff.ms (nothing on Kafka's path
 * reads it) nor the send thread's poll timeout (Long.MAX_VALUE, cut short by wakeup()). Markers lost with
 * their connection wait the channel's reconnect backoff instead, as in Kafka (`onMarkerRequestLost`).
 */
const MARKER_RETRY_PAUSE_MS = 100;

/** What an answer's `markerRetry` pause queues again at its end: per transaction, the partitions refused. */
export type MarkerRetryData = { readonly markers: readonly { readonly transactionalId: string; readonly partitions: readonly string[] }[] };

/**
 * A WriteTxnMarkersResponse (TransactionMarkerRequestCompletionHandler.onComplete, not disconnected):
 * each marker of the request is handled on its own, with its entry of the answer — the broker
 * answers per marker, per partition. NONE removes the partition (`txnMetadata.removePartition`); a
 * retriable error queues it again (after the model's pause); INVALID_PRODUCER_EPOCH or
 * TRANSACTION_COORDINATOR_FENCED gives up that transaction's markers (`abortSending`); a transaction
 * none of whose partitions remains is completed (maybeWriteTxnCompletion). The channel may then send
 * the broker its next request.
 */
export const onMarkersResponse = (
  ctx: TxnCoordinatorContext,
  ev: RpcEvent<WriteTxnMarkersResponse & { correlationId: number }>,
  out: Out,
): TxnCoordinatorContext => {
  const d: TxnDraft = { ...ctx };
  markerNodeReady(d, ev.from);
  const batch = takeInFlight(d, ev.from, ev.payload.correlationId);
  if (!batch) return d.markerConnections === ctx.markerConnections ? ctx : d;
  const retries: MarkerBatchEntry[] = [];
  const moved: string[] = [];
  batch.markers.forEach((entry, i) => {
    const { transactionalId } = entry;
    if (!takeRequest(d, transactionalId, batch.correlationId)) return;
    const work = d.markers[transactionalId] as MarkerWork;
    let remaining = work.remaining;
    const retry: string[] = [];
    const fencedBy: string[] = [];
    for (const p of ev.payload.markers[i]?.partitions ?? []) {
      const name = keyOf(p);
      if (p.error === 'NONE') remaining = remaining.filter((x) => x !== name);
      else if (p.error === 'INVALID_PRODUCER_EPOCH' || p.error === 'TRANSACTION_COORDINATOR_FENCED') fencedBy.push(`${name} ${p.error}`);
      else retry.push(name);
      if (LEADER_MOVED_ERRORS.has(p.error)) moved.push(name);
    }
    if (fencedBy.length > 0) {
      abortSending(d, transactionalId, fencedBy, out);
      return;
    }
    // a partition the cache already gives another leader is queued for it at once, as Kafka queues every retry
    const pause = retry.filter((p) => leaderNamed(d.meta, p) === ev.from);
    const paused = pause.length > 0 ? [...(work.paused ?? []), ...pause] : work.paused;
    d.markers = { ...d.markers, [transactionalId]: { ...work, remaining, ...(paused ? { paused } : {}) } };
    if (pause.length > 0) retries.push({ ...entry, partitions: pause });
    maybeComplete(d, transactionalId, ev.now, out);
  });
  if (moved.length > 0) askLeaders(d, moved, ev.from, out);
  if (retries.length > 0)
    out.timer(`markerRetry:${batch.correlationId}`, 'markerRetry', MARKER_RETRY_PAUSE_MS, {
      markers: retries.map(({ transactionalId, partitions }) => ({ transactionalId, partitions })),
    });
  flushMarkers(d, ev.now, out);
  return d;
};

/**
 * A marker refused for good — the producer's epoch or the coordinator's moved on
 * (INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED): TransactionMarkerRequestCompletionHandler
 * sets `abortSending` and removes the transaction's pending markers (`removeMarkersForTxn`); nothing
 * is retried and no CompleteCommit/CompleteAbort is written — the transaction stays Prepare* in this
 * coordinator's cache (a newer coordinator, or a newer producer epoch, owns it now). The answers of
 * its other requests in flight find no markers and are ignored. (Kafka may still re-send a
 * partition another answer asks to retry, once, but never writes the completion either.)
 */
function abortSending(d: TxnDraft, transactionalId: string, refused: readonly string[], out: Out): void {
  const { [transactionalId]: _gone, ...rest } = d.markers;
  d.markers = rest;
  out.fact({
    kind: 'note',
    actor: d.id,
    text: `${transactionalId}: markers refused for good (${refused.join(', ')}); stops sending its markers and writes no completion`,
  });
}

/**
 * A WriteTxnMarkers request completed as a disconnect (refused by a broker that is down or not yet
 * listening, no answer within request.timeout.ms, a reset): NetworkClient.processDisconnection raises
 * the node's reconnect backoff (`markerNodeDisconnected`), and TransactionMarkerRequestCompletionHandler
 * (`wasDisconnected`) puts every marker of the request back in the queue — of every transaction it
 * carried — each to the leader the metadata names now (addTxnMarkersToBrokerQueue). The requests
 * waiting behind it for that node fail the same way (InterBrokerSendThread.checkDisconnects:
 * `connectionFailed(node)` completes each unsent request as a disconnect), their markers queued
 * again too. A leader that moved gets its markers at once; the same node all of them, in one
 * request, once its backoff has passed (`onMarkerReconnectBackoffOver`).
 */
export const onMarkerRequestLost = (ctx: TxnCoordinatorContext, ev: DisconnectedEvent, out: Out): TxnCoordinatorContext => {
  const d: TxnDraft = { ...ctx };
  markerNodeDisconnected(d, ev.to, ev.now, out);
  const lost = takeInFlight(d, ev.to, (ev.payload as { correlationId?: number }).correlationId);
  if (!lost) return d.markerConnections === ctx.markerConnections ? ctx : d;
  const waiting = sendsOf(d, ev.to).unsent;
  putSends(d, ev.to, { unsent: [] });
  const partitions: string[] = [];
  for (const batch of [lost, ...waiting])
    for (const m of batch.markers) if (takeRequest(d, m.transactionalId, batch.correlationId)) partitions.push(...m.partitions);
  askLeaders(d, partitions, ev.to, out);
  flushMarkers(d, ev.now, out);
  return d;
};

/**
 * The end of a node's reconnect backoff (ClusterConnectionStates: `canConnect` again): every marker
 * queued for it goes in one request, which is the connection attempt. Markers queued for other
 * nodes went already (`flushMarkers` leaves only those of nodes inside a backoff, or of partitions
 * without a leader, queued).
 */
export const onMarkerReconnectBackoffOver = (
  ctx: TxnCoordinatorContext,
  ev: TimerEvent<{ node: ActorId }>,
  out: Out,
): TxnCoordinatorContext => {
  if (ctx.markerConnections === undefined) return ctx;
  const d: TxnDraft = { ...ctx, markerConnections: backoffOver(ctx.markerConnections, ev.data.node) };
  flushMarkers(d, ev.now, out);
  return d;
};

/** The end of an answer's `markerRetry` pause: the markers it refused are queued again, and go. */
export const onMarkerRetry = (ctx: TxnCoordinatorContext, ev: TimerEvent<MarkerRetryData>, out: Out): TxnCoordinatorContext => {
  const d: TxnDraft = { ...ctx };
  for (const m of ev.data.markers) {
    const work = d.markers[m.transactionalId];
    if (!work?.paused) continue;
    const paused = work.paused.filter((p) => !m.partitions.includes(p));
    const { paused: _was, ...rest } = work;
    d.markers = { ...d.markers, [m.transactionalId]: paused.length > 0 ? { ...rest, paused } : rest };
  }
  flushMarkers(d, ev.now, out);
  return d;
};

/**
 * The coordinator's broker's metadata cache learned a partition's new leader (a PartitionChange,
 * told by the hosting broker, or for the one-replica process by the new leader's broker): the
 * markers queued from now on go there (TransactionMarkerChannelManager looks each destination up in
 * the cache; those in flight to the old leader come back NOT_LEADER_OR_FOLLOWER or lost, and are
 * queued again). Markers of that partition waiting without a leader go now, to the new leader,
 * unless it is inside its reconnect backoff: Kafka's InterBrokerSendThread re-reads the metadata
 * cache on its next loop (generateRequests → addTxnMarkersToBrokerQueue for what waits in
 * markersQueueForUnknownBroker). *Simplified:* the model sends at once, Kafka on the send thread's
 * next wake-up (any marker queued, any answer, or at most request.timeout.ms, NetworkClient.poll's bound).
 */
export type PartitionLeaderArgs = { topic: string; partition: number; leaderId: ActorId | null; leaderEpoch: number };

export const onPartitionLeader = (ctx: TxnCoordinatorContext, args: PartitionLeaderArgs, now: number, out: Out): TxnCoordinatorContext => {
  if (args.leaderId === null) return leaderless(ctx, args.topic, args.partition, args.leaderEpoch);
  const { meta, updated } = applyCurrentLeader(ctx.meta, args, { leaderId: args.leaderId, leaderEpoch: args.leaderEpoch });
  if (!updated) return ctx;
  const d: TxnDraft = { ...ctx, meta };
  unpauseMoved(d, ctx.meta);
  flushMarkers(d, now, out);
  return d;
};

/** The leader the metadata names for a partition ("t-p"). */
function leaderNamed(meta: ClusterMetadata, p: string): ActorId | null {
  const tp = parseTopicPartition(p);
  return leaderOf(meta, tp.topic, tp.partition);
}

/** The `partitionLeader` call of the broker that applied the controller's record (broker/txnStateHost.ts coordinatorLeaderUpdates). */
export const onPartitionLeaderCall = (
  ctx: TxnCoordinatorContext,
  ev: { now: number; args: PartitionLeaderArgs },
  out: Out,
): TxnCoordinatorContext => onPartitionLeader(ctx, ev.args, ev.now, out);

/**
 * Partitions pausing after a retriable answer whose leader the metadata now names anew end their
 * pause: the model's `markerRetry` pause keeps a refused marker from going back to the same broker
 * every round trip; Kafka has none, and queues it for whatever leader its cache names.
 */
function unpauseMoved(d: TxnDraft, before: ClusterMetadata): void {
  const leaderIn = leaderNamed;
  for (const [transactionalId, work] of Object.entries(d.markers)) {
    if (!work.paused) continue;
    const paused = work.paused.filter((p) => leaderIn(before, p) === leaderIn(d.meta, p));
    if (paused.length === work.paused.length) continue;
    const { paused: _was, ...rest } = work;
    d.markers = { ...d.markers, [transactionalId]: paused.length > 0 ? { ...rest, paused } : rest };
  }
}

/**
 * The partition has no leader (the controller fenced it and no ISR member is alive; a newer leader
 * epoch): KRaftMetadataCache.getPartitionLeaderEndpoint answers Node.noNode, addTxnMarkersToBrokerQueue
 * puts its markers in markersQueueForUnknownBroker, and nothing is sent for it until a leader is known
 * (`flushMarkers` leaves a partition without a leader queued; `onPartitionLeader` sends it when one is).
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
 * leader the queued markers go there at once (Kafka reads each destination afresh from its metadata
 * cache). An answer that moves no leader sends nothing new: the markers wait for their `markerRetry`
 * (refused) or the end of their node's reconnect backoff (lost) — else a leader that is down but not
 * yet fenced by the controller (still the leader in every broker's metadata) was sent the markers
 * again every round trip of the lookup, thousands of WriteTxnMarkers until its session expired.
 * (`flushMarkers` skips a node inside its backoff in any case.)
 */
export const onLeaderLookupAnswered = (
  ctx: TxnCoordinatorContext,
  ev: RpcEvent<MetadataResponse & { correlationId: number }>,
  out: Out,
): TxnCoordinatorContext => {
  const d = takeLookupAnswer(ctx, ev);
  if (!d) return ctx;
  if (d.meta === ctx.meta) return d;
  unpauseMoved(d, ctx.meta);
  flushMarkers(d, ev.now, out);
  return d;
};
