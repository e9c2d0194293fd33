/**
 * KIP-320: the consumer validates its position after a leader change and detects log truncation.
 *
 * SubscriptionState.FetchPosition carries the leader epoch of the last record consumed (offsetEpoch,
 * AbstractFetch/FetchCollector: the partitionLeaderEpoch of the batch the position was last moved
 * through, CompletedFetch.lastEpoch) and the leader and epoch it was checked against (currentLeader).
 * When the metadata brings a new leader epoch for an assigned partition
 * (OffsetFetcherUtils.validatePositionsOnMetadataChange → maybeValidatePositionForCurrentLeader), a
 * position with an offsetEpoch goes AWAIT_VALIDATION and is not fetched; one without (nothing consumed
 * since it was set: a seek, a reset, a committed offset) is taken as it is (validatePosition: "no
 * epoch information … skip validation"). OffsetFetcher.validatePositionsIfNeeded asks each leader, in
 * one OffsetsForLeaderEpoch, the end offset of each position's offsetEpoch; SubscriptionState.
 * maybeCompleteValidation: an end offset below the position is a truncation — with auto.offset.reset
 * the position goes back to that end offset ("resetting offset to the first offset known to
 * diverge"), with `none` poll() throws LogTruncationException; no such epoch on the leader (−1) resets
 * by auto.offset.reset, or throws; else the position is valid. An error answer (FENCED_LEADER_EPOCH,
 * UNKNOWN_LEADER_EPOCH, NOT_LEADER_OR_FOLLOWER …) asks for a metadata update and is retried after
 * retry.backoff.ms.
 *
 * Model: validation runs where the Fetcher would fetch (sendFetches: inside poll(), as
 * ClassicKafkaConsumer.updateFetchPositions does on each pass of poll's loop). The offsetEpoch is kept
 * with the position it belongs to, so any other move of the position (seek, reset, a committed
 * offset) leaves it without one — except a committed offset with its committedLeaderEpoch, which
 * is validated at once (seekUnvalidated). A seek ends a validation awaited (positionSetWithoutEpoch).
 */
import type { Out } from '../actors/out';
import { leaderCanMove, leaderEpochOf, requestUpdate } from '../cluster/clientMetadata';
import { isUnavailable } from '../cluster/connectionStates';
import { leaderOf } from '../cluster/metadata';
import type { RecordBatch } from '../log/recordBatch';
import type { EpochEndOffset, OffsetForLeaderPartition, TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { type ConsumerContext, corr, type Draft, sendRequest } from './consumerContext';
import type { EventOf } from './events';
import { fetchWhilePolling } from './fetcher';
import { resetPositions } from './offsetFetcher';
import { failPoll } from './pollErrors';

/** A partition in AWAIT_VALIDATION: its position, the position's offsetEpoch and the leader epoch it is checked against. */
export interface Awaiting {
  readonly offset: number;
  readonly offsetEpoch: number;
  readonly leaderEpoch: number;
  /** To send; in flight (its correlation id); or waiting for its retry (validationRetry). */
  readonly state: 'toSend' | 'inFlight' | 'backoff';
  readonly correlationId: number;
}

export interface PositionValidation {
  /** FetchPosition.offsetEpoch, with the position it was taken at: it holds only while the position is there. */
  readonly offsetEpochs: Readonly<Record<string, { readonly offset: number; readonly epoch: number }>>;
  /** FetchPosition.currentLeader's epoch: the leader epoch the position was last checked against. */
  readonly leaderEpochs: Readonly<Record<string, number>>;
  readonly awaiting: Readonly<Record<string, Awaiting>>;
  /** The buffered fetch's batches, [baseOffset, lastOffset, partitionLeaderEpoch], for the offsetEpoch of a position poll() moves through them. */
  readonly fetched: Readonly<Record<string, readonly (readonly [number, number, number])[]>>;
}

export const NO_VALIDATION: PositionValidation = { offsetEpochs: {}, leaderEpochs: {}, awaiting: {}, fetched: {} };

/** The partition is in AWAIT_VALIDATION at its current position: not fetched (fetchablePartitions), not committed (allConsumed). */
export function awaitingValidation(d: Pick<ConsumerContext, 'validation' | 'positions'>, name: string): boolean {
  const a = d.validation.awaiting[name];
  return a !== undefined && a.offset === d.positions[name];
}

/** A fetch answer's batches with their leader epochs (replicated logs stamp each batch). */
export function noteFetchedEpochs(d: Draft, name: string, batches: readonly RecordBatch[]): void {
  const ranges: (readonly [number, number, number])[] = [];
  for (const b of batches) if (b.partitionLeaderEpoch !== undefined) ranges.push([b.baseOffset, b.lastOffset, b.partitionLeaderEpoch]);
  // a one-replica log stamps no epochs: nothing to keep (and no copy of the context's field)
  if (ranges.length === 0) return;
  d.validation = { ...d.validation, fetched: { ...d.validation.fetched, [name]: ranges } };
}

/**
 * After poll() moved positions through fetched batches: each moved position's offsetEpoch is the
 * epoch of the batch holding the offset before it (CompletedFetch.lastEpoch, the last batch read).
 */
export function trackOffsetEpochs(d: Draft): void {
  let offsetEpochs = d.validation.offsetEpochs;
  for (const [name, pos] of Object.entries(d.positions)) {
    if (offsetEpochs[name]?.offset === pos) continue;
    const batch = d.validation.fetched[name]?.find(([base, last]) => base <= pos - 1 && pos - 1 <= last);
    if (batch) offsetEpochs = { ...offsetEpochs, [name]: { offset: pos, epoch: batch[2] } };
  }
  if (offsetEpochs !== d.validation.offsetEpochs) d.validation = { ...d.validation, offsetEpochs };
}

/**
 * OffsetFetcher.validatePositionsIfNeeded, before the Fetcher fetches: positions whose leader epoch
 * changed go AWAIT_VALIDATION (their buffered records and fetch in flight are dropped: FetchCollector
 * returns nothing for a partition that is not fetchable), and the OffsetsForLeaderEpoch requests go out.
 */
export function validatePositionsIfNeeded(d: Draft, out: Out): void {
  const before = d.validation;
  let { leaderEpochs, awaiting } = before;
  for (const tp of d.assignment) {
    const name = keyOf(tp);
    const pos = d.positions[name];
    if (pos === undefined || !leaderCanMove(d.meta, tp.topic) || !leaderOf(d.meta, tp.topic, tp.partition)) continue;
    const epoch = leaderEpochOf(d.meta, tp.topic, tp.partition);
    const known = leaderEpochs[name];
    if (known === epoch) continue;
    leaderEpochs = { ...leaderEpochs, [name]: epoch };
    const offsetEpoch = d.validation.offsetEpochs[name];
    // a position first seen takes the current leader; one without an offsetEpoch skips validation
    if (known === undefined || offsetEpoch === undefined || offsetEpoch.offset !== pos) continue;
    awaiting = {
      ...awaiting,
      [name]: { offset: pos, offsetEpoch: offsetEpoch.epoch, leaderEpoch: epoch, state: 'toSend', correlationId: -1 },
    };
    dropFetched(d, name);
  }
  if (leaderEpochs !== before.leaderEpochs || awaiting !== before.awaiting) d.validation = { ...before, leaderEpochs, awaiting };
  if (Object.keys(d.validation.awaiting).length > 0) sendValidations(d, out);
}

/**
 * ConsumerUtils.refreshCommittedOffsets → SubscriptionState.seekUnvalidated: a position from the
 * group's committed offset takes its committedLeaderEpoch as its offsetEpoch and, when the metadata
 * knows the partition's leader epoch (currentLeader.epoch, validatePosition), goes AWAIT_VALIDATION at
 * once: OffsetsForLeaderEpoch checks it before anything is fetched from it, leader change or not.
 */
export function seekUnvalidated(d: Draft, tp: TopicPartition, offset: number, epoch: number): void {
  const name = keyOf(tp);
  d.positions = { ...d.positions, [name]: offset };
  const offsetEpochs = { ...d.validation.offsetEpochs, [name]: { offset, epoch } };
  if (!leaderCanMove(d.meta, tp.topic) || !leaderOf(d.meta, tp.topic, tp.partition)) {
    d.validation = { ...d.validation, offsetEpochs };
    return;
  }
  const leaderEpoch = leaderEpochOf(d.meta, tp.topic, tp.partition);
  d.validation = {
    ...d.validation,
    offsetEpochs,
    leaderEpochs: { ...d.validation.leaderEpochs, [name]: leaderEpoch },
    awaiting: { ...d.validation.awaiting, [name]: { offset, offsetEpoch: epoch, leaderEpoch, state: 'toSend', correlationId: -1 } },
  };
}

/**
 * A position set with no leader epoch — KafkaConsumer.seek ("Optional.empty(): This will ensure we
 * skip validation"), or one forgotten to be set again (seekToBeginning's reset): the partition is
 * FETCHING (TopicPartitionState.seekValidated / validatePosition without an offsetEpoch), so a
 * validation it awaited is over, even at the same offset, and its answer is no longer expected
 * (maybeCompleteValidation: "no longer expecting validation"). `name` null: every partition.
 */
export function positionSetWithoutEpoch(d: Draft, name: string | null): void {
  const { offsetEpochs, awaiting } = d.validation;
  if (name === null) {
    if (Object.keys(offsetEpochs).length > 0 || Object.keys(awaiting).length > 0)
      d.validation = { ...d.validation, offsetEpochs: {}, awaiting: {} };
    return;
  }
  if (offsetEpochs[name] === undefined && awaiting[name] === undefined) return;
  const { [name]: _e, ...restEpochs } = offsetEpochs;
  const { [name]: _a, ...restAwaiting } = awaiting;
  d.validation = { ...d.validation, offsetEpochs: restEpochs, awaiting: restAwaiting };
}

function dropFetched(d: Draft, name: string): void {
  const { [name]: _b, ...buffer } = d.buffer;
  const { [name]: _e, ...bufferEnd } = d.bufferEnd;
  const { [name]: _f, ...fetching } = d.fetching;
  d.buffer = buffer;
  d.bufferEnd = bufferEnd;
  d.fetching = fetching;
}

/** OffsetsForLeaderEpochUtils.prepareRequest: one request per leader, for its partitions to validate. */
function sendValidations(d: Draft, out: Out): void {
  const byLeader = new Map<string, OffsetForLeaderPartition[]>();
  for (const [name, a] of Object.entries(d.validation.awaiting)) {
    if (a.state !== 'toSend' || d.positions[name] !== a.offset) continue;
    const tp = d.assignment.find((t) => keyOf(t) === name);
    const leader = tp && leaderOf(d.meta, tp.topic, tp.partition);
    if (!tp || !leader) {
      d.metadata = requestUpdate(d.metadata);
      continue;
    }
    if (isUnavailable(d.connections, leader)) continue;
    const p = { topic: tp.topic, partition: tp.partition, currentLeaderEpoch: a.leaderEpoch, leaderEpoch: a.offsetEpoch };
    byLeader.set(leader, [...(byLeader.get(leader) ?? []), p]);
  }
  for (const [leader, partitions] of byLeader) {
    const correlationId = corr(d);
    let awaiting = d.validation.awaiting;
    for (const p of partitions)
      awaiting = { ...awaiting, [keyOf(p)]: { ...(awaiting[keyOf(p)] as Awaiting), state: 'inFlight', correlationId } };
    d.validation = { ...d.validation, awaiting };
    sendRequest(d, out, leader, 'OffsetsForLeaderEpoch', { correlationId, partitions });
  }
}

/** OffsetFetcherUtils.onSuccessfulResponseForValidatingPositions, each partition through maybeCompleteValidation. */
export function onOffsetsForLeaderEpochResponse(d: Draft, ev: EventOf<'OffsetsForLeaderEpochResponse'>, out: Out): void {
  for (const r of ev.payload.partitions) {
    const name = keyOf(r);
    const a = d.validation.awaiting[name];
    if (!a || a.state !== 'inFlight' || a.correlationId !== ev.payload.correlationId) continue;
    // the position moved meanwhile (a seek, a reset): "no longer matches the position … when the request was sent"
    if (d.positions[name] !== a.offset) setAwaiting(d, name, null);
    else if (r.error !== 'NONE') retryLater(d, name, out, d.config['retry.backoff.ms']);
    else if (r.endOffset === -1 || r.leaderEpoch === -1 || r.endOffset < a.offset) truncationDetected(d, r, a, out);
    else setAwaiting(d, name, null); // SubscriptionState.completeValidation
  }
  fetchWhilePolling(d, out);
}

/**
 * The leader's log ends the position's epoch below the position (or knows no such epoch): the
 * records the consumer read there are gone from the log, and the new leader's records at those
 * offsets would be skipped.
 */
function truncationDetected(d: Draft, r: EpochEndOffset, a: Awaiting, out: Out): void {
  const name = keyOf(r);
  const known = r.endOffset !== -1 && r.leaderEpoch !== -1;
  if (d.config['auto.offset.reset'] === 'none') {
    out.fact({ kind: 'clientError', client: d.client, error: 'LogTruncationException', during: `poll (${name})`, fatal: false });
    failPoll(d, out, 'LogTruncationException');
    // still AWAIT_VALIDATION: asked again once the request's retry time (request.timeout.ms after it was sent) passes
    retryLater(d, name, out, d.config['request.timeout.ms'], false);
    return;
  }
  setAwaiting(d, name, null);
  const text = known
    ? `truncation detected for partition ${name} at offset ${a.offset}: leader epoch ${r.leaderEpoch} ends at offset ${r.endOffset} on the leader, so the consumer resets its offset to the first offset known to diverge, ${r.endOffset}`
    : `truncation detected for partition ${name} at offset ${a.offset}: the leader has no leader epoch ${a.offsetEpoch} or earlier, so the consumer resets its offset by auto.offset.reset`;
  out.fact({ kind: 'note', actor: d.self, text });
  if (known) {
    // seekValidated(new FetchPosition(endOffset, leaderEpoch, currentLeader))
    d.positions = { ...d.positions, [name]: r.endOffset };
    d.validation = {
      ...d.validation,
      offsetEpochs: { ...d.validation.offsetEpochs, [name]: { offset: r.endOffset, epoch: r.leaderEpoch } },
    };
    return;
  }
  const { [name]: _p, ...positions } = d.positions;
  d.positions = positions;
  // requestOffsetReset: AWAIT_RESET, asked with the next pass's other resets (one ListOffsets per leader)
  resetPositions(d, [r], out);
}

/** A failed validation (an error answer, a lost request): a metadata update, the partition asked again after `ms`. */
function retryLater(d: Draft, name: string, out: Out, ms: number, update = true): void {
  const a = d.validation.awaiting[name];
  if (!a) return;
  setAwaiting(d, name, { ...a, state: 'backoff' });
  if (update) d.metadata = requestUpdate(d.metadata);
  out.timer(`validationRetry:${name}`, 'validationRetry', ms, { partition: name }, true);
}

/** An OffsetsForLeaderEpoch lost (disconnect, request.timeout.ms): OffsetFetcher's onFailure, requestFailed. */
export function onValidationLost(d: Draft, correlationId: number, out: Out): void {
  for (const [name, a] of Object.entries(d.validation.awaiting))
    if (a.state === 'inFlight' && a.correlationId === correlationId) retryLater(d, name, out, d.config['retry.backoff.ms']);
}

/** The retry time passed: the partition is asked again by a waiting poll(), else by the next one. */
export function onValidationRetry(d: Draft, ev: EventOf<'validationRetry'>, out: Out): void {
  const a = d.validation.awaiting[ev.data.partition];
  if (a?.state === 'backoff') setAwaiting(d, ev.data.partition, { ...a, state: 'toSend' });
  fetchWhilePolling(d, out);
}

function setAwaiting(d: Draft, name: string, a: Awaiting | null): void {
  const { [name]: _old, ...rest } = d.validation.awaiting;
  d.validation = { ...d.validation, awaiting: a ? { ...rest, [name]: a } : rest };
}
