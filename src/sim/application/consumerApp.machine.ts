/**
 * A consuming application: the poll → process → commit loop, in one of the processing modes the
 * seed articles compare. After each poll() it lays out a plan of steps for the batch, and runs
 * them one kernel step at a time, passing a named point after each (afterPoll, afterProcess,
 * afterSideEffect, afterProduce, afterSendOffsets, beforeCommit, afterCommit) where a crash can be
 * injected.
 *
 * - at-most-once: commit the positions, then process (a crash loses the rest of the batch);
 * - at-least-once: process, then commitSync (a crash reprocesses);
 * - auto-commit: process; poll() commits the previous positions every auto.commit.interval.ms;
 * - commit-last-processed: the pitfall — commits the last processed offset instead of the next;
 * - exactly-once: consume-transform-produce in a transaction with sendOffsetsToTransaction(next
 *   offsets, groupMetadata); after an abort, seek back to the committed offsets. One transaction per
 *   poll(), as Kafka's ExactlyOnceMessageProcessor does — or, with `commitIntervalMs`, one kept open
 *   across polls until that much time has passed (batching). A batched transaction sees poll() run
 *   inside it: an auto-commit there (enable.auto.commit=true, ConsumerCoordinator.onJoinPrepare on a
 *   rebalance) commits the positions of records whose transaction is still open. When a poll() answer
 *   comes with a new generation while the transaction is open, the partitions were revoked in between:
 *   the application's onPartitionsRevoked aborts the transaction so that the new owner processes
 *   those records again from the committed offsets;
 * - consume-produce-no-transactions: produce, flush, then commitSync (outputs can be written twice);
 * - offsets-in-sink: the result and the consumed offset in one database transaction; its rebalance
 *   listener (onPartitionsAssigned) reads the offsets stored in the database and seeks to them on
 *   every assignment, as Kafka's documentation of ConsumerRebalanceListener shows.
 */
import { setup } from 'xstate';
import type { Mutable } from '../actors/draft';
import { handle, type Out } from '../actors/out';
import type { DisconnectedEvent, RpcEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { RecordForApp, TopicPartition } from '../protocol/messages';
import { keyOf, recordAddress } from '../protocol/topicPartition';
import type { ProcessingMode } from '../scenario/schema';
import {
  advance,
  type GroupMetadata,
  type LifecycleEvent,
  type LoopTimer,
  nextOffsets,
  type PollAnswer,
  pointDetail,
  pollOnce,
  processedFact,
  type ReplyEvent,
  replyOf,
  sendOffsetsArgs,
} from './applicationLoop';

export interface SinkRef {
  readonly id: ActorId;
  readonly type: 'database' | 'http-api' | 'outbox';
  readonly mode: string;
}

export type PlanStep =
  | { readonly kind: 'process'; readonly i: number }
  | { readonly kind: 'sideEffect'; readonly i: number }
  | { readonly kind: 'produce'; readonly i: number }
  | { readonly kind: 'beginTransaction' }
  | { readonly kind: 'sendOffsets' }
  | { readonly kind: 'commitTransaction' }
  | { readonly kind: 'flush' }
  | { readonly kind: 'commitSync'; readonly offsets: 'next' | 'last-processed' }
  | { readonly kind: 'point'; readonly name: string };

export interface ConsumerAppContext {
  readonly self: ActorId;
  readonly consumer: ActorId;
  readonly producer: ActorId | null;
  readonly client: string;
  readonly mode: ProcessingMode;
  readonly sink: SinkRef | null;
  readonly outputTopic: string | null;
  readonly processingMs: number;
  /** exactly-once: a transaction stays open across polls until this much time passed (null: one per poll). */
  readonly commitIntervalMs: number | null;
  /** The header naming the business entity whose `seq` order the application checks (null: none). */
  readonly checkOrder: string | null;
  readonly httpTimeoutMs: number;
  readonly batch: readonly RecordForApp[];
  readonly groupMetadata: GroupMetadata | null;
  /** The consumer's positions when poll() returned: the next offsets to read. */
  readonly positions: Readonly<Record<string, number>>;
  readonly plan: readonly PlanStep[];
  readonly step: number;
  /** An HTTP call in flight (for its timeout and retry). */
  readonly httpAttempt: number;
  /** Correlation id of the sink call the current step waits for: answers to earlier attempts are ignored. */
  readonly sinkRequest: number | null;
  /** onPartitionsAssigned is reading the database's offsets (this query's correlation id). */
  readonly listenerQuery: number | null;
  /** The partitions of the last assignment ("topic-partition"). */
  readonly assigned: readonly string[];
  readonly nextCorrelationId: number;
  readonly stopped: string | null;
  /** A poll() has been called and not answered yet. */
  readonly pollOutstanding: boolean;
  /** A poll() answer that came while a batched transaction was committing: processed after it. */
  readonly heldPoll: PollAnswer | null;
  /** A transaction is open (between beginTransaction and its commit or abort). */
  readonly txnOpen: boolean;
  readonly txnStartedAt: number;
  /** The group generation the open transaction's records were polled in. */
  readonly txnGeneration: number | null;
  /** checkOrder: the highest seq processed per entity. */
  readonly lastSeq: Readonly<Record<string, number>>;
}

export type { PollAnswer } from './applicationLoop';

export interface ConsumerAppInput {
  readonly self: ActorId;
  readonly consumer: ActorId;
  readonly producer: ActorId | null;
  readonly client: string;
  readonly mode: ProcessingMode;
  readonly sink: SinkRef | null;
  readonly outputTopic: string | null;
  readonly processingMs: number;
  readonly commitIntervalMs?: number | null;
  readonly checkOrder?: string | null;
}

/** The consumer application's events: its clients' replies and calls, its sinks' answers, its timers, the kernel's. */
export type ConsumerAppEvent =
  | ReplyEvent
  | { readonly type: 'onPartitionsAssigned'; readonly now: number; readonly from: ActorId; readonly args: { partitions: TopicPartition[] } }
  | (RpcEvent<SinkAnswer> & { readonly type: 'DbTransactionResult' | 'DbQueryResult' | 'HttpResponse' })
  | DisconnectedEvent
  | LoopTimer<'continue' | 'httpTimeout' | 'dbTimeout' | 'txnCommitDue'>
  | LifecycleEvent;
type Ev = ConsumerAppEvent;
type Draft = Mutable<ConsumerAppContext>;

/** What a sink answers: the correlation id of the call, and the database's stored offsets or the HTTP status. */
interface SinkAnswer {
  readonly correlationId?: number;
  readonly ok?: boolean;
  readonly conflict?: boolean;
  readonly offsets?: Record<string, number>;
  readonly status?: number;
}

/** The end of a transaction: the next offsets into it, then commit. */
const COMMIT_STEPS: readonly PlanStep[] = [{ kind: 'sendOffsets' }, { kind: 'point', name: 'beforeCommit' }, { kind: 'commitTransaction' }];

/**
 * exactly-once with commitIntervalMs: the steps for one polled batch of a transaction kept open
 * across polls — begin only when none is open, commit only once the interval has passed.
 */
export function batchedPlan(n: number, hasSink: boolean, hasOutput: boolean, open: boolean, due: boolean): PlanStep[] {
  const records = planFor('at-most-once', n, hasSink, hasOutput).slice(2);
  return [...(open ? [] : [{ kind: 'beginTransaction' } as const]), ...records, ...(due ? COMMIT_STEPS : [])];
}

/** The steps for one polled batch, by mode. */
export function planFor(mode: ProcessingMode, n: number, hasSink: boolean, hasOutput: boolean): PlanStep[] {
  const perRecord = (i: number): PlanStep[] => [
    { kind: 'process', i },
    ...(hasSink ? [{ kind: 'sideEffect', i } as const] : []),
    ...(hasOutput ? [{ kind: 'produce', i } as const] : []),
  ];
  const records = Array.from({ length: n }, (_, i) => perRecord(i)).flat();
  switch (mode) {
    case 'at-most-once':
      return [{ kind: 'point', name: 'beforeCommit' }, { kind: 'commitSync', offsets: 'next' }, ...records];
    case 'at-least-once':
      return [...records, { kind: 'point', name: 'beforeCommit' }, { kind: 'commitSync', offsets: 'next' }];
    case 'commit-last-processed':
      return [...records, { kind: 'point', name: 'beforeCommit' }, { kind: 'commitSync', offsets: 'last-processed' }];
    case 'exactly-once':
      return [
        { kind: 'beginTransaction' },
        ...records,
        { kind: 'sendOffsets' },
        { kind: 'point', name: 'beforeCommit' },
        { kind: 'commitTransaction' },
      ];
    case 'consume-produce-no-transactions':
      return [...records, { kind: 'flush' }, { kind: 'point', name: 'beforeCommit' }, { kind: 'commitSync', offsets: 'next' }];
    case 'auto-commit':
    case 'offsets-in-sink':
      return records;
  }
}

/** The pitfall: the offset of the last processed record per partition, instead of the next one. */
function lastProcessedOffsets(batch: readonly RecordForApp[]): (TopicPartition & { offset: number })[] {
  const last = new Map<string, RecordForApp>();
  for (const r of batch) last.set(keyOf(r), r);
  return [...last.values()].map((r) => ({ topic: r.topic, partition: r.partition, offset: r.offset }));
}

function corr(d: Draft): number {
  const c = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  return c;
}

/** Moves to the next plan step through the queue, so that every step boundary is a crash point. */
const next = advance;

function sendHttp(d: Draft, r: RecordForApp, method: 'POST' | 'GET', out: Out): void {
  const sink = d.sink as SinkRef;
  const eventId = r.headers.event_id ?? null;
  const correlationId = corr(d);
  d.sinkRequest = correlationId;
  // the HTTP client's read timeout: without an answer in time it closes the connection
  out.send(
    sink.id,
    'HttpRequest',
    {
      correlationId,
      method,
      app: d.client,
      eventId,
      idempotencyKey: sink.mode === 'idempotency-key' ? (eventId ?? recordAddress(r.topic, r.partition, r.offset)) : null,
    },
    { timeoutMs: d.httpTimeoutMs },
  );
}

/** The database write for a record; without an answer in time the application writes again. */
function sendDbWrite(d: Draft, r: RecordForApp, out: Out): void {
  const sink = d.sink as SinkRef;
  const correlationId = corr(d);
  d.sinkRequest = correlationId;
  out.send(
    sink.id,
    'DbTransaction',
    {
      correlationId,
      app: d.client,
      eventId: r.headers.event_id ?? null,
      key: r.key,
      value: r.value,
      topic: r.topic,
      partition: r.partition,
      offset: r.offset,
    },
    { timeoutMs: d.httpTimeoutMs },
  );
}

/** Runs the current plan step (or polls when the plan is done). */
function runStep(d: Draft, now: number, out: Out): void {
  const s = d.plan[d.step];
  if (!s) {
    d.plan = [];
    d.step = 0;
    if (d.commitIntervalMs !== null && d.txnOpen && now - d.txnStartedAt >= d.commitIntervalMs) {
      // the batched transaction is due: commit it before the next poll
      d.plan = [...COMMIT_STEPS];
      runStep(d, now, out);
      return;
    }
    if (d.heldPoll) {
      const held = d.heldPoll;
      d.heldPoll = null;
      onPollAnswer(d, held, now, out);
      return;
    }
    poll(d, out);
    return;
  }
  const r = 'i' in s ? d.batch[s.i] : undefined;
  switch (s.kind) {
    case 'point':
      out.point(s.name, pointDetail(d.batch[d.batch.length - 1]));
      next(d, out);
      return;
    case 'process':
      if (!r) {
        next(d, out);
        return;
      }
      out.fact(processedFact(d.client, r));
      checkOrder(d, r, out);
      out.point('afterProcess', pointDetail(r));
      next(d, out, d.processingMs);
      return;
    case 'sideEffect': {
      if (!r || !d.sink) {
        next(d, out);
        return;
      }
      if (d.sink.type === 'http-api') {
        d.httpAttempt = 1;
        sendHttp(d, r, 'POST', out);
        return;
      }
      sendDbWrite(d, r, out);
      return;
    }
    case 'produce':
      if (!r || !d.producer || !d.outputTopic) {
        next(d, out);
        return;
      }
      out.call(d.producer, 'send', { topic: d.outputTopic, key: r.key, value: `processed(${r.value})`, headers: r.headers });
      return;
    case 'beginTransaction':
      out.call(d.producer as ActorId, 'beginTransaction');
      return;
    case 'sendOffsets':
      out.call(d.producer as ActorId, 'sendOffsetsToTransaction', sendOffsetsArgs(d.groupMetadata, d.positions));
      return;
    case 'commitTransaction':
    case 'flush':
      out.call(d.producer as ActorId, s.kind);
      return;
    case 'commitSync':
      // commitSync() commits the consumer's positions; the pitfall passes last processed offsets explicitly
      out.call(
        d.consumer,
        'commitSync',
        s.offsets === 'next' ? { offsets: nextOffsets(d.positions) } : { offsets: lastProcessedOffsets(d.batch) },
      );
      return;
  }
  void now;
}

/** Calls poll() unless one is already waiting for records. */
const poll = pollOnce;

/**
 * checkOrder: the application knows the business order of an entity's events (their `seq` header)
 * and says when one arrives after a later one — what re-keying by event_id does to an order's events.
 */
function checkOrder(d: Draft, r: RecordForApp, out: Out): void {
  if (d.checkOrder === null) return;
  const entity = r.headers[d.checkOrder] ?? r.key;
  const seq = Number(r.headers.seq);
  if (entity === null || entity === undefined || !Number.isFinite(seq)) return;
  const last = d.lastSeq[entity];
  if (last !== undefined && seq < last)
    out.fact({
      kind: 'note',
      actor: d.self,
      text: `out of order: ${d.checkOrder} ${entity} seq ${seq} (${r.headers.event_id ?? `offset ${r.offset}`}, ${keyOf(r)}) arrived after seq ${last}`,
    });
  d.lastSeq = { ...d.lastSeq, [entity]: Math.max(seq, last ?? seq) };
}

/** A batch arrived from poll(): plan its steps, or — a batched transaction whose partitions were revoked — abort. */
function onPollAnswer(d: Draft, r: PollAnswer, now: number, out: Out): void {
  const records = r.records ?? [];
  if (records.length === 0) {
    // nothing but markers or aborted data: poll again
    poll(d, out);
    return;
  }
  const generation = r.groupMetadata?.generationId ?? null;
  if (d.commitIntervalMs !== null && d.txnOpen && generation !== d.txnGeneration) {
    // onPartitionsRevoked ran inside this poll(): the open transaction's partitions are gone
    out.fact({
      kind: 'note',
      actor: d.self,
      text: `onPartitionsRevoked: generation ${d.txnGeneration} ended while the transaction was open; the application aborts it so that the new owner processes its records from the committed offsets`,
    });
    d.batch = [];
    d.plan = [];
    d.step = 0;
    out.call(d.producer as ActorId, 'abortTransaction');
    return;
  }
  // the point names the previous batch's last record when there was one (as it always has)
  const previous = d.batch[d.batch.length - 1];
  d.batch = records;
  d.groupMetadata = r.groupMetadata ?? null;
  d.positions = r.positions ?? {};
  const hasSink = d.sink !== null;
  const hasOutput = d.outputTopic !== null && d.producer !== null;
  d.plan =
    d.commitIntervalMs !== null && d.mode === 'exactly-once'
      ? batchedPlan(d.batch.length, hasSink, hasOutput, d.txnOpen, d.txnOpen && now - d.txnStartedAt >= d.commitIntervalMs)
      : planFor(d.mode, d.batch.length, hasSink, hasOutput);
  d.step = -1;
  out.point('afterPoll', pointDetail(previous ?? d.batch[d.batch.length - 1]));
  next(d, out);
}

const act = (fn: (d: Draft, ev: Ev & { now: number }, out: Out) => void) =>
  handle((ctx: ConsumerAppContext, ev: Ev & { now: number }, out: Out) => {
    const d: Draft = { ...ctx };
    fn(d, ev, out);
    return d;
  });

const start = act((d, _ev, out) => {
  d.plan = [];
  d.step = 0;
  d.batch = [];
  d.listenerQuery = null;
  d.pollOutstanding = false;
  d.heldPoll = null;
  d.txnOpen = false;
  d.txnGeneration = null;
  // only an exactly-once application has a transactional producer to initialise
  if (d.producer && d.mode === 'exactly-once') out.call(d.producer, 'initTransactions');
  else poll(d, out);
});

/** offsets-in-sink's ConsumerRebalanceListener.onPartitionsAssigned: read the offsets the database holds. */
function queryStoredOffsets(d: Draft, out: Out): void {
  const sink = d.sink as SinkRef;
  const correlationId = corr(d);
  d.listenerQuery = correlationId;
  out.send(sink.id, 'DbQuery', { correlationId, table: 'consumer_offsets' }, { timeoutMs: d.httpTimeoutMs });
}

const onPartitionsAssigned = act((d, ev, out) => {
  if (ev.type !== 'onPartitionsAssigned') return;
  d.assigned = ev.args.partitions.map(keyOf);
  if (d.mode !== 'offsets-in-sink' || !d.sink) {
    out.call(d.consumer, 'partitionsAssignedDone', { offsets: {} });
    return;
  }
  queryStoredOffsets(d, out);
});

const onContinue = act((d, ev, out) => runStep(d, ev.now, out));

function afterAbort(d: Draft, out: Out): void {
  // abortTransaction() does not rewind the consumer: go back to the committed offsets
  d.plan = [];
  d.step = 0;
  d.batch = [];
  d.txnOpen = false;
  d.txnGeneration = null;
  d.heldPoll = null;
  out.cancel('txnCommitDue');
  out.call(d.consumer, 'seekToCommitted');
}

const onReply = act((d, ev, out) => {
  const r = replyOf(ev);
  if (!r) return;
  const last = d.batch[d.batch.length - 1];
  switch (r.call) {
    case 'initTransactions':
      if (!r.ok) return stop(d, out, `initTransactions failed: ${r.error}`);
      poll(d, out);
      return;
    case 'poll': {
      d.pollOutstanding = false;
      const answer: PollAnswer = { records: r.records ?? [], groupMetadata: r.groupMetadata ?? null, positions: r.positions ?? {} };
      // a batched transaction committing on its interval: the new batch waits for the commit
      if (d.plan.length > 0 && d.commitIntervalMs !== null) {
        d.heldPoll = answer;
        return;
      }
      onPollAnswer(d, answer, ev.now, out);
      return;
    }
    case 'send': {
      const s = d.plan[d.step];
      out.point('afterProduce', pointDetail(s && 'i' in s ? d.batch[s.i] : undefined));
      next(d, out);
      return;
    }
    case 'beginTransaction':
      if (r.ok && d.commitIntervalMs !== null) {
        d.txnOpen = true;
        d.txnStartedAt = ev.now;
        d.txnGeneration = d.groupMetadata?.generationId ?? null;
        out.timer('txnCommitDue', 'txnCommitDue', d.commitIntervalMs);
      }
      next(d, out);
      return;
    case 'flush':
      next(d, out);
      return;
    case 'sendOffsetsToTransaction':
      if (!r.ok) {
        out.fact({ kind: 'note', actor: d.self, text: `sendOffsetsToTransaction failed (${r.error}): aborting` });
        out.call(d.producer as ActorId, 'abortTransaction');
        return;
      }
      out.point('afterSendOffsets', pointDetail(last));
      next(d, out);
      return;
    case 'commitTransaction':
      if (r.ok) {
        d.txnOpen = false;
        d.txnGeneration = null;
        out.cancel('txnCommitDue');
        out.point('afterCommit', pointDetail(last));
        next(d, out);
        return;
      }
      if (r.error === 'PRODUCER_FENCED' || r.error === 'INVALID_PRODUCER_EPOCH' || r.error === 'INVALID_TXN_STATE')
        return stop(d, out, `commitTransaction failed with ${r.error}: this instance is fenced and closes`);
      out.call(d.producer as ActorId, 'abortTransaction');
      return;
    case 'abortTransaction':
      if (!r.ok) return stop(d, out, `abortTransaction failed with ${r.error}: this instance is fenced and closes`);
      afterAbort(d, out);
      return;
    case 'seekToCommitted':
      poll(d, out);
      return;
    case 'commitSync':
      if (!r.ok) out.fact({ kind: 'note', actor: d.self, text: `commitSync failed (${r.error}): the records will be delivered again` });
      else out.point('afterCommit', pointDetail(last));
      next(d, out);
      return;
    case 'seek':
      return;
  }
});

/** Answers from a sink (database or HTTP API). */
const onSinkResponse = act((d, ev, out) => {
  if (ev.type !== 'DbQueryResult' && ev.type !== 'DbTransactionResult' && ev.type !== 'HttpResponse') return;
  const e = ev;
  if (e.type === 'DbQueryResult') {
    if (e.payload.correlationId !== d.listenerQuery) return;
    d.listenerQuery = null;
    // seek each assigned partition to the offset stored with its results
    const offsets = Object.fromEntries(Object.entries(e.payload.offsets ?? {}).filter(([name]) => d.assigned.includes(name)));
    out.fact({
      kind: 'note',
      actor: d.self,
      text: `onPartitionsAssigned(${d.assigned.join(', ') || 'none'}): read its offsets from the database: ${
        Object.entries(offsets)
          .map(([k, o]) => `${k}=${o}`)
          .join(', ') || 'none yet'
      }`,
    });
    out.call(d.consumer, 'partitionsAssignedDone', { offsets });
    return;
  }
  // an answer to an attempt the application already gave up on changes nothing
  const answered = e.payload.correlationId;
  if (answered !== d.sinkRequest) return;
  d.sinkRequest = null;
  const s = d.plan[d.step];
  const r = s && 'i' in s ? d.batch[s.i] : undefined;
  if (e.type === 'HttpResponse') {
    if (s?.kind === 'sideEffect' && d.sink?.mode === 'lookup-before-retry' && d.httpAttempt > 1 && r && e.payload.status === 404) {
      // the look-up says the first call never arrived: now it is safe to call again
      d.httpAttempt = 1;
      sendHttp(d, r, 'POST', out);
      return;
    }
  }
  out.point('afterSideEffect', pointDetail(r));
  next(d, out);
});

/** The database did not answer (the write may or may not have happened): write again. */
function writeAgain(d: Draft, out: Out): void {
  const s = d.plan[d.step];
  const r = s && 'i' in s ? d.batch[s.i] : undefined;
  if (!r || !d.sink || s?.kind !== 'sideEffect') return;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `no answer from ${d.sink.id} for offset ${r.offset}: the write may or may not have happened, so it writes again`,
  });
  sendDbWrite(d, r, out);
}

/** The HTTP call got no answer: its outcome is unknown, so call again (or look up first). */
function callAgain(d: Draft, out: Out): void {
  const s = d.plan[d.step];
  const r = s && 'i' in s ? d.batch[s.i] : undefined;
  if (!r || !d.sink) return;
  d.httpAttempt += 1;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `no answer from ${d.sink.id} for ${r.headers.event_id ?? `offset ${r.offset}`}: the outcome is unknown, so it tries again`,
  });
  if (d.sink.mode === 'lookup-before-retry') sendHttp(d, r, 'GET', out);
  else sendHttp(d, r, 'POST', out);
}

/**
 * A call to the sink completed as a disconnect: it got no answer within its timeout (the client
 * closed the connection; the call may or may not have taken effect), or the sink was unreachable.
 * A timed-out call is made again at once; an unreachable sink is tried again shortly.
 */
const onSinkDisconnected = act((d, ev, out) => {
  if (ev.type !== 'disconnected') return;
  const e = ev;
  if (e.rpc === 'DbQuery') {
    // onPartitionsAssigned's query got no answer: ask again (at once after a timeout, shortly when unreachable)
    if (e.payload.correlationId !== d.listenerQuery) return;
    if (e.timedOut) queryStoredOffsets(d, out);
    else out.timer('db', 'dbTimeout', 100);
    return;
  }
  const lost = e.payload.correlationId;
  if (lost !== d.sinkRequest) return;
  d.sinkRequest = null;
  const http = d.sink?.type === 'http-api';
  if (e.timedOut) {
    if (http) callAgain(d, out);
    else writeAgain(d, out);
  } else if (http) out.timer('http', 'httpTimeout', 100);
  else out.timer('db', 'dbTimeout', 100);
});

/** The retry after an unreachable database: onPartitionsAssigned's query, or the write. */
const onDbTimeout = act((d, _ev, out) => {
  if (d.listenerQuery !== null) queryStoredOffsets(d, out);
  else writeAgain(d, out);
});
const onHttpTimeout = act((d, _ev, out) => callAgain(d, out));

/** A batched transaction's interval passed while the application waits in poll(): commit it now. */
const onTxnCommitDue = act((d, ev, out) => {
  if (!d.txnOpen || d.plan.length > 0) return;
  d.plan = [...COMMIT_STEPS];
  d.step = 0;
  runStep(d, ev.now, out);
});

function stop(d: Draft, out: Out, why: string): void {
  d.stopped = why;
  out.fact({ kind: 'note', actor: d.self, text: why });
  out.call(d.consumer, 'close');
}

/** boot and restart: an exactly-once application initialises its transactions first. */
const starting = [
  { guard: 'transactional' as const, target: 'running.initializing', actions: start },
  { target: 'running', actions: start },
];

/** The errors after which a transactional producer is fenced: the instance closes. */
const FENCED = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'INVALID_TXN_STATE']);

const COMMIT_KINDS = new Set<PlanStep['kind']>(['commitSync', 'sendOffsets', 'commitTransaction']);

type Args = { context: ConsumerAppContext; event: Ev };

/** The loop's decisions, as guards of (context, event). */
export const consumerAppGuards = {
  transactional: ({ context }: Args) => context.producer !== null && context.mode === 'exactly-once',
  /** The reply ends the application: initTransactions failed, the producer is fenced, or it cannot abort. */
  fatalReply: ({ event }: Args) => {
    const r = replyOf(event);
    if (!r || r.ok) return false;
    return (
      r.call === 'initTransactions' || r.call === 'abortTransaction' || (r.call === 'commitTransaction' && FENCED.has(r.error ?? ''))
    );
  },
  /** The reply makes the application abort its transaction: a failed sendOffsetsToTransaction or commitTransaction, or revoked partitions. */
  abortsTransaction: ({ context, event }: Args) => {
    const r = replyOf(event);
    if (!r) return false;
    if (!r.ok && (r.call === 'sendOffsetsToTransaction' || r.call === 'commitTransaction')) return true;
    // onPartitionsRevoked ran inside this poll(): the batched transaction's partitions are gone
    const batched = context.commitIntervalMs !== null;
    const held = context.plan.length > 0 && batched;
    const generation = r.groupMetadata?.generationId ?? null;
    return r.call === 'poll' && !held && (r.records ?? []).length > 0 && batched && context.txnOpen && generation !== context.txnGeneration;
  },
  seekedToCommitted: ({ event }: Args) => replyOf(event)?.call === 'seekToCommitted',
  initialized: ({ event }: Args) => replyOf(event)?.call === 'initTransactions' && replyOf(event)?.ok === true,
  planHasSteps: ({ context }: Args) => context.plan.length > 0,
  planEmpty: ({ context }: Args) => context.plan.length === 0,
  atCommitStep: ({ context }: Args) => {
    const s = context.plan[context.step];
    return s !== undefined && COMMIT_KINDS.has(s.kind);
  },
  pastCommitStep: ({ context }: Args) => {
    const s = context.plan[context.step];
    return s === undefined || !COMMIT_KINDS.has(s.kind);
  },
};

export const consumerAppMachine = setup({
  types: {} as { context: ConsumerAppContext; input: ConsumerAppInput; events: Ev },
  guards: consumerAppGuards,
}).createMachine({
  id: 'consumerApp',
  context: ({ input }) => ({
    ...input,
    httpTimeoutMs: 5000,
    batch: [],
    groupMetadata: null,
    positions: {},
    plan: [],
    step: 0,
    httpAttempt: 0,
    sinkRequest: null,
    listenerQuery: null,
    assigned: [],
    nextCorrelationId: 0,
    stopped: null,
    commitIntervalMs: input.commitIntervalMs ?? null,
    checkOrder: input.checkOrder ?? null,
    pollOutstanding: false,
    heldPoll: null,
    txnOpen: false,
    txnStartedAt: 0,
    txnGeneration: null,
    lastSeq: {},
  }),
  initial: 'idle',
  on: { crash: '.down' },
  states: {
    // not started yet (before its startAt): a crash or restart of its process changes nothing
    idle: { on: { boot: starting, crash: {}, restart: {} } },
    running: {
      initial: 'polling',
      on: {
        continue: { actions: onContinue },
        onPartitionsAssigned: { actions: onPartitionsAssigned },
        reply: [
          { guard: 'fatalReply', target: '#consumerApp.stopped', actions: onReply },
          { guard: 'abortsTransaction', target: '.aborting', actions: onReply },
          { guard: 'seekedToCommitted', target: '.polling', actions: onReply },
          { actions: onReply },
        ],
        DbTransactionResult: { actions: onSinkResponse },
        DbQueryResult: { actions: onSinkResponse },
        HttpResponse: { actions: onSinkResponse },
        httpTimeout: { actions: onHttpTimeout },
        dbTimeout: { actions: onDbTimeout },
        txnCommitDue: { actions: onTxnCommitDue },
        disconnected: { actions: onSinkDisconnected },
      },
      states: {
        // exactly-once: initTransactions() before the first poll()
        initializing: { on: { reply: { guard: 'initialized', target: 'polling', actions: onReply } } },
        // waiting in poll(): no steps planned
        polling: { always: { guard: 'planHasSteps', target: 'processing' } },
        // the batch's steps (process, side effect, produce, the transaction's begin)
        processing: {
          always: [
            { guard: 'planEmpty', target: 'polling' },
            { guard: 'atCommitStep', target: 'committing' },
          ],
        },
        // commitSync, or sendOffsetsToTransaction and commitTransaction
        committing: {
          always: [
            { guard: 'planEmpty', target: 'polling' },
            { guard: 'pastCommitStep', target: 'processing' },
          ],
        },
        // abortTransaction, then seekToCommitted: back to the committed offsets
        aborting: {},
      },
    },
    stopped: { on: { reply: {} } },
    down: {
      entry: handle((ctx: ConsumerAppContext) => ({
        ...ctx,
        batch: [],
        plan: [],
        step: 0,
        groupMetadata: null,
        httpAttempt: 0,
        sinkRequest: null,
        listenerQuery: null,
        pollOutstanding: false,
        heldPoll: null,
        txnOpen: false,
        txnGeneration: null,
      })),
      on: { restart: starting },
    },
  },
});
