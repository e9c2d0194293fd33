/**
 * The vocabulary between the kernel and the actors.
 *
 * Actors are XState machines. The kernel sends them events (a delivered envelope, a timer that
 * fired, a local call from another actor of the same process, a crash or restart); the machines
 * answer only by emitting effects (XState `emit`), which the kernel carries out: send an envelope,
 * arm or cancel a timer, call an actor of the same process, record a fact, pass a crash point.
 */
import type { ActorId, RpcName } from './envelope';

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
    }
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
    };

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

/** Sent to the sender of a request whose destination was down (connection refused / reset). */
export interface DisconnectedEvent {
  type: 'disconnected';
  now: number;
  envelopeId: number;
  to: ActorId;
  rpc: RpcName;
  /** The lost request's payload (its correlationId tells the client which request failed). */
  payload: Readonly<Record<string, unknown>>;
}

export type KernelEvent = { type: 'boot' } | { type: 'crash' } | { type: 'restart' } | DisconnectedEvent;
