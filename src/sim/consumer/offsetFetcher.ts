/**
 * The OffsetFetcher's ListOffsets: positions reset (auto.offset.reset, seekToBeginning, a reset after
 * OFFSET_OUT_OF_RANGE or a truncation) and endOffsets(). One ListOffsets per leader, naming every
 * partition looked up there, each with its own timestamp (OffsetFetcher.resetPositionsAsync and
 * sendListOffsetsRequests → groupListOffsetRequests → sendListOffsetRequest(node, …)); its answer is
 * handled per partition (OffsetFetcherUtils.handleListOffsetResponse: the offsets fetched, and the
 * partitions to retry — due again after retry.backoff.ms, grouped by leader again). A reset
 * answer is applied only to a partition still assigned and awaiting a reset of the strategy its request
 * asked (SubscriptionState.maybeSeekUnvalidated). Kafka Streams' restore asks the changelogs' ends with
 * adminClient.listOffsets, whose ListOffsetsHandler batches per leader too (buildBatchedRequest(brokerId, …)):
 * the model's restore consumer asks endOffsets().
 *
 * A reset goes out from a pass of poll()'s loop, as Kafka's (ClassicKafkaConsumer.updateFetchPositions →
 * resetPositionsIfNeeded → SubscriptionState.partitionsNeedingReset(now)): a partition asked for a reset
 * is AWAIT_RESET, and each pass sends every partition due then — none whose nextAllowedRetry is still
 * ahead (request.timeout.ms after it was sent, retry.backoff.ms after it failed) — one request per
 * leader; nothing goes out between polls. endOffsets()'s rounds are endOffsets.ts.
 */
import type { Out } from '../actors/out';
import { isInvalidMetadataError, leaderCanMove, requestUpdate } from '../cluster/clientMetadata';
import { isUnavailable } from '../cluster/connectionStates';
import { leaderOf } from '../cluster/metadata';
import type { ListOffsetsPartition, ListOffsetsPartitionResponse, TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { corr, type Draft, sendRequest } from './consumerContext';
import { onEndOffsetsAnswer, onEndOffsetsLost } from './endOffsets';
import type { EventOf } from './events';
import { fetchWhilePolling, throwFromPoll } from './fetcher';

/** SubscriptionState's resetStrategy: ListOffsets' timestamp −2 (earliest) or −1 (latest). */
export type ResetStrategy = 'earliest' | 'latest';
const timestampOf = (s: ResetStrategy): number => (s === 'earliest' ? -2 : -1);
const strategyOf = (timestamp: number): ResetStrategy => (timestamp === -2 ? 'earliest' : 'latest');

/**
 * SubscriptionState.requestOffsetReset: the partitions go AWAIT_RESET with auto.offset.reset's strategy
 * (or seekToBeginning's earliest), due at once (nextRetryTimeMs cleared, even while an earlier reset's
 * request is in flight); the next pass of poll() asks for them (resetPositionsIfNeeded). With
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
  setRetryAt(
    d,
    tps.map((tp) => keyOf(tp)),
    null,
  );
}

/** SubscriptionState's nextRetryTimeMs of these partitions (null: due at once). */
function setRetryAt(d: Draft, names: readonly string[], at: number | null): void {
  const retryAt: Record<string, number> = { ...d.resetRetryAt };
  for (const name of names)
    if (at === null) delete retryAt[name];
    else retryAt[name] = at;
  if (Object.keys(retryAt).length > 0) d.resetRetryAt = retryAt;
  else delete d.resetRetryAt;
}

/** Assigned, without a position and with a reset asked for: AWAIT_RESET. */
const awaitingReset = (d: Draft, name: string): boolean =>
  d.resetTo[name] !== undefined && d.positions[name] === undefined && d.assignment.some((a) => keyOf(a) === name);

/** Whether any assigned partition awaits a reset: checked on every event a waiting poll() handles, so without allocating. */
function anyAwaitingReset(d: Draft): boolean {
  const assignment = d.assignment;
  for (let i = 0; i < assignment.length; i++) {
    const name = keyOf(assignment[i] as TopicPartition);
    if (d.resetTo[name] !== undefined && d.positions[name] === undefined) return true;
  }
  return false;
}

/** A ListOffsets in flight asks this partition's reset (of the strategy it awaits now). */
const resetInFlight = (d: Draft, name: string): boolean =>
  Object.values(d.resetRequests).some((ps) => ps.some((p) => keyOf(p) === name && strategyOf(p.timestamp) === d.resetTo[name]));

/**
 * A pass of poll()'s loop (ClassicKafkaConsumer.updateAssignmentMetadataIfNeeded → updateFetchPositions
 * → OffsetFetcher.resetPositionsIfNeeded): every partition AWAIT_RESET whose nextAllowedRetry is not
 * ahead (SubscriptionState.partitionsNeedingReset(now)), one ListOffsets per leader; each partition sent
 * is not due again for request.timeout.ms (setNextAllowedRetry). A partition whose leader is unknown or
 * backing off is not marked: it is due at the next pass. Only while a poll() waits — nothing is sent
 * between polls. While a partition awaits a reset not in flight, the loop's client.poll waits at most
 * retry.backoff.ms (pollForFetches: `pollTimeout = retryBackoffMs` while !hasAllFetchPositions), so a
 * pass comes then if nothing else wakes it first (`pollPass`, a background timer re-armed at each pass).
 * *Simplified*: every event a waiting poll() handles is a wake-up of its loop (the heartbeat thread's
 * timers too), and the loop's timeout is not shortened to the next heartbeat or auto-commit.
 */
export function resetPositionsIfNeeded(d: Draft, now: number, out: Out): void {
  if (!d.pollWaiting || !anyAwaitingReset(d)) return;
  const awaiting = d.assignment.map((tp) => keyOf(tp)).filter((name) => awaitingReset(d, name));
  const due = d.assignment.filter((tp) => awaiting.includes(keyOf(tp)) && !(now < (d.resetRetryAt?.[keyOf(tp)] ?? now)));
  if (due.length > 0) {
    const partitions = due.map((tp) => ({ topic: tp.topic, partition: tp.partition, timestamp: timestampOf(resetAskedFor(d, tp)) }));
    sendResets(d, partitions, now, out);
  }
  if (awaiting.some((name) => !resetInFlight(d, name))) out.timer('pollPass', 'pollPass', d.config['retry.backoff.ms'], {}, true);
}

/**
 * OffsetFetcher.groupListOffsetRequests: the partitions by leader, in their order. A partition whose
 * leader is unknown ("Leader for partition … is unknown for fetching offset": a metadata update) or
 * inside its reconnect backoff ("… is unavailable for fetching offset until reconnect backoff expires":
 * no update, the disconnect asked for one) is left out: a reset's is due again at the next pass of
 * poll(), an endOffsets() one is asked in the next round.
 */
export function groupListOffsetRequests(d: Draft, partitions: readonly ListOffsetsPartition[]) {
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
function sendResets(d: Draft, due: readonly ListOffsetsPartition[], now: number, out: Out): void {
  const { byNode, waiting } = groupListOffsetRequests(d, due);
  for (const [leader, partitions] of byNode) {
    const correlationId = corr(d);
    d.resetRequests = { ...d.resetRequests, [correlationId]: partitions };
    setRetryAt(d, partitions.map(keyOf), now + d.config['request.timeout.ms']);
    sendRequest(d, out, leader, 'ListOffsets', { correlationId, isolationLevel: d.config['isolation.level'], partitions });
  }
  // "Leader for partition … is unknown for fetching offset": a metadata update
  if (waiting.some((w) => w.update && w.partitions.length > 0)) d.metadata = requestUpdate(d.metadata);
}

/**
 * A ListOffsets lost (a disconnect, request.timeout.ms): an endOffsets() round fails (endOffsets.ts); a
 * reset's partitions are due again after retry.backoff.ms and a metadata update is asked for
 * (OffsetFetcherUtils.onFailedResponseForResettingPositions: requestFailed(partitions, now +
 * retryBackoffMs), metadata.requestUpdate(false)), asked by the first pass of poll() after it.
 * *Simplified*: the update only where a partition asked has a leader that can move (a replicated
 * topic), as for every refresh in the model (clientMetadata.ts leaderCanMove).
 */
export function onListOffsetsLost(d: Draft, correlationId: number, now: number): void {
  if (onEndOffsetsLost(d, correlationId)) return;
  const asked = d.resetRequests[correlationId];
  if (!asked) return;
  const { [correlationId]: _lost, ...resetRequests } = d.resetRequests;
  d.resetRequests = resetRequests;
  setRetryAt(d, asked.map(keyOf), now + d.config['retry.backoff.ms']);
  if (asked.some((p) => leaderCanMove(d.meta, p.topic))) d.metadata = requestUpdate(d.metadata);
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
  const retry: string[] = [];
  let applied = false;
  for (const r of partitions) {
    const request = asked.find((p) => keyOf(p) === keyOf(r));
    if (!request) continue;
    // OffsetFetcherUtils.handleListOffsetResponse: NOT_LEADER_OR_FOLLOWER, OFFSET_NOT_AVAILABLE (a new
    // leader whose HW is behind its epoch's start) … "retrying": this partition alone, with its strategy
    if (isInvalidMetadataError(r.error) || r.error === 'OFFSET_NOT_AVAILABLE') retry.push(keyOf(r));
    else if (r.error === 'NONE' && maybeSeekUnvalidated(d, r, strategyOf(request.timestamp))) applied = true;
  }
  if (retry.length > 0) {
    // onSuccessfulResponseForResettingPositions: requestFailed(partitionsToRetry, now + retryBackoffMs), a metadata update
    setRetryAt(d, retry, ev.now + d.config['retry.backoff.ms']);
    d.metadata = requestUpdate(d.metadata);
  }
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
  if (d.positions[name] === undefined && resetAskedFor(d, r) === requested) {
    d.positions = { ...d.positions, [name]: r.offset };
    forgetReset(d, [name]);
  }
  return true;
}

/** The reset a partition awaits (its resetStrategy), else auto.offset.reset's. */
function resetAskedFor(d: Draft, tp: TopicPartition): ResetStrategy {
  return d.resetTo?.[keyOf(tp)] ?? (d.config['auto.offset.reset'] === 'earliest' ? 'earliest' : 'latest');
}

/** Partitions no longer AWAIT_RESET (a position set, or forgotten without a reset): their strategy and retry time go. */
export function forgetReset(d: Draft, names: readonly string[] | null): void {
  if (names === null) {
    d.resetTo = {};
    delete d.resetRetryAt;
    return;
  }
  const resetTo = { ...d.resetTo };
  for (const name of names) delete resetTo[name];
  d.resetTo = resetTo;
  if (d.resetRetryAt) setRetryAt(d, names, null);
}
