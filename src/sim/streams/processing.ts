/**
 * The running task's loop: poll the main consumer, run each record through the topology (groupBy
 * through the repartition topic, count, changelog, output), and commit every commit.interval.ms —
 * under exactly_once_v2 inside one transaction with the input offsets (sendOffsetsToTransaction),
 * under at_least_once by flush() and commitSync().
 */
import type { Out } from '../actors/out';
import type { RecordForApp, TopicPartition } from '../protocol/messages';
import { countSkipReason, selectedKey } from './aggregate';
import { failTask } from './migration';
import {
  type Draft,
  type Ev,
  eos,
  type PollReply,
  replier,
  replyOf,
  type Step,
  type StreamThreadContext,
  tpName,
} from './streamThreadContext';

const detail = (r: RecordForApp | undefined) => (r ? { topic: r.topic, partition: r.partition, offset: r.offset } : {});
const where = (r: RecordForApp) => `topic=[${r.topic}] partition=[${r.partition}] offset=[${r.offset}]`;

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

export function poll(d: Draft, now: number, out: Out): void {
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

function processed(d: Draft, r: RecordForApp, out: Out): void {
  out.fact({
    kind: 'processed',
    app: d.client,
    topic: r.topic,
    partition: r.partition,
    offset: r.offset,
    eventId: r.headers.event_id ?? null,
    key: r.key,
  });
}

/** Runs the next step of the batch's plan. */
export function runStep(d: Draft, now: number, out: Out): void {
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
  switch (s.kind) {
    case 'repartition':
      // a re-keyed record is work to commit too: until the transaction (or, at_least_once, the
      // offset commit) covers it, the counting side cannot read it with read_committed
      d.uncommitted += 1;
      processed(d, r, out);
      out.call(d.producer, 'send', {
        topic: d.repartitionTopic,
        key: selectedKey(r, d.groupBy ?? 'key'),
        value: r.value,
        headers: r.headers,
      });
      return;
    case 'filter':
      d.uncommitted += 1;
      processed(d, r, out);
      out.fact({
        kind: 'note',
        actor: d.self,
        text: `groupBy selected a null key for ${where(r)}: the repartition topic's filter drops the record, so it is never counted`,
      });
      advance(d, out);
      return;
    case 'drop':
      d.uncommitted += 1;
      d.droppedRecords += 1;
      if (!d.repartitionTopic || r.topic === d.repartitionTopic) processed(d, r, out);
      out.fact({
        kind: 'note',
        actor: d.self,
        text: `skipping record due to null key or value: ${where(r)} — count() drops it (dropped-records metric +1)`,
      });
      out.point('afterProcess', detail(r));
      advance(d, out);
      return;
    case 'count': {
      const key = r.key as string;
      const count = (d.store[key] ?? 0) + 1;
      d.store = { ...d.store, [key]: count };
      d.counts = { ...d.counts, [s.i]: count };
      d.uncommitted += 1;
      if (!d.repartitionTopic || r.topic === d.repartitionTopic) processed(d, r, out);
      out.point('afterProcess', detail(r));
      advance(d, out);
      return;
    }
    case 'changelog':
    case 'output':
      out.call(d.producer, 'send', {
        topic: s.kind === 'changelog' ? d.changelogTopic : d.outputTopic,
        key: r.key,
        value: String(d.counts[s.i] ?? d.store[r.key as string] ?? 0),
        headers: s.kind === 'changelog' ? {} : r.headers,
      });
      return;
  }
}

/** The steps for a polled batch: input records are re-keyed into the repartition topic (if any); the rest are counted. */
export function planFor(d: StreamThreadContext, batch: readonly RecordForApp[]): Step[] {
  const steps: Step[] = [];
  batch.forEach((r, i) => {
    if (d.repartitionTopic && r.topic === d.inputTopic)
      steps.push(selectedKey(r, d.groupBy ?? 'key') === null ? { kind: 'filter', i } : { kind: 'repartition', i });
    else if (countSkipReason(r)) steps.push({ kind: 'drop', i });
    else steps.push({ kind: 'count', i }, { kind: 'changelog', i }, { kind: 'output', i });
  });
  steps.push({ kind: 'commit' });
  return steps;
}

/** Runs a polled batch: under exactly_once_v2 inside a transaction, begun first if none is open. */
function startBatch(d: Draft, out: Out): void {
  if (eos(d) && !d.inTransaction) {
    d.inTransaction = true;
    out.call(d.producer, 'beginTransaction');
  } else out.timer('continue', 'continue', 0);
}

/**
 * A poll() answer brings a partition this thread did not hold since its store was last restored,
 * at an offset it did not commit itself: the task was assigned here by a rebalance after another
 * instance worked on it (StreamThread creates the task on assignment, and StoreChangelogReader
 * restores it before it processes anything). A partition at the offset this thread left it at —
 * the first assignment, or the one after its own restart — needs nothing the last restore lacks.
 */
export function gainedTask(d: StreamThreadContext, reply: PollReply): string[] {
  // where each partition's batch starts: its first record, or its position when it brought none
  const start: Record<string, number> = { ...(reply.positions ?? {}) };
  for (const r of [...(reply.records ?? [])].reverse()) start[tpName(r)] = r.offset;
  return Object.entries(start)
    .filter(([tp, offset]) => !d.owned.includes(tp) && offset !== (d.ownCommitted[tp] ?? 0))
    .map(([tp]) => tp);
}

/** Creates a newly assigned task: the open transaction (if any) is aborted first, then the store restored. */
export function recreateTask(d: Draft, gained: readonly string[], out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `task for ${gained.join(', ')} newly assigned to this instance, at an offset another instance committed: its store is restored from the changelog before it processes`,
  });
  if (eos(d) && d.inTransaction) {
    // this instance's own open transaction would pin the changelog's LSO the restore reads to
    d.recreate = 'abort';
    out.call(d.producer, 'abortTransaction');
    return;
  }
  d.recreate = null;
  out.raise({ type: 'recreate' });
}

/** A poll() answer: the batch to process next. */
export function takeBatch(d: Draft, reply: PollReply, out: Out): void {
  d.pollOutstanding = false;
  const gained = gainedTask(d, reply);
  if (gained.length) {
    d.heldBatch = reply;
    if (d.committing) {
      d.recreate = 'after-commit';
      return;
    }
    recreateTask(d, gained, out);
    return;
  }
  d.owned = Object.keys(reply.positions ?? {});
  d.batch = reply.records ?? [];
  d.positions = reply.positions ?? {};
  d.groupMetadata = reply.groupMetadata ?? null;
  d.counts = {};
  d.plan = planFor(d, d.batch);
  d.step = 0;
  out.point('afterPoll', detail(d.batch[d.batch.length - 1]));
  // a commit started by commit.interval.ms while poll() waited: its transaction (or offset
  // commit) must not take in this batch's writes, so the batch waits for it
  if (d.committing) d.batchWaiting = true;
  else startBatch(d, out);
}

/** The task runs: a batch that came while it was restoring first, otherwise the next poll(). */
export function beginProcessing(d: Draft, now: number, out: Out): void {
  const held = d.heldBatch;
  d.heldBatch = null;
  if (held) takeBatch(d, held, out);
  else poll(d, now, out);
}

/** After a commit: the batch that waited for it starts, or the batch whose commit step it was goes on. */
function afterCommit(d: Draft, out: Out): void {
  if (d.recreate === 'after-commit' && d.heldBatch) {
    recreateTask(d, gainedTask(d, d.heldBatch), out);
    return;
  }
  if (d.batchWaiting) {
    d.batchWaiting = false;
    startBatch(d, out);
  } else if (d.plan.length) advance(d, out);
}

/** While running: the producer's and the main consumer's answers. */
export function onRunningReply(d: Draft, now: number, ev: Ev, out: Out): void {
  const r = replyOf(ev);
  const who = replier(d, ev);
  const last = d.batch[d.batch.length - 1];
  if (who === 'consumer') {
    if (r.call === 'poll') takeBatch(d, r as PollReply, out);
    else if (r.call === 'commitSync') onCommitted(d, now, r.ok, out);
    return;
  }
  if (who !== 'producer') return;
  switch (r.call) {
    case 'beginTransaction':
      if (!r.ok) {
        failTask(d, out, 'beginTransaction', r.error ?? null);
        return;
      }
      out.timer('continue', 'continue', 0);
      return;
    case 'send': {
      if (!r.ok && eos(d)) {
        failTask(d, out, 'send', r.error ?? null);
        return;
      }
      const s = d.plan[d.step];
      out.point('afterProduce', detail(s && 'i' in s ? d.batch[s.i] : undefined));
      advance(d, out);
      return;
    }
    case 'sendOffsetsToTransaction':
      if (!r.ok) {
        failTask(d, out, 'sendOffsetsToTransaction', r.error ?? null);
        return;
      }
      out.point('afterSendOffsets', detail(last));
      out.call(d.producer, 'commitTransaction');
      return;
    case 'commitTransaction':
      if (!r.ok) {
        failTask(d, out, 'commitTransaction', r.error ?? null);
        return;
      }
      d.inTransaction = false;
      onCommitted(d, now, true, out);
      return;
    case 'abortTransaction':
      if (d.recreate !== 'abort') return;
      if (!r.ok) {
        failTask(d, out, 'abortTransaction', r.error ?? null);
        return;
      }
      d.inTransaction = false;
      d.recreate = null;
      out.raise({ type: 'recreate' });
      return;
    case 'flush':
      out.call(d.consumer, 'commitSync', { offsets: nextOffsets(d.commitOffsets) });
      return;
  }
}

function onCommitted(d: Draft, now: number, ok: boolean, out: Out): void {
  d.committing = false;
  if (!ok) {
    // at_least_once: the offsets stay uncommitted and are committed with the next commit
    afterCommit(d, out);
    return;
  }
  d.uncommitted = 0;
  d.lastCommitAt = now;
  d.ownCommitted = { ...d.ownCommitted, ...d.commitOffsets };
  out.cancel('commitDue');
  out.point('afterCommit', detail(d.batch[d.batch.length - 1]));
  afterCommit(d, out);
}

/** commit.interval.ms passed while poll() waited: commit what is open. */
export function onCommitDue(d: Draft, now: number, out: Out): void {
  if (d.recreate !== null) return;
  if (d.plan.length === 0 && d.uncommitted > 0 && now - d.lastCommitAt >= d.commitIntervalMs) startCommit(d, out);
}
