/**
 * The consumer application's loop (application/applicationLoop.ts): after each poll() it lays out a
 * plan of steps for the batch (consumerAppPlan.ts) and runs them one kernel step at a time, passing
 * a named point after each where a crash can be injected; the replies of its KafkaConsumer and
 * KafkaProducer move it on.
 */
import type { Out } from '../actors/out';
import type { ActorId } from '../kernel/envelope';
import type { RecordForApp } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { advance, nextOffsets, type PollAnswer, pointDetail, pollOnce, processedFact, replyOf, sendOffsetsArgs } from './applicationLoop';
import { act, type Draft, stop } from './consumerAppContext';
import { fatalByFencing, isFenced, revokedSinceBegin } from './consumerAppGuards';
import { batchedPlan, COMMIT_STEPS, COMMIT_STEPS_AFTER_EMPTY_POLL, lastProcessedOffsets, planFor } from './consumerAppPlan';
import { queryStoredOffsets, sendDbWrite, sendHttp } from './consumerAppSinks';
import { retryAfterTimeout, timedOutRetriable } from './producerTimeouts';

/** Moves to the next plan step through the queue, so that every step boundary is a crash point. */
const next = advance;

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
    case 'groupMetadata':
      // KafkaConsumer.groupMetadata(), for the sendOffsetsToTransaction that follows
      out.call(d.consumer, 'groupMetadata');
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

/**
 * A poll() answer: consumer.groupMetadata() is now what this poll() left (a rebalance completes inside
 * poll(), records or none); a batched transaction whose partitions were revoked meanwhile aborts;
 * otherwise its batch is planned — or, empty, the application polls again.
 */
function onPollAnswer(d: Draft, r: PollAnswer, now: number, out: Out): void {
  const records = r.records ?? [];
  d.groupMetadata = r.groupMetadata ?? null;
  if (revokedSinceBegin(d, d.groupMetadata)) {
    revoked(d, out);
    return;
  }
  if (records.length === 0) {
    // nothing but markers or aborted data: poll again
    poll(d, out);
    return;
  }
  // the point names the previous batch's last record when there was one (as it always has)
  const previous = d.batch[d.batch.length - 1];
  d.batch = records;
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

/** onPartitionsRevoked ran inside a poll() while the batched transaction was open: the application aborts it. */
function revoked(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `onPartitionsRevoked: generation ${d.txnGeneration} ended while the transaction was open; the application aborts it so that the new owner processes its records from the committed offsets`,
  });
  d.batch = [];
  d.plan = [];
  d.step = 0;
  out.call(d.producer as ActorId, 'abortTransaction');
}

/** Forgets the batch in hand and the transaction it was in (at a start, and after an abort). */
function dropBatch(d: Draft): void {
  d.plan = [];
  d.step = 0;
  d.batch = [];
  d.heldPoll = null;
  d.txnOpen = false;
  d.txnGeneration = null;
}

export const start = act((d, _ev, out) => {
  dropBatch(d);
  d.listenerQuery = null;
  d.pollOutstanding = false;
  // only an exactly-once application has a transactional producer to initialise
  if (d.producer && d.mode === 'exactly-once') out.call(d.producer, 'initTransactions');
  else poll(d, out);
});

export const onPartitionsAssigned = act((d, ev, out) => {
  if (ev.type !== 'onPartitionsAssigned') return;
  d.assigned = ev.args.partitions.map(keyOf);
  if (d.mode !== 'offsets-in-sink' || !d.sink) {
    out.call(d.consumer, 'partitionsAssignedDone', { offsets: {} });
    return;
  }
  queryStoredOffsets(d, out);
});

export const onContinue = act((d, ev, out) => runStep(d, ev.now, out));

function afterAbort(d: Draft, out: Out): void {
  // abortTransaction() does not rewind the consumer: go back to the committed offsets
  dropBatch(d);
  out.cancel('txnCommitDue');
  out.call(d.consumer, 'seekToCommitted');
}

export const onReply = act((d, ev, out) => {
  const r = replyOf(ev);
  if (!r) return;
  // initTransactions(), commitTransaction() or abortTransaction() gave up at max.block.ms: call it again
  if (timedOutRetriable(r)) return retryAfterTimeout(d.self, d.producer as ActorId, r.call, out);
  const last = d.batch[d.batch.length - 1];
  switch (r.call) {
    case 'initTransactions':
      if (!r.ok) return stop(d, out, `initTransactions failed: ${r.error}`);
      poll(d, out);
      return;
    case 'poll': {
      d.pollOutstanding = false;
      if (!r.ok) return stop(d, out, `poll() threw ${r.error}: the application stops`);
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
    case 'flush':
      // a batched transaction is open from here until its commit or abort
      if (r.call === 'beginTransaction' && r.ok && d.commitIntervalMs !== null) {
        d.txnOpen = true;
        d.txnStartedAt = ev.now;
        d.txnGeneration = d.groupMetadata?.generationId ?? null;
        out.timer('txnCommitDue', 'txnCommitDue', d.commitIntervalMs);
      }
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
      // a fenced producer closes the instance (guard fatalReply → stopped); otherwise it aborts (→ aborting)
      if (!r.ok && isFenced(r.error)) stop(d, out, `commitTransaction failed with ${r.error}: this instance is fenced and closes`);
      else if (!r.ok) out.call(d.producer as ActorId, 'abortTransaction');
      else {
        d.txnOpen = false;
        d.txnGeneration = null;
        out.cancel('txnCommitDue');
        out.point('afterCommit', pointDetail(last));
        next(d, out);
      }
      return;
    case 'abortTransaction':
      // a producer made fatal otherwise than by a fence (its transactional.id expired, an invalid transition) was not fenced
      if (!r.ok && !fatalByFencing(r))
        return stop(d, out, `abortTransaction failed with ${r.error}: this instance's producer can only be closed, and it closes`);
      if (!r.ok) return stop(d, out, `abortTransaction failed with ${r.error}: this instance is fenced and closes`);
      afterAbort(d, out);
      return;
    case 'seekToCommitted':
      poll(d, out);
      return;
    case 'groupMetadata':
      if (d.plan[d.step]?.kind !== 'groupMetadata') return;
      d.groupMetadata = r.groupMetadata ?? null;
      // a rebalance inside the poll() that returned nothing: onPartitionsRevoked ran there
      if (revokedSinceBegin(d, d.groupMetadata)) {
        revoked(d, out);
        return;
      }
      // a getter: sendOffsetsToTransaction follows in the same step
      d.step += 1;
      runStep(d, ev.now, out);
      return;
    case 'commitSync':
      if (!r.ok && r.error === 'FencedInstanceIdException')
        return stop(
          d,
          out,
          `commitSync() threw ${r.error}: another instance joined with this group.instance.id, and the application stops`,
        );
      if (!r.ok) out.fact({ kind: 'note', actor: d.self, text: `commitSync failed (${r.error}): the records will be delivered again` });
      else out.point('afterCommit', pointDetail(last));
      next(d, out);
      return;
    case 'seek':
      return;
  }
});

/**
 * A batched transaction's interval passed while the application waits in poll(): that poll() returns
 * with nothing (Kafka's poll(timeout)), and the application commits — with consumer.groupMetadata()
 * as of then, which a rebalance inside that poll() may have changed (and revoked its partitions).
 * A batch that comes meanwhile waits for the commit (heldPoll), as it would for the next poll().
 */
export const onTxnCommitDue = act((d, ev, out) => {
  if (!d.txnOpen || d.plan.length > 0) return;
  d.plan = [...COMMIT_STEPS_AFTER_EMPTY_POLL];
  d.step = 0;
  runStep(d, ev.now, out);
});
