/**
 * The producer's buffer.memory (Kafka's BufferPool, owned by the RecordAccumulator). Every batch holds
 * memory from the pool from the append that opens it until it completes: RecordAccumulator.append
 * allocates max(batch.size, the record's size) for a new batch (`free.allocate(size, maxTimeToBlock)`;
 * a record that fits the partition's open batch allocates nothing), and RecordAccumulator.deallocate
 * gives it back when the batch is acknowledged, fails or expires (Sender.completeBatch / failBatch →
 * maybeRemoveAndDeallocateBatch, abortBatches, abortUndrainedBatches). The model counts it from the
 * queues (`PartitionQueue.allocated`) and the batches drained from them (`ProducerBatch`, until they
 * leave `d.batches`): nothing else holds memory.
 *
 * BufferPool.allocate with too little room blocks the application's thread in send() — as
 * waitOnMetadata does, and within the same max.block.ms: KafkaProducer.doSend passes what
 * waitOnMetadata left of it (`remainingWaitMs`). It waits in the pool's queue of waiters (`waiters`,
 * a Deque of Conditions): memory given back wakes the first waiter (`deallocate` →
 * `waiters.peekFirst().signal()`), which takes what it needs before the next is woken, so waiters go
 * in the order they came. Past its time it throws BufferExhaustedException ("Failed to allocate <n>
 * bytes within the configured max blocking time <ms> ms. Total memory: … Available memory: …
 * Poolable size: …"), a TimeoutException and so an ApiException: doSend's catch fails the record's
 * callback and the future send() returns, and TransactionManager.maybeTransitionToErrorState makes a
 * transaction abortable. While anyone waits, every batch is ready at once (RecordAccumulator.ready:
 * `exhausted = free.queued() > 0`), as for a flush.
 *
 * An allocation larger than buffer.memory throws IllegalArgumentException at once ("Attempt to
 * allocate <n> bytes, but there is a hard limit of <m> on memory allocations."): not an ApiException,
 * so send() throws it and no callback runs. ensureValidRecordSize already refuses a record larger
 * than buffer.memory, so only a batch.size above buffer.memory gets there.
 *
 * *Simplified*: sizes are the model's (no batch header); Kafka's free list of batch.size buffers
 * changes nothing the model shows; a send() that comes while another waits queues behind it (in Kafka
 * it may take memory that is free at that instant); close() cancels a wait (Kafka's "Producer closed
 * while allocating memory" — the model's application, blocked in send(), cannot call close()).
 */
import type { Out } from '../actors/out';
import type { ActorId } from '../kernel/envelope';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { ProducerBatch, ProducerContext } from './producerContext';
import { batchAllocation, fitsLastBatch } from './recordAccumulator';
import { choosePartition, type ProducerDraft, type SendArgs, sizeOf } from './sender';
import { touchTopic } from './waitOnMetadata';

/** A send() blocked in BufferPool.allocate: the call as made, what it asks for and until when it waits. */
export interface BufferWaiter {
  readonly from: ActorId;
  readonly args: SendArgs;
  /** The bytes its new batch asks for. */
  readonly size: number;
  /** When it started to wait. */
  readonly since: number;
  /** doSend's remainingWaitMs: max.block.ms less what waitOnMetadata took. */
  readonly maxTimeToBlock: number;
}

/** The timer of a waiter's max.block.ms: one per caller (a caller waits in one send() at a time). */
export const bufferWaitTimer = (from: ActorId): string => `maxBlock:buffer:${from}`;

/** The `call` of that timer's maxBlockExpired event. */
export const BUFFER_WAIT_CALL = 'send:buffer';

/**
 * What a drained batch holds: a batch of several records stays within batch.size (its buffer is
 * batch.size), one of a single record may be larger (its own size) — O(1), whatever the batch holds.
 */
function heldBy(b: ProducerBatch, batchSize: number): number {
  return b.records.length === 1 ? batchAllocation((b.records[0] as { bytes: number }).bytes, batchSize) : batchSize;
}

/** The bytes allocated from buffer.memory: the batches still queued and those drained, until each completes. */
export function bufferUsed(ctx: ProducerContext): number {
  const batchSize = ctx.config['batch.size'];
  let used = 0;
  for (const tp in ctx.accumulating) used += ctx.accumulating[tp]?.allocated ?? 0;
  for (const b of ctx.batches) used += heldBy(b, batchSize);
  return used;
}

/** BufferPool.availableMemory: what is not allocated. */
export function bufferAvailable(ctx: ProducerContext): number {
  return Math.max(0, ctx.config['buffer.memory'] - bufferUsed(ctx));
}

/**
 * What RecordAccumulator.append would allocate for this record: nothing when it goes into its
 * partition's open batch (tryAppend), else max(batch.size, its size) for a new batch.
 */
export function allocationFor(ctx: ProducerContext, args: SendArgs): number {
  const { bytes } = sizeOf(args);
  const batchSize = ctx.config['batch.size'];
  const { partition } = choosePartition(ctx, args, bytes);
  const q = ctx.accumulating[topicPartitionKey(args.topic, partition)];
  return fitsLastBatch(q, bytes, batchSize) ? 0 : batchAllocation(bytes, batchSize);
}

/** A send() that has not yet been through the pool (not released from it, not given up there, not given up in waitOnMetadata). */
function freshSend(ev: { type: string; args?: unknown }): SendArgs | null {
  if (ev.type !== 'send') return null;
  const args = ev.args as SendArgs;
  return args.bufferWaitMs === undefined && args.metadataTimeoutMs === undefined ? args : null;
}

/** The record's size, or null when ensureValidRecordSize refuses it first (RecordTooLargeException): no allocation is tried. */
function allocatableBytes(ctx: ProducerContext, args: SendArgs): number | null {
  const { bytes } = sizeOf(args);
  return bytes > ctx.config['max.request.size'] || bytes > ctx.config['buffer.memory'] ? null : bytes;
}

/**
 * BufferPool.allocate's first check: the batch this send() needs is larger than buffer.memory itself.
 * The record is within buffer.memory (ensureValidRecordSize), so only a batch.size above it gets there
 * — and then no batch can ever be open for the record to join.
 */
export function exceedsBufferMemory(ctx: ProducerContext, ev: { type: string; args?: unknown }): boolean {
  if (ctx.config['batch.size'] <= ctx.config['buffer.memory']) return false;
  const args = freshSend(ev);
  return args !== null && allocatableBytes(ctx, args) !== null;
}

/** The send() must wait for memory: its new batch does not fit what is free, or others already wait. */
export function awaitsBuffer(ctx: ProducerContext, ev: { type: string; args?: unknown }): boolean {
  const args = freshSend(ev);
  if (!args) return false;
  const bytes = allocatableBytes(ctx, args);
  const memory = ctx.config['buffer.memory'];
  const batchSize = ctx.config['batch.size'];
  if (bytes === null || batchSize > memory) return false;
  // room even for a new batch, and nobody waiting: no need to find the record's partition
  if (ctx.bufferWaiters.length === 0 && bufferUsed(ctx) + batchAllocation(bytes, batchSize) <= memory) return false;
  const size = allocationFor(ctx, args);
  if (size === 0) return false;
  return ctx.bufferWaiters.length > 0 || size > bufferAvailable(ctx);
}

/** The hard limit's message (BufferPool.allocate's IllegalArgumentException). */
export function hardLimitMessage(size: number, total: number): string {
  return `Attempt to allocate ${size} bytes, but there is a hard limit of ${total} on memory allocations.`;
}

/**
 * send() blocks in BufferPool.allocate: it joins the pool's waiters, at most what is left of
 * max.block.ms after waitOnMetadata (doSend's remainingWaitMs).
 */
export function holdForBuffer(d: ProducerDraft, call: { from: ActorId; args: SendArgs; now: number }, out: Out): void {
  // waitOnMetadata's ProducerMetadata.add came first
  touchTopic(d, call.args.topic, call.now);
  const size = allocationFor(d, call.args);
  const maxTimeToBlock = Math.max(0, d.config['max.block.ms'] - (call.args.metadataWaitMs ?? 0));
  const available = bufferAvailable(d);
  const ahead = d.bufferWaiters.length;
  d.bufferWaiters = [...d.bufferWaiters, { from: call.from, args: call.args, size, since: call.now, maxTimeToBlock }];
  out.timer(bufferWaitTimer(call.from), 'maxBlockExpired', maxTimeToBlock, { call: BUFFER_WAIT_CALL, from: call.from });
  out.fact({
    kind: 'note',
    actor: d.self,
    text:
      ahead > 0
        ? `send() to ${call.args.topic} blocks in BufferPool.allocate behind ${ahead} earlier send() waiting for buffer.memory: its new batch needs ${size} bytes; it waits at most ${maxTimeToBlock} ms (what is left of max.block.ms)`
        : `send() to ${call.args.topic} blocks in BufferPool.allocate: its new batch needs ${size} bytes, and buffer.memory (${d.config['buffer.memory']} bytes) has ${available} free until a batch completes; it waits at most ${maxTimeToBlock} ms (what is left of max.block.ms)`,
  });
}

/** The waiter leaves the queue; its send() goes on, raised again for the state's own send handler. */
function resume(d: ProducerDraft, w: BufferWaiter, now: number, out: Out, extra: Partial<SendArgs>): void {
  d.bufferWaiters = d.bufferWaiters.filter((x) => x !== w);
  out.cancel(bufferWaitTimer(w.from));
  const args: SendArgs = { ...w.args, bufferWaitMs: now - w.since, ...extra };
  out.raise({ type: 'send', now, from: w.from, args: args as unknown as Record<string, unknown> });
}

/**
 * After an event: memory given back wakes the waiters in the order they came, each once the pool has
 * room for its batch (BufferPool.deallocate signals the first waiter; it takes what it needs, then
 * signals the next if memory is left). A waiter the pool has no room for yet keeps the rest waiting.
 */
export function wakeBufferWaiters(d: ProducerDraft, now: number, out: Out): void {
  if (d.bufferWaiters.length === 0) return;
  let free = bufferAvailable(d);
  for (let w = d.bufferWaiters[0]; w && w.size <= free; w = d.bufferWaiters[0]) {
    free -= w.size;
    out.fact({
      kind: 'note',
      actor: d.self,
      text: `${w.size} bytes of buffer.memory are free for the send() to ${w.args.topic} waiting in BufferPool.allocate since ${w.since} ms: it goes on`,
    });
    resume(d, w, now, out, {});
  }
}

/**
 * max.block.ms (what was left of it) passed for a waiter: BufferExhaustedException, and the send()
 * goes on to fail its record (refuseBeforeAppend). The waiters behind it may now be woken.
 */
export function onBufferMaxBlockExpired(d: ProducerDraft, data: { from?: ActorId }, now: number, out: Out): void {
  const w = d.bufferWaiters.find((x) => x.from === data.from);
  if (!w || w.since + w.maxTimeToBlock !== now) return;
  const available = bufferAvailable(d);
  const message = `Failed to allocate ${w.size} bytes within the configured max blocking time ${w.maxTimeToBlock} ms. Total memory: ${d.config['buffer.memory']} bytes. Available memory: ${available} bytes. Poolable size: ${d.config['batch.size']} bytes`;
  resume(d, w, now, out, { bufferExhausted: message });
}

/** close(): the waits end with the producer (their timers cancelled). */
export function cancelBufferWaits(ctx: ProducerContext, out: Out): void {
  for (const w of ctx.bufferWaiters) out.cancel(bufferWaitTimer(w.from));
}
