/**
 * KafkaProducer.doSend → waitOnMetadata: a new producer knows no topic. Its first send() to a topic
 * adds it to ProducerMetadata (`add`, `requestUpdateForNewTopics`) and blocks — on the application's
 * thread — until a Metadata answer names the topic's partitions (`awaitUpdate`), at most max.block.ms;
 * the Sender's NetworkClient sends that request (a partial one, for the new topics alone) to the least
 * loaded broker (metadataUpdater.ts). Then send() goes on: the state's own send handler runs (the
 * machine raises the call again). Past max.block.ms, send() gets TimeoutException("Topic <t> not
 * present in metadata after <ms> ms."): an ApiException, so its callback and returned future fail
 * (`refuseBeforeAppend`); the topic stays in ProducerMetadata and its update goes on.
 *
 * An explicit partition the known partition count does not reach (`partition >= partitionsCount`)
 * blocks too, the topic known or not: each answer that still lacks it asks for another update
 * (`requestUpdateForTopic`: a full one once the topic is no longer new), backing off as the metadata
 * does over answers that change nothing. An answer at max.block.ms or later fails the send with
 * "Partition <p> of topic <t> with partition count <n> is not present in metadata after <ms> ms." (n:
 * the count known before that answer; "Topic <t> not present …" while the topic was unknown) — even
 * an answer that names the partition (the loop checks the time before its condition); awaitUpdate
 * timing out first (the model's deadline timer) gives "Topic <t> not present …".
 *
 * The NetworkClient does not look at the transaction state: a producer in FATAL_ERROR still sends
 * this Metadata request and handles its answer, so a send() held when the producer becomes fatal
 * (or made after) waits for its metadata first, as doSend's waitOnMetadata comes before
 * maybeAddPartition's maybeFailWithError; then it is refused with the fatal error.
 *
 * metadata.max.idle.ms (ProducerMetadata): every send() to a topic (`add(topic, nowMs)`) sets its
 * expiry to now + metadata.max.idle.ms; a metadata update — full or partial, at any time — after that
 * forgets the topic (`retainTopic`: "Removing unused topic … from the metadata list"), so it leaves the
 * requests and the drain's partitions, and the next send() to it waits on metadata again. *The model
 * has it at Kafka's default, 300000 ms, not as a setting.*
 */
import type { Out } from '../actors/out';
import { partialUpdateDone, requestUpdate } from '../cluster/clientMetadata';
import { onMetadataResponse } from '../cluster/metadataUpdater';
import type { ActorId } from '../kernel/envelope';
import type { MetadataResponse } from '../protocol/replicationMessages';
import { parseTopicPartition } from '../protocol/topicPartition';
import type { ProducerContext } from './producerContext';
import { queueSize } from './recordAccumulator';
import type { ProducerDraft, SendArgs } from './sender';

/** metadata.max.idle.ms at Kafka's default (ProducerConfig: 5 * 60 * 1000, at least 5000). */
export const METADATA_MAX_IDLE_MS = 300_000;

/** ProducerMetadata.add: a send() to the topic keeps it for metadata.max.idle.ms from now. */
export function touchTopic(d: ProducerDraft, topic: string, now: number): void {
  if (d.topicExpiry[topic] !== now + METADATA_MAX_IDLE_MS) d.topicExpiry = { ...d.topicExpiry, [topic]: now + METADATA_MAX_IDLE_MS };
}

/**
 * ProducerMetadata.retainTopic at a metadata update: a known topic whose expiry has passed is
 * forgotten — with its empty accumulator queues, so that neither the next full request nor the drain
 * names it (a topic idle that long has nothing queued: delivery.timeout.ms is shorter). Returns them.
 */
function forgetIdleTopics(d: ProducerDraft, now: number, out: Out): string[] {
  const idle = d.topicsKnown.filter((t) => {
    const expiry = d.topicExpiry[t];
    return expiry !== undefined && expiry <= now && !d.newTopics.includes(t);
  });
  if (idle.length === 0) return idle;
  d.topicsKnown = d.topicsKnown.filter((t) => !idle.includes(t));
  const expiry = { ...d.topicExpiry };
  for (const t of idle) delete expiry[t];
  d.topicExpiry = expiry;
  const accumulating = { ...d.accumulating };
  for (const tp of Object.keys(accumulating))
    if (idle.includes(parseTopicPartition(tp).topic) && queueSize(accumulating[tp]) === 0) delete accumulating[tp];
  d.accumulating = accumulating;
  for (const t of idle)
    out.fact({
      kind: 'note',
      actor: d.self,
      text: `no send() to ${t} for metadata.max.idle.ms (${METADATA_MAX_IDLE_MS} ms): this metadata update forgets ${t} (ProducerMetadata.retainTopic), and the next send() to it waits on metadata again`,
    });
  return idle;
}

/** The deadline of a send() in waitOnMetadata (its data: `{ call: 'send' }`). */
export const SEND_MAX_BLOCK_TIMER = 'maxBlock:send';

/** Cluster.partitionCountForTopic in the producer's metadata: null while no answer named the topic. */
function partitionsCount(ctx: ProducerContext, topic: string): number | null {
  return ctx.topicsKnown.includes(topic) ? (ctx.meta.topics[topic]?.partitions ?? null) : null;
}

/** waitOnMetadata's loop condition: the topic unknown, or the explicit partition beyond its count. */
function lacksMetadata(ctx: ProducerContext, args: SendArgs): boolean {
  const count = partitionsCount(ctx, args.topic);
  return count === null || (args.partition !== undefined && args.partition >= count);
}

/** The send() must wait: its topic's metadata is not known, or not its partition (and it has not given up already). */
export function awaitsMetadata(ctx: ProducerContext, ev: { type: string; args?: unknown }): boolean {
  if (ev.type !== 'send') return false;
  const args = ev.args as SendArgs;
  // released by the buffer pool, it is past waitOnMetadata
  return args.metadataTimeoutMs === undefined && args.bufferWaitMs === undefined && lacksMetadata(ctx, args);
}

/** ProducerMetadata.requestUpdateForTopic: a partial update while the topic is new, else a full one. */
function requestUpdateForTopic(d: ProducerDraft, topic: string): void {
  if (!d.topicsKnown.includes(topic)) {
    if (!d.newTopics.includes(topic)) d.newTopics = [...d.newTopics, topic];
  } else d.metadata = requestUpdate(d.metadata);
}

/** waitOnMetadata: the topic is added (a partial update is due) and send() blocks, at most max.block.ms. */
export function holdSend(d: ProducerDraft, call: { from: ActorId; args: SendArgs; now: number }, out: Out): void {
  const topic = call.args.topic;
  touchTopic(d, topic, call.now);
  const count = partitionsCount(d, topic);
  requestUpdateForTopic(d, topic);
  const ms = d.config['max.block.ms'];
  d.heldSend = { from: call.from, args: call.args, deadline: call.now + ms, partitionsCount: count };
  out.timer(SEND_MAX_BLOCK_TIMER, 'maxBlockExpired', ms, { call: 'send' });
  out.fact({
    kind: 'note',
    actor: d.self,
    text:
      count === null
        ? `send() to ${topic} blocks in waitOnMetadata: the producer knows no partition of ${topic} yet, asks for them in a Metadata request and waits at most max.block.ms (${ms} ms)`
        : `send() to ${topic} partition ${call.args.partition} blocks in waitOnMetadata: the producer's metadata has ${count} partition(s) of ${topic}, so it asks for a metadata update and waits at most max.block.ms (${ms} ms)`,
  });
}

/** The held send() goes on: raised again, for the state's own send handler. */
function release(d: ProducerDraft, now: number, out: Out, args: SendArgs): void {
  const held = d.heldSend;
  if (!held) return;
  d.heldSend = null;
  const waited = { ...args, metadataWaitMs: now - (held.deadline - d.config['max.block.ms']) };
  out.raise({ type: 'send', now, from: held.from, args: waited as unknown as Record<string, unknown> });
}

/** max.block.ms passed for the held send(): it goes on to fail with TimeoutException (refuseBeforeAppend). */
export function onSendMaxBlockExpired(d: ProducerDraft, now: number, out: Out): void {
  if (d.heldSend?.deadline !== now) return;
  release(d, now, out, { ...d.heldSend.args, metadataTimeoutMs: d.config['max.block.ms'] });
}

/**
 * The answer to the producer's Metadata request (Metadata.update). A partial one (isPartialUpdate)
 * leaves the full update and the metadata's age as they were; a topic of one replica per partition
 * keeps its static leaders there (no epochs: they never move, and the model refreshes no such
 * topic). Every topic the answer names is known from now on; a send() waiting for one goes on.
 */
export function onProducerMetadataResponse(
  d: ProducerDraft,
  payload: MetadataResponse & { readonly correlationId: number },
  now: number,
  out: Out,
): void {
  if (d.metadata.inFlight !== payload.correlationId) return;
  const before = d.metadata;
  if (before.partial) {
    const moving = payload.topics.filter((t) => d.meta.topics[t.name]?.replicas !== undefined || d.meta.topics[t.name]?.leaderEpochs);
    onMetadataResponse(d, { ...payload, topics: moving }, now);
  } else onMetadataResponse(d, payload, now);
  // an answer without brokers is a failed update (NetworkClient.handleSuccessfulResponse)
  if (d.metadata.attempts > before.attempts) return;
  if (before.partial) d.metadata = partialUpdateDone(before, d.metadata);
  const forgotten = forgetIdleTopics(d, now, out);
  const names = payload.topics.map((t) => t.name).filter((t) => !forgotten.includes(t));
  for (const t of names) if (!d.topicsKnown.includes(t)) d.topicsKnown = [...d.topicsKnown, t];
  if (d.newTopics.some((t) => names.includes(t))) d.newTopics = d.newTopics.filter((t) => !names.includes(t));
  const held = d.heldSend;
  if (!held || !names.includes(held.args.topic)) return;
  // waitOnMetadata's loop after awaitUpdate: the time first (elapsed >= maxWaitMs), then its condition
  if (now >= held.deadline) {
    out.cancel(SEND_MAX_BLOCK_TIMER);
    const ms = d.config['max.block.ms'];
    const count = held.partitionsCount;
    release(d, now, out, { ...held.args, metadataTimeoutMs: ms, ...(count !== null ? { metadataPartitionsCount: count } : {}) });
    return;
  }
  if (lacksMetadata(d, held.args)) {
    // still beyond the partition count: another update (a full one now), and send() waits on
    d.heldSend = { ...held, partitionsCount: partitionsCount(d, held.args.topic) };
    requestUpdateForTopic(d, held.args.topic);
    return;
  }
  out.cancel(SEND_MAX_BLOCK_TIMER);
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `the Metadata answer names the partitions of ${held.args.topic}: the send() waiting in waitOnMetadata goes on`,
  });
  release(d, now, out, held.args);
}
