/**
 * A Kafka Streams application with one stream thread running one counting task:
 * input topic → (optional groupBy through a repartition topic) → a count per key in a state store,
 * backed by its changelog topic → output topic (key → count).
 *
 * processing.guarantee=exactly_once_v2: one transaction per commit.interval.ms (100 ms) covers the
 * output records, the changelog records, the repartition records and the input offsets
 * (sendOffsetsToTransaction). After a crash the store is wiped and restored from the changelog with
 * read_committed, and input resumes from the committed offsets — so the store holds exactly the
 * committed count.
 *
 * at_least_once: the same writes without a transaction, then commitSync every commit.interval.ms
 * (30 s). A crash after the changelog and output writes but before the commit reprocesses those
 * inputs: outputs are duplicated and the restored count is inflated.
 *
 * Simplifications (said in the UI and docs): one thread and one task; the store is restored from
 * the whole changelog on every start (no local checkpoint file).
 */
import { setup } from 'xstate';
import { handle, type Out } from '../actors/out';
import type { CallEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { RecordForApp, TopicPartition } from '../protocol/messages';

export type ProcessingGuarantee = 'at_least_once' | 'exactly_once_v2';

type Step =
  | { readonly kind: 'repartition'; readonly i: number }
  | { readonly kind: 'count'; readonly i: number }
  | { readonly kind: 'changelog'; readonly i: number }
  | { readonly kind: 'output'; readonly i: number }
  | { readonly kind: 'commit' };

export interface StreamThreadContext {
  readonly self: ActorId;
  readonly consumer: ActorId;
  readonly restoreConsumer: ActorId;
  readonly producer: ActorId;
  readonly client: string;
  readonly guarantee: ProcessingGuarantee;
  readonly commitIntervalMs: number;
  readonly inputTopic: string;
  readonly outputTopic: string;
  readonly changelogTopic: string;
  readonly repartitionTopic: string | null;
  readonly groupBy: 'key' | 'value' | null;
  /** The state store: a count per key. */
  readonly store: Readonly<Record<string, number>>;
  readonly restoreEnd: Readonly<Record<string, number>> | null;
  readonly restoredRecords: number;
  readonly inTransaction: boolean;
  /** A commit (sendOffsetsToTransaction + commitTransaction, or flush + commitSync) is under way. */
  readonly committing: boolean;
  /** A batch arrived while committing: it starts once the commit is done, never inside it. */
  readonly batchWaiting: boolean;
  /** The input positions the commit under way covers (taken when it started). */
  readonly commitOffsets: Readonly<Record<string, number>>;
  /** Records processed since the last commit. */
  readonly uncommitted: number;
  readonly lastCommitAt: number;
  readonly batch: readonly RecordForApp[];
  readonly positions: Readonly<Record<string, number>>;
  readonly groupMetadata: { groupId: string | null; generationId: number; memberId: string } | null;
  readonly plan: readonly Step[];
  readonly step: number;
  /** New counts computed by the count steps of the current batch, by record index. */
  readonly counts: Readonly<Record<number, number>>;
  readonly pollOutstanding: boolean;
  readonly stopped: string | null;
}

export interface StreamThreadInput {
  readonly self: ActorId;
  readonly consumer: ActorId;
  readonly restoreConsumer: ActorId;
  readonly producer: ActorId;
  readonly client: string;
  readonly guarantee: ProcessingGuarantee;
  readonly commitIntervalMs: number;
  readonly inputTopic: string;
  readonly outputTopic: string;
  readonly changelogTopic: string;
  readonly repartitionTopic: string | null;
  readonly groupBy: 'key' | 'value' | null;
}

type Ev = CallEvent | TimerEvent | { type: 'boot'; now: number } | { type: 'crash' } | { type: 'restored' } | { type: 'halt' };
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft = Mutable<StreamThreadContext>;

const tpName = (tp: TopicPartition) => `${tp.topic}-${tp.partition}`;
const detail = (r: RecordForApp | undefined) => (r ? { topic: r.topic, partition: r.partition, offset: r.offset } : {});

function eos(d: StreamThreadContext): boolean {
  return d.guarantee === 'exactly_once_v2';
}

function nextOffsets(positions: Readonly<Record<string, number>>): (TopicPartition & { offset: number })[] {
  return Object.entries(positions).map(([name, offset]) => {
    const dash = name.lastIndexOf('-');
    return { topic: name.slice(0, dash), partition: Number(name.slice(dash + 1)), offset };
  });
}

function advance(d: Draft, out: Out): void {
  d.step += 1;
  out.timer('continue', 'continue', 0);
}

function poll(d: Draft, now: number, out: Out): void {
  if (d.pollOutstanding) return;
  d.pollOutstanding = true;
  out.call(d.consumer, 'poll');
  // uncommitted work is committed when commit.interval.ms passes, even if no new records arrive
  if (d.uncommitted > 0) out.timer('commitDue', 'commitDue', Math.max(0, d.lastCommitAt + d.commitIntervalMs - now));
}

/** Starts committing: EOS sends the input offsets into the transaction first; ALOS flushes first. */
function startCommit(d: Draft, out: Out): void {
  if (d.uncommitted === 0 || d.committing) return;
  d.committing = true;
  d.commitOffsets = d.positions;
  out.point('beforeCommit', detail(d.batch[d.batch.length - 1]));
  if (eos(d))
    out.call(d.producer, 'sendOffsetsToTransaction', {
      groupId: d.groupMetadata?.groupId ?? '',
      generationId: d.groupMetadata?.generationId ?? -1,
      memberId: d.groupMetadata?.memberId ?? '',
      offsets: nextOffsets(d.commitOffsets),
    });
  else out.call(d.producer, 'flush');
}

function runStep(d: Draft, now: number, out: Out): void {
  const s = d.plan[d.step];
  if (!s) {
    d.plan = [];
    d.step = 0;
    poll(d, now, out);
    return;
  }
  if (s.kind === 'commit') {
    if (now - d.lastCommitAt >= d.commitIntervalMs && d.uncommitted > 0) startCommit(d, out);
    else advance(d, out);
    return;
  }
  const r = d.batch[s.i];
  if (!r) {
    advance(d, out);
    return;
  }
  const key = r.key ?? '(null)';
  switch (s.kind) {
    case 'repartition': {
      const newKey = d.groupBy === 'value' ? (r.value ?? '(null)') : key;
      // a re-keyed record is work to commit too: until the transaction (or, at_least_once, the
      // offset commit) covers it, the counting side cannot read it with read_committed
      d.uncommitted += 1;
      out.fact({
        kind: 'processed',
        app: d.client,
        topic: r.topic,
        partition: r.partition,
        offset: r.offset,
        eventId: r.headers.event_id ?? null,
        key: r.key,
      });
      out.call(d.producer, 'send', { topic: d.repartitionTopic, key: newKey, value: r.value, headers: r.headers });
      return;
    }
    case 'count': {
      const count = (d.store[key] ?? 0) + 1;
      d.store = { ...d.store, [key]: count };
      d.counts = { ...d.counts, [s.i]: count };
      d.uncommitted += 1;
      if (!d.repartitionTopic || r.topic === d.repartitionTopic)
        out.fact({
          kind: 'processed',
          app: d.client,
          topic: r.topic,
          partition: r.partition,
          offset: r.offset,
          eventId: r.headers.event_id ?? null,
          key: r.key,
        });
      out.point('afterProcess', detail(r));
      advance(d, out);
      return;
    }
    case 'changelog':
      out.call(d.producer, 'send', { topic: d.changelogTopic, key, value: String(d.counts[s.i] ?? d.store[key] ?? 0), headers: {} });
      return;
    case 'output':
      out.call(d.producer, 'send', { topic: d.outputTopic, key, value: String(d.counts[s.i] ?? d.store[key] ?? 0), headers: r.headers });
      return;
  }
}

/** The steps for a polled batch: input records are re-keyed into the repartition topic (if any); the rest are counted. */
function planFor(d: StreamThreadContext, batch: readonly RecordForApp[]): Step[] {
  const steps: Step[] = [];
  batch.forEach((r, i) => {
    if (d.repartitionTopic && r.topic === d.inputTopic) steps.push({ kind: 'repartition', i });
    else steps.push({ kind: 'count', i }, { kind: 'changelog', i }, { kind: 'output', i });
  });
  steps.push({ kind: 'commit' });
  return steps;
}

const act = (fn: (d: Draft, ev: Ev & { now: number }, out: Out) => void) =>
  handle((ctx: StreamThreadContext, ev: Ev & { now: number }, out: Out) => {
    const d: Draft = { ...ctx };
    fn(d, ev, out);
    return d;
  });

/** (Re)start: the store is empty; restore it from the changelog before processing anything. */
const startRestore = act((d, ev, out) => {
  d.store = {};
  d.restoreEnd = null;
  d.restoredRecords = 0;
  d.inTransaction = false;
  d.committing = false;
  d.batchWaiting = false;
  d.commitOffsets = {};
  d.uncommitted = 0;
  d.lastCommitAt = ev.now;
  d.plan = [];
  d.step = 0;
  d.batch = [];
  d.pollOutstanding = false;
  out.call(d.restoreConsumer, 'endOffsets');
});

function restoreDone(d: Draft, out: Out): boolean {
  const end = d.restoreEnd;
  if (!end || !Object.entries(end).every(([tp, offset]) => (d.positions[tp] ?? 0) >= offset)) return false;
  finishRestore(d, out);
  return true;
}

function finishRestore(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `state store restored from ${d.changelogTopic}${eos(d) ? ' (read_committed)' : ''}: ${d.restoredRecords} changelog record(s), ${Object.keys(d.store).length} key(s)`,
  });
  d.positions = {};
  out.raise({ type: 'restored' });
}

const onRestoreReply = act((d, ev, out) => {
  const r = (
    ev as CallEvent<{
      call: string;
      ok: boolean;
      offsets?: Record<string, number>;
      records?: RecordForApp[];
      positions?: Record<string, number>;
    }>
  ).args;
  if (r.call === 'endOffsets') {
    d.restoreEnd = r.offsets ?? {};
    d.positions = {};
    if (Object.values(d.restoreEnd).every((o) => o === 0)) finishRestore(d, out);
    else out.call(d.restoreConsumer, 'seekToBeginning');
    return;
  }
  if (r.call === 'seekToBeginning') {
    out.call(d.restoreConsumer, 'poll');
    return;
  }
  if (r.call === 'poll') {
    const store = { ...d.store };
    for (const rec of r.records ?? []) if (rec.key !== null) store[rec.key] = Number(rec.value ?? '0');
    d.store = store;
    d.restoredRecords += r.records?.length ?? 0;
    d.positions = { ...d.positions, ...(r.positions ?? {}) };
    if (!restoreDone(d, out)) out.call(d.restoreConsumer, 'poll');
  }
});

const beginProcessing = act((d, ev, out) => {
  if (eos(d)) out.call(d.producer, 'initTransactions');
  else poll(d, ev.now, out);
});

/** After a commit: the batch that waited for it starts, or the batch whose commit step it was goes on. */
function afterCommit(d: Draft, out: Out): void {
  if (d.batchWaiting) {
    d.batchWaiting = false;
    startBatch(d, out);
  } else if (d.plan.length) advance(d, out);
}

/** Runs a polled batch: under exactly_once_v2 inside a transaction, begun first if none is open. */
function startBatch(d: Draft, out: Out): void {
  if (eos(d) && !d.inTransaction) {
    d.inTransaction = true;
    out.call(d.producer, 'beginTransaction');
  } else out.timer('continue', 'continue', 0);
}

const onReply = act((d, ev, out) => {
  const r = (
    ev as CallEvent<{
      call: string;
      ok: boolean;
      error: string | null;
      records?: RecordForApp[];
      positions?: Record<string, number>;
      groupMetadata?: StreamThreadContext['groupMetadata'];
    }>
  ).args;
  const last = d.batch[d.batch.length - 1];
  switch (r.call) {
    case 'initTransactions':
      if (!r.ok) return stop(d, out, `initTransactions failed: ${r.error}`);
      poll(d, ev.now, out);
      return;
    case 'poll':
      d.pollOutstanding = false;
      d.batch = r.records ?? [];
      d.positions = r.positions ?? {};
      d.groupMetadata = r.groupMetadata ?? null;
      d.counts = {};
      d.plan = planFor(d, d.batch);
      d.step = 0;
      out.point('afterPoll', detail(d.batch[d.batch.length - 1]));
      // a commit started by commit.interval.ms while poll() waited: its transaction (or offset
      // commit) must not take in this batch's writes, so the batch waits for it
      if (d.committing) d.batchWaiting = true;
      else startBatch(d, out);
      return;
    case 'beginTransaction':
      out.timer('continue', 'continue', 0);
      return;
    case 'send': {
      const s = d.plan[d.step];
      out.point('afterProduce', detail(s && 'i' in s ? d.batch[s.i] : undefined));
      advance(d, out);
      return;
    }
    case 'sendOffsetsToTransaction':
      if (!r.ok) {
        // TaskMigratedException: close dirty, abort, rejoin
        out.call(d.producer, 'abortTransaction');
        return;
      }
      out.point('afterSendOffsets', detail(last));
      out.call(d.producer, 'commitTransaction');
      return;
    case 'flush':
      out.call(d.consumer, 'commitSync', { offsets: nextOffsets(d.commitOffsets) });
      return;
    case 'commitTransaction':
    case 'commitSync':
      if (!r.ok) {
        if (r.call === 'commitTransaction') out.call(d.producer, 'abortTransaction');
        else {
          // at_least_once: the offsets stay uncommitted and are committed with the next commit
          d.committing = false;
          afterCommit(d, out);
        }
        return;
      }
      d.inTransaction = false;
      d.committing = false;
      d.uncommitted = 0;
      d.lastCommitAt = ev.now;
      out.cancel('commitDue');
      out.point('afterCommit', detail(last));
      afterCommit(d, out);
      return;
    case 'abortTransaction':
      if (!r.ok) return stop(d, out, `abortTransaction failed with ${r.error}: this instance is fenced`);
      // the task is closed dirty: the store is wiped and restored, input resumes from the committed offsets
      out.fact({
        kind: 'note',
        actor: d.self,
        text: 'transaction aborted: the task closes dirty, wipes its store and restores it from the changelog',
      });
      out.call(d.consumer, 'seekToCommitted');
      out.raise({ type: 'restore' });
      return;
    case 'seekToCommitted':
      return;
  }
});

const onCommitDue = act((d, ev, out) => {
  // no new records arrived within commit.interval.ms: commit what is open
  if (d.plan.length === 0 && d.uncommitted > 0 && ev.now - d.lastCommitAt >= d.commitIntervalMs) startCommit(d, out);
});

function stop(d: Draft, out: Out, why: string): void {
  d.stopped = why;
  out.fact({ kind: 'note', actor: d.self, text: why });
  out.raise({ type: 'halt' });
}

export const streamThreadMachine = setup({
  types: {} as { context: StreamThreadContext; input: StreamThreadInput; events: Ev | { type: 'restore' } },
}).createMachine({
  id: 'streamThread',
  context: ({ input }) => ({
    ...input,
    store: {},
    restoreEnd: null,
    restoredRecords: 0,
    inTransaction: false,
    committing: false,
    batchWaiting: false,
    commitOffsets: {},
    uncommitted: 0,
    lastCommitAt: 0,
    batch: [],
    positions: {},
    groupMetadata: null,
    plan: [],
    step: 0,
    counts: {},
    pollOutstanding: false,
    stopped: null,
  }),
  initial: 'idle',
  on: { crash: '.DOWN' },
  states: {
    idle: { on: { boot: { target: 'restoring', actions: startRestore } } },
    restoring: {
      on: {
        reply: { actions: onRestoreReply },
        restored: { target: 'running', actions: beginProcessing },
      },
    },
    running: {
      on: {
        continue: { actions: act((d, ev, out) => runStep(d, ev.now, out)) },
        reply: { actions: onReply },
        commitDue: { actions: onCommitDue },
        restore: { target: 'restoring', actions: startRestore },
        halt: 'stopped',
      },
    },
    stopped: { on: { reply: {} } },
    DOWN: {
      on: { restart: { target: 'restoring', actions: startRestore } },
    },
  },
});

export { tpName };
