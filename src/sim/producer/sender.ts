/**
 * The producer's RecordAccumulator and Sender: records wait per partition for linger.ms, are drained
 * into batches (sequence numbers are assigned at the first drain and kept across retries), sent as
 * Produce requests — one per broker, carrying at most one batch per partition it leads
 * (Sender.sendProduceRequests) — within max.in.flight.requests.per.connection requests per broker,
 * and retried with backoff until delivery.timeout.ms. A request timeout or a dropped connection fails
 * every request in flight to that broker, and with each every batch it carried (the kernel's network
 * closes the connection and reports each request as a disconnect, oldest first); they are retried
 * with the same sequences.
 */

import type { Mutable } from '../actors/draft';
import type { Out } from '../actors/out';
import { applyCurrentLeader, isInvalidMetadataError, leaderCanMove, leaderEpochOf, requestUpdate } from '../cluster/clientMetadata';
import { isUnavailable } from '../cluster/connectionStates';
import { leaderOf } from '../cluster/metadata';
import type { ActorId } from '../kernel/envelope';
import { estimateRecordBytes } from '../log/partitionLog';
import { type Headers, NO_HEADERS, NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE, sharedHeaders } from '../log/recordBatch';
import type { ClientException, KafkaError } from '../protocol/errors';
import type { ProducePartitionResponse, ProduceResponse } from '../protocol/messages';
import { keyOf, parseTopicPartition, topicPartitionKey } from '../protocol/topicPartition';
import { FORCE_CLOSE_MESSAGE } from './forceClose';
import { partitionForKey, stickyPartitionFor } from './partitioner';
import {
  backoffMs,
  NO_RECORD_COUNTS,
  type PendingRecord,
  type ProducerBatch,
  type ProducerContext,
  type RecordCounts,
} from './producerContext';
import {
  EMPTY_QUEUE,
  queueAll,
  queueAppend,
  queueCloseLastBatch,
  queueFirst,
  queueHeadBytes,
  queueSize,
  queueTake,
} from './recordAccumulator';
import {
  adjustSequencesDueToFailedBatch,
  bumpIdempotentEpoch,
  hasInflightBatches,
  hasStaleEpoch,
  isNextSequence,
  isNextSequenceForUnresolved,
  markSequenceUnresolved,
  maybeResolveSequences,
  maybeUpdatePartitionEpoch,
  recordAcked,
  requestEpochBumpForPartition,
} from './sequences';
import { touchTopic } from './waitOnMetadata';

export type ProducerDraft = Mutable<ProducerContext>;

export interface SendArgs {
  readonly topic: string;
  readonly key: string | null;
  readonly value: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly partition?: number;
  /** The caller asks to be told of a failed send (its Callback): Kafka Streams' RecordCollector. */
  readonly callback?: boolean;
  /** Set by send() from the call: the actor the failure is reported to (a `sendFailed` call). */
  readonly callbackTo?: ActorId;
  /** Set by the producer when its waitOnMetadata gave up after this many ms (waitOnMetadata.ts). */
  readonly metadataTimeoutMs?: number;
  /**
   * With metadataTimeoutMs: the partition count waitOnMetadata knew when it gave up after an update
   * (its "Partition <p> of topic <t> with partition count <n> …" message); absent: "Topic <t> not present …".
   */
  readonly metadataPartitionsCount?: number;
  /** Set by the producer when send() went on after waitOnMetadata held it this long. */
  readonly metadataWaitMs?: number;
  /** Set by the producer when send() went on after BufferPool.allocate held it this long (bufferPool.ts). */
  readonly bufferWaitMs?: number;
  /** With bufferWaitMs: it gave up there, with this BufferExhaustedException message. */
  readonly bufferExhausted?: string;
}

/**
 * Kafka's partition choice: explicit partition, else murmur2 of the key (over all partitions), else
 * the built-in partitioner's sticky partition (`stickyPartitionFor`), which reads the accumulator's
 * queues: `closed` is the partition whose last batch the record closed before it switched away.
 */
export function choosePartition(
  ctx: ProducerContext,
  args: SendArgs,
  bytes: number,
): { partition: number; sticky: ProducerContext['sticky']; closed: number | null } {
  if (args.partition !== undefined) return { partition: args.partition, sticky: ctx.sticky, closed: null };
  const count = ctx.meta.topics[args.topic]?.partitions ?? 1;
  if (args.key !== null) return { partition: partitionForKey(args.key, count), sticky: ctx.sticky, closed: null };
  const { partition, sticky, closed } = stickyPartitionFor(
    ctx.meta,
    args.topic,
    ctx.sticky[args.topic],
    bytes,
    ctx.config['batch.size'],
    (p) => ctx.accumulating[topicPartitionKey(args.topic, p)],
  );
  return { partition, sticky: { ...ctx.sticky, [args.topic]: sticky }, closed };
}

/** RecordMetadata.UNKNOWN_PARTITION: a refused record of no key and no partition was never given one. */
export const UNKNOWN_PARTITION = -1;

/**
 * KafkaProducer.doSend → ensureValidRecordSize: a record larger than max.request.size never reaches
 * the accumulator. send() does not throw: its callback completes at once with RecordTooLargeException
 * (the sendResult fact, offset null), and a transactional producer's transaction becomes abortable
 * (TransactionManager.maybeTransitionToErrorState; the caller returns 'abortable'). The partition is
 * what doSend knows before the accumulator: the explicit one, the key's, else UNKNOWN_PARTITION.
 * The model sizes a record without the batch header Kafka's upper bound adds. Returns the refused
 * record, or null when it may go on to the accumulator.
 */
export function refuseBeforeAppend(d: ProducerDraft, args: SendArgs, now: number, out: Out): PendingRecord | null {
  // waitOnMetadata's ProducerMetadata.add comes first: the topic is kept for metadata.max.idle.ms
  touchTopic(d, args.topic, now);
  const { headers, bytes } = sizeOf(args);
  if (args.metadataTimeoutMs !== undefined) return refuseMetadataTimeout(d, args, headers, bytes, now, out);
  if (args.bufferExhausted !== undefined) return refuseBufferExhausted(d, args, args.bufferExhausted, headers, bytes, now, out);
  const max = d.config['max.request.size'];
  const memory = d.config['buffer.memory'];
  if (bytes <= max && bytes <= memory) return null;
  const count = d.meta.topics[args.topic]?.partitions ?? 1;
  const partition = args.partition ?? (args.key !== null ? partitionForKey(args.key, count) : UNKNOWN_PARTITION);
  const rec = newRecord(d, args, partition, headers, bytes, now);
  // Kafka's messages: "The message is <bytes> bytes when serialized which is larger than <max>, which is
  // the value of the max.request.size configuration." — checked first — and "… which is larger than the
  // total memory buffer you have configured with the buffer.memory configuration."
  if (bytes > max) clientError(d, out, 'RecordTooLargeException', `send() (${bytes} bytes > max.request.size ${max})`);
  else clientError(d, out, 'RecordTooLargeException', `send() (${bytes} bytes > buffer.memory ${memory})`);
  recordResult(d, out, [rec], null, 'RecordTooLargeException', true);
  // doSend's catch: errors.record() (record-error-total)
  countRecords(d, 'failed', 1);
  // doSend's catch: transactionManager.maybeTransitionToErrorState(e)
  transitionToAbortable(d, 'RecordTooLargeException');
  return rec;
}

/**
 * doSend's waitOnMetadata gave up: TimeoutException("Topic <t> not present in metadata after <ms> ms.")
 * — or, when an update came at max.block.ms with the explicit partition still beyond the count it
 * knew, "Partition <p> of topic <t> with partition count <n> is not present in metadata after <ms> ms."
 * — an ApiException, so send() returns its failed future as for a record too large (its callback, then
 * maybeTransitionToErrorState). No partition was chosen yet: the explicit one, else UNKNOWN_PARTITION.
 */
function refuseMetadataTimeout(d: ProducerDraft, args: SendArgs, headers: Headers, bytes: number, now: number, out: Out): PendingRecord {
  const rec = newRecord(d, args, args.partition ?? UNKNOWN_PARTITION, headers, bytes, now);
  const message =
    args.metadataPartitionsCount !== undefined
      ? `Partition ${args.partition} of topic ${args.topic} with partition count ${args.metadataPartitionsCount} is not present in metadata after ${args.metadataTimeoutMs} ms.`
      : `Topic ${args.topic} not present in metadata after ${args.metadataTimeoutMs} ms.`;
  clientError(d, out, 'TimeoutException', `send: ${message}`);
  recordResult(d, out, [rec], null, 'TimeoutException', true);
  countRecords(d, 'failed', 1);
  transitionToAbortable(d, 'TimeoutException');
  return rec;
}

/**
 * BufferPool.allocate gave up after what was left of max.block.ms (bufferPool.ts):
 * BufferExhaustedException, a TimeoutException and so an ApiException — send() returns its failed
 * future as for a record too large (its callback, then maybeTransitionToErrorState). The record
 * names the partition append chose before it allocated (setPartition).
 */
function refuseBufferExhausted(
  d: ProducerDraft,
  args: SendArgs,
  message: string,
  headers: Headers,
  bytes: number,
  now: number,
  out: Out,
): PendingRecord {
  const { partition } = choosePartition(d, args, bytes);
  const rec = newRecord(d, args, partition, headers, bytes, now);
  clientError(d, out, 'BufferExhaustedException', `send: ${message}`);
  recordResult(d, out, [rec], null, 'BufferExhaustedException', true);
  // doSend's catch (an ApiException): errors.record() (record-error-total)
  countRecords(d, 'failed', 1);
  transitionToAbortable(d, 'BufferExhaustedException');
  return rec;
}

/**
 * BufferPool.allocate's hard limit: the new batch is larger than buffer.memory (batch.size above it).
 * IllegalArgumentException is no ApiException: doSend's last catch tells the interceptors and rethrows
 * it — send() throws, no callback runs, the transaction is not touched. The record's result is written
 * (never sent) so that readers can follow it; its callback, if any, is not called.
 */
export function refuseHardLimit(d: ProducerDraft, args: SendArgs, message: string, now: number, out: Out): PendingRecord {
  touchTopic(d, args.topic, now);
  const { headers, bytes } = sizeOf(args);
  const { partition } = choosePartition(d, args, bytes);
  const rec = newRecord(d, args, partition, headers, bytes, now);
  clientError(d, out, 'IllegalArgumentException', `send: ${message}`);
  out.fact({
    kind: 'sendResult',
    client: d.client,
    ref: rec.ref,
    topic: rec.topic,
    partition: rec.partition,
    offset: null,
    error: 'IllegalArgumentException',
    eventId: rec.headers.event_id ?? null,
    beforeAppend: true,
  });
  return rec;
}

/** A record as send() hands it over: its headers (shared) and its size as batch.size counts it. */
export function sizeOf(args: SendArgs): { headers: Headers; bytes: number } {
  const headers = sharedHeaders(args.headers ?? NO_HEADERS);
  return { headers, bytes: estimateRecordBytes({ key: args.key, value: args.value, headers }) };
}

/** The application's record with the next ref (its handle for the send result). */
function newRecord(d: ProducerDraft, args: SendArgs, partition: number, headers: Headers, bytes: number, now: number): PendingRecord {
  const rec: PendingRecord = {
    ref: d.nextRef,
    topic: args.topic,
    partition,
    key: args.key,
    value: args.value,
    headers,
    timestamp: now,
    bytes,
    ...(args.callbackTo !== undefined ? { callback: args.callbackTo } : {}),
  };
  d.nextRef += 1;
  return rec;
}

/** Appends a record to its partition's accumulator and arms linger.ms. Returns the record's ref. */
export function accumulate(d: ProducerDraft, args: SendArgs, now: number, out: Out): PendingRecord {
  const { headers, bytes } = sizeOf(args);
  const { partition, sticky, closed } = choosePartition(d, args, bytes);
  const rec = newRecord(d, args, partition, headers, bytes, now);
  const tp = topicPartitionKey(args.topic, partition);
  d.sticky = sticky;
  if (closed !== null) {
    const left = topicPartitionKey(args.topic, closed);
    d.accumulating = { ...d.accumulating, [left]: queueCloseLastBatch(d.accumulating[left] ?? EMPTY_QUEUE) };
  }
  const queued = d.accumulating[tp];
  d.accumulating = { ...d.accumulating, [tp]: queueAppend(queued, rec, d.config['batch.size']) };
  if (queueSize(queued) === 0) {
    if (d.config['linger.ms'] > 0) out.timer(`linger:${tp}`, 'lingerExpired', d.config['linger.ms']);
    armQueueExpiry(d, tp, now, out);
  }
  return rec;
}

/**
 * delivery.timeout.ms counts for a record from the creation of its batch — in Kafka, its first
 * record's append — whether or not the batch was ever drained: RecordAccumulator.expiredBatches
 * fails a waiting batch once it passes (its leader unknown or offline, its transaction not yet
 * sendable), and the Sender wakes for the earliest (`nextBatchExpiryTimeMs`). Armed for a
 * partition's first waiting record whenever it changes; cancelled when nothing waits.
 */
function armQueueExpiry(d: ProducerDraft, tp: string, now: number, out: Out): void {
  const head = queueFirst(d.accumulating[tp]);
  if (!head) {
    out.cancel(`expire:${tp}`);
    return;
  }
  out.timer(`expire:${tp}`, 'accumulatorExpiry', Math.max(0, head.timestamp + d.config['delivery.timeout.ms'] - now), { tp });
}

/**
 * A partition's waiting records reached delivery.timeout.ms (Sender.sendProducerData, after its
 * drain: "Expiring N record(s) for tp:X ms has passed since batch creation"): each would-be batch
 * of them (up to batch.size, as the drain would close it) fails with TimeoutException — never sent,
 * so no sequence to adjust — and a transaction becomes abortable (maybeTransitionToErrorState).
 */
export function expireQueued(d: ProducerDraft, tp: string, now: number, out: Out): BatchErrorOutcome {
  let outcome: BatchErrorOutcome = 'ok';
  const timeout = d.config['delivery.timeout.ms'];
  for (let head = queueFirst(d.accumulating[tp]); head && now - head.timestamp >= timeout; head = queueFirst(d.accumulating[tp])) {
    const { taken, rest } = queueTake(d.accumulating[tp] ?? EMPTY_QUEUE, d.config['batch.size']);
    d.accumulating = { ...d.accumulating, [tp]: rest };
    clientError(
      d,
      out,
      'TimeoutException',
      `Expiring ${taken.length} record(s) for ${tp}:${now - head.timestamp} ms has passed since batch creation`,
    );
    recordResult(d, out, taken, null, 'TimeoutException');
    // Sender.sendProducerData → failBatch → recordErrors
    countRecords(d, 'failed', taken.length);
    if (d.transactional) outcome = 'abortable';
    transitionToAbortable(d, 'TimeoutException');
  }
  armQueueExpiry(d, tp, now, out);
  return outcome;
}

function recordResult(
  d: ProducerDraft,
  out: Out,
  recs: readonly PendingRecord[],
  offset: number | null,
  error: KafkaError | ClientException | null,
  /** send() refused the records before they reached the accumulator (the fact says so). */
  beforeAppend = false,
  /** Kafka's exception message, where the fact carries it (a forced close's KafkaException). */
  message?: string,
): void {
  recs.forEach((r, i) => {
    out.fact({
      kind: 'sendResult',
      client: d.client,
      ref: r.ref,
      topic: r.topic,
      partition: r.partition,
      offset: offset === null ? null : offset + i,
      error,
      eventId: r.headers.event_id ?? null,
      ...(beforeAppend ? { beforeAppend: true as const } : {}),
      ...(message !== undefined ? { message } : {}),
    });
    // the record's Callback, where its caller asked for one: only failures are reported
    if (error !== null && r.callback !== undefined) out.call(r.callback, 'sendFailed', { error, topic: r.topic, partition: r.partition });
  });
}

export function clientError(d: ProducerDraft, out: Out, error: KafkaError | ClientException, during: string, fatal = false): void {
  d.lastError = error;
  out.fact({ kind: 'clientError', client: d.client, error, during, fatal });
}

/**
 * Counts `n` records in one of Kafka's producer-metrics sensors (Sender.SenderMetrics): `sent` where
 * updateProduceRequestMetrics records a drained request's records (record-send-total), `retried` where
 * reenqueueBatch calls recordRetries (record-retry-total), `failed` where failBatch calls recordErrors
 * and where KafkaProducer.doSend's catch records `errors` (record-error-total).
 */
export function countRecords(d: ProducerDraft, as: keyof RecordCounts, n: number): void {
  if (n === 0) return;
  const c = d.recordCounts ?? NO_RECORD_COUNTS;
  d.recordCounts = { ...c, [as]: c[as] + n };
}

/** May data be sent to this partition right now (transaction and producer id permitting)? */
function partitionSendable(d: ProducerDraft, tp: string): boolean {
  if (d.idempotent && d.producerId === NO_PRODUCER_ID) return false;
  if (d.transactional && !d.txnPartitions.includes(tp)) return false;
  return true;
}

/**
 * RecordAccumulator.shouldStopDrainBatchesForPartition, for a new batch (one without a sequence): not
 * while the partition still has batches in flight from an older epoch (the new epoch must start at
 * sequence 0 after them), nor while an expired batch's sequence is unresolved.
 */
function newBatchesBlocked(d: ProducerDraft, tp: string): boolean {
  if (!d.idempotent) return false;
  return (hasInflightBatches(d, tp) && hasStaleEpoch(d, tp)) || d.unresolvedSequences[tp] !== undefined;
}

/**
 * The Produce requests outstanding to a broker (InFlightRequests.count): the requests, not the
 * batches they carry — an expired batch's request among them until it is answered.
 */
export function inFlightTo(d: ProducerContext, broker: string): number {
  const ids = new Set<number>();
  for (const b of d.batches) if (b.inFlight && b.broker === broker) ids.add(b.correlationId as number);
  for (const b of d.expiredInFlight) if (b.broker === broker) ids.add(b.correlationId as number);
  return ids.size;
}

/**
 * max.in.flight.requests.per.connection=1 (guaranteeMessageOrder): Sender.sendProducerData mutes a
 * partition when it drains a batch of it, and only Sender.completeBatch — the batch's answer, or its
 * connection's close — unmutes it, whichever broker the batch went to (RecordAccumulator.isMuted). A
 * batch that expires in flight leaves it muted: expiry fails the batch but not its request.
 */
function isMuted(d: ProducerDraft, tp: string): boolean {
  for (const b of d.batches) if (b.inFlight && keyOf(b) === tp) return true;
  for (const b of d.expiredInFlight) if (keyOf(b) === tp) return true;
  return false;
}

/**
 * Sender.sendProduceRequest: one Produce to `broker` with every batch drained for it (one per
 * partition), with the producer's acks, transactional.id and request.timeout.ms. The batches are in
 * flight under the request's correlation id; acks=0 completes them all at once.
 */
function sendProduceRequest(d: ProducerDraft, broker: string, batches: readonly ProducerBatch[], out: Out): void {
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  out.send(
    broker,
    'Produce',
    {
      correlationId,
      acks: d.config.acks,
      transactionalId: d.config['transactional.id'],
      // Sender.sendProduceRequest puts request.timeout.ms in the request's timeoutMs, how long the
      // leader's acks=all wait may last; written only where a leader waits for replicas (a
      // one-replica trace stays as it was)
      ...(batches.some((b) => leaderCanMove(d.meta, b.topic)) ? { timeoutMs: d.config['request.timeout.ms'] } : {}),
      partitions: batches.map((b) => ({
        topic: b.topic,
        partition: b.partition,
        batch: {
          producerId: b.producerId,
          producerEpoch: b.producerEpoch,
          baseSequence: b.baseSequence,
          isTransactional: d.transactional,
          records: b.records.map((r) => ({
            key: r.key,
            value: r.value,
            headers: r.headers,
            timestamp: r.timestamp,
            origin: { client: d.client, ref: r.ref },
          })),
        },
      })),
    },
    // the network closes the connection if no answer comes within request.timeout.ms; acks=0 gets none
    { timeoutMs: d.config['request.timeout.ms'], expectResponse: d.config.acks !== 0 },
  );
  // Sender.sendProducerData → updateProduceRequestMetrics: every record drained, first send or retry
  countRecords(
    d,
    'sent',
    batches.reduce((n, b) => n + b.records.length, 0),
  );
  const sent = new Map(batches.map((b) => [b.id, { ...b, inFlight: true, correlationId, attempts: b.attempts + 1 }]));
  d.batches = d.batches.map((b) => sent.get(b.id) ?? b);
  if (d.config.acks === 0) for (const b of batches) completeAcksZero(d, b.id, out);
}

/** Takes up to batch.size bytes of the accumulator head into a new batch for `broker`, the partition's leader, assigning sequences. */
function newBatch(d: ProducerDraft, tp: string, broker: string, now: number): ProducerBatch | null {
  const queued = d.accumulating[tp];
  if (!queued || queueSize(queued) === 0) return null;
  const { taken: records, rest } = queueTake(queued, d.config['batch.size']);
  const n = records.length;
  const first = records[0] as PendingRecord;
  // a partition still on an older epoch moves to the current one, from sequence 0, now that nothing of it is in flight
  if (d.idempotent) maybeUpdatePartitionEpoch(d, tp);
  const baseSequence = d.idempotent ? (d.nextSequence[tp] ?? 0) : NO_SEQUENCE;
  if (d.idempotent) d.nextSequence = { ...d.nextSequence, [tp]: (baseSequence + n) % 2147483648 };
  d.accumulating = { ...d.accumulating, [tp]: rest };
  const batch: ProducerBatch = {
    id: d.nextBatchId,
    topic: first.topic,
    partition: first.partition,
    broker,
    leaderEpoch: leaderEpochOf(d.meta, first.topic, first.partition),
    records,
    createdAt: first.timestamp,
    baseSequence,
    sequenceReset: false,
    producerId: d.idempotent ? d.producerId : NO_PRODUCER_ID,
    producerEpoch: d.idempotent ? d.producerEpoch : NO_PRODUCER_EPOCH,
    attempts: 0,
    inFlight: false,
    retryAt: now,
    correlationId: null,
  };
  d.nextBatchId += 1;
  return batch;
}

/** delivery.timeout.ms counts from the batch's creation, whether it is waiting, in flight or backing off. */
function armDeliveryTimeout(d: ProducerDraft, b: ProducerBatch, now: number, out: Out): void {
  out.timer(`delivery:${b.id}`, 'deliveryTimeout', Math.max(0, b.createdAt + d.config['delivery.timeout.ms'] - now), { batchId: b.id });
}

/**
 * The batch's delivery.timeout.ms passed: it fails even if its request is still outstanding
 * (Sender.getExpiredInflightBatches). That request stays in flight, though — NetworkClient knows
 * nothing of the expiry — until its answer or its connection's close (`expiredInFlight`).
 */
export function onDeliveryTimeout(d: ProducerDraft, batchId: number, now: number, out: Out): BatchErrorOutcome {
  const b = d.batches.find((x) => x.id === batchId);
  if (!b) return 'ok';
  clientError(
    d,
    out,
    'TimeoutException',
    `Expiring ${b.records.length} record(s) for ${keyOf(b)}:${now - b.createdAt} ms has passed since batch creation`,
  );
  // Sender.sendProducerData: an expired batch is failed without adjusting sequences; if it had been
  // retried, its sequence is unresolved until nothing of its partition is in flight
  const inRetry = b.attempts > 1 || (b.attempts === 1 && !b.inFlight);
  const unsent = neverSent(b);
  if (b.inFlight) d.expiredInFlight = [...d.expiredInFlight, b];
  failBatch(d, b, 'TimeoutException', out, false);
  if (d.idempotent && inRetry) markSequenceUnresolved(d, b);
  // a batch that only ever rode on refused connection attempts was never drained as far as Kafka
  // knows (RecordAccumulator.expiredBatches fails it from the deque): it held no sequence
  if (unsent) giveBackSequence(d, b);
  return d.transactional ? 'abortable' : 'ok';
}

/**
 * A batch drained only onto connection attempts that were refused (onConnectRefused): for Kafka it
 * was never drained — its node was never ready — so it is still in the accumulator, with no sequence.
 */
function neverSent(b: ProducerBatch): boolean {
  return b.attempts === 0 && !b.inFlight;
}

/** The sequences a never-sent batch was given go back to its partition (the later batches' move down). */
function giveBackSequence(d: ProducerDraft, b: ProducerBatch): void {
  if (d.idempotent && b.baseSequence !== NO_SEQUENCE) adjustSequencesDueToFailedBatch(d, b);
}

/**
 * The partition's leader as the producer knows it, or null (RecordAccumulator.ready's
 * unknownLeaderTopics): then nothing of it is drained, its batches wait in the accumulator, and the
 * Sender asks for a metadata update.
 */
function leaderForDrain(d: ProducerDraft, topic: string, partition: number): string | null {
  const leader = leaderOf(d.meta, topic, partition);
  if (leader === null) d.metadata = requestUpdate(d.metadata);
  return leader;
}

/**
 * Sends everything that may be sent now (Sender.sendProducerData, repeated while it drains
 * something, as the Sender's loop does without waiting): each round drains the ready brokers, one
 * batch per partition — a retry first (with idempotence strictly in sequence order, one at a time,
 * as Kafka does while recovering; without it the last failed first), else a new batch — to the
 * partition's leader as the producer knows it now (none while it knows none), and sends one Produce
 * per broker with all the batches drained for it (RecordAccumulator.drain → sendProduceRequests).
 */
export function drain(d: ProducerDraft, now: number, out: Out): void {
  // Sender.runOnce: maybeResolveSequences, then bumpIdempotentEpochAndResetIdIfNeeded, then the data
  if (d.idempotent) {
    maybeResolveSequences(d);
    if (d.epochBumpPending && !d.transactional) bumpIdempotentEpoch(d, out);
  }
  if (dataHeldByTransactionalRequest(d)) return;
  for (;;) {
    const requests = drainOnce(d, now, out);
    if (requests.size === 0) break;
    for (const [broker, batches] of requests) sendProduceRequest(d, broker, batches, out);
  }
  armRetryTimer(d, now, out);
}

/**
 * Sender.runOnce returns before sendProducerData while maybeSendAndPollTransactionalRequest returns
 * true: a transactional request (FindCoordinator, InitProducerId, AddPartitionsToTxn,
 * AddOffsetsToTxn, TxnOffsetCommit, EndTxn) is in flight — "as long as there are outstanding
 * transactional requests, we simply wait for them to return" — or its retry is due, which the Sender
 * sleeps through (`time.sleep(nextRequestHandler.retryBackoffMs())`) before sending it. No batch is
 * drained meanwhile, and none expires (expiry is part of sendProducerData).
 */
export function dataHeldByTransactionalRequest(d: ProducerContext): boolean {
  return d.coordinatorRequest !== null || d.txnRetryArmed;
}

/**
 * The expiries a transactional request held back (`expiryDeferred`), once the data may go again:
 * sendProducerData fails every waiting batch and every batch in flight whose delivery.timeout.ms has
 * passed (RecordAccumulator.expiredBatches, Sender.getExpiredInflightBatches).
 */
export function expireOverdue(d: ProducerDraft, now: number, out: Out): BatchErrorOutcome {
  let outcome: BatchErrorOutcome = 'ok';
  const worse = (o: BatchErrorOutcome) => {
    if (SEVERITY[o] > SEVERITY[outcome]) outcome = o;
  };
  for (const tp of Object.keys(d.accumulating)) worse(expireQueued(d, tp, now, out));
  const timeout = d.config['delivery.timeout.ms'];
  for (const b of d.batches.filter((x) => now - x.createdAt >= timeout)) worse(onDeliveryTimeout(d, b.id, now, out));
  return outcome;
}

/** The head of a partition's deque: a batch waiting to be sent again, else the records queued (a batch to close). */
type DequeHead = { readonly retry: ProducerBatch } | { readonly queued: PendingRecord; readonly bytes: number } | null;

function dequeHead(d: ProducerDraft, tp: string): DequeHead {
  // with idempotence the lowest sequence; without it the one that failed last (RecordAccumulator.reenqueue)
  let retry: ProducerBatch | undefined;
  for (const b of d.batches) {
    if (b.inFlight || keyOf(b) !== tp) continue;
    if (!retry) retry = b;
    else if (d.idempotent && (b.baseSequence < retry.baseSequence || (b.baseSequence === retry.baseSequence && b.id < retry.id))) retry = b;
    if (!d.idempotent) break;
  }
  if (retry) return { retry };
  const q = d.accumulating[tp];
  const first = queueFirst(q);
  return q && first ? { queued: first, bytes: q.bytes } : null;
}

/** A batch's size as the drain counts it against max.request.size: its records' bytes. */
function batchBytes(b: ProducerBatch): number {
  let bytes = 0;
  for (const r of b.records) bytes += r.bytes;
  return bytes;
}

/** KIP-951 (ProducerBatch.hasLeaderChangedForTheOngoingRetry): a retry to a newer leader skips the backoff. */
function backingOff(d: ProducerDraft, retry: ProducerBatch, now: number): boolean {
  return now < retry.retryAt && leaderEpochOf(d.meta, retry.topic, retry.partition) <= retry.leaderEpoch;
}

/**
 * RecordAccumulator.ready: the brokers leading a partition whose head may go now — a retry whose
 * backoff is over, or records that waited linger.ms, fill batch.size, or are flushed or in a
 * completing transaction — not counting muted partitions. A partition whose leader is unknown asks
 * for metadata (unknownLeaderTopics). Then Sender.sendProducerData drops every node that
 * `NetworkClient.ready` refuses: one that cannot take another request (InFlightRequests.canSendMore),
 * and one whose connection failed and is still in its reconnect backoff — its batches are not
 * drained (no Produce, no attempt counted, no error); the backoff's end wakes the producer
 * (`notReadyTimeout` = pollDelayMs), and the request sent then is its connection attempt.
 */
function readyNodes(d: ProducerDraft, now: number): string[] {
  const maxInFlight = d.config['max.in.flight.requests.per.connection'];
  const nodes: string[] = [];
  const tps: string[] = [];
  for (const tp in d.accumulating) if (queueFirst(d.accumulating[tp]) !== undefined) tps.push(tp);
  for (const b of d.batches) if (!b.inFlight && !tps.includes(keyOf(b))) tps.push(keyOf(b));
  if (tps.length > 1) tps.sort();
  for (const tp of tps) {
    const head = dequeHead(d, tp);
    if (!head) continue;
    const { topic, partition } = 'retry' in head ? head.retry : head.queued;
    const leader = leaderForDrain(d, topic, partition);
    if (leader === null || nodes.includes(leader) || (maxInFlight === 1 && isMuted(d, tp))) continue;
    const sendable =
      'retry' in head
        ? !backingOff(d, head.retry, now)
        : d.flushing ||
          d.endTxn !== null ||
          // RecordAccumulator.ready's `exhausted`: a send() waits for buffer.memory (bufferPool.ts)
          d.bufferWaiters.length > 0 ||
          now - head.queued.timestamp >= d.config['linger.ms'] ||
          head.bytes >= d.config['batch.size'];
    if (sendable && inFlightTo(d, leader) < maxInFlight && !isUnavailable(d.connections, leader)) nodes.push(leader);
  }
  return nodes.sort();
}

/**
 * The topics the producer has sent to (ProducerMetadata's topics, added by send()): what its Metadata
 * requests ask for, and what its Cluster knows. *Simplification*: Kafka drops a topic not sent to for
 * metadata.max.idle.ms (300000); the model keeps it.
 */
export function producerTopics(d: ProducerDraft): string[] {
  // the distinct topics of the accumulator's partitions and of ProducerMetadata (those send() added,
  // known or new), sorted (after every producer event: no Set, no copies)
  const topics: string[] = [];
  for (const tp in d.accumulating) {
    const topic = parseTopicPartition(tp).topic;
    if (!topics.includes(topic)) topics.push(topic);
  }
  for (const topic of d.topicsKnown) if (!topics.includes(topic)) topics.push(topic);
  for (const topic of d.newTopics) if (!topics.includes(topic)) topics.push(topic);
  return topics.length > 1 ? topics.sort() : topics;
}

/**
 * Cluster.partitionsForNode: the partitions `node` leads among the producer's topics (its Cluster
 * holds only the topics it asked about, not every topic of the model's metadata), in topic, then
 * partition order.
 */
function partitionsForNode(d: ProducerDraft, node: string): string[] {
  const parts: string[] = [];
  for (const name of producerTopics(d)) {
    const t = d.meta.topics[name];
    if (!t) continue;
    t.leaders.forEach((leader, partition) => {
      if (leader === node) parts.push(topicPartitionKey(name, partition));
    });
  }
  return parts;
}

/**
 * RecordAccumulator.shouldStopDrainBatchesForPartition: the partition may not send its head now —
 * not sendable in the transaction or no producer id yet; for a new batch, older-epoch batches in
 * flight or an unresolved sequence; for a retry, an earlier sequence still in flight (retries go
 * strictly in sequence order, one at a time). Kafka then ends the whole node's drain (`break`).
 */
function mustStop(d: ProducerDraft, tp: string, head: NonNullable<DequeHead>): boolean {
  if (!partitionSendable(d, tp)) return true;
  if (!('retry' in head)) return newBatchesBlocked(d, tp);
  const retry = head.retry;
  return d.idempotent && d.batches.some((b) => b.inFlight && keyOf(b) === tp && b.baseSequence < retry.baseSequence);
}

/**
 * One drain (RecordAccumulator.drain → drainBatchesForOneNode for every ready broker): the broker's
 * partitions are visited from its drainIndex round the list, each visited one stored as the index;
 * a muted, empty or backing-off partition is passed over; a batch that would take the request past
 * max.request.size (unless it is the request's first), or a partition that must stop, ends this
 * broker's drain, the index left on it, so the next drain starts there. Every other head is taken —
 * a retry, or a new batch closed from the queued records (sequence assigned, delivery.timeout.ms
 * armed), lingered or not: the broker is ready, so its request carries what each partition has. A
 * new batch waits in `d.batches`, not yet in flight, until its request is sent.
 */
function drainOnce(d: ProducerDraft, now: number, out: Out): Map<string, ProducerBatch[]> {
  const requests = new Map<string, ProducerBatch[]>();
  const muting = d.config['max.in.flight.requests.per.connection'] === 1;
  for (const node of readyNodes(d, now)) {
    const parts = partitionsForNode(d, node);
    if (parts.length === 0) continue;
    const taken: ProducerBatch[] = [];
    let size = 0;
    let index = (d.drainIndex[node] ?? 0) % parts.length;
    const start = index;
    do {
      const tp = parts[index] as string;
      d.drainIndex = { ...d.drainIndex, [node]: index };
      index = (index + 1) % parts.length;
      if (muting && isMuted(d, tp)) continue;
      const head = dequeHead(d, tp);
      if (!head) continue;
      if ('retry' in head && backingOff(d, head.retry, now)) continue;
      // max.request.size: a batch that would take the request past it waits for the next request
      // (the index left on its partition), unless it is the request's first
      const bytes = 'retry' in head ? batchBytes(head.retry) : queueHeadBytes(d.accumulating[tp] ?? EMPTY_QUEUE, d.config['batch.size']);
      if (taken.length > 0 && size + bytes > d.config['max.request.size']) break;
      if (mustStop(d, tp, head)) break;
      size += bytes;
      if ('retry' in head) {
        const moved = { ...head.retry, broker: node, leaderEpoch: leaderEpochOf(d.meta, head.retry.topic, head.retry.partition) };
        d.batches = d.batches.map((b) => (b === head.retry ? moved : b));
        taken.push(moved);
        continue;
      }
      const batch = newBatch(d, tp, node, now);
      if (!batch) continue;
      armDeliveryTimeout(d, batch, now, out);
      armLingerForRest(d, tp, now, out);
      armQueueExpiry(d, tp, now, out);
      d.batches = [...d.batches, batch];
      taken.push(batch);
    } while (index !== start);
    if (taken.length > 0) requests.set(node, taken);
  }
  return requests;
}

/**
 * The records a closed batch left queued (it reached batch.size) linger from their own first
 * record's append: RecordAccumulator.ready works out, for every waiting batch, when its linger.ms
 * runs out (`nextReadyCheckDelayMs`), and the Sender wakes then. The timer accumulate() armed was
 * for the batch just closed.
 */
function armLingerForRest(d: ProducerDraft, tp: string, now: number, out: Out): void {
  const linger = d.config['linger.ms'];
  const head = queueFirst(d.accumulating[tp]);
  if (linger <= 0 || !head) return;
  const left = linger - (now - head.timestamp);
  if (left > 0) out.timer(`linger:${tp}`, 'lingerExpired', left);
}

/** acks=0: the broker never answers; the send counts as done once it is on the wire. */
function completeAcksZero(d: ProducerDraft, batchId: number, out: Out): void {
  const b = d.batches.find((x) => x.id === batchId);
  if (!b) return;
  d.batches = d.batches.filter((x) => x !== b);
  out.cancel(`delivery:${b.id}`);
  recordResult(d, out, b.records, null, null);
}

function armRetryTimer(d: ProducerDraft, now: number, out: Out): void {
  let next = Number.POSITIVE_INFINITY;
  for (const b of d.batches) if (!b.inFlight && b.retryAt > now) next = Math.min(next, b.retryAt);
  if (next !== Number.POSITIVE_INFINITY) out.timer('retry', 'retryBackoffExpired', next - now);
}

function completeBatch(d: ProducerDraft, b: ProducerBatch, baseOffset: number, out: Out): void {
  d.batches = d.batches.filter((x) => x.id !== b.id);
  out.cancel(`delivery:${b.id}`);
  recordAcked(d, b);
  recordResult(d, out, b.records, baseOffset, null);
}

/**
 * The batch will not be retried: its records fail with `error` (Sender.failBatch, then
 * TransactionManager.handleFailedBatch). With `adjustSequenceNumbers` (the broker definitely refused
 * it and retries were not exhausted), an idempotent producer bumps its epoch for this batch's partition
 * and a transactional one gives the batch's sequences back; an OUT_OF_ORDER_SEQUENCE_NUMBER always
 * bumps the idempotent producer's epoch for the partition.
 */
/**
 * TransactionManager.isCompleting: COMMITTING_TRANSACTION or ABORTING_TRANSACTION. A commit whose
 * batch failed has moved on to ABORTABLE_ERROR, which is not completing.
 */
function isCompleting(d: ProducerDraft): boolean {
  return d.endTxn === 'ABORT' || (d.endTxn === 'COMMIT' && d.abortableError === null);
}

/**
 * TransactionManager.maybeTransitionToErrorState for a record or batch of a transaction that failed
 * with an error that is not fatal: protocol v1 bumps the epoch from the client when this transaction
 * is aborted (`needToTriggerEpochBumpFromClient() && !isCompleting()`), then the transaction is in
 * ABORTABLE_ERROR at once (skipped while aborting) — so a second batch failed in the same response
 * of a commit finds it no longer completing. The machine answers the waiting call after the handler
 * (`becomeAbortable`).
 */
export function transitionToAbortable(d: ProducerDraft, error: KafkaError | ClientException): void {
  // outside a transaction the transition is invalid: the caller poisons the producer (sendOutsideTransaction.ts)
  if (!d.transactional || !d.inTransaction) return;
  if (d.transactionVersion === 1 && !isCompleting(d)) d.clientEpochBumpRequired = true;
  if (d.endTxn !== 'ABORT' && d.abortableError === null) d.abortableError = error;
}

/** Errors maybeTransitionToErrorState makes fatal: no client-side bump, no abortable error. */
const FATAL_BATCH_ERRORS: ReadonlySet<string> = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_ID_MAPPING']);

export function failBatch(
  d: ProducerDraft,
  b: ProducerBatch,
  error: KafkaError | ClientException,
  out: Out,
  adjustSequenceNumbers: boolean,
): void {
  d.batches = d.batches.filter((x) => x.id !== b.id);
  out.cancel(`delivery:${b.id}`);
  recordResult(d, out, b.records, null, error);
  countRecords(d, 'failed', b.records.length);
  if (!FATAL_BATCH_ERRORS.has(error)) transitionToAbortable(d, error);
  if (!d.idempotent || b.baseSequence === NO_SEQUENCE) return;
  const tp = keyOf(b);
  if (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER' && !d.transactional) requestEpochBumpForPartition(d, tp);
  else if (adjustSequenceNumbers) {
    if (!d.transactional) requestEpochBumpForPartition(d, tp);
    else adjustSequencesDueToFailedBatch(d, b);
  }
}

/** Kafka's batch.attempts() counts retries; ours counts sends: "attempts < retries" is attempts − 1 < retries. */
function retriesLeft(d: ProducerDraft, b: ProducerBatch): boolean {
  return b.attempts - 1 < d.config.retries;
}

function retryOrFail(d: ProducerDraft, b: ProducerBatch, error: KafkaError | ClientException, now: number, out: Out): 'retry' | 'failed' {
  const expired = now - b.createdAt >= d.config['delivery.timeout.ms'];
  if (expired || b.attempts > d.config.retries) {
    // Sender.completeBatch: !canRetry (past delivery.timeout.ms, or retries spent) → failBatch with
    // the answer's own error, `response.error.exception()` — a TimeoutException only comes from the
    // expiry itself (expiredBatches, getExpiredInflightBatches), which this answer came before
    failBatch(d, b, error, out, retriesLeft(d, b));
    return 'failed';
  }
  const requeued = { ...b, inFlight: false, correlationId: null, retryAt: now + backoffMs(d.config, b.attempts) };
  // RecordAccumulator.reenqueue: with idempotence the batch goes back in sequence order (insertInSequenceOrder,
  // which drain's sort gives); without it, to the front of its partition's deque (addFirst), so the batch
  // that failed last is sent again first — the model keeps that order as the order of d.batches
  d.batches = d.idempotent ? d.batches.map((x) => (x.id === b.id ? requeued : x)) : [requeued, ...d.batches.filter((x) => x.id !== b.id)];
  // Sender.reenqueueBatch → recordRetries(topic, batch.recordCount): records, not batches
  countRecords(d, 'retried', b.records.length);
  return 'retry';
}

export type BatchErrorOutcome = 'ok' | 'abortable' | 'fatal';

/**
 * Sender.completeBatch on an InvalidMetadataException (NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE,
 * FENCED_LEADER_EPOCH …): the leader a NOT_LEADER_OR_FOLLOWER / FENCED_LEADER_EPOCH answer names
 * (KIP-951 currentLeader) is taken at once, and a metadata update is asked for either way. The batch
 * itself is retried like any retriable error, with the same sequence.
 */
function learnLeader(d: ProducerDraft, r: ProducePartitionResponse): void {
  if (r.error === 'NOT_LEADER_OR_FOLLOWER' || r.error === 'FENCED_LEADER_EPOCH')
    d.meta = applyCurrentLeader(d.meta, r, r.currentLeader).meta;
  d.metadata = requestUpdate(d.metadata);
}

const SEVERITY: Record<BatchErrorOutcome, number> = { ok: 0, abortable: 1, fatal: 2 };

/**
 * Handles a ProduceResponse (Sender.handleProduceResponse): each partition's result completes the
 * batch the request carried for it (completeBatch), in the response's order. Returns whether the
 * transaction must move to an error state (the worst any partition asked for).
 */
export function onProduceResponse(
  d: ProducerDraft,
  r: ProduceResponse & { correlationId: number },
  now: number,
  out: Out,
): BatchErrorOutcome {
  let outcome: BatchErrorOutcome = 'ok';
  for (const p of r.responses) {
    const o = onPartitionResponse(d, r.correlationId, p, now, out);
    if (SEVERITY[o] > SEVERITY[outcome]) outcome = o;
  }
  return outcome;
}

/** One partition's result in a ProduceResponse: Sender.completeBatch for the batch the request carried for it. */
function onPartitionResponse(
  d: ProducerDraft,
  correlationId: number,
  r: ProducePartitionResponse,
  now: number,
  out: Out,
): BatchErrorOutcome {
  const carried = (x: ProducerBatch) => x.correlationId === correlationId && x.topic === r.topic && x.partition === r.partition;
  const b = d.batches.find((x) => x.inFlight && carried(x));
  // a batch the producer forgot (close) is not waiting for it; one that expired in flight is done
  if (!b) {
    const expired = d.expiredInFlight.find(carried);
    if (expired) onLateAnswer(d, expired, r);
    return 'ok';
  }
  const tp = keyOf(b);
  if (r.error === 'NONE' || r.error === 'DUPLICATE_SEQUENCE_NUMBER') {
    completeBatch(d, b, r.baseOffset, out);
    return 'ok';
  }
  // TransactionManager.maybeTransitionToErrorState: a fenced epoch, or (Kafka 4.0, KAFKA-18019) an
  // unknown producer id, makes the producer fatal
  clientError(d, out, r.error, `Produce to ${tp}`, FATAL_BATCH_ERRORS.has(r.error));
  if (isInvalidMetadataError(r.error)) learnLeader(d, r);
  switch (r.error) {
    case 'OUT_OF_ORDER_SEQUENCE_NUMBER': {
      // TransactionManager.canRetry
      const unresolved = d.unresolvedSequences[tp] !== undefined;
      if (!unresolved && (b.sequenceReset || !isNextSequence(d, tp, b.baseSequence))) {
        // an earlier batch is still in flight or being retried: not a real gap yet
        retryOrFail(d, b, r.error, now, out);
        return 'ok';
      }
      if (!d.transactional) {
        // a real gap: bump the epoch for this partition (KIP-360) and retry from sequence 0
        if (!unresolved || isNextSequenceForUnresolved(d, tp, b.baseSequence)) requestEpochBumpForPartition(d, tp);
        retryOrFail(d, b, r.error, now, out);
        return 'ok';
      }
      failBatch(d, b, r.error, out, retriesLeft(d, b));
      return 'abortable';
    }
    case 'PRODUCER_FENCED':
    case 'INVALID_PRODUCER_ID_MAPPING':
      failBatch(d, b, r.error, out, retriesLeft(d, b));
      return 'fatal';
    case 'INVALID_PRODUCER_EPOCH':
    case 'INVALID_TXN_STATE':
    case 'TRANSACTION_ABORTABLE':
    case 'INVALID_RECORD':
      failBatch(d, b, r.error, out, retriesLeft(d, b));
      return d.transactional ? 'abortable' : 'ok';
    default: {
      const outcome = retryOrFail(d, b, r.error, now, out);
      return outcome === 'failed' && d.transactional ? 'abortable' : 'ok';
    }
  }
}

/**
 * The answer to the request of a batch that expired in flight (Sender.completeBatch on a done batch):
 * the request leaves InFlightRequests, so its connection's slot is free and its partition unmuted. The
 * batch's records already failed and stay failed (ProducerBatch.done ignores a second final state), and
 * nothing is retried (canRetry: the batch is done). A success, or DUPLICATE_SEQUENCE_NUMBER, still
 * moves the last acknowledged sequence (TransactionManager.handleCompletedBatch); an invalid-metadata
 * error still teaches the leader and asks for a metadata update.
 */
function onLateAnswer(d: ProducerDraft, b: ProducerBatch, r: ProducePartitionResponse): void {
  d.expiredInFlight = d.expiredInFlight.filter((x) => x !== b);
  if (r.error === 'NONE' || r.error === 'DUPLICATE_SEQUENCE_NUMBER') recordAcked(d, b);
  else if (isInvalidMetadataError(r.error)) learnLeader(d, r);
}

/**
 * The connection to a broker is gone (request.timeout.ms passed, it was reset, or the broker is
 * down): the requests in flight on it fail and are retried (Sender.handleProduceResponse →
 * completeBatch → reenqueueBatch, sequences unchanged). The network reports each request as its own
 * disconnect, oldest first: `correlationIds` names the ones this call fails (all in flight to the
 * broker when absent). A request whose batch expired in flight is gone with it, nothing retried
 * (Sender.completeBatch on a done batch).
 */
export function onConnectionLost(
  d: ProducerDraft,
  broker: string,
  error: KafkaError,
  now: number,
  out: Out,
  correlationIds?: readonly number[],
): BatchErrorOutcome {
  // the requests this disconnect fails: on this connection, and the named ones if any are named
  const failing = (b: ProducerBatch) =>
    b.broker === broker && (correlationIds === undefined || correlationIds.includes(b.correlationId as number));
  // in the order the requests were sent (InFlightRequests.clearAll gives the oldest first)
  const lost = d.batches.filter((b) => b.inFlight && failing(b)).sort((a, b) => (a.correlationId as number) - (b.correlationId as number));
  const expired = d.expiredInFlight.filter(failing);
  if (expired.length > 0) d.expiredInFlight = d.expiredInFlight.filter((b) => !expired.includes(b));
  if (lost.length === 0 && expired.length === 0) return 'ok';
  // (NetworkClient.processDisconnection — the node's reconnect backoff, a metadata update — came
  // first: metadataUpdater.ts noteConnectionEvent)
  if (correlationIds === undefined) clientError(d, out, error, `connection to ${broker}`);
  let outcome: BatchErrorOutcome = 'ok';
  for (const b of lost) {
    if (correlationIds !== undefined) clientError(d, out, error, `Produce to ${keyOf(b)}`);
    const current = d.batches.find((x) => x.id === b.id);
    if (current && retryOrFail(d, current, error, now, out) === 'failed' && d.transactional) outcome = 'abortable';
  }
  return outcome;
}

/**
 * The connection attempt to `broker` was refused (it is down), so the requests sent on it never left
 * as far as Kafka is concerned: NetworkClient sends only on a READY connection, and
 * Sender.sendProducerData drains nothing for a node `client.ready` refuses. Their batches are as
 * before that drain — not in flight, their attempts as they were, no error reported — and wait,
 * sequences kept, until the producer can reach the partition's leader (its backoff over, or another
 * leader known) or delivery.timeout.ms expires them. `correlationIds` names the requests (all in
 * flight to the broker when absent); one whose batch expired meanwhile is gone with it.
 */
export function onConnectRefused(d: ProducerDraft, broker: string, correlationIds?: readonly number[]): void {
  const refused = (b: ProducerBatch) =>
    b.broker === broker && (correlationIds === undefined || correlationIds.includes(b.correlationId as number));
  // never drained for Kafka, so not counted in record-send-total either
  countRecords(d, 'sent', -d.batches.reduce((n, b) => (b.inFlight && refused(b) ? n + b.records.length : n), 0));
  d.batches = d.batches.map((b) =>
    b.inFlight && refused(b) ? { ...b, inFlight: false, correlationId: null, attempts: Math.max(0, b.attempts - 1) } : b,
  );
  d.expiredInFlight = d.expiredInFlight.filter((b) => !refused(b));
}

/**
 * RecordAccumulator.abortUndrainedBatches, run by the Sender while a transaction is in an abortable
 * error or aborting: records never drained (no sequence yet) fail with `error`. Batches already sent
 * keep being retried, and EndTxn waits for them.
 */
export function abortUndrained(d: ProducerDraft, out: Out, error: KafkaError | ClientException): void {
  // a batch that only rode on refused connection attempts is undrained for Kafka (still open in its deque)
  for (const b of d.batches.filter(neverSent)) {
    d.batches = d.batches.filter((x) => x.id !== b.id);
    out.cancel(`delivery:${b.id}`);
    recordResult(d, out, b.records, null, error);
    giveBackSequence(d, b);
  }
  for (const [tp, q] of Object.entries(d.accumulating)) {
    if (queueSize(q) === 0) continue;
    recordResult(d, out, queueAll(q), null, error);
    d.accumulating = { ...d.accumulating, [tp]: EMPTY_QUEUE };
    out.cancel(`expire:${tp}`);
  }
}

/** FATAL_ERROR: nothing more will be sent; every outstanding record fails. */
export function failEverything(d: ProducerDraft, error: KafkaError | ClientException, out: Out): void {
  for (const [tp, q] of Object.entries(d.accumulating)) {
    if (queueSize(q) === 0) continue;
    recordResult(d, out, queueAll(q), null, error);
    d.accumulating = { ...d.accumulating, [tp]: EMPTY_QUEUE };
    out.cancel(`expire:${tp}`);
  }
  for (const b of d.batches) {
    out.cancel(`delivery:${b.id}`);
    recordResult(d, out, b.records, null, error);
  }
  d.batches = [];
}

/**
 * Sender.forceClose → RecordAccumulator.abortIncompleteBatches: every incomplete batch — in flight
 * (its request abandoned when the client closes) or still in the accumulator — fails with
 * KafkaException("Producer is closed forcefully."), its callback and future told so (`batch.abort`).
 * No failBatch: no record-error-total, no TransactionManager transition (the producer is closing).
 * Returns how many records failed.
 */
export function abortIncompleteBatches(d: ProducerDraft, out: Out): number {
  let n = 0;
  for (const b of d.batches) {
    out.cancel(`delivery:${b.id}`);
    recordResult(d, out, b.records, null, 'KafkaException', false, FORCE_CLOSE_MESSAGE);
    n += b.records.length;
  }
  d.batches = [];
  for (const [tp, q] of Object.entries(d.accumulating)) {
    if (queueSize(q) === 0) continue;
    const recs = queueAll(q);
    recordResult(d, out, recs, null, 'KafkaException', false, FORCE_CLOSE_MESSAGE);
    n += recs.length;
    d.accumulating = { ...d.accumulating, [tp]: EMPTY_QUEUE };
    out.cancel(`expire:${tp}`);
  }
  return n;
}

export { resetSequences } from './sequences';
