/**
 * The Fetcher (with FetchCollector, fetchCollector.ts; the OffsetFetcher's ListOffsets are
 * offsetFetcher.ts): one Fetch per broker naming every assigned partition it leads with a known
 * position and nothing buffered, none to a broker whose Fetch is in flight, records handed to a
 * waiting poll() up to max.poll.records.
 *
 * Fetches go out only from inside poll(), as in the classic KafkaConsumer: while a poll() waits
 * (ClassicKafkaConsumer.pollForFetches: collectFetch, then sendFetches, then client.poll — again
 * on each pass of its loop, so after every answer that brought no records, and after a metadata,
 * OffsetFetch or ListOffsets answer), and once as a poll() returns records (poll's prefetch:
 * `sendFetches()` before it returns, so the next fetch runs while the application processes).
 * Between polls nothing is fetched: an answer that arrives then is buffered for the next poll().
 *
 * Simplifications: every Fetch is a full one — no fetch session (KIP-227: Kafka's incremental
 * fetches name only the partitions that changed); fetch.min.bytes is its default, 1, and the broker
 * counts records, not bytes; the per-partition limit is max.poll.records records (Kafka:
 * max.partition.fetch.bytes, and fetch.max.bytes for the whole answer); an error other than a
 * metadata error or OFFSET_OUT_OF_RANGE is handled when it arrives and fetched again after
 * retry.backoff.ms (Kafka: collected by poll() like the others, fetched again at the next pass); poll()
 * blocks until records are available (no timeout); an empty answer is dropped at once (Kafka buffers a
 * CompletedFetch for it too, AbstractFetch.handleFetchSuccess, collected by the next poll() before it
 * fetches: the same fetches go out, the order of the buffer aside); a partition is fetched from the
 * leader the client's metadata names now (Kafka: from its position's currentLeader, which a Metadata
 * answer without a leader does not clear — the model stops fetching such a partition until one is named);
 * a metadata error collected while the update it asked for is still pending waits retry.backoff.ms
 * before the next try (Kafka tries at every pass, as fast as the stale leader answers: on a network
 * set to zero latency time would never move); a partition with a Fetch in flight is not fetched from
 * another broker (Kafka tracks pending fetches per broker only).
 *
 * As Kafka's: OFFSET_OUT_OF_RANGE and the metadata errors are kept with the answer (`fetchErrors`, a
 * CompletedFetch with an error) and handled when poll() collects it (FetchCollector.handleInitializeErrors),
 * only if the partition's position is still the offset fetched; after a metadata error the partition is
 * fetched again at the next pass from the leader the client knows — the stale one until a KIP-951 hint or
 * the Metadata answer moves it.
 */
import type { Out } from '../actors/out';
import { applyCurrentLeader, leaderCanMove, leaderEpochOf, requestUpdate } from '../cluster/clientMetadata';
import { isUnavailable } from '../cluster/connectionStates';
import { leaderOf } from '../cluster/metadata';
import { onMetadataResponse } from '../cluster/metadataUpdater';
import type { ClientException } from '../protocol/errors';
import type { FetchPartition, FetchPartitionResponse, RecordForApp, TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import {
  armPollTimer,
  type ConsumerContext,
  corr,
  countConsumer,
  type Draft,
  type FetchError,
  groupMetadata,
  sendRequest,
} from './consumerContext';
import { staticTopic, withStaticLeaders } from './consumerMetadata';
import { onEndOffsetsMetadata } from './endOffsets';
import type { EventOf } from './events';
import { collectFetched } from './fetchCollector';
import { resetPositions } from './offsetFetcher';
import { failPoll } from './pollErrors';
import { awaitingValidation, noteFetchedEpochs, trackOffsetEpochs, validatePositionsIfNeeded } from './positionValidation';

/**
 * Fetcher.sendFetches, as a waiting poll() calls it (ClassicKafkaConsumer.pollForFetches, on each
 * pass of poll's loop): nothing while no poll() waits — the application is processing, or has not
 * called poll() yet; the next poll() fetches (onPoll). The one call outside a waiting poll() is
 * poll's prefetch, as it returns records (servePoll).
 */
export function fetchWhilePolling(d: Draft, out: Out, backingOff: ReadonlySet<string> = NONE): void {
  // a poll() inside its rebalance listener sends nothing until the listener returns
  if (d.pollWaiting && !d.inRevocationListener) sendFetches(d, out, backingOff);
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Issues one Fetch per broker for every assigned partition it leads with a known position, an empty
 * buffer and nothing in flight (Fetcher.sendFetches → AbstractFetch.prepareFetchRequests,
 * fetchablePartitions: a partition with a completed fetch still buffered is not fetched), to no
 * broker that has a Fetch in flight (nodesWithPendingFetchRequests: "Skipping fetch for partition …
 * because previous request to … has not been processed" — the partition waits for that answer). A
 * partition with an errored fetch still buffered waits for poll() to collect it; a partition without
 * a known leader is not fetched and asks for a metadata update ("Requesting metadata update for
 * partition … since the position … is missing the current leader node"); a metadata update asked for
 * holds nothing back — after a metadata error the partition is fetched again from the leader it knows,
 * the stale one until a KIP-951 hint or the Metadata answer moves it; one whose leader is in its reconnect
 * backoff is skipped ("Skipping fetch for partition … because node … is awaiting reconnect
 * backoff": isUnavailable) — the backoff's end wakes the consumer, and a Fetch sent then is its
 * connection attempt. Every Fetch is a full one (no fetch session, KIP-227).
 */
function sendFetches(d: Draft, out: Out, backingOff: ReadonlySet<string> = NONE): void {
  validatePositionsIfNeeded(d, out);
  // made when a first partition is to be fetched: most calls (each event a poll() handles) send nothing
  let byNode: Map<string, FetchPartition[]> | null = null;
  for (const tp of d.assignment) {
    const name = keyOf(tp);
    const position = d.positions[name];
    // a partition whose fetch poll() has not finished with (records, or a tail still to pass over) is not fetched
    if (position === undefined || d.fetching[name] !== undefined || (d.buffer[name]?.length ?? 0) > 0 || d.bufferEnd[name] !== undefined)
      continue;
    if (d.fetchErrors[name] !== undefined || backingOff.has(name) || awaitingValidation(d, name)) continue;
    const leader = leaderOf(d.meta, tp.topic, tp.partition);
    if (!leader) {
      d.metadata = requestUpdate(d.metadata);
      continue;
    }
    if (isUnavailable(d.connections, leader) || d.fetchingFrom[leader] !== undefined) continue;
    byNode ??= new Map();
    const partitions = byNode.get(leader) ?? [];
    byNode.set(leader, partitions);
    partitions.push({
      topic: tp.topic,
      partition: tp.partition,
      fetchOffset: position,
      // the epoch the consumer knows (KIP-320), for a topic whose leader can move
      ...(leaderCanMove(d.meta, tp.topic) ? { currentLeaderEpoch: leaderEpochOf(d.meta, tp.topic, tp.partition) } : {}),
      maxRecords: d.config['max.poll.records'],
    });
  }
  if (byNode === null) return;
  for (const [leader, partitions] of byNode) {
    const correlationId = corr(d);
    const fetching = { ...d.fetching };
    for (const p of partitions) fetching[keyOf(p)] = correlationId;
    d.fetching = fetching;
    d.fetchingFrom = { ...d.fetchingFrom, [leader]: correlationId };
    const fetch = {
      correlationId,
      isolationLevel: d.config['isolation.level'],
      maxWaitMs: d.config['fetch.max.wait.ms'],
      minBytes: FETCH_MIN_BYTES,
      partitions,
    };
    sendRequest(d, out, leader, 'Fetch', fetch, true);
  }
}

/** fetch.min.bytes: its default, 1 (*simplified*: not a setting of the model's consumer). */
const FETCH_MIN_BYTES = 1;

/** The broker whose Fetch this is, no longer pending (AbstractFetch.handleFetchSuccess / handleFetchFailure). */
export function fetchAnswered(d: Draft, correlationId: number): void {
  for (const node in d.fetchingFrom)
    if (d.fetchingFrom[node] === correlationId) {
      const { [node]: _done, ...rest } = d.fetchingFrom;
      d.fetchingFrom = rest;
      return;
    }
}

/** FetchCollector.handleInitializeErrors: the fetch errors after which the consumer asks for a metadata update. */
const FETCH_METADATA_ERRORS: ReadonlySet<string> = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'REPLICA_NOT_AVAILABLE',
  'KAFKA_STORAGE_ERROR',
  'FENCED_LEADER_EPOCH',
  'OFFSET_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
]);

export function isFetchMetadataError(error: string): boolean {
  return FETCH_METADATA_ERRORS.has(error);
}

/**
 * A fetch answered with a metadata error (AbstractFetch.handleFetchSuccess): a NOT_LEADER_OR_FOLLOWER /
 * FENCED_LEADER_EPOCH answer's currentLeader (KIP-951, updatePartitionLeadership) is taken at once —
 * the next fetch goes to that leader; the error itself waits in the buffer for poll() (collectFetchErrors).
 */
function onFetchMetadataError(d: Draft, r: FetchPartitionResponse): void {
  const hinted =
    r.error === 'NOT_LEADER_OR_FOLLOWER' || r.error === 'FENCED_LEADER_EPOCH' ? applyCurrentLeader(d.meta, r, r.currentLeader) : null;
  if (hinted?.updated) d.meta = hinted.meta;
}

/**
 * The answer to the consumer's Metadata request: leaders as the cluster knows them now; a partition
 * whose leader was unknown is fetched — by a waiting poll() (the next pass of its loop), else by the next one.
 * Returns whether the answer was taken (an update, not a failed one), for the leader's held SyncGroup.
 */
export function onConsumerMetadataResponse(d: Draft, ev: EventOf<'MetadataResponse'>, out: Out): boolean {
  const payload = ev.payload;
  if (d.metadata.inFlight !== payload.correlationId) return false;
  // a topic whose leaders never move (one replica, no epochs) takes its leaders alone (consumerMetadata.ts)
  const fixed = payload.topics.filter((t) => staticTopic(d.meta, t.name));
  const attempts = d.metadata.attempts;
  const moving = fixed.length === 0 ? payload : { ...payload, topics: payload.topics.filter((t) => !staticTopic(d.meta, t.name)) };
  if (onMetadataResponse(d, moving, ev.now) === null) return false;
  // an answer without brokers is a failed update (its attempts counted): nothing learned
  const taken = d.metadata.attempts <= attempts;
  if (taken) d.meta = withStaticLeaders(d.meta, fixed);
  // endOffsets()'s awaitMetadataUpdate is over: its next round
  onEndOffsetsMetadata(d, out);
  fetchWhilePolling(d, out);
  return taken;
}

/**
 * FetchCollector.initialize → handleInitializeErrors, as poll() collects the buffered fetches that carry
 * an error: one whose partition is no longer assigned, has no valid position (AWAIT_RESET,
 * AWAIT_VALIDATION) or a position other than the offset fetched — a seek, a reset or a validation
 * since — is discarded ("Discarding stale fetch response …"). Else a metadata error asks for a metadata
 * update (FetchUtils.requestMetadataUpdate) and the partition is fetchable again; OFFSET_OUT_OF_RANGE
 * with a reset policy sends the partition AWAIT_RESET (requestOffsetResetIfPartitionAssigned) and
 * auto.offset.reset resets it, asked with the other such partitions (one ListOffsets per leader,
 * resetPositionsIfNeeded). Without a policy (`none`, !hasDefaultOffsetResetPolicy) poll() throws
 * OffsetOutOfRangeException and nothing else changes: the partition keeps its position and stays
 * FETCHING, so the next poll() fetches that offset again (and throws again) until the application
 * seeks, and a commit meanwhile (close()'s auto-commit: allConsumed) names that position. Partitions
 * in name order (Kafka: in the order their answers came).
 */
function collectFetchErrors(d: Draft, out: Out, backingOff: Set<string>): void {
  if (!d.pollWaiting || Object.keys(d.fetchErrors).length === 0) return;
  const toReset: TopicPartition[] = [];
  for (const name of Object.keys(d.fetchErrors).sort()) {
    const e = d.fetchErrors[name] as FetchError;
    const { [name]: _collected, ...rest } = d.fetchErrors;
    d.fetchErrors = rest;
    const tp = d.assignment.find((a) => keyOf(a) === name);
    if (!tp || d.positions[name] !== e.fetchOffset || awaitingValidation(d, name)) continue;
    if (e.error !== 'OFFSET_OUT_OF_RANGE') {
      // *simplified* pacing: Kafka fetches the stale leader again at every pass, as fast as it answers;
      // the model does so once per metadata update asked — while the update is still pending (the
      // leader answered the error again before the Metadata answer), the partition waits retry.backoff.ms
      if (d.metadata.updateRequested || d.metadata.inFlight !== null) {
        out.timer(`fetchRetry:${name}`, 'fetchRetry', d.config['retry.backoff.ms'], {}, true);
        backingOff.add(name);
      }
      d.metadata = requestUpdate(d.metadata);
      continue;
    }
    if (d.config['auto.offset.reset'] === 'none') {
      throwFromPoll(d, tp, out, 'OffsetOutOfRangeException');
      // the exception ends this poll(): the others wait for the next
      break;
    }
    const { [name]: _p, ...positions } = d.positions;
    d.positions = positions;
    toReset.push(tp);
  }
  resetPositions(d, toReset, out);
}

/** poll() throws `exception` for partition `tp` (now, or at the next call if none waits). */
export function throwFromPoll(d: Draft, tp: TopicPartition, out: Out, exception: ClientException): void {
  out.fact({ kind: 'clientError', client: d.client, error: exception, during: `poll (${keyOf(tp)})`, fatal: false });
  failPoll(d, out, exception);
}

/** Answers the waiting poll() with what it returns and the positions after it. */
function replyToPoll(d: Draft, out: Out, records: readonly RecordForApp[], positions: ConsumerContext['positions']): void {
  if (!d.pollWaiting) return;
  out.call(d.pollWaiting, 'reply', { call: 'poll', ok: true, records, groupMetadata: groupMetadata(d), positions });
  d.pollWaiting = null;
  armPollTimer(d, out);
}

/**
 * Hands buffered records to a waiting poll(), up to max.poll.records (FetchCollector.collectFetch).
 * A partition's position moves past its last record returned, and past the fetch's control batches
 * (and aborted data) after it only when poll() looks for one more record there
 * (CompletedFetch.fetchRecords stops at max.poll.records; nextFetchedRecord passes over what is
 * not data): when the budget ends on a fetch's last record, the position stays on the marker that
 * follows it, and that rest of the fetch (`bufferEnd` without buffered records) is passed over at
 * the next poll() — which returns, empty if nothing else is there, since the position moved (Fetch
 * `positionAdvanced`). *Partitions are served in name order* (Kafka: in the order their fetches
 * completed, the rest of a fetch first).
 */
export function servePoll(d: Draft, out: Out, backingOff: Set<string> = new Set()): void {
  // ConsumerCoordinator runs the rebalance listener inside poll(): nothing is collected or returned
  // until it returns (a Fetch answered meanwhile stays buffered; the revoked partitions' is dropped)
  if (d.inRevocationListener) return;
  collectFetchErrors(d, out, backingOff);
  if (!d.pollWaiting) return;
  const records: RecordForApp[] = [];
  const max = d.config['max.poll.records'];
  const positions = { ...d.positions };
  const buffer = { ...d.buffer };
  const bufferEnd = { ...d.bufferEnd };
  let advanced = false;
  for (const tp of [...d.assignment].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1))) {
    const name = keyOf(tp);
    const buf = buffer[name] ?? [];
    const end = bufferEnd[name];
    if (buf.length === 0) {
      // the rest of a fetch an earlier poll's budget ended in: passed over now
      if (end === undefined) continue;
      if (end > (positions[name] ?? end)) {
        positions[name] = end;
        advanced = true;
      }
      delete bufferEnd[name];
      continue;
    }
    if (records.length >= max) continue;
    const room = max - records.length;
    const take = buf.slice(0, room);
    records.push(...take);
    const rest = buf.slice(take.length);
    buffer[name] = rest;
    const next = (take[take.length - 1] as RecordForApp).offset + 1;
    if (rest.length > 0) positions[name] = next;
    else if (take.length < room) {
      // the loop looked for one more record: the fetch's tail is passed over, the fetch drained
      positions[name] = end ?? next;
      delete bufferEnd[name];
    } else {
      // the budget ended on the fetch's last record: its tail (if any) waits for the next poll()
      positions[name] = next;
      if (end === undefined || end <= next) delete bufferEnd[name];
    }
  }
  if (records.length === 0 && !advanced) return;
  d.buffer = buffer;
  d.bufferEnd = bufferEnd;
  d.positions = positions;
  trackOffsetEpochs(d);
  // records-consumed-total: Kafka adds a fetch's records when its data is drained (CompletedFetch.drain →
  // FetchMetricsAggregator), the model at the poll() that returns them
  countConsumer(d, 'recordsConsumed', records.length);
  for (const r of records)
    out.fact({
      kind: 'delivered',
      consumer: d.client,
      groupId: d.config['group.id'],
      isolationLevel: d.config['isolation.level'],
      topic: r.topic,
      partition: r.partition,
      offset: r.offset,
      key: r.key,
      value: r.value,
      headers: r.headers,
    });
  replyToPoll(d, out, records, positions);
  // ClassicKafkaConsumer.poll: "before returning the fetched records, we can send off the next round
  // of fetches" — the prefetch, for every partition with nothing left buffered
  sendFetches(d, out, backingOff);
}

/**
 * The answer to one of its Fetches (AbstractFetch.handleFetchSuccess): the broker may be fetched from
 * again, and each partition's data is buffered on its own — its records, or its error (a metadata
 * error or OFFSET_OUT_OF_RANGE: kept for poll() to collect; another: retried after retry.backoff.ms);
 * a partition seeked, revoked or reset meanwhile is passed over. Then a waiting poll() is served
 * (collecting the errors too), or fetches again.
 */
export function onFetchResponse(d: Draft, ev: EventOf<'FetchResponse'>, out: Out): void {
  fetchAnswered(d, ev.payload.correlationId);
  // a partition whose fetch failed with another error is fetched again after retry.backoff.ms (fetchRetry)
  const backingOff = new Set<string>();
  for (const r of ev.payload.partitions) if (onPartitionData(d, r, ev.payload.correlationId, out) === 'backoff') backingOff.add(keyOf(r));
  // a poll() waiting: served (and prefetching), or — nothing to return — fetching again (its next
  // pass: collectFetch found nothing, sendFetches); none waiting: buffered for the next poll()
  servePoll(d, out, backingOff);
  fetchWhilePolling(d, out, backingOff);
}

/** A Fetch answered while the member holds no partitions (rebalancing): only its broker is free again. */
export function onFetchResponseUnassigned(d: Draft, ev: EventOf<'FetchResponse'>): void {
  fetchAnswered(d, ev.payload.correlationId);
}

/**
 * FetchCollector.initialize (handleInitializeSuccess): the answer's high watermark, last stable offset
 * and log start offset become the partition's (the metrics' records-lag and records-lead). Kafka does
 * this when poll() takes up the completed fetch, the model when the answer arrives. An idle fetch
 * reports what the last one did: nothing is written then.
 */
function noteFetchedEnds(d: Draft, name: string, r: FetchPartitionResponse): void {
  const was = d.fetchedEnds[name];
  if (
    was &&
    was.highWatermark === r.highWatermark &&
    was.lastStableOffset === r.lastStableOffset &&
    was.logStartOffset === r.logStartOffset
  )
    return;
  d.fetchedEnds = {
    ...d.fetchedEnds,
    [name]: { highWatermark: r.highWatermark, lastStableOffset: r.lastStableOffset, logStartOffset: r.logStartOffset },
  };
}

function onPartitionData(d: Draft, r: FetchPartitionResponse, correlationId: number, out: Out): 'backoff' | undefined {
  const name = keyOf(r);
  if (d.fetching[name] !== correlationId) return;
  const { [name]: _done, ...fetching } = d.fetching;
  d.fetching = fetching;
  const position = d.positions[name];
  if (position === undefined) return;
  if (r.error === 'OFFSET_OUT_OF_RANGE' || isFetchMetadataError(r.error)) {
    if (r.error !== 'OFFSET_OUT_OF_RANGE') onFetchMetadataError(d, r);
    // the CompletedFetch with its error, for poll() to collect; its request fetched the position
    // (a seek or a reset since would have dropped this fetch: `fetching`)
    d.fetchErrors = { ...d.fetchErrors, [name]: { error: r.error, fetchOffset: position } };
    return;
  }
  if (r.error !== 'NONE') {
    out.timer(`fetchRetry:${name}`, 'fetchRetry', d.config['retry.backoff.ms'], {}, true);
    return 'backoff';
  }
  noteFetchedEnds(d, name, r);
  const c = collectFetched(r.topic, r.partition, r.batches, r.abortedTransactions, d.config['isolation.level'], position);
  noteFetchedEpochs(d, name, r.batches);
  for (const s of c.skipped) out.fact({ kind: 'skipped', consumer: d.client, topic: r.topic, partition: r.partition, ...s });
  if (c.records.length === 0) {
    // markers or aborted data only: the position moves past them when poll() collects this fetch
    // (FetchCollector.fetchRecords, inside poll(): at once if a poll() waits, else at the next one —
    // after that poll's auto-commit, which therefore commits the offset before them)
    if (c.nextOffset > position) d.bufferEnd = { ...d.bufferEnd, [name]: c.nextOffset };
  } else {
    d.buffer = { ...d.buffer, [name]: c.records };
    d.bufferEnd = { ...d.bufferEnd, [name]: c.nextOffset };
  }
}
