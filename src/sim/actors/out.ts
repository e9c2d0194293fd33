/**
 * The effect collector machines use to talk to the kernel, and the glue that turns a pure handler
 * `(context, event, out) => context` into an XState action (assign + emit).
 *
 * Keeping handlers pure functions of (context, event) makes each one unit-testable without the
 * kernel, and keeps the machines themselves short: states and transitions only.
 */
import { enqueueActions } from 'xstate';
import type { Effect } from '../kernel/effects';
import type { ActorId, RequestRpc, RpcName } from '../kernel/envelope';
import type { Fact } from '../trace/facts';

/** What a server keeps of a request it answers later (a parked fetch, an EndTxn …). */
export interface PendingRequest {
  readonly from: ActorId;
  readonly envelopeId: number;
  readonly correlationId: number;
}

export function pendingRequest(event: { from: ActorId; envelopeId: number; payload: unknown }): PendingRequest {
  const c = (event.payload as { correlationId?: unknown }).correlationId;
  return { from: event.from, envelopeId: event.envelopeId, correlationId: typeof c === 'number' ? c : -1 };
}

export class Out {
  readonly effects: Effect[] = [];

  /**
   * Sends a request. `timeoutMs` is how long this client waits for the answer before it closes the
   * connection (NetworkClient's request timeout): the kernel keeps the request in flight and tells
   * the client with a `disconnected` event (timedOut) if nothing came back in time — so a client
   * keeps no request timers of its own. `expectResponse: false` for a request never answered
   * (Produce with acks=0).
   */
  send(
    to: ActorId,
    rpc: RequestRpc,
    payload: object,
    options: { timeoutMs: number; background?: boolean; expectResponse?: boolean },
  ): void {
    const background = options.background ?? false;
    const p = payload as Record<string, unknown>;
    // two literals, not a spread of a maybe-empty object (a runtime call on every request)
    if (options.expectResponse === false)
      this.effects.push({ type: 'send', to, rpc, payload: p, background, timeoutMs: options.timeoutMs, expectResponse: false });
    else this.effects.push({ type: 'send', to, rpc, payload: p, background, timeoutMs: options.timeoutMs });
  }

  /** Closes every connection this actor opened: what is in flight on them is forgotten (KafkaProducer.close). */
  disconnect(): void {
    this.effects.push({ type: 'disconnect' });
  }

  /**
   * Closes this actor's connection to `to` (NetworkClient.disconnect): its requests in flight there
   * complete as disconnects (`disconnected` events, NETWORK_EXCEPTION), oldest first.
   */
  closeConnection(to: ActorId): void {
    this.effects.push({ type: 'closeConnection', to });
  }

  /**
   * Answers a request: to its sender, echoing its correlationId as Kafka responses do; the kernel
   * routes the answer to the incarnation that asked.
   */
  reply(request: PendingRequest, rpc: RpcName, payload: object, options: { background?: boolean } = {}): void {
    this.effects.push({
      type: 'send',
      to: request.from,
      rpc,
      payload: { correlationId: request.correlationId, ...payload },
      inReplyTo: request.envelopeId,
      background: options.background ?? false,
    });
  }

  /** Raises an internal event, handled right after this one in the same step (for state changes). */
  raise(event: { type: string } & Record<string, unknown>): void {
    this.raised.push(event);
  }

  readonly raised: ({ type: string } & Record<string, unknown>)[] = [];

  timer(key: string, name: string, delay: number, data: Record<string, unknown> = {}, background = false): void {
    this.effects.push({ type: 'timer', key, name, delay, data, background });
  }

  cancel(key: string): void {
    this.effects.push({ type: 'cancel', key });
  }

  call(to: ActorId, name: string, args: Record<string, unknown> = {}): void {
    this.effects.push({ type: 'call', to, name, args });
  }

  fact(fact: Fact): void {
    this.effects.push({ type: 'fact', fact });
  }

  point(point: string, detail: Record<string, unknown> = {}): void {
    this.effects.push({ type: 'point', point, detail });
  }

  /** Stop this actor's whole process after this step (restarting it `restartAfterMs` later, null: never). */
  exit(restartAfterMs: number | null, label: string): void {
    this.effects.push({ type: 'exit', restartAfterMs, label });
  }
}

/** Where a handler action keeps its handler, for the kernel's compiled runner (kernel/compiledMachine.ts). */
export const HANDLER: unique symbol = Symbol('eos.handler');

/** An XState action running a pure handler: its returned context is assigned, its effects emitted. */
// biome-ignore lint/suspicious/noExplicitAny: the action is generic over every machine's context and events
export function handle<C, E>(fn: (context: C, event: E, out: Out) => C): any {
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const action = enqueueActions(({ context, event, enqueue }: any) => {
    const out = new Out();
    const next = fn(context as C, event as E, out);
    if (next !== context) enqueue.assign(() => next);
    for (const e of out.effects) enqueue.emit(e);
    for (const r of out.raised) enqueue.raise(r);
  });
  // biome-ignore lint/suspicious/noExplicitAny: an extra property on XState's action object
  (action as any)[HANDLER] = fn;
  return action;
}
