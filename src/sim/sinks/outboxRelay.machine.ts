/**
 * The CDC relay of a transactional outbox (what Debezium or a Kafka Connect source does): it reads
 * new rows of the outbox table, publishes each to Kafka with its own producer, and then records how
 * far it got (its source offset). A crash after publishing and before recording republishes those
 * rows: the relay is at-least-once, so the topic can hold an event twice with the same event_id, and
 * the consumers downstream de-duplicate by it.
 *
 * When the database does not answer (it is down, or the answer is lost) the relay connects again
 * and repeats what it was doing: reading its position, polling, or recording its position — as a
 * Debezium connector restarts its task after a lost connection.
 *
 * Simplification: the relay polls the table every 100 ms instead of tailing the database's log.
 */
import { setup } from 'xstate';
import type { Mutable } from '../actors/draft';
import type { Call, Lifecycle, Rpc, Timer } from '../actors/events';
import { handle, type Out } from '../actors/out';
import type { DisconnectedEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { OutboxRow } from './database.machine';

export interface OutboxRelayContext {
  readonly self: ActorId;
  readonly database: ActorId;
  readonly producer: ActorId;
  readonly client: string;
  readonly topic: string;
  readonly pollMs: number;
  /** The next outbox row id to publish, as last recorded in the database. */
  readonly position: number;
  readonly pending: readonly OutboxRow[];
  readonly index: number;
  readonly nextCorrelationId: number;
  /** The database request the relay waits for, to repeat it if no answer comes. */
  readonly waiting: { readonly correlationId: number; readonly what: 'position' | 'poll' | 'record' } | null;
}

/** How long the relay waits for the database before it reconnects and asks again. */
export const RELAY_DB_TIMEOUT_MS = 5000;

export interface OutboxRelayInput {
  readonly self: ActorId;
  readonly database: ActorId;
  readonly producer: ActorId;
  readonly client: string;
  readonly topic: string;
}

/** The database's answer to a DbQuery: the relay's recorded position, or the outbox rows after it. */
interface QueryResult {
  readonly correlationId: number;
  readonly position?: number;
  readonly rows?: readonly OutboxRow[];
}

/** Every event the relay handles. */
export type OutboxRelayEvent =
  | Rpc<'DbQueryResult', QueryResult>
  | Rpc<'DbTransactionResult', { readonly correlationId: number }>
  | Call<'reply', { readonly call: string; readonly ok: boolean }>
  | Timer<'pollOutbox' | 'recordPosition' | 'reconnect'>
  | DisconnectedEvent
  | Lifecycle;
type EventOf<T extends OutboxRelayEvent['type']> = Extract<OutboxRelayEvent, { type: T }>;
type Draft = Mutable<OutboxRelayContext>;

const act = <E extends OutboxRelayEvent>(fn: (d: Draft, ev: E, out: Out) => void) =>
  handle((ctx: OutboxRelayContext, ev: E, out: Out) => {
    const d: Draft = { ...ctx };
    fn(d, ev, out);
    return d;
  });

function query(d: Draft, table: string, out: Out, extra: Record<string, unknown> = {}): void {
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  d.waiting = { correlationId, what: table === 'relay-position' ? 'position' : 'poll' };
  out.send(d.database, 'DbQuery', { correlationId, table, ...extra }, { background: true, timeoutMs: RELAY_DB_TIMEOUT_MS });
}

/** Whether a database answer is the one the relay waits for (a late answer to a repeated request is not). */
function expected(d: Draft, ev: EventOf<'DbQueryResult' | 'DbTransactionResult'>): boolean {
  if (!d.waiting || ev.payload.correlationId !== d.waiting.correlationId) return false;
  d.waiting = null;
  return true;
}

function publishNext(d: Draft, out: Out): void {
  const row = d.pending[d.index];
  if (row) {
    out.call(d.producer, 'send', { topic: d.topic, key: row.key, value: row.value, headers: row.eventId ? { event_id: row.eventId } : {} });
    return;
  }
  out.call(d.producer, 'flush');
}

const start = act((d, _ev, out) => {
  d.pending = [];
  d.index = 0;
  d.waiting = null;
  query(d, 'relay-position', out);
});

const onQueryResult = act((d, ev: EventOf<'DbQueryResult'>, out) => {
  if (!expected(d, ev)) return;
  const r = ev.payload;
  if (r.position !== undefined) {
    d.position = r.position;
    out.timer('poll', 'pollOutbox', 0, {}, true);
    return;
  }
  const rows = r.rows ?? [];
  if (rows.length === 0) {
    out.timer('poll', 'pollOutbox', d.pollMs, {}, true);
    return;
  }
  d.pending = rows;
  d.index = 0;
  out.fact({ kind: 'note', actor: d.self, text: `found ${rows.length} new outbox row(s) from id ${d.position}; publishing to ${d.topic}` });
  publishNext(d, out);
});

const onReply = act((d, ev: EventOf<'reply'>, out) => {
  const r = ev.args;
  if (r.call === 'send') {
    const row = d.pending[d.index];
    out.point('afterProduce', { row: row?.id ?? -1 });
    d.index += 1;
    publishNext(d, out);
    return;
  }
  if (r.call === 'flush') {
    // published; now record the source offset — a crash right here republishes these rows
    out.point('beforeCommit', { row: d.pending[d.pending.length - 1]?.id ?? -1 });
    out.timer('record', 'recordPosition', 0);
  }
});

function sendPosition(d: Draft, out: Out): void {
  const last = d.pending[d.pending.length - 1];
  if (!last) return;
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  d.waiting = { correlationId, what: 'record' };
  out.send(
    d.database,
    'DbTransaction',
    { correlationId, op: 'relayCommit', position: last.id + 1, app: d.client },
    { timeoutMs: RELAY_DB_TIMEOUT_MS },
  );
}

const recordPosition = act((d, _ev, out) => sendPosition(d, out));

/**
 * A query or the position update completed as a disconnect (the database did not answer within
 * RELAY_DB_TIMEOUT_MS, or refused the connection): the relay reconnects and asks again after the
 * poll interval — the query from its last recorded position, the update with the same position (it
 * is idempotent; the rows are published already).
 */
const onDbLost = act((d, ev: DisconnectedEvent, out) => {
  const w = d.waiting;
  if (!w || ev.payload.correlationId !== w.correlationId) return;
  d.waiting = null;
  if (w.what === 'record') out.timer('record', 'recordPosition', d.pollMs);
  else if (w.what === 'position') out.timer('reconnect', 'reconnect', d.pollMs, {}, true);
  else out.timer('poll', 'pollOutbox', d.pollMs, {}, true);
});

const onCommitted = act((d, ev: EventOf<'DbTransactionResult'>, out) => {
  if (!expected(d, ev)) return;
  const last = d.pending[d.pending.length - 1];
  if (last) d.position = last.id + 1;
  d.pending = [];
  d.index = 0;
  out.point('afterCommit');
  out.timer('poll', 'pollOutbox', d.pollMs, {}, true);
});

export const outboxRelayMachine = setup({
  types: {} as { context: OutboxRelayContext; input: OutboxRelayInput; events: OutboxRelayEvent },
}).createMachine({
  id: 'outboxRelay',
  context: ({ input }) => ({ ...input, pollMs: 100, position: 0, pending: [], index: 0, nextCorrelationId: 0, waiting: null }),
  initial: 'idle',
  on: { crash: '.down' },
  states: {
    idle: { on: { boot: { target: 'relaying', actions: start } } },
    relaying: {
      on: {
        pollOutbox: { actions: act((d, _ev, out) => query(d, 'outbox', out, { after: d.position })) },
        DbQueryResult: { actions: onQueryResult },
        reply: { actions: onReply },
        recordPosition: { actions: recordPosition },
        DbTransactionResult: { actions: onCommitted },
        disconnected: { actions: onDbLost },
        reconnect: { actions: act((d, _ev, out) => query(d, 'relay-position', out)) },
      },
    },
    down: { on: { restart: { target: 'relaying', actions: start } } },
  },
});
