/**
 * Typed events for the machines: each machine's events are a discriminated union of these, one
 * member per event name it handles, so a handler sees the payload of exactly its event.
 */
import type { CallEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { RpcName } from '../kernel/envelope';

/** A delivered envelope of RPC `T` whose payload is `P`. */
export type Rpc<T extends RpcName, P = Record<string, unknown>> = T extends RpcName ? Omit<RpcEvent<P>, 'type'> & { type: T } : never;

/** A timer named `T` that fired, with the data it was armed with. */
export type Timer<T extends string, D = Record<string, unknown>> = T extends string ? Omit<TimerEvent<D>, 'type'> & { type: T } : never;

/** A local call `T` from an actor of the same process (an in-process method call). */
export type Call<T extends string, A = Record<string, unknown>> = T extends string ? Omit<CallEvent<A>, 'type'> & { type: T } : never;

/**
 * The kernel's own events for a process: it starts, crashes, restarts. (Each generic above is
 * distributive, so `Call<'a' | 'b'>` is two members a handler can `Extract` one of.)
 */
export type Lifecycle = { type: 'boot' | 'crash' | 'restart'; now: number };
