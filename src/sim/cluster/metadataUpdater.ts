/**
 * NetworkClient's DefaultMetadataUpdater for the producer and the consumer: after each event the
 * client calls `maybeUpdateMetadata`, which sends a Metadata request to the least loaded broker when
 * one is due (clientMetadata.ts decides), or arms the `metadataUpdateDue` timer for when it will be.
 * The answer replaces the client's `meta`; a lost request is a failed update (backoff). Metadata
 * traffic is background: it alone keeps no run going.
 *
 * And NetworkClient's connection states (connectionStates.ts) as every event moves them
 * (`noteConnectionEvent`, before the client handles the event; `noteConnectionAttempts`, after): an
 * answer makes its broker READY; a request completed as a disconnect, or an idle connection closed,
 * is processDisconnection — the broker's reconnect backoff raised, a timer for its end, and
 * handleServerDisconnect's metadata update; a request sent to a broker whose backoff has passed is
 * a connection attempt (CONNECTING).
 */
import type { Out } from '../actors/out';
import type { Effect } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { TopicPartition } from '../protocol/messages';
import type { MetadataResponse } from '../protocol/replicationMessages';
import {
  applyMetadataResponse,
  type ClientMetadataState,
  failedUpdate,
  isUpdateDue,
  type MetadataConfig,
  metadataSent,
  nextMetadataStep,
  refreshesPeriodically,
  requestUpdate,
} from './clientMetadata';
import {
  backoffOver,
  type ConnectionStates,
  connecting,
  disconnected,
  RECONNECT_TIMER,
  type ReconnectConfig,
  ready,
  takesClose,
} from './connectionStates';
import type { ClusterMetadata } from './metadata';

/** What a client's draft holds for this: its metadata, when to refresh it, its connections, its correlation ids. */
export interface MetadataHolder {
  meta: ClusterMetadata;
  metadata: ClientMetadataState;
  connections: ConnectionStates;
  nextCorrelationId: number;
  readonly config: MetadataConfig & ReconnectConfig & { readonly 'request.timeout.ms': number };
}

/** The timer a client arms for the end of a broker's reconnect backoff (its data: `{ node }`). */
export const RECONNECT_BACKOFF_EXPIRED = 'reconnectBackoffExpired';

/** How a client names the node of a server actor in its connection states (connectionStates.ts `nodeOf`, `ownNode`). */
export type NodeKey = (server: ActorId) => string;

/** The events of a client that move its connection states (a structural view of its event union). */
interface ConnectionEvent {
  readonly type: string;
  readonly now: number;
  /** A response's server. */
  readonly from?: ActorId;
  /** A response: the request it answers. */
  readonly inReplyTo?: number | null;
  /** A disconnect's server. */
  readonly to?: ActorId;
  /** The reconnect timer's node. */
  readonly data?: unknown;
}

/**
 * What an event tells the client's NetworkClient of its connections, before the client handles it:
 * a response — its broker's connection works (ClusterConnectionStates.ready: the backoff reset); a
 * request completed as a disconnect (`disconnected`) or an idle connection closed (`connectionClosed`)
 * — processDisconnection (`serverDisconnected`); the reconnect timer — the broker may be tried again.
 */
export function noteConnectionEvent<D extends MetadataHolder>(
  d: D,
  ev: ConnectionEvent,
  topicsOf: (d: D) => readonly string[],
  nodeKey: NodeKey,
  out: Out,
): void {
  switch (ev.type) {
    case 'disconnected':
    case 'connectionClosed':
      serverDisconnected(d, nodeKey(ev.to as ActorId), ev.now, topicsOf(d), out);
      return;
    case RECONNECT_BACKOFF_EXPIRED:
      d.connections = backoffOver(d.connections, (ev.data as { node: string }).node);
      return;
    default:
      if (typeof ev.inReplyTo === 'number' && ev.from !== undefined) d.connections = ready(d.connections, nodeKey(ev.from));
  }
}

/**
 * NetworkClient.processDisconnection for a close of the client's connection to `node`, once per
 * close (`takesClose`): ClusterConnectionStates.disconnected (the backoff raised; a timer for its end,
 * when Kafka's Sender and poll would look again), then DefaultMetadataUpdater.handleServerDisconnect —
 * a due update counts as failed ("so that we can backoff properly"), and an update is asked for ("The
 * disconnect may be the result of stale metadata"; only where some topic of the client has leaders
 * that can move, as for every refresh in the model).
 */
export function serverDisconnected(d: MetadataHolder, node: string, now: number, topics: readonly string[], out: Out): void {
  if (!takesClose(d.connections, node)) return;
  d.connections = disconnected(d.connections, node, now, d.config);
  const backoff = d.connections[node]?.reconnectBackoffMs ?? 0;
  if (backoff > 0) out.timer(RECONNECT_TIMER(node), RECONNECT_BACKOFF_EXPIRED, backoff, { node }, true);
  const expires = refreshesPeriodically(d.meta, topics);
  if (isUpdateDue(d.metadata, d.config, now, expires)) d.metadata = failedUpdate(d.metadata, now);
  if (expires) d.metadata = requestUpdate(d.metadata);
}

/**
 * After the client handled an event: each request it sent to a broker it may connect to again
 * (DISCONNECTED, backoff over) is the model's connection attempt — the broker is CONNECTING until an
 * answer or a refusal. A request that gets no answer (acks=0) is none: nothing would end the attempt.
 */
export function noteConnectionAttempts(d: MetadataHolder, effects: readonly Effect[], now: number, nodeKey: NodeKey): void {
  for (const e of effects)
    if (e.type === 'send' && e.inReplyTo === undefined && e.expectResponse !== false)
      d.connections = connecting(d.connections, nodeKey(e.to), now);
}

export const METADATA_TIMER = 'metadata';

/**
 * DefaultMetadataUpdater.maybeUpdate, for a client interested in `topics`. `newTopics`: a producer's
 * topics that its send() added and no answer named yet (ProducerMetadata.newTopics, whose
 * requestUpdateForNewTopics makes an update due): unless a full update is asked for or the metadata
 * has aged past metadata.max.age.ms, the request asks for them alone (Metadata.newMetadataRequestAndVersion:
 * a partial update).
 */
export function maybeUpdateMetadata(
  d: MetadataHolder,
  topics: readonly string[],
  now: number,
  out: Out,
  newTopics: readonly string[] = [],
): void {
  const expires = refreshesPeriodically(d.meta, topics);
  const fresh = !expires || d.metadata.lastSuccessfulRefreshMs + d.config['metadata.max.age.ms'] > now;
  const partial = newTopics.length > 0 && !d.metadata.updateRequested && fresh;
  const state = newTopics.length > 0 ? requestUpdate(d.metadata) : d.metadata;
  const step = nextMetadataStep(state, d.meta, d.connections, d.config, now, expires);
  if (step.kind === 'wait') out.timer(METADATA_TIMER, 'metadataUpdateDue', step.ms, {}, true);
  if (step.kind !== 'send') return;
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  d.metadata = metadataSent(d.metadata, correlationId, partial);
  out.send(
    step.broker,
    'Metadata',
    { correlationId, topics: partial ? [...newTopics] : [...topics] },
    { timeoutMs: d.config['request.timeout.ms'], background: true },
  );
}

/**
 * The answer to this client's Metadata request (handleSuccessfulResponse → Metadata.update). Returns
 * the partitions whose leader or epoch changed, or null for an answer it no longer waits for.
 */
export function onMetadataResponse(
  d: MetadataHolder,
  payload: MetadataResponse & { readonly correlationId: number },
  now: number,
): TopicPartition[] | null {
  if (d.metadata.inFlight !== payload.correlationId) return null;
  const r = applyMetadataResponse(d.meta, d.metadata, payload, now);
  d.meta = r.meta;
  d.metadata = r.state;
  return r.changed;
}

/**
 * A Metadata request completed as a disconnect (handleFailedRequest → Metadata.failedUpdate). Returns
 * whether it was ours. (Its broker's connection state moved before: `noteConnectionEvent`.)
 */
export function onMetadataLost(d: MetadataHolder, correlationId: number, now: number): boolean {
  if (d.metadata.inFlight !== correlationId) return false;
  d.metadata = failedUpdate(d.metadata, now);
  return true;
}
