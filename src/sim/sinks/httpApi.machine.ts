/**
 * An external HTTP API with a side effect (a payment provider): POST /payments charges once per
 * call. Only this system knows whether the payment was made.
 *
 * - plain: every POST charges.
 * - idempotency-key: a POST carrying an Idempotency-Key the API has seen returns the stored result
 *   and charges nothing. With `retentionMs` the API forgets a key that old (payment APIs prune their
 *   keys, e.g. after 24 hours): a retry after that charges again.
 * - lookup-before-retry: like plain, but the application asks GET /payments?event_id=… before it
 *   retries a call whose answer it never got.
 */
import { setup } from 'xstate';
import { handle, type Out, pendingRequest } from '../actors/out';
import type { RpcEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';

export type HttpApiMode = 'plain' | 'idempotency-key' | 'lookup-before-retry';

export interface Charge {
  readonly id: number;
  /** When the API charged (and stored the key). */
  readonly at: number;
  readonly eventId: string | null;
  readonly idempotencyKey: string | null;
  readonly app: string;
}

export interface HttpApiContext {
  readonly id: ActorId;
  readonly mode: HttpApiMode;
  readonly charges: readonly Charge[];
  /** How long the API remembers an Idempotency-Key; null: forever. */
  readonly retentionMs: number | null;
}

export interface HttpRequest {
  readonly method: 'POST' | 'GET';
  readonly app: string;
  readonly eventId: string | null;
  readonly idempotencyKey: string | null;
}

const onRequest = (ctx: HttpApiContext, ev: RpcEvent<HttpRequest>, out: Out): HttpApiContext => {
  const r = ev.payload;
  const req = pendingRequest(ev);
  if (r.method === 'GET') {
    const found = ctx.charges.find((c) => c.eventId === r.eventId);
    out.reply(req, 'HttpResponse', { status: found ? 200 : 404, chargeId: found?.id ?? null });
    return ctx;
  }
  if (r.idempotencyKey !== null) {
    const keep = ctx.retentionMs;
    const seen = ctx.charges.findLast((c) => c.idempotencyKey === r.idempotencyKey);
    if (seen && keep !== null && ev.now - seen.at > keep) {
      out.fact({
        kind: 'note',
        actor: ctx.id,
        text: `Idempotency-Key ${r.idempotencyKey} was stored at ${seen.at} ms and expired after ${keep} ms: the API no longer recognises it`,
      });
    } else if (seen) {
      out.fact({
        kind: 'sideEffect',
        sink: ctx.id,
        effect: 'idempotent replay',
        eventId: r.eventId,
        app: r.app,
        applied: false,
        note: `Idempotency-Key ${r.idempotencyKey} seen before: returns charge #${seen.id}, charges nothing`,
      });
      out.reply(req, 'HttpResponse', { status: 200, chargeId: seen.id });
      return ctx;
    }
  }
  const charge: Charge = { id: ctx.charges.length + 1, at: ev.now, eventId: r.eventId, idempotencyKey: r.idempotencyKey, app: r.app };
  out.fact({
    kind: 'sideEffect',
    sink: ctx.id,
    effect: 'payment charged',
    eventId: r.eventId,
    app: r.app,
    applied: true,
    note: `charge #${charge.id} for ${r.eventId}`,
  });
  out.reply(req, 'HttpResponse', { status: 201, chargeId: charge.id });
  return { ...ctx, charges: [...ctx.charges, charge] };
};

export const httpApiMachine = setup({
  types: {} as {
    context: HttpApiContext;
    input: { id: ActorId; mode: HttpApiMode; retentionMs?: number | null };
    events: RpcEvent | { type: 'crash' } | { type: 'restart' };
  },
}).createMachine({
  id: 'httpApi',
  context: ({ input }) => ({ id: input.id, mode: input.mode, charges: [], retentionMs: input.retentionMs ?? null }),
  initial: 'up',
  states: {
    up: { on: { HttpRequest: { actions: handle(onRequest) }, crash: 'down' } },
    down: { on: { restart: 'up' } },
  },
});
