/**
 * The OffsetFetcher's ListOffsets: positions reset (auto.offset.reset, seekToBeginning, a reset after
 * OFFSET_OUT_OF_RANGE or a truncation) and endOffsets(). One ListOffsets per leader, naming every
 * partition looked up there, each with its own timestamp (OffsetFetcher.resetPositionsAsync and
 * sendListOffsetsRequests → groupListOffsetRequests → sendListOffsetRequest(node, …)); its answer is
 * handled per partition (OffsetFetcherUtils.handleListOffsetResponse: the offsets fetched, and the
 * partitions to retry — asked again together after retry.backoff.ms, grouped by leader again). A reset
 * answer is applied only to a partition still assigned and awaiting a reset of the strategy its request
 * asked (SubscriptionState.maybeSeekUnvalidated). Kafka Streams' restore asks the changelogs' ends with
 * adminClient.listOffsets, whose ListOffsetsHandler batches per leader too (buildBatchedRequest(brokerId, …)):
 * the model's restore consumer asks endOffsets().
 *
 * Simplified: Kafka's poll() sends the resets due at each pass (resetPositionsIfNeeded, nextAllowedRetry);
 * the model sends a reset when it is asked for, and a retry after retry.backoff.ms on a timer of its own.
 * endOffsets() asks a failed partition again after retry.backoff.ms (Kafka's fetchOffsetsByTimes waits
 * for every answer, then for a metadata update, and asks the rest again).
 */
import type { Out } from '../actors/out';
import { isInvalidMetadataError, requestUpdate } from '../cluster/clientMetadata';
import { isUnavailable } from '../cluster/connectionStates';
import { leaderOf } from '../cluster/metadata';
import type { ListOffsetsPartition, ListOffsetsPartitionResponse, ListOffsetsRequest, TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { corr, type Draft, sendRequest } from './consumerContext';
import type { EventOf } from './events';
import { fetchWhilePolling, throwFromPoll } from './fetcher';

/** SubscriptionState's resetStrategy: ListOffsets' timestamp −2 (earliest) or −1 (latest). */
export type ResetStrategy = 'earliest' | 'latest';
const timestampOf = (s: ResetStrategy): number => (s === 'earliest' ? -2 : -1);
const strategyOf = (timestamp: number): ResetStrategy => (timestamp === -2 ? 'earliest' : 'latest');

/**
 * OffsetFetcher.resetPositionsIfNeeded: the partitions go AWAIT_RESET with auto.offset.reset's strategy
 * (or seekToBeginning's earliest), and one ListOffsets per leader asks for them. With
 * auto.offset.reset=none there is no policy: poll() throws NoOffsetForPartitionException instead
 * (SubscriptionState.resetInitializingPositions, a partition without a committed offset) and the
 * position stays unknown.
 */
export function resetPositions(d: Draft, tps: readonly TopicPartition[], out: Out, to: ResetStrategy | null = null): void {
  if (to === null && d.config['auto.offset.reset'] === 'none') {
    for (const tp of tps) throwFromPoll(d, tp, out, 'NoOffsetForPartitionException');
    return;
  }
  if (tps.length === 0) return;
  const where = to ?? (d.config['auto.offset.reset'] === 'earliest' ? 'earliest' : 'latest');
  const resetTo = { ...d.resetTo };
  for (const tp of tps) resetTo[keyOf(tp)] = where;
  d.resetTo = resetTo;
  const partitions = tps.map((tp) => ({ topic: tp.topic, partition: tp.partition, timestamp: timestampOf(where) }));
  sendResets(d, { isolationLevel: d.config['isolation.level'], partitions }, out);
}

/**
 * OffsetFetcher.groupListOffsetRequests: the partitions by leader, in their order. A partition whose
 * leader is unknown ("Leader for partition … is unknown for fetching offset": a metadata update) or
 * inside its reconnect backoff ("… is unavailable for fetching offset until reconnect backoff expires":
 * no update, the disconnect asked for one) waits retry.backoff.ms and is asked again.
 */
function groupListOffsetRequests(d: Draft, partitions: readonly ListOffsetsPartition[]) {
  const byNode = new Map<string, ListOffsetsPartition[]>();
  const unknown: ListOffsetsPartition[] = [];
  const backingOff: ListOffsetsPartition[] = [];
  for (const p of partitions) {
    const leader = leaderOf(d.meta, p.topic, p.partition);
    if (!leader) unknown.push(p);
    else if (isUnavailable(d.connections, leader)) backingOff.push(p);
    else byNode.set(leader, [...(byNode.get(leader) ?? []), p]);
  }
  return {
    byNode,
    waiting: [
      { partitions: unknown, update: true },
      { partitions: backingOff, update: false },
    ],
  };
}

/** OffsetFetcher.resetPositionsAsync: one ListOffsets per leader, each remembered with what it asked. */
function sendResets(d: Draft, req: ListOffsetsRequest, out: Out): void {
  const { byNode, waiting } = groupListOffsetRequests(d, req.partitions);
  for (const [leader, partitions] of byNode) {
    const correlationId = corr(d);
    d.resetRequests = { ...d.resetRequests, [correlationId]: partitions };
    sendRequest(d, out, leader, 'ListOffsets', { correlationId, isolationLevel: req.isolationLevel, partitions });
  }
  for (const w of waiting)
    if (w.partitions.length > 0)
      askListOffsetsLater(d, resetRetryKey(w.partitions), -1, { ...req, partitions: w.partitions }, out, w.update);
}

/**
 * The timer of a ListOffsets asked again: a reset's, one per group of partitions (a newer one for
 * the same group replaces it); an endOffsets() request's, one per entry of its `requests`, so a reset
 * of the same partitions waiting at the same time never replaces it.
 */
const resetRetryKey = (partitions: readonly ListOffsetsPartition[]): string => `listOffsets:${partitions.map(keyOf).join(',')}`;
const endOffsetsRetryKey = (entry: number): string => `endOffsets:${entry}`;

/**
 * A ListOffsets asked again after retry.backoff.ms (`listOffsetsRetry`), with a metadata update first
 * (`update`). `background`: a partition without a usable leader, so one offline for good does not keep
 * the run going.
 */
function askListOffsetsLater(
  d: Draft,
  key: string,
  lostCorrelationId: number,
  payload: ListOffsetsRequest,
  out: Out,
  update = true,
  background = true,
): void {
  if (update) d.metadata = requestUpdate(d.metadata);
  out.timer(key, 'listOffsetsRetry', d.config['retry.backoff.ms'], { lostCorrelationId, payload }, background);
}

/** A ListOffsets lost (a disconnect, request.timeout.ms): its partitions are asked again after retry.backoff.ms. */
export function onListOffsetsLost(d: Draft, correlationId: number, lost: ListOffsetsRequest, out: Out): void {
  const { [correlationId]: _lost, ...resetRequests } = d.resetRequests;
  d.resetRequests = resetRequests;
  // a down leader refuses at once: the backoff keeps this from a tight loop
  const key = d.endOffsets?.requests[correlationId] !== undefined ? endOffsetsRetryKey(correlationId) : resetRetryKey(lost.partitions);
  askListOffsetsLater(d, key, correlationId, { isolationLevel: lost.isolationLevel, partitions: lost.partitions }, out, false, false);
}

/**
 * endOffsets(): the latest offset of each assigned partition — the LSO under read_committed, unless
 * the caller names the isolation level (Kafka Streams asks for the log end offset, read_uncommitted).
 */
export function onEndOffsets(d: Draft, call: EventOf<'endOffsets'>, out: Out): void {
  const isolationLevel = call.args.isolationLevel ?? d.config['isolation.level'];
  d.endOffsets = { from: call.from, requests: {}, offsets: {}, isolationLevel };
  askEndOffsets(
    d,
    d.assignment.map((tp) => ({ topic: tp.topic, partition: tp.partition, timestamp: -1 })),
    out,
  );
  if (Object.keys(d.endOffsets.requests).length === 0) {
    out.call(call.from, 'reply', { call: 'endOffsets', ok: true, offsets: {} });
    d.endOffsets = null;
  }
}

/**
 * OffsetFetcher.sendListOffsetsRequests: one ListOffsets per leader; a partition without a usable
 * leader waits for one (OffsetFetcherUtils: "retrying"), never left out. Each request (or wait) is
 * an entry of `requests` until its partitions are answered.
 */
function askEndOffsets(d: Draft, partitions: readonly ListOffsetsPartition[], out: Out, again?: number): void {
  const pending = d.endOffsets;
  if (!pending) return;
  const { byNode, waiting } = groupListOffsetRequests(d, partitions);
  const requests = { ...pending.requests };
  const isolationLevel = pending.isolationLevel;
  for (const [leader, ps] of byNode) {
    const correlationId = corr(d);
    requests[correlationId] = ps.map(keyOf);
    sendRequest(d, out, leader, 'ListOffsets', { correlationId, isolationLevel, partitions: ps });
  }
  let reuse = again;
  for (const w of waiting) {
    if (w.partitions.length === 0) continue;
    // a retry still without a leader keeps its entry's id
    const ticket = reuse ?? corr(d);
    reuse = undefined;
    requests[ticket] = w.partitions.map(keyOf);
    askListOffsetsLater(d, endOffsetsRetryKey(ticket), ticket, { isolationLevel, partitions: w.partitions }, out, w.update);
  }
  d.endOffsets = { ...pending, requests };
}

/** A ListOffsets answer: one of endOffsets()'s, or a reset's (then a waiting poll() fetches). */
export function onListOffsetsResponse(d: Draft, ev: EventOf<'ListOffsetsResponse'>, out: Out): void {
  const { correlationId, partitions } = ev.payload;
  if (d.endOffsets?.requests[correlationId] !== undefined) {
    onEndOffsetsAnswer(d, correlationId, partitions, out);
    return;
  }
  const asked = d.resetRequests[correlationId];
  if (!asked) return;
  const { [correlationId]: _done, ...resetRequests } = d.resetRequests;
  d.resetRequests = resetRequests;
  const retry: ListOffsetsPartition[] = [];
  let applied = false;
  for (const r of partitions) {
    const request = asked.find((p) => keyOf(p) === keyOf(r));
    if (!request) continue;
    // OffsetFetcherUtils.handleListOffsetResponse: NOT_LEADER_OR_FOLLOWER, OFFSET_NOT_AVAILABLE (a new
    // leader whose HW is behind its epoch's start) … "retrying": this partition alone, with its strategy
    if (isInvalidMetadataError(r.error) || r.error === 'OFFSET_NOT_AVAILABLE')
      retry.push({ topic: r.topic, partition: r.partition, timestamp: timestampOf(resetAskedFor(d, r)) });
    else if (r.error === 'NONE' && maybeSeekUnvalidated(d, r, strategyOf(request.timestamp))) applied = true;
  }
  if (retry.length > 0)
    askListOffsetsLater(
      d,
      resetRetryKey(retry),
      correlationId,
      { isolationLevel: d.config['isolation.level'], partitions: retry },
      out,
      true,
      false,
    );
  if (applied) fetchWhilePolling(d, out);
}

/**
 * SubscriptionState.maybeSeekUnvalidated: the answer sets the position only of a partition still
 * assigned ("no longer assigned"), still awaiting a reset ("reset is no longer needed") and of the
 * strategy this request asked ("an alternative reset has been requested": a seekToBeginning after
 * auto.offset.reset=latest asked, or the reverse, waits for its own answer). True: still assigned.
 */
function maybeSeekUnvalidated(d: Draft, r: ListOffsetsPartitionResponse, requested: ResetStrategy): boolean {
  const name = keyOf(r);
  if (!d.assignment.some((tp) => keyOf(tp) === name)) return false;
  if (d.positions[name] === undefined && resetAskedFor(d, r) === requested) d.positions = { ...d.positions, [name]: r.offset };
  return true;
}

/** One of endOffsets()'s answers: its partitions' offsets; one answered with an error is asked again (never an end offset of −1). */
function onEndOffsetsAnswer(d: Draft, correlationId: number, partitions: readonly ListOffsetsPartitionResponse[], out: Out): void {
  const pending = d.endOffsets;
  if (!pending) return;
  const names = pending.requests[correlationId] ?? [];
  const { [correlationId]: _done, ...rest } = pending.requests;
  const requests: Record<number, readonly string[]> = rest;
  const offsets = { ...pending.offsets };
  const retry: ListOffsetsPartition[] = [];
  for (const r of partitions) {
    if (!names.includes(keyOf(r))) continue;
    // OffsetFetcherUtils.handleListOffsetResponse: NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE,
    // OFFSET_NOT_AVAILABLE … are retried (after a metadata update), the other partitions kept
    if (r.error !== 'NONE') retry.push({ topic: r.topic, partition: r.partition, timestamp: -1 });
    else offsets[keyOf(r)] = r.offset;
  }
  if (retry.length > 0) {
    requests[correlationId] = retry.map(keyOf);
    askListOffsetsLater(
      d,
      endOffsetsRetryKey(correlationId),
      correlationId,
      { isolationLevel: pending.isolationLevel, partitions: retry },
      out,
    );
  }
  if (Object.keys(requests).length === 0) {
    out.call(pending.from, 'reply', { call: 'endOffsets', ok: true, offsets });
    d.endOffsets = null;
  } else d.endOffsets = { ...pending, requests, offsets };
}

/** The reset a partition awaits (its resetStrategy), else auto.offset.reset's. */
function resetAskedFor(d: Draft, tp: TopicPartition): ResetStrategy {
  return d.resetTo?.[keyOf(tp)] ?? (d.config['auto.offset.reset'] === 'earliest' ? 'earliest' : 'latest');
}

/** Still assigned and without a position: awaiting its reset. */
const awaitingReset = (d: Draft, tp: TopicPartition): boolean =>
  d.positions[keyOf(tp)] === undefined && d.assignment.some((a) => keyOf(a) === keyOf(tp));

/**
 * A ListOffsets asked again after its backoff, grouped by leader again: endOffsets()'s partitions, or
 * the partitions still awaiting a reset of the strategy it asked (another reset asked meanwhile sent its own).
 */
export function onListOffsetsRetry(d: Draft, ev: EventOf<'listOffsetsRetry'>, out: Out): void {
  const { lostCorrelationId, payload } = ev.data;
  const pending = d.endOffsets;
  if (pending && pending.requests[lostCorrelationId] !== undefined) {
    const { [lostCorrelationId]: _gone, ...requests } = pending.requests;
    d.endOffsets = { ...pending, requests };
    askEndOffsets(d, payload.partitions, out, lostCorrelationId);
    return;
  }
  const due = payload.partitions.filter((p) => awaitingReset(d, p) && resetAskedFor(d, p) === strategyOf(p.timestamp));
  if (due.length > 0) sendResets(d, { isolationLevel: payload.isolationLevel, partitions: due }, out);
}
