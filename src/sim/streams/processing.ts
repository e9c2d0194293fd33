/**
 * The running task's loop: poll the main consumer, run each record through the topology (groupBy
 * through the repartition topic, count, changelog, output), and commit every commit.interval.ms —
 * under exactly_once_v2 inside one transaction with the input offsets (sendOffsetsToTransaction),
 * under at_least_once by flush() and commitSync(). Which of these the thread is doing is the state of
 * streamThread.machine.ts (running.polling, .processing, .committing …); these are its actions.
 */
import type { Out } from '../actors/out';
import { advance, nextOffsets, pointDetail, pollOnce, processedFact, sendOffsetsArgs } from '../application/applicationLoop';
import type { RecordForApp } from '../protocol/messages';
import { countSkipReason, selectedKey } from './aggregate';
import { answerPendingRevocation } from './revocation';
import { setAsidePaused } from './stateUpdater';
import { type Draft, eos, type PollReply, type Reply, type Step, type StreamThreadContext } from './streamThreadContext';
import { clearTaskTimeout } from './taskTimeout';

const where = (r: RecordForApp) => `topic=[${r.topic}] partition=[${r.partition}] offset=[${r.offset}]`;

export function poll(d: Draft, now: number, out: Out): void {
  if (d.pollOutstanding) return;
  pollOnce(d, out);
  // uncommitted work is committed when commit.interval.ms passes, even if no new records arrive
  // (the first millisecond commitIsDue holds)
  if (d.uncommitted > 0) out.timer('commitDue', 'commitDue', Math.max(0, d.lastCommitAt + d.commitIntervalMs + 1 - now));
}

/**
 * More than commit.interval.ms has passed since the last commit (StreamThread.maybeCommit: `now -
 * lastCommitMs > commitTimeMs`), there is work to commit, and no rebalance is under way
 * (TaskManager.commitTasksAndMaybeUpdateCommittableOffsets returns -1 while `rebalanceInProgress`:
 * maybeCommit logs "Unable to commit as we are in the middle of a rebalance, will try again when it
 * completes" and leaves `lastCommitMs` as it was — the commit step of the first batch after the
 * assignment commits).
 */
export function commitIsDue(d: StreamThreadContext, now: number): boolean {
  return now - d.lastCommitAt > d.commitIntervalMs && d.uncommitted > 0 && !d.rebalanceInProgress;
}

/**
 * StreamThread.maybeCommit runs on every loop of the thread (every poll.ms, 100 ms, while idle) and,
 * once more than commit.interval.ms has passed, commits and sets `lastCommitMs = now` — even when
 * there is nothing to commit: commits fall on that clock's grid, not one interval after the first
 * record. The model does not step through idle loops; the tick is worked out when work begins: the
 * last commit plus whole periods of commit.interval.ms + 1 (the first loop past the interval).
 */
export function lastCommitTick(d: Pick<StreamThreadContext, 'lastCommitAt' | 'commitIntervalMs'>, now: number): number {
  const period = d.commitIntervalMs + 1;
  return d.lastCommitAt + Math.max(0, Math.floor((now - d.lastCommitAt) / period)) * period;
}

/** A record's work is now uncommitted; the first of a commit's brings the commit clock up to its last idle tick. */
function addWork(d: Draft, now: number): void {
  if (d.uncommitted === 0) d.lastCommitAt = lastCommitTick(d, now);
  d.uncommitted += 1;
}

/**
 * Starts committing, under either guarantee with flush(): TaskExecutor.commitTasksAndMaybeUpdateCommittableOffsets
 * (and TaskManager.handleRevocation) calls each task's prepareCommit first — StreamTask.flush →
 * RecordCollectorImpl.flush → StreamsProducer.flush → producer.flush(), which waits until every
 * record sent is acknowledged, then throws a send failure it kept — and only then
 * commitOffsetsOrTransaction: under exactly_once_v2 StreamsProducer.commitTransaction
 * (sendOffsetsToTransaction, then commitTransaction), under at_least_once commitSync.
 */
export function startCommit(d: Draft, out: Out): void {
  d.commitOffsets = d.positions;
  out.point('beforeCommit', pointDetail(d.batch[d.batch.length - 1]));
  out.call(d.producer, 'flush');
}

/**
 * The commit goes on: after flush, under exactly_once_v2 sendOffsetsToTransaction (the input offsets
 * into the transaction, with the consumer's group metadata), under at_least_once commitSync; after
 * sendOffsetsToTransaction, commitTransaction.
 */
export function continueCommit(d: Draft, r: Reply, out: Out): void {
  if (r.call === 'sendOffsetsToTransaction') {
    out.point('afterSendOffsets', pointDetail(d.batch[d.batch.length - 1]));
    out.call(d.producer, 'commitTransaction');
  } else if (eos(d)) out.call(d.producer, 'sendOffsetsToTransaction', sendOffsetsArgs(d.groupMetadata, d.commitOffsets));
  else out.call(d.consumer, 'commitSync', { offsets: nextOffsets(d.commitOffsets) });
}

/** The commit is done (commitTransaction, or commitSync — which may have failed: then the offsets stay uncommitted). */
export function committed(d: Draft, now: number, ok: boolean, out: Out): void {
  // the main consumer may wait in onPartitionsRevoked for this commit; a failed one ends its wait too
  answerPendingRevocation(d, out);
  if (!ok) return;
  clearTaskTimeout(d);
  d.uncommitted = 0;
  d.lastCommitAt = now;
  out.cancel('commitDue');
  out.point('afterCommit', pointDetail(d.batch[d.batch.length - 1]));
}

/** Runs the next step of the batch's plan; past its end, polls. The commit step that is due is the guard's (→ committing). */
export function runStep(d: Draft, now: number, out: Out): void {
  const s = d.plan[d.step];
  if (!s) {
    d.plan = [];
    d.step = 0;
    poll(d, now, out);
    return;
  }
  const r = s.kind === 'commit' ? undefined : d.batch[s.i];
  if (s.kind === 'commit' || !r) {
    advance(d, out);
    return;
  }
  switch (s.kind) {
    case 'repartition':
      // a re-keyed record is work to commit too: until the transaction (or, at_least_once, the
      // offset commit) covers it, the counting side cannot read it with read_committed
      addWork(d, now);
      out.fact(processedFact(d.client, r));
      out.call(d.producer, 'send', {
        topic: d.repartitionTopic,
        key: selectedKey(r, d.groupBy ?? 'key'),
        value: r.value,
        headers: r.headers,
        ...callbackFor(d),
      });
      return;
    case 'filter':
      addWork(d, now);
      out.fact(processedFact(d.client, r));
      out.fact({
        kind: 'note',
        actor: d.self,
        text: `groupBy selected a null key for ${where(r)}: the repartition topic's filter drops the record, so it is never counted`,
      });
      advance(d, out);
      return;
    case 'drop':
      addWork(d, now);
      d.droppedRecords += 1;
      if (!d.repartitionTopic || r.topic === d.repartitionTopic) out.fact(processedFact(d.client, r));
      out.fact({
        kind: 'note',
        actor: d.self,
        text: `skipping record due to null key or value: ${where(r)} — count() drops it (dropped-records metric +1)`,
      });
      out.point('afterProcess', pointDetail(r));
      advance(d, out);
      return;
    case 'count': {
      // the task's own store: the same key on another partition is another task's count
      const key = r.key as string;
      const store = d.stores[r.partition] ?? {};
      const count = (store[key] ?? 0) + 1;
      d.stores = { ...d.stores, [r.partition]: { ...store, [key]: count } };
      d.counts = { ...d.counts, [s.i]: count };
      addWork(d, now);
      if (!d.repartitionTopic || r.topic === d.repartitionTopic) out.fact(processedFact(d.client, r));
      out.point('afterProcess', pointDetail(r));
      advance(d, out);
      return;
    }
    case 'changelog':
      // ProcessorContextImpl.logChange sends to the store's registered changelog partition, the
      // task's partition (the record's own), not to the key's hash
      out.call(d.producer, 'send', {
        topic: d.changelogTopic,
        partition: r.partition,
        key: r.key,
        value: String(d.counts[s.i] ?? d.stores[r.partition]?.[r.key as string] ?? 0),
        headers: {},
        ...callbackFor(d),
      });
      return;
    case 'output':
      // to(): the task's count, to the default partitioner's partition (by the key)
      out.call(d.producer, 'send', {
        topic: d.outputTopic,
        key: r.key,
        value: String(d.counts[s.i] ?? d.stores[r.partition]?.[r.key as string] ?? 0),
        headers: r.headers,
        ...callbackFor(d),
      });
      return;
  }
}

/** at_least_once: RecordCollectorImpl's send() passes a Callback that keeps a failure (sendErrors.ts). */
function callbackFor(d: Draft): { callback?: true } {
  return eos(d) ? {} : { callback: true };
}

/** A step's send() was answered: the next step. */
export function sent(d: Draft, out: Out): void {
  const s = d.plan[d.step];
  out.point('afterProduce', pointDetail(s && s.kind !== 'commit' ? d.batch[s.i] : undefined));
  advance(d, out);
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

/**
 * Runs a polled batch: under exactly_once_v2 a transaction is begun first, unless one is open (a
 * batch held over a new task's restore goes into the transaction the running tasks kept open).
 */
export function beginBatch(d: Draft, out: Out): void {
  if (eos(d) && d.uncommitted === 0) out.call(d.producer, 'beginTransaction');
  else out.timer('continue', 'continue', 0);
}

/** Runs a polled batch inside the transaction already open, or the first step once beginTransaction returned. */
export function runBatch(_d: Draft, out: Out): void {
  out.timer('continue', 'continue', 0);
}

/** A poll() answer that comes while the assignment has tasks not created yet: kept for after their restore. */
export function holdForNewTask(d: Draft, reply: PollReply): void {
  d.pollOutstanding = false;
  d.heldBatch = reply;
}

/** A poll() answer: the batch to process next (it starts by the transition's next action). */
export function takeBatch(d: Draft, answer: PollReply, out: Out): void {
  d.pollOutstanding = false;
  startBatch(d, answer, out);
}

/** The batch's plan; what poll() returned of the state updater's tasks' partitions (paused in Kafka) waits (stateUpdater.ts). */
function startBatch(d: Draft, answer: PollReply, out: Out): void {
  const reply = setAsidePaused(d, answer);
  d.batch = reply.records ?? [];
  d.positions = reply.positions ?? {};
  d.groupMetadata = reply.groupMetadata ?? null;
  d.counts = {};
  d.plan = planFor(d, d.batch);
  d.step = 0;
  out.point('afterPoll', pointDetail(d.batch[d.batch.length - 1]));
}

/**
 * The batch held back runs: the one that came while the tasks were restoring, or a restored task's
 * first records (a poll() may still be out: its answer was not this batch).
 */
export function takeHeldBatch(d: Draft, out: Out): void {
  const held = d.heldBatch ?? {};
  d.heldBatch = null;
  startBatch(d, held, out);
}
