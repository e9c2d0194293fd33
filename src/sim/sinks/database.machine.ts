/**
 * A database outside Kafka that a consumer writes its results to. What a redelivered record does
 * to it depends on how the application writes (the sink's mode):
 *
 * - insert: a plain INSERT — processed twice, two rows.
 * - upsert: INSERT … ON CONFLICT (primary key = event_id, else the record key) DO UPDATE — processed
 *   twice, still one row.
 * - inbox: one database transaction inserts (event_id, consumer) into an inbox table with a unique
 *   constraint, then the row (a plain INSERT: the inbox is what guards it); a second delivery hits
 *   the constraint and writes nothing. With `retentionMs`, a cleanup job deletes inbox rows older
 *   than that: a duplicate arriving later finds no row, and the transaction inserts again.
 * - offsets-in-db: one database transaction stores the row and the consumed offset; the consumer
 *   resumes from the database's offsets, not Kafka's. The transaction first reads the stored offset:
 *   a record below it was applied already (a retry after a lost answer, a redelivery), so nothing is
 *   written again.
 * - outbox: the application's business row and an outbox row in one transaction (see outboxRelay).
 * - set / increment: a key-value store keeping a counter per record key (as Redis does): `SET key
 *   value` writes the absolute value the record carries — a redelivered record writes the same value
 *   again and changes nothing — while `INCR key` adds one for every record it is given, so a
 *   redelivered record counts twice.
 */
import { setup } from 'xstate';
import { handle, type Out, pendingRequest } from '../actors/out';
import type { RpcEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { keyOf, recordAddress } from '../protocol/topicPartition';

export type DatabaseMode = 'insert' | 'upsert' | 'inbox' | 'offsets-in-db' | 'outbox' | 'set' | 'increment';

/** A row of the inbox table: the unique (event_id, consumer) key and when it was written. */
export interface InboxRow {
  readonly key: string;
  readonly at: number;
}

export interface ResultRow {
  readonly id: number;
  readonly primaryKey: string;
  readonly eventId: string | null;
  readonly value: string | null;
  readonly writtenBy: string;
  readonly writes: number;
}

export interface OutboxRow {
  readonly id: number;
  readonly eventId: string | null;
  readonly key: string | null;
  readonly value: string | null;
}

export interface DatabaseContext {
  readonly id: ActorId;
  readonly mode: DatabaseMode;
  readonly rows: readonly ResultRow[];
  readonly inbox: readonly InboxRow[];
  /** How long inbox rows are kept (a cleanup job deletes older ones); null: forever. */
  readonly retentionMs: number | null;
  /** set / increment: the value per key. */
  readonly counters: Readonly<Record<string, string>>;
  /** offsets-in-db: the next offset to consume per "topic-partition". */
  readonly offsets: Readonly<Record<string, number>>;
  readonly outbox: readonly OutboxRow[];
  /** How far the outbox relay has published (its source offset). */
  readonly relayPosition: number;
  readonly nextRowId: number;
}

export interface DbWrite {
  readonly app: string;
  readonly eventId: string | null;
  readonly key: string | null;
  readonly value: string | null;
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

/** Inbox rows the cleanup job has deleted by `now` (older than the retention), if any. */
export function expiredInbox(ctx: DatabaseContext, now: number): readonly InboxRow[] {
  const keep = ctx.retentionMs;
  return keep === null ? [] : ctx.inbox.filter((r) => now - r.at > keep);
}

/** SET / INCR on the counter of the record's key. */
function onCounter(ctx: DatabaseContext, w: DbWrite, out: Out): DatabaseContext {
  const key = w.key ?? keyOf(w);
  const before = ctx.counters[key];
  if (ctx.mode === 'set') {
    const value = w.value ?? '';
    const changed = before !== value;
    out.fact({
      kind: 'sideEffect',
      sink: ctx.id,
      effect: changed ? 'SET' : 'SET (same value)',
      eventId: w.eventId,
      app: w.app,
      applied: changed,
      note: `SET ${key} ${value}`,
    });
    return { ...ctx, counters: { ...ctx.counters, [key]: value } };
  }
  const value = String((Number.parseInt(before ?? '0', 10) || 0) + 1);
  out.fact({
    kind: 'sideEffect',
    sink: ctx.id,
    effect: 'INCR',
    eventId: w.eventId,
    app: w.app,
    applied: true,
    note: `INCR ${key}: ${before ?? '0'} → ${value}`,
  });
  return { ...ctx, counters: { ...ctx.counters, [key]: value } };
}

const onTransaction = (ctx: DatabaseContext, ev: RpcEvent<DbWrite & { op?: string; position?: number }>, out: Out): DatabaseContext => {
  const w = ev.payload;
  if (w.op === 'relayCommit') {
    out.reply(pendingRequest(ev), 'DbTransactionResult', { ok: true, conflict: false });
    return { ...ctx, relayPosition: w.position ?? ctx.relayPosition };
  }
  const primaryKey = w.eventId ?? w.key ?? recordAddress(w.topic, w.partition, w.offset);
  const req = pendingRequest(ev);
  if (ctx.mode === 'set' || ctx.mode === 'increment') {
    const next = onCounter(ctx, w, out);
    out.reply(req, 'DbTransactionResult', { ok: true, conflict: false });
    return next;
  }
  const stored = ctx.offsets[keyOf(w)];
  if (ctx.mode === 'offsets-in-db' && stored !== undefined && w.offset < stored) {
    out.fact({
      kind: 'sideEffect',
      sink: ctx.id,
      effect: 'offset already stored',
      eventId: w.eventId,
      app: w.app,
      applied: false,
      note: `${keyOf(w)} offset ${w.offset} is below the stored offset ${stored}: applied before, nothing written`,
    });
    out.reply(req, 'DbTransactionResult', { ok: true, conflict: true });
    return ctx;
  }
  let inbox = ctx.inbox;
  if (ctx.mode === 'inbox') {
    const inboxKey = `${w.eventId ?? primaryKey}|${w.app}`;
    const expired = expiredInbox(ctx, ev.now);
    if (expired.length) {
      // the cleanup job ran: rows older than the retention are gone
      inbox = inbox.filter((r) => !expired.includes(r));
      const gone = expired.find((r) => r.key === inboxKey);
      if (gone)
        out.fact({
          kind: 'note',
          actor: ctx.id,
          text: `the inbox row (${w.eventId ?? primaryKey}, ${w.app}) written at ${gone.at} ms was deleted after the inbox retention of ${ctx.retentionMs} ms: the duplicate is not recognised`,
        });
    }
    if (inbox.some((r) => r.key === inboxKey)) {
      out.fact({
        kind: 'sideEffect',
        sink: ctx.id,
        effect: 'inbox conflict',
        eventId: w.eventId,
        app: w.app,
        applied: false,
        note: `unique (event_id, consumer) = (${w.eventId}, ${w.app}) already in the inbox: the transaction rolls back, nothing written`,
      });
      out.reply(req, 'DbTransactionResult', { ok: true, conflict: true });
      return { ...ctx, inbox };
    }
  }
  let rows = ctx.rows;
  let nextRowId = ctx.nextRowId;
  const existing = ctx.mode === 'upsert' ? rows.find((r) => r.primaryKey === primaryKey) : undefined;
  if (existing) {
    rows = rows.map((r) => (r === existing ? { ...r, value: w.value, writes: r.writes + 1 } : r));
    out.fact({
      kind: 'sideEffect',
      sink: ctx.id,
      effect: 'upsert (row existed)',
      eventId: w.eventId,
      app: w.app,
      applied: false,
      note: `row ${primaryKey} updated in place: still one row`,
    });
  } else {
    rows = [...rows, { id: nextRowId, primaryKey, eventId: w.eventId, value: w.value, writtenBy: w.app, writes: 1 }];
    nextRowId += 1;
    out.fact({
      kind: 'sideEffect',
      sink: ctx.id,
      effect: 'insert row',
      eventId: w.eventId,
      app: w.app,
      applied: true,
      note: `row #${nextRowId - 1} for ${primaryKey}`,
    });
  }
  if (ctx.mode === 'inbox') inbox = [...inbox, { key: `${w.eventId ?? primaryKey}|${w.app}`, at: ev.now }];
  const offsets = ctx.mode === 'offsets-in-db' ? { ...ctx.offsets, [keyOf(w)]: w.offset + 1 } : ctx.offsets;
  const outbox =
    ctx.mode === 'outbox' ? [...ctx.outbox, { id: ctx.outbox.length, eventId: w.eventId, key: w.key, value: w.value }] : ctx.outbox;
  out.reply(req, 'DbTransactionResult', { ok: true, conflict: false });
  return { ...ctx, rows, nextRowId, inbox, offsets, outbox };
};

const onQuery = (ctx: DatabaseContext, ev: RpcEvent<{ table: string; after?: number }>, out: Out): DatabaseContext => {
  const q = ev.payload;
  const result =
    q.table === 'consumer_offsets'
      ? { offsets: ctx.offsets }
      : q.table === 'relay-position'
        ? { position: ctx.relayPosition }
        : q.table === 'outbox'
          ? { rows: ctx.outbox.filter((r) => r.id >= (q.after ?? 0)) }
          : { rows: ctx.rows };
  // an empty answer to a polling relay is periodic traffic
  const empty = 'rows' in result && (result.rows?.length ?? 0) === 0;
  out.reply(pendingRequest(ev), 'DbQueryResult', { ok: true, ...result }, { background: empty && q.table === 'outbox' });
  return ctx;
};

export const databaseMachine = setup({
  types: {} as {
    context: DatabaseContext;
    input: { id: ActorId; mode: DatabaseMode; retentionMs?: number | null };
    events: RpcEvent | { type: 'crash' } | { type: 'restart' };
  },
}).createMachine({
  id: 'database',
  context: ({ input }) => ({
    id: input.id,
    mode: input.mode,
    rows: [],
    inbox: [],
    retentionMs: input.retentionMs ?? null,
    counters: {},
    offsets: {},
    outbox: [],
    relayPosition: 0,
    nextRowId: 1,
  }),
  initial: 'up',
  states: {
    up: {
      on: {
        DbTransaction: { actions: handle(onTransaction) },
        DbQuery: { actions: handle(onQuery) },
        crash: 'down',
      },
    },
    // committed data is durable
    down: { on: { restart: 'up' } },
  },
});
