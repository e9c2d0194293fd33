/**
 * The engine behaviours the syllabus presets need, handler by handler: a key-value counter that
 * SETs or INCRements, how long an inbox and an API remember what they processed, a business retry
 * that mints a new event_id, an exactly-once application whose transaction spans polls (auto-commit
 * and a revoked generation inside it), an application that checks its entities' order, and a
 * Kafka Streams task newly assigned to an instance.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { batchedPlan, consumerAppMachine } from '../src/sim/application/consumerApp.machine';
import { mintedEventId, producerAppMachine } from '../src/sim/application/producerApp.machine';
import type { Effect } from '../src/sim/kernel/effects';
import { stateValueToString } from '../src/sim/kernel/stateValue';
import type { RecordForApp } from '../src/sim/protocol/messages';
import { type DatabaseContext, databaseMachine } from '../src/sim/sinks/database.machine';
import { type HttpApiContext, httpApiMachine } from '../src/sim/sinks/httpApi.machine';
import { newTasks } from '../src/sim/streams/assignment';
import { streamThreadMachine } from '../src/sim/streams/streamThread.machine';
import { type Draft, initialContext } from '../src/sim/streams/streamThreadContext';
import type { Fact } from '../src/sim/trace/facts';
import { exactlyOnceAppInput } from './fixtures/consumerAppInput';
import { THREAD_INPUT } from './streams/threadInput';

type Call = Extract<Effect, { type: 'call' }>;

function run<T>(machine: T, input: unknown) {
  const effects: Effect[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: each machine has its own input type
  const actor = createActor(machine as any, { input } as any);
  actor.on('*', (e) => effects.push(e as Effect));
  actor.start();
  const send = (ev: Record<string, unknown>) => actor.send(ev as never);
  return { actor, effects, send };
}

const facts = (effects: readonly Effect[]) => effects.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));
const sideEffects = (effects: readonly Effect[]) =>
  facts(effects).filter((f): f is Extract<Fact, { kind: 'sideEffect' }> => f.kind === 'sideEffect');
const notes = (effects: readonly Effect[]) =>
  facts(effects).flatMap((f) => (f.kind === 'note' ? [(f as Extract<Fact, { kind: 'note' }>).text] : []));

function dbWrite(db: ReturnType<typeof run>, id: number, now: number, w: { eventId: string; key: string; value: string; offset: number }) {
  db.send({
    type: 'DbTransaction',
    now,
    from: 'c.app',
    envelopeId: id,
    inReplyTo: null,
    payload: { correlationId: id, app: 'c', topic: 'likes', partition: 0, ...w },
  });
}

describe('a key-value counter (mode set / increment)', () => {
  it('SET writes the value the record carries: a redelivered record writes the same value and changes nothing', () => {
    const db = run(databaseMachine, { id: 'kv', mode: 'set' });
    dbWrite(db, 1, 10, { eventId: 'like-1', key: 'post-7', value: '1', offset: 0 });
    dbWrite(db, 2, 20, { eventId: 'like-2', key: 'post-7', value: '2', offset: 1 });
    dbWrite(db, 3, 30, { eventId: 'like-2', key: 'post-7', value: '2', offset: 1 });
    expect((db.actor.getSnapshot().context as DatabaseContext).counters).toEqual({ 'post-7': '2' });
    expect(sideEffects(db.effects).map((f) => [f.effect, f.eventId, f.applied, f.note])).toEqual([
      ['SET', 'like-1', true, 'SET post-7 1'],
      ['SET', 'like-2', true, 'SET post-7 2'],
      ['SET (same value)', 'like-2', false, 'SET post-7 2'],
    ]);
  });

  it('INCR adds one for every record it is given: a redelivered record counts twice', () => {
    const db = run(databaseMachine, { id: 'kv', mode: 'increment' });
    dbWrite(db, 1, 10, { eventId: 'like-1', key: 'post-7', value: '1', offset: 0 });
    dbWrite(db, 2, 20, { eventId: 'like-2', key: 'post-7', value: '2', offset: 1 });
    dbWrite(db, 3, 30, { eventId: 'like-2', key: 'post-7', value: '2', offset: 1 });
    expect((db.actor.getSnapshot().context as DatabaseContext).counters).toEqual({ 'post-7': '3' });
    expect(sideEffects(db.effects).map((f) => [f.effect, f.applied, f.note])).toEqual([
      ['INCR', true, 'INCR post-7: 0 → 1'],
      ['INCR', true, 'INCR post-7: 1 → 2'],
      ['INCR', true, 'INCR post-7: 2 → 3'],
    ]);
  });
});

describe('how long processed ids are remembered (retentionMs)', () => {
  it('an inbox row older than the retention is gone: the late duplicate inserts again; a duplicate within it conflicts', () => {
    const db = run(databaseMachine, { id: 'db', mode: 'inbox', retentionMs: 300000 });
    dbWrite(db, 1, 1000, { eventId: 'evt-1', key: 'order-1', value: 'v', offset: 0 });
    dbWrite(db, 2, 1000, { eventId: 'evt-2', key: 'order-2', value: 'v', offset: 1 });
    dbWrite(db, 3, 60000, { eventId: 'evt-2', key: 'order-2', value: 'v', offset: 2 });
    dbWrite(db, 4, 361000, { eventId: 'evt-1', key: 'order-1', value: 'v', offset: 3 });
    const ctx = db.actor.getSnapshot().context as DatabaseContext;
    expect(sideEffects(db.effects).map((f) => [f.effect, f.eventId, f.applied])).toEqual([
      ['insert row', 'evt-1', true],
      ['insert row', 'evt-2', true],
      ['inbox conflict', 'evt-2', false],
      ['insert row', 'evt-1', true],
    ]);
    expect(ctx.rows.filter((r) => r.eventId === 'evt-1')).toHaveLength(2);
    expect(notes(db.effects)).toEqual([
      'the inbox row (evt-1, c) written at 1000 ms was deleted after the inbox retention of 300000 ms: the duplicate is not recognised',
    ]);
    // the cleanup deleted both old rows; the new evt-1 row is kept
    expect(ctx.inbox.map((r) => [r.key, r.at])).toEqual([['evt-1|c', 361000]]);
  });

  it('without retentionMs an inbox remembers forever', () => {
    const db = run(databaseMachine, { id: 'db', mode: 'inbox' });
    dbWrite(db, 1, 1000, { eventId: 'evt-1', key: 'order-1', value: 'v', offset: 0 });
    dbWrite(db, 2, 86000000, { eventId: 'evt-1', key: 'order-1', value: 'v', offset: 0 });
    expect(sideEffects(db.effects).map((f) => f.effect)).toEqual(['insert row', 'inbox conflict']);
  });

  it('an Idempotency-Key older than the retention is forgotten: the API charges again', () => {
    const api = run(httpApiMachine, { id: 'api', mode: 'idempotency-key', retentionMs: 300000 });
    const post = (id: number, now: number) =>
      api.send({
        type: 'HttpRequest',
        now,
        from: 'c.app',
        envelopeId: id,
        inReplyTo: null,
        payload: { correlationId: id, method: 'POST', app: 'c', eventId: 'evt-1', idempotencyKey: 'evt-1' },
      });
    post(1, 1000);
    post(2, 200000);
    post(3, 520000);
    post(4, 530000);
    expect(sideEffects(api.effects).map((f) => [f.effect, f.applied])).toEqual([
      ['payment charged', true],
      ['idempotent replay', false],
      ['payment charged', true],
      ['idempotent replay', false],
    ]);
    expect((api.actor.getSnapshot().context as HttpApiContext).charges.map((c) => c.at)).toEqual([1000, 520000]);
    expect(notes(api.effects)[0]).toBe(
      'Idempotency-Key evt-1 was stored at 1000 ms and expired after 300000 ms: the API no longer recognises it',
    );
  });
});

describe('a business retry that mints a new event_id', () => {
  it('mints a UUID-shaped id, the same for the same scenario position', () => {
    const id = mintedEventId('checkout', 1, 'evt-789');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(mintedEventId('checkout', 1, 'evt-789')).toBe(id);
    expect(mintedEventId('checkout', 2, 'evt-789')).not.toBe(id);
  });

  it('resend with newEventId sends the same record with the minted event_id; without it, the same event_id', () => {
    const script = [
      { op: 'send', topic: 'orders', key: 'order-123', value: '{"type":"OrderCreated"}', headers: { event_id: 'evt-789' } },
      { op: 'resend', eventId: 'evt-789', newEventId: true },
      { op: 'resend', eventId: 'evt-789' },
    ];
    const app = run(producerAppMachine, { self: 'p.app', producer: 'p.producer', client: 'checkout', transactional: false, script });
    app.send({ type: 'boot', now: 0 });
    const sends = () => app.effects.filter((e): e is Call => e.type === 'call' && e.name === 'send');
    for (let i = 0; i < 3; i++) {
      app.send({ type: 'runNext', now: i });
      app.send({ type: 'reply', now: i, from: 'p.producer', args: { call: 'send', ok: true, error: null } });
    }
    const headers = sends().map((c) => (c.args as { headers: Record<string, string> }).headers.event_id);
    expect(headers).toEqual(['evt-789', mintedEventId('checkout', 1, 'evt-789'), 'evt-789']);
    expect(sends().map((c) => (c.args as { value: string }).value)).toEqual(Array(3).fill('{"type":"OrderCreated"}'));
    expect(notes(app.effects)[0]).toMatch(/^the application's business retry builds event evt-789 again with a new event_id /);
  });
});

const rec = (offset: number, headers: Record<string, string> = {}, topic = 'in', partition = 0): RecordForApp => ({
  topic,
  partition,
  offset,
  key: `k${offset}`,
  value: 'v',
  headers: { event_id: `e${offset}`, ...headers },
});

describe('an exactly-once application with a transaction kept open across polls (commitIntervalMs)', () => {
  it('begins only when none is open and commits only when due', () => {
    const kinds = (p: readonly { kind: string }[]) => p.map((s) => s.kind);
    expect(kinds(batchedPlan(1, false, true, false, false))).toEqual(['beginTransaction', 'process', 'produce']);
    expect(kinds(batchedPlan(1, false, true, true, false))).toEqual(['process', 'produce']);
    expect(kinds(batchedPlan(1, false, true, true, true))).toEqual(['process', 'produce', 'sendOffsets', 'point', 'commitTransaction']);
  });

  const input = { ...exactlyOnceAppInput, commitIntervalMs: 5000 };
  const meta = (generationId: number) => ({ groupId: 'g', generationId, memberId: 'm' });

  it('aborts the open transaction when poll() comes back with a new generation (its partitions were revoked)', () => {
    const a = run(consumerAppMachine, input);
    const reply = (now: number, args: Record<string, unknown>) => a.send({ type: 'reply', now, from: 'x', args });
    const calls = () => a.effects.filter((e): e is Call => e.type === 'call').map((c) => c.name);
    a.send({ type: 'boot', now: 0 });
    reply(1, { call: 'initTransactions', ok: true });
    reply(100, { call: 'poll', ok: true, records: [rec(0)], groupMetadata: meta(1), positions: { 'in-0': 1 } });
    a.send({ type: 'continue', now: 100 }); // beginTransaction
    reply(101, { call: 'beginTransaction', ok: true });
    a.send({ type: 'continue', now: 101 }); // process
    a.send({ type: 'continue', now: 102 }); // produce
    reply(103, { call: 'send', ok: true });
    a.send({ type: 'continue', now: 103 }); // plan done, not due: poll again inside the transaction
    expect(calls()).toEqual(['initTransactions', 'poll', 'beginTransaction', 'send', 'poll']);
    expect(a.actor.getSnapshot().context.txnOpen).toBe(true);
    reply(3000, { call: 'poll', ok: true, records: [rec(1)], groupMetadata: meta(2), positions: { 'in-0': 2 } });
    expect(calls().at(-1)).toBe('abortTransaction');
    expect(notes(a.effects).at(-1)).toMatch(/^onPartitionsRevoked: generation 1 ended while the transaction was open/);
    reply(3001, { call: 'abortTransaction', ok: true });
    expect(calls().at(-1)).toBe('seekToCommitted');
    expect(a.actor.getSnapshot().context.txnOpen).toBe(false);
  });

  it('commits when the interval passes while it waits in poll(), and takes the batch that came meanwhile afterwards', () => {
    const a = run(consumerAppMachine, input);
    const reply = (now: number, args: Record<string, unknown>) => a.send({ type: 'reply', now, from: 'x', args });
    const calls = () => a.effects.filter((e): e is Call => e.type === 'call').map((c) => c.name);
    a.send({ type: 'boot', now: 0 });
    reply(1, { call: 'initTransactions', ok: true });
    reply(100, { call: 'poll', ok: true, records: [rec(0)], groupMetadata: meta(1), positions: { 'in-0': 1 } });
    a.send({ type: 'continue', now: 100 });
    reply(101, { call: 'beginTransaction', ok: true });
    a.send({ type: 'continue', now: 101 });
    a.send({ type: 'continue', now: 102 });
    reply(103, { call: 'send', ok: true });
    a.send({ type: 'continue', now: 103 });
    a.send({ type: 'txnCommitDue', now: 5101 });
    // the poll() returned nothing: consumer.groupMetadata() as of now, then sendOffsetsToTransaction with it
    expect(calls().at(-1)).toBe('groupMetadata');
    reply(5101, { call: 'groupMetadata', ok: true, groupMetadata: meta(1) });
    expect(calls().at(-1)).toBe('sendOffsetsToTransaction');
    // a batch arrives while the commit is under way: it waits
    reply(5102, { call: 'poll', ok: true, records: [rec(1)], groupMetadata: meta(1), positions: { 'in-0': 2 } });
    expect(a.actor.getSnapshot().context.heldPoll).not.toBeNull();
    reply(5103, { call: 'sendOffsetsToTransaction', ok: true });
    a.send({ type: 'continue', now: 5103 }); // beforeCommit point
    a.send({ type: 'continue', now: 5103 }); // commitTransaction
    reply(5104, { call: 'commitTransaction', ok: true });
    a.send({ type: 'continue', now: 5104 }); // plan done: the held batch begins a new transaction
    a.send({ type: 'continue', now: 5104 });
    expect(calls().slice(-3)).toEqual(['sendOffsetsToTransaction', 'commitTransaction', 'beginTransaction']);
    // no second poll() was sent while one was outstanding
    expect(calls().filter((c) => c === 'poll')).toHaveLength(2);
  });
});

describe('an application that checks its entities order (checkOrder)', () => {
  it('says when an entity seq arrives after a later one', () => {
    const a = run(consumerAppMachine, {
      self: 'c.app',
      consumer: 'c.consumer',
      producer: null,
      client: 'c',
      mode: 'at-least-once',
      sink: null,
      outputTopic: null,
      processingMs: 1,
      checkOrder: 'order_id',
    });
    a.send({ type: 'boot', now: 0 });
    a.send({
      type: 'reply',
      now: 10,
      from: 'c.consumer',
      args: {
        call: 'poll',
        ok: true,
        records: [
          rec(0, { order_id: 'order-1', seq: '2' }),
          rec(0, { order_id: 'order-1', seq: '1' }, 'in', 1),
          rec(1, { order_id: 'order-1', seq: '3' }),
        ],
        groupMetadata: { groupId: 'g', generationId: 1, memberId: 'm' },
        positions: { 'in-0': 2, 'in-1': 1 },
      },
    });
    for (let i = 0; i < 4; i++) a.send({ type: 'continue', now: 10 + i });
    expect(notes(a.effects)).toEqual(['out of order: order_id order-1 seq 1 (e0, in-1) arrived after seq 2']);
  });
});

describe('Kafka Streams: a task newly assigned to an instance', () => {
  const INPUT = THREAD_INPUT;
  const draft = (over: Partial<Draft> = {}): Draft => ({ ...initialContext(INPUT), ...over });
  const answer = (offset: number) => ({
    records: [rec(offset)],
    positions: { 'in-0': offset + 1 },
    groupMetadata: { groupId: 'app', generationId: 2, memberId: 'm' },
  });

  it('is a partition of its assignment whose task it does not have (TaskManager.handleAssignment), whatever the offsets', () => {
    // no assignment yet
    expect(newTasks(draft())).toEqual([]);
    // the first assignment after a start: every task is created
    expect(newTasks(draft({ assigned: ['in-0', 'in-1'] }))).toEqual(['in-0', 'in-1']);
    // a partition whose task it has already
    expect(newTasks(draft({ assigned: ['in-0', 'in-1'], owned: ['in-0'] }))).toEqual(['in-1']);
    expect(newTasks(draft({ assigned: ['in-0'], owned: ['in-0'] }))).toEqual([]);
  });

  /** The thread in `value` with this context; `poll` sends it the main consumer's poll() answer. */
  const thread = (value: Record<string, string>, over: Partial<Draft> = {}) => {
    // the assignment gave in-0 to this instance, which has no task for it yet (its producer's
    // transactions are initialised: it has run a transaction)
    const context = { ...initialContext(INPUT), pollOutstanding: true, assigned: ['in-0'], transactionsInitialized: true, ...over };
    const effects: Effect[] = [];
    const actor = createActor(streamThreadMachine, { input: INPUT, snapshot: streamThreadMachine.resolveState({ value, context }) });
    actor.on('*', (e) => effects.push(e as unknown as Effect));
    actor.start();
    return {
      effects,
      poll: (offset: number) =>
        actor.send({ type: 'reply', now: 10, from: 'st.consumer', args: { call: 'poll', ok: true, ...answer(offset) } }),
      commitDone: () => actor.send({ type: 'reply', now: 20, from: 'st.producer', args: { call: 'commitTransaction', ok: true } }),
      state: () => stateValueToString(actor.getSnapshot().value),
      context: () => actor.getSnapshot().context,
    };
  };
  const callNames = (fx: readonly Effect[]) => fx.filter((e): e is Call => e.type === 'call').map((c) => c.name);

  it('with a transaction open, holds the batch and restores the task, the transaction left open', () => {
    // (in running.polling the restore starts at the assignment itself: tests/streams/taskAssignment.test.ts;
    // the held batch then goes on in the same transaction: tests/streams/newTaskKeepsTransaction.test.ts)
    const open = thread({ running: 'pollingInTransaction' }, { uncommitted: 1 });
    open.poll(3);
    expect(open.context().heldBatch?.records?.[0]?.offset).toBe(3);
    expect(open.state()).toBe('restoring.readingEndOffsets');
    expect(callNames(open.effects)).toEqual(['endOffsets']);
  });

  it('waits for a commit under way before it creates the task', () => {
    const t = thread({ running: 'committingWhilePolling' });
    t.poll(3);
    expect(t.state()).toBe('running.committingBeforeNewTask');
    expect(callNames(t.effects)).toEqual([]);
    t.commitDone();
    expect(t.state()).toBe('restoring.readingEndOffsets');
    expect(callNames(t.effects)).toEqual(['endOffsets']);
  });
});
