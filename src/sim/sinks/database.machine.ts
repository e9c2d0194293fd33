/**
 * A database outside Kafka that a consumer writes its results to. What a redelivered record does
 * to it depends on how the application writes (the sink's mode):
 *
 * - insert: a plain INSERT — processed twice, two rows.
 * - upsert: INSERT … ON CONFLICT (primary key = event_id, else the record key) DO UPDATE — processed
 *   twice, still one row.
 * - inbox: one database transaction inserts (event_id, consumer) into an inbox table with a unique
 *   constraint, then the row; a second delivery hits the constraint and writes nothing.
 * - offsets-in-db: one database transaction stores the row and the consumed offset; the consumer
 *   resumes from the database's offsets, not Kafka's. The transaction first reads the stored offset:
 *   a record below it was applied already (a retry after a lost answer, a redelivery), so nothing is
 *   written again.
 * - outbox: the application's business row and an outbox row in one transaction (see outboxRelay).
 */
import { setup } from 'xstate';
import { handle, type Out, pendingRequest } from '../actors/out';
import type { RpcEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';

export type DatabaseMode = 'insert' | 'upsert' | 'inbox' | 'offsets-in-db' | 'outbox';

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
  readonly inbox: readonly string[];
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

const onTransaction = (ctx: DatabaseContext, ev: RpcEvent<DbWrite & { op?: string; position?: number }>, out: Out): DatabaseContext => {
  const w = ev.payload;
  if (w.op === 'relayCommit') {
    out.reply(pendingRequest(ev), 'DbTransactionResult', { ok: true, conflict: false });
    return { ...ctx, relayPosition: w.position ?? ctx.relayPosition };
  }
  const primaryKey = w.eventId ?? w.key ?? `${w.topic}-${w.partition}@${w.offset}`;
  const req = pendingRequest(ev);
  const stored = ctx.offsets[`${w.topic}-${w.partition}`];
  if (ctx.mode === 'offsets-in-db' && stored !== undefined && w.offset < stored) {
    out.fact({
      kind: 'sideEffect',
      sink: ctx.id,
      effect: 'offset already stored',
      eventId: w.eventId,
      app: w.app,
      applied: false,
      note: `${w.topic}-${w.partition} offset ${w.offset} is below the stored offset ${stored}: applied before, nothing written`,
    });
    out.reply(req, 'DbTransactionResult', { ok: true, conflict: true });
    return ctx;
  }
  if (ctx.mode === 'inbox') {
    const inboxKey = `${w.eventId ?? primaryKey}|${w.app}`;
    if (ctx.inbox.includes(inboxKey)) {
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
      return ctx;
    }
  }
  let rows = ctx.rows;
  let nextRowId = ctx.nextRowId;
  const existing = ctx.mode === 'upsert' || ctx.mode === 'inbox' ? rows.find((r) => r.primaryKey === primaryKey) : undefined;
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
      effect: ctx.mode === 'insert' ? 'insert row' : 'insert row',
      eventId: w.eventId,
      app: w.app,
      applied: true,
      note: `row #${nextRowId - 1} for ${primaryKey}`,
    });
  }
  const inbox = ctx.mode === 'inbox' ? [...ctx.inbox, `${w.eventId ?? primaryKey}|${w.app}`] : ctx.inbox;
  const offsets = ctx.mode === 'offsets-in-db' ? { ...ctx.offsets, [`${w.topic}-${w.partition}`]: w.offset + 1 } : ctx.offsets;
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
    input: { id: ActorId; mode: DatabaseMode };
    events: RpcEvent | { type: 'crash' } | { type: 'restart' };
  },
}).createMachine({
  id: 'database',
  context: ({ input }) => ({
    id: input.id,
    mode: input.mode,
    rows: [],
    inbox: [],
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
