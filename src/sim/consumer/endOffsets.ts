/**
 * endOffsets() (KafkaConsumer.endOffsets → OffsetFetcher.beginningOrEndOffset → fetchOffsetsByTimes): rounds
 * over the partitions still to search (remainingToSearch). A round sends one ListOffsets per leader
 * (sendListOffsetsRequests; a partition without a usable leader is a partition to retry) and waits for every
 * answer; the offsets found are kept, and the partitions answered with an error (NOT_LEADER_OR_FOLLOWER,
 * OFFSET_NOT_AVAILABLE … "retrying") are what the next round asks. Between rounds the consumer awaits a
 * metadata update (client.awaitMetadataUpdate: requestUpdate, then until a Metadata answer), whose own
 * backoff (retry.backoff.ms after the last attempt) spaces the rounds. A round with no leader to ask fails at
 * once (StaleMetadataException); one whose request is lost fails as a whole (its other answers are not
 * waited for, every partition of the round asked again). It never reports −1 and never leaves a partition out.
 */
import type { Out } from '../actors/out';
import { requestUpdate } from '../cluster/clientMetadata';
import type { ListOffsetsPartition, ListOffsetsPartitionResponse } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { corr, type Draft, sendRequest } from './consumerContext';
import type { EventOf } from './events';
import { groupListOffsetRequests } from './offsetFetcher';

/**
 * endOffsets(): the latest offset of each assigned partition — the LSO under read_committed, unless
 * the caller names the isolation level (Kafka Streams asks for the log end offset, read_uncommitted).
 */
export function onEndOffsets(d: Draft, call: EventOf<'endOffsets'>, out: Out): void {
  if (d.assignment.length === 0) {
    out.call(call.from, 'reply', { call: 'endOffsets', ok: true, offsets: {} });
    return;
  }
  const isolationLevel = call.args.isolationLevel ?? d.config['isolation.level'];
  const remaining = d.assignment.map((tp) => ({ topic: tp.topic, partition: tp.partition, timestamp: -1 }));
  d.endOffsets = { from: call.from, isolationLevel, remaining, requests: {}, retry: [], offsets: {}, awaitingMetadata: false };
  sendRound(d, out);
}

/** One round (sendListOffsetsRequests): one ListOffsets per leader for every partition still to search. */
function sendRound(d: Draft, out: Out): void {
  const pending = d.endOffsets;
  if (!pending) return;
  const { byNode, waiting } = groupListOffsetRequests(d, pending.remaining);
  // "Leader for partition … is unknown for fetching offset": a metadata update
  if (waiting.some((w) => w.update && w.partitions.length > 0)) d.metadata = requestUpdate(d.metadata);
  const retry = waiting.flatMap((w) => w.partitions.map(keyOf));
  const requests: Record<number, readonly string[]> = {};
  for (const [leader, partitions] of byNode) {
    const correlationId = corr(d);
    requests[correlationId] = partitions.map(keyOf);
    sendRequest(d, out, leader, 'ListOffsets', { correlationId, isolationLevel: pending.isolationLevel, partitions });
  }
  d.endOffsets = { ...pending, requests, retry };
  // no leader to ask (StaleMetadataException): the round fails at once
  if (byNode.size === 0) awaitMetadataUpdate(d);
}

/** client.awaitMetadataUpdate between rounds: an update asked for, the next round at its answer. */
function awaitMetadataUpdate(d: Draft): void {
  const pending = d.endOffsets;
  if (!pending) return;
  d.metadata = requestUpdate(d.metadata);
  d.endOffsets = { ...pending, requests: {}, retry: [], awaitingMetadata: true };
}

/** A Metadata answer (the update awaited): the partitions still to search are asked again. */
export function onEndOffsetsMetadata(d: Draft, out: Out): void {
  if (!d.endOffsets?.awaitingMetadata) return;
  d.endOffsets = { ...d.endOffsets, awaitingMetadata: false };
  sendRound(d, out);
}

/** One answer of the round: its offsets kept, its failed partitions to retry; the round ends with its last answer. */
export function onEndOffsetsAnswer(d: Draft, correlationId: number, partitions: readonly ListOffsetsPartitionResponse[], out: Out): void {
  const pending = d.endOffsets;
  if (!pending) return;
  const names = pending.requests[correlationId] ?? [];
  const { [correlationId]: _done, ...requests } = pending.requests;
  const offsets = { ...pending.offsets };
  const retry = [...pending.retry];
  for (const r of partitions) {
    if (!names.includes(keyOf(r))) continue;
    // OffsetFetcherUtils.handleListOffsetResponse: an error answer is a partition to retry, never an end offset
    if (r.error !== 'NONE') retry.push(keyOf(r));
    else offsets[keyOf(r)] = r.offset;
  }
  d.endOffsets = { ...pending, requests, offsets, retry };
  if (Object.keys(requests).length > 0) return;
  // every answer in: remainingToSearch.retainAll(partitionsToRetry)
  const remaining: ListOffsetsPartition[] = pending.remaining.filter((p) => retry.includes(keyOf(p)));
  if (remaining.length === 0) {
    out.call(pending.from, 'reply', { call: 'endOffsets', ok: true, offsets });
    d.endOffsets = null;
    return;
  }
  d.endOffsets = { ...d.endOffsets, remaining };
  awaitMetadataUpdate(d);
}

/** A ListOffsets of the round lost (a disconnect, request.timeout.ms): the round fails, its partitions asked again after the update. */
export function onEndOffsetsLost(d: Draft, correlationId: number): boolean {
  if (d.endOffsets?.requests[correlationId] === undefined) return false;
  awaitMetadataUpdate(d);
  return true;
}
