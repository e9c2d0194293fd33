/**
 * A client's connection state per broker, as Kafka's NetworkClient keeps it in
 * `ClusterConnectionStates` (clients/ClusterConnectionStates.java): one `NodeConnectionState` per
 * node — DISCONNECTED, CONNECTING or READY, the time of the last connection attempt, the failed
 * attempts in a row and the reconnect backoff they earned. Pure: the producer and the consumer keep
 * the record in their context (`connections`) and ask it before they send.
 *
 * - `disconnected` (ClusterConnectionStates.disconnected, from NetworkClient.processDisconnection
 *   and initiateConnect's failure): every close — a refused connect, a peer that went down, a reset,
 *   a request timeout, an idle connection whose broker died — sets DISCONNECTED, lastConnectAttemptMs
 *   = now, and raises the backoff (`updateReconnectBackoff`: reconnect.backoff.ms × 2^failedAttempts,
 *   at most reconnect.backoff.max.ms; failedAttempts + 1).
 * - `ready` (ClusterConnectionStates.ready, NetworkClient.handleConnections / the ApiVersions answer):
 *   a connection that works resets the backoff (`resetReconnectBackoff`: failedAttempts 0).
 * - `canConnect`: no state yet, or DISCONNECTED and the backoff has passed since the last attempt.
 * - `isUnavailable` (NetworkClientUtils.isUnavailable: connectionFailed && connectionDelay > 0;
 *   ClusterConnectionStates.isBlackedOut): DISCONNECTED and still inside its backoff.
 *
 * Kafka compares the clock with lastConnectAttemptMs + reconnectBackoffMs whenever it asks; its
 * Sender sleeps until then (`pollDelayMs` → `connectionDelay`). The model's client arms a timer for
 * the backoff's end when the close raises it (`reconnectBackoffExpired`, `RECONNECT_TIMER`) and keeps
 * the answer in the record (`blackedOut`) until that timer clears it (`backoffOver`): so code that
 * has no clock at hand (the consumer's fetcher) can ask, and the client wakes when the node may be
 * tried again.
 *
 * How the model stands for a connection attempt (docs/kafka-model.md, "The network and time"): the
 * kernel has no TCP connect of its own, so *a client's first request to a broker is its connection
 * attempt*. A broker the client has no state for counts as READY (its first connection is folded
 * into its first request, as before); one in DISCONNECTED whose backoff has passed may be tried —
 * the request sent then is the attempt, and the node is CONNECTING until an answer arrives (READY:
 * the entry is removed) or the attempt is refused (DISCONNECTED, a longer backoff). A request
 * refused by a broker that is down (CloseReason 'refused') was therefore never sent as far as Kafka
 * is concerned: NetworkClient sends only on a READY connection.
 *
 * The record is per *node* as NetworkClient counts them, which the caller names (`nodeOf` /
 * `ownNode`). The producer's transaction coordinator is a plain broker node in Kafka
 * (TransactionManager: `new Node(nodeId, …)`), one connection with its Produce requests: the producer
 * keys both by the broker (`nodeOf`), and so does the kernel (`ActorSpec.connectsByNode`: one
 * connection per broker for the producer). The consumer's group coordinator gets a
 * node of its own (AbstractCoordinator: `Integer.MAX_VALUE - nodeId`, "to allow separate
 * connections for the coordinator"): the consumer keys each server actor by itself (`ownNode`). A
 * close seen while the node is already DISCONNECTED is the same close (one raise per Kafka
 * disconnect, whichever request or connection of the model tells first).
 *
 * *Simplification: no jitter* (Kafka's ExponentialBackoff multiplies by a random factor in
 * [0.8, 1.2)), as for retry.backoff.ms and the metadata backoff (clientMetadata.ts `refreshBackoff`).
 */
import type { ActorId } from '../kernel/envelope';

export interface ReconnectConfig {
  readonly 'reconnect.backoff.ms': number;
  readonly 'reconnect.backoff.max.ms': number;
}

export interface NodeConnectionState {
  /** CONNECTING: an attempt (the model: a request sent after the backoff) awaits its outcome. */
  readonly state: 'DISCONNECTED' | 'CONNECTING';
  /** When the last attempt started, or the connection was last closed (lastConnectAttemptMs). */
  readonly lastConnectAttemptMs: number;
  /** Closes in a row since the node was last READY (failedAttempts). */
  readonly failedAttempts: number;
  /** The backoff the last close earned (reconnectBackoffMs). */
  readonly reconnectBackoffMs: number;
  /** DISCONNECTED and inside the backoff (isBlackedOut): set by a close, cleared by the timer at its end. */
  readonly blackedOut: boolean;
}

/** Per broker (process id, `broker-0`); a broker with no entry is READY or never tried. */
export type ConnectionStates = Readonly<Record<string, NodeConnectionState>>;

export const NO_CONNECTION_STATES: ConnectionStates = {};

/** The key of a client's timer for the end of a node's reconnect backoff (one per node). */
export const RECONNECT_TIMER = (node: string): string => `reconnect:${node}`;

/** The node a server actor lives on: `broker-1` for `broker-1.txn-coordinator` (the producer's coordinator shares the broker's connection). */
export { nodeOf } from '../kernel/network';

/** Each server actor a node of its own: the consumer's group coordinator has its own connection (`broker-1.group-coordinator`). */
export function ownNode(server: ActorId): string {
  return server;
}

/**
 * ExponentialBackoff(reconnect.backoff.ms, 2, reconnect.backoff.max.ms, jitter 0.2).backoff(attempts),
 * without the jitter: reconnect.backoff.ms × 2^attempts, at most reconnect.backoff.max.ms. A maximum
 * at or below the base gives a constant backoff of the maximum (Kafka's constructor takes
 * min(max, initial) as the base, and its exponent range is then 0).
 */
export function reconnectBackoff(config: ReconnectConfig, attempts: number): number {
  const max = config['reconnect.backoff.max.ms'];
  const initial = Math.min(max, config['reconnect.backoff.ms']);
  if (max <= initial) return initial;
  return Math.min(max, Math.floor(initial * 2 ** Math.max(0, attempts)));
}

/**
 * Would a close of a connection to `node` now be a new disconnect? Not while the node is DISCONNECTED:
 * the model's other connection to the same node, or the next request failed by the same close, tells
 * of a close already taken (Kafka has one connection per node, closed once).
 */
export function takesClose(states: ConnectionStates, node: string): boolean {
  return states[node]?.state !== 'DISCONNECTED';
}

/**
 * ClusterConnectionStates.disconnected for `node`: DISCONNECTED at `now`, the backoff raised
 * (updateReconnectBackoff: the backoff of failedAttempts, then failedAttempts + 1). The same record
 * when the node already is DISCONNECTED (`takesClose`).
 */
export function disconnected(states: ConnectionStates, node: string, now: number, config: ReconnectConfig): ConnectionStates {
  if (!takesClose(states, node)) return states;
  const failed = states[node]?.failedAttempts ?? 0;
  const backoff = reconnectBackoff(config, failed);
  const next: NodeConnectionState = {
    state: 'DISCONNECTED',
    lastConnectAttemptMs: now,
    failedAttempts: failed + 1,
    reconnectBackoffMs: backoff,
    blackedOut: backoff > 0,
  };
  return { ...states, [node]: next };
}

/** The timer for the end of `node`'s backoff has fired: the node may be tried again. */
export function backoffOver(states: ConnectionStates, node: string): ConnectionStates {
  const s = states[node];
  if (!s?.blackedOut) return states;
  return { ...states, [node]: { ...s, blackedOut: false } };
}

/**
 * ClusterConnectionStates.connecting: a request goes to a DISCONNECTED node whose backoff has passed
 * — the model's connection attempt. Nothing changes for a node without state (READY, or its first
 * connection, folded into the request), one already CONNECTING, or one still in its backoff (a
 * request the model sends regardless — a transactional request of the producer — is no attempt: its
 * refusal is the close already taken).
 */
export function connecting(states: ConnectionStates, node: string, now: number): ConnectionStates {
  const s = states[node];
  if (s?.state !== 'DISCONNECTED' || s.blackedOut) return states;
  return { ...states, [node]: { ...s, state: 'CONNECTING', lastConnectAttemptMs: now } };
}

/** ClusterConnectionStates.ready: an answer came from the node — its connection works; the backoff is reset. */
export function ready(states: ConnectionStates, node: string): ConnectionStates {
  if (states[node] === undefined) return states;
  const { [node]: _ready, ...rest } = states;
  return rest;
}

/** ClusterConnectionStates.canConnect: no state, or DISCONNECTED with its backoff over. */
export function canConnect(states: ConnectionStates, node: string): boolean {
  const s = states[node];
  return s === undefined || (s.state === 'DISCONNECTED' && !s.blackedOut);
}

/** NetworkClientUtils.isUnavailable (connectionFailed && connectionDelay > 0): DISCONNECTED, inside its backoff. */
export function isUnavailable(states: ConnectionStates, node: string): boolean {
  return states[node]?.blackedOut === true;
}

/** An attempt to connect to the node is under way (ClusterConnectionStates.isConnecting). */
export function isConnecting(states: ConnectionStates, node: string): boolean {
  return states[node]?.state === 'CONNECTING';
}
