/**
 * The CDC relay of a transactional outbox (what Debezium or a Kafka Connect source does): it reads
 * new rows of the outbox table, publishes each to Kafka with its own producer, and then records how
 * far it got (its source offset). A crash after publishing and before recording republishes those
 * rows: the relay is at-least-once, so the topic can hold an event twice with the same event_id, and
 * the consumers downstream de-duplicate by it.
 *
 * Simplification: the relay polls the table every 100 ms instead of tailing the database's log.
 */
import { setup } from 'xstate';
import { handle, type Out } from '../actors/out';
import type { CallEvent, DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
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
}

export interface OutboxRelayInput {
  readonly self: ActorId;
  readonly database: ActorId;
  readonly producer: ActorId;
  readonly client: string;
  readonly topic: string;
}

type Ev = CallEvent | TimerEvent | RpcEvent | DisconnectedEvent | { type: 'boot'; now: number } | { type: 'crash' };

/** How long the relay's database client waits for an answer before it gives up on the connection. */
const DB_TIMEOUT_MS = 5000;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft = Mutable<OutboxRelayContext>;

const act = (fn: (d: Draft, ev: Ev & { now: number }, out: Out) => void) =>
  handle((ctx: OutboxRelayContext, ev: Ev & { now: number }, out: Out) => {
    const d: Draft = { ...ctx };
    fn(d, ev, out);
    return d;
  });

function query(d: Draft, table: string, out: Out, extra: Record<string, unknown> = {}): void {
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  out.send(d.database, 'DbQuery', { correlationId, table, ...extra }, { background: true, timeoutMs: DB_TIMEOUT_MS });
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
  query(d, 'relay-position', out);
});

const onQueryResult = act((d, ev, out) => {
  const r = (ev as RpcEvent<{ position?: number; rows?: OutboxRow[] }>).payload;
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

const onReply = act((d, ev, out) => {
  const r = (ev as CallEvent<{ call: string; ok: boolean }>).args;
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

const recordPosition = act((d, _ev, out) => {
  const last = d.pending[d.pending.length - 1];
  if (!last) return;
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  out.send(
    d.database,
    'DbTransaction',
    { correlationId, op: 'relayCommit', position: last.id + 1, app: d.client },
    { timeoutMs: DB_TIMEOUT_MS },
  );
});

const onCommitted = act((d, _ev, out) => {
  const last = d.pending[d.pending.length - 1];
  if (last) d.position = last.id + 1;
  d.pending = [];
  d.index = 0;
  out.point('afterCommit');
  out.timer('poll', 'pollOutbox', d.pollMs, {}, true);
});

/**
 * A query or the position update completed as a disconnect (the database did not answer in time, or
 * is down): the relay reconnects and does it again shortly — the query from its last recorded
 * position, the update with the same position (it is idempotent).
 */
const onDisconnected = act((_d, ev, out) => {
  const e = ev as DisconnectedEvent;
  if (e.rpc === 'DbTransaction') out.timer('record', 'recordPosition', 100);
  else if ((e.payload as { table?: string }).table === 'relay-position') out.timer('position', 'readPosition', 100);
  else out.timer('poll', 'pollOutbox', 100, {}, true);
});

export const outboxRelayMachine = setup({
  types: {} as { context: OutboxRelayContext; input: OutboxRelayInput; events: Ev },
}).createMachine({
  id: 'outboxRelay',
  context: ({ input }) => ({ ...input, pollMs: 100, position: 0, pending: [], index: 0, nextCorrelationId: 0 }),
  initial: 'idle',
  on: { crash: '.DOWN' },
  states: {
    idle: { on: { boot: { target: 'relaying', actions: start } } },
    relaying: {
      on: {
        pollOutbox: { actions: act((d, _ev, out) => query(d, 'outbox', out, { after: d.position })) },
        DbQueryResult: { actions: onQueryResult },
        reply: { actions: onReply },
        recordPosition: { actions: recordPosition },
        DbTransactionResult: { actions: onCommitted },
        disconnected: { actions: onDisconnected },
        readPosition: { actions: act((d, _ev, out) => query(d, 'relay-position', out)) },
      },
    },
    DOWN: { on: { restart: { target: 'relaying', actions: start } } },
  },
});
