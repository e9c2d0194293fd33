/**
 * Sequence numbers per partition (Kafka's TxnPartitionMap / TxnPartitionEntry) and the idempotent
 * producer's own epoch bump (TransactionManager, KIP-360).
 *
 * Each partition remembers the epoch its sequences belong to. An epoch bump rewrites the sequences
 * of the partitions that caused it only (`partitionsToRewriteSequences`); every other partition keeps
 * its batches' old epoch and sequences — their retries are de-duplicated by the broker as usual — and
 * moves to the new epoch, at sequence 0, only once nothing of it is in flight
 * (`maybeUpdateProducerIdAndEpoch`).
 */
import type { Out } from '../actors/out';
import { NO_PRODUCER_EPOCH } from '../log/recordBatch';
import { keyOf } from '../protocol/topicPartition';
import type { ProducerBatch } from './producerContext';
import type { ProducerDraft } from './sender';

/** Kafka's TxnPartitionEntry.NO_LAST_ACKED_SEQUENCE_NUMBER. */
const NO_LAST_ACKED = -1;

const partitionOf = (b: ProducerBatch): string => keyOf(b);

/** Drained and not yet completed (in flight or waiting to be retried): Kafka's inflightBatchesBySequence. */
export function hasInflightBatches(d: ProducerDraft, tp: string): boolean {
  return d.batches.some((b) => partitionOf(b) === tp);
}

/** The partition's sequences belong to an older epoch than the producer's (hasStaleProducerIdAndEpoch). */
export function hasStaleEpoch(d: ProducerDraft, tp: string): boolean {
  return (d.partitionEpochs[tp] ?? NO_PRODUCER_EPOCH) !== d.producerEpoch;
}

/** TxnPartitionEntry.startSequencesAtBeginning: the partition's drained batches get the current epoch and sequences from 0. */
function startSequencesAtBeginning(d: ProducerDraft, tp: string): ProducerBatch[] {
  let seq = 0;
  const before: ProducerBatch[] = [];
  const rewritten = new Map<number, ProducerBatch>();
  for (const b of d.batches.filter((x) => partitionOf(x) === tp).sort((x, y) => x.baseSequence - y.baseSequence || x.id - y.id)) {
    before.push(b);
    rewritten.set(b.id, { ...b, baseSequence: seq, producerEpoch: d.producerEpoch, sequenceReset: true });
    seq += b.records.length;
  }
  if (rewritten.size > 0) d.batches = d.batches.map((b) => rewritten.get(b.id) ?? b);
  d.partitionEpochs = { ...d.partitionEpochs, [tp]: d.producerEpoch };
  d.nextSequence = { ...d.nextSequence, [tp]: seq };
  const { [tp]: _acked, ...acked } = d.lastAckedSequence;
  d.lastAckedSequence = acked;
  return before;
}

/**
 * maybeUpdateProducerIdAndEpoch, called when a new batch of the partition is drained: a partition
 * still on an older epoch moves to the current one, from sequence 0, once nothing of it is in flight.
 */
export function maybeUpdatePartitionEpoch(d: ProducerDraft, tp: string): void {
  if (hasStaleEpoch(d, tp) && !hasInflightBatches(d, tp)) startSequencesAtBeginning(d, tp);
}

/** requestEpochBumpForPartition: the next Sender loop bumps the epoch and rewrites this partition. */
export function requestEpochBumpForPartition(d: ProducerDraft, tp: string): void {
  d.epochBumpPending = true;
  if (!d.partitionsToRewrite.includes(tp)) d.partitionsToRewrite = [...d.partitionsToRewrite, tp];
}

/**
 * bumpIdempotentProducerEpoch: epoch+1 locally (no request); only the partitions that caused the bump
 * have their batches rewritten from sequence 0. The others keep their epoch until they drain.
 */
export function bumpIdempotentEpoch(d: ProducerDraft, out: Out): void {
  const rewrite = [...d.partitionsToRewrite].sort();
  d.epochBumpPending = false;
  d.partitionsToRewrite = [];
  d.producerEpoch += 1;
  const moved: string[] = [];
  for (const tp of rewrite) {
    const before = startSequencesAtBeginning(d, tp);
    for (const b of before) {
      const now = d.batches.find((x) => x.id === b.id) as ProducerBatch;
      moved.push(`${tp} epoch ${b.producerEpoch} sequence ${b.baseSequence} → epoch ${now.producerEpoch} sequence ${now.baseSequence}`);
    }
    const { [tp]: _unresolved, ...rest } = d.unresolvedSequences;
    d.unresolvedSequences = rest;
  }
  out.fact({ kind: 'producerId', client: d.client, producerId: d.producerId, producerEpoch: d.producerEpoch, transactionalId: null });
  // the batches in flight (sent or waiting to be retried) are rewritten: if one was already appended, its retry is a second copy
  // the broker cannot recognise (another epoch)
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `bumped its own epoch to ${d.producerEpoch} after a batch failed or could not be confirmed; ${rewrite.join(', ')} restart${rewrite.length === 1 ? 's' : ''} at sequence 0${moved.length ? `; batches in flight rewritten: ${moved.join(', ')}` : ''}`,
  });
}

export function lastAckedSequence(d: ProducerDraft, tp: string): number {
  return d.lastAckedSequence[tp] ?? NO_LAST_ACKED;
}

/** TransactionManager.isNextSequence: the sequence right after the last acknowledged one. */
export function isNextSequence(d: ProducerDraft, tp: string, sequence: number): boolean {
  return sequence - lastAckedSequence(d, tp) === 1;
}

/**
 * handleCompletedBatch → TxnPartitionMap.maybeUpdateLastAckedSequence: the last acknowledged sequence
 * only moves forward, compared by sequence alone — no epoch check. So the late success of a batch that
 * expired in flight moves it even after its partition restarted at 0 under a bumped epoch (Kafka's
 * behaviour, kept). Only a partition with no entry (none since the last new producer id or epoch
 * from the coordinator: `TxnPartitionMap.reset`) is left alone.
 */
export function recordAcked(d: ProducerDraft, b: ProducerBatch): void {
  const tp = partitionOf(b);
  if (b.baseSequence < 0 || d.partitionEpochs[tp] === undefined) return;
  const last = b.baseSequence + b.records.length - 1;
  if (last > lastAckedSequence(d, tp)) d.lastAckedSequence = { ...d.lastAckedSequence, [tp]: last };
}

/** markSequenceUnresolved: an expired batch that had been sent may or may not be in the log. */
export function markSequenceUnresolved(d: ProducerDraft, b: ProducerBatch): void {
  const tp = partitionOf(b);
  const next = b.baseSequence + b.records.length;
  d.unresolvedSequences = { ...d.unresolvedSequences, [tp]: Math.max(d.unresolvedSequences[tp] ?? next, next) };
}

/**
 * maybeResolveSequences (run first in every Sender loop): once an unresolved partition has nothing in
 * flight, it is resolved if the last acknowledged sequence is right before the next one to send;
 * otherwise an idempotent producer bumps its epoch for that partition, and a transactional one (already
 * in an abortable error, which the expiry caused) needs the epoch bumped when it aborts (protocol v1;
 * v2's EndTxn bumps it anyway).
 */
export function maybeResolveSequences(d: ProducerDraft): void {
  for (const tp of Object.keys(d.unresolvedSequences).sort()) {
    if (hasInflightBatches(d, tp)) continue;
    if (!isNextSequence(d, tp, d.nextSequence[tp] ?? 0)) {
      if (!d.transactional) requestEpochBumpForPartition(d, tp);
      // transitionToAbortableErrorOrFatalError: protocol v1 bumps the epoch when the transaction is aborted
      else if (d.transactionVersion === 1) d.clientEpochBumpRequired = true;
    }
    const { [tp]: _done, ...rest } = d.unresolvedSequences;
    d.unresolvedSequences = rest;
  }
}

export function isNextSequenceForUnresolved(d: ProducerDraft, tp: string, sequence: number): boolean {
  return d.unresolvedSequences[tp] === sequence;
}

/**
 * TxnPartitionEntry.adjustSequencesDueToFailedBatch (transactional producers): a batch the broker
 * definitely refused gives its sequences back; later batches of the partition move down.
 */
export function adjustSequencesDueToFailedBatch(d: ProducerDraft, failed: ProducerBatch): void {
  const tp = partitionOf(failed);
  if (failed.baseSequence < 0 || failed.producerEpoch !== d.partitionEpochs[tp]) return;
  const n = failed.records.length;
  d.nextSequence = { ...d.nextSequence, [tp]: Math.max(0, (d.nextSequence[tp] ?? 0) - n) };
  d.batches = d.batches.map((b) =>
    partitionOf(b) === tp && b.baseSequence >= failed.baseSequence ? { ...b, baseSequence: b.baseSequence - n, sequenceReset: true } : b,
  );
}

/** A new producer id or epoch from the coordinator: every partition starts again at sequence 0. */
export function resetSequences(d: ProducerDraft): void {
  d.nextSequence = {};
  d.lastAckedSequence = {};
  d.partitionEpochs = {};
  d.partitionsToRewrite = [];
  d.unresolvedSequences = {};
  d.epochBumpPending = false;
}
