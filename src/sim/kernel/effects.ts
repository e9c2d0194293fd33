/**
 * The vocabulary between the kernel and the actors.
 *
 * Actors are XState machines. The kernel sends them events (a delivered envelope, a timer that
 * fired, a local call from another actor of the same process, a crash or restart); the machines
 * answer only by emitting effects (XState `emit`), which the kernel carries out: send an envelope,
 * arm or cancel a timer, call an actor of the same process, record a fact, pass a crash point.
 */
import type { ActorId, RpcName } from './envelope';
import type { CloseReason } from './network';

/** A domain observation recorded in the trace (appends, duplicates, deliveries, errors …). */
export interface FactBase {
  readonly kind: string;
}

export type Effect =
  | {
      type: 'send';
      to: ActorId;
      rpc: RpcName;
      payload: Record<string, unknown>;
      /** The request envelope being answered. */
      inReplyTo?: number;
      background?: boolean;
      /**
       * For a request: how long the client waits for its response (request.timeout.ms, or the
       * client's own timeout) before it closes the connection — NetworkClient's per-request
       * timeout. Required for every request that expects a response.
       */
      timeoutMs?: number;
      /** False for a request that gets no response (Produce with acks=0). */
      expectResponse?: boolean;
    }
  /** The actor closes every connection it opened as a client; requests in flight are forgotten, unanswered. */
  | { type: 'disconnect' }
  /**
   * The actor closes its connection to one server (NetworkClient.disconnect(node)): every request in
   * flight on it completes as a disconnect (NETWORK_EXCEPTION), and the next request opens a new one.
   */
  | { type: 'closeConnection'; to: ActorId }
  | {
      type: 'timer';
      /** Arming a timer with a key that is already armed replaces it. */
      key: string;
      /** The event type the actor receives when it fires. */
      name: string;
      delay: number;
      data?: Record<string, unknown>;
      background?: boolean;
    }
  | { type: 'cancel'; key: string }
  | {
      type: 'call';
      /** An actor of the same process (an in-process method call, not a network message). */
      to: ActorId;
      name: string;
      args?: Record<string, unknown>;
    }
  | { type: 'fact'; fact: FactBase }
  | {
      type: 'point';
      /** A named place in the application loop where a crash can be injected. */
      point: string;
      detail?: Record<string, unknown>;
    }
  /**
   * The actor's process stops itself at the end of this step (a broker whose controlled shutdown
   * completed): its actors go down as at a crash — connections close, timers die — and it restarts
   * `restartAfterMs` later (null: it stays down). What it keeps on disk is its actors' business.
   */
  | { type: 'exit'; restartAfterMs: number | null; label: string };

/** Events the kernel delivers to actors. */
export interface RpcEvent<P = unknown> {
  type: RpcName;
  now: number;
  from: ActorId;
  envelopeId: number;
  /** For a response: the id of the request envelope it answers. */
  inReplyTo: number | null;
  payload: P;
}

export interface TimerEvent<D = Record<string, unknown>> {
  type: string;
  now: number;
  key: string;
  data: D;
}

export interface CallEvent<A = Record<string, unknown>> {
  type: string;
  now: number;
  from: ActorId;
  args: A;
}

/**
 * A request completed as a disconnect: its connection was closed while it waited — by the client
 * after a request timed out (`timedOut`: Kafka's REQUEST_TIMED_OUT), or because the connection was
 * reset, its peer went down or refused it (NETWORK_EXCEPTION). One event per request in flight on
 * the connection, oldest first.
 */
export interface DisconnectedEvent {
  type: 'disconnected';
  now: number;
  envelopeId: number;
  to: ActorId;
  rpc: RpcName;
  /** The lost request's payload (its correlationId tells the client which request failed). */
  payload: Readonly<Record<string, unknown>>;
  timedOut: boolean;
  reason: CloseReason;
}

/**
 * A connection of the client closed while no request was in flight on it: its peer went down (an
 * idle connection's close; NetworkClient.handleDisconnections runs processDisconnection for it too).
 * Only actors that keep connection states hear of it (ActorSpec.connectionNotices); a close with
 * requests in flight is told by their `disconnected` events.
 */
export interface ConnectionClosedEvent {
  type: 'connectionClosed';
  now: number;
  /** The server end of the connection. */
  to: ActorId;
  reason: CloseReason;
}

/** The Kafka error a client reports for a request that completed as a disconnect (Sender.handleProduceResponse). */
export function disconnectError(e: Pick<DisconnectedEvent, 'timedOut'>): 'REQUEST_TIMED_OUT' | 'NETWORK_EXCEPTION' {
  return e.timedOut ? 'REQUEST_TIMED_OUT' : 'NETWORK_EXCEPTION';
}

export type KernelEvent = { type: 'boot' } | { type: 'crash' } | { type: 'restart' } | DisconnectedEvent | ConnectionClosedEvent;
