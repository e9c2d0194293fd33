/**
 * SubscriptionState: the assigned partitions and the position of each — set by the group's
 * assignment or by assign() (no group.id), moved by seek(), forgotten when partitions are revoked
 * (EAGER: every partition at every rebalance; COOPERATIVE, Kafka Streams' main consumer: only the
 * partitions that moved, at onJoinComplete) — and the ConsumerRebalanceListener that
 * may seek before the committed offsets are fetched.
 */
import type { Out } from '../actors/out';
import type { TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { requestOffsets } from './commits';
import type { Draft } from './consumerContext';
import type { EventOf } from './events';
import { fetchWhilePolling } from './fetcher';
import { forgetReset, resetPositions } from './offsetFetcher';
import { NO_VALIDATION, positionSetWithoutEpoch } from './positionValidation';

/** Partitions revoked (eager rebalance): positions, buffers and fetches are forgotten. */
export function revokeAll(d: Draft): void {
  d.assignment = [];
  d.positions = {};
  d.buffer = {};
  d.bufferEnd = {};
  d.fetching = {};
  d.fetchErrors = {};
  d.fetchedEnds = {};
  d.offsetsRequest = null;
  d.offsetsAttempts = 0;
  d.validation = NO_VALIDATION;
  forgetReset(d, null);
}

/**
 * Some partitions revoked (COOPERATIVE: the ones that moved, at onJoinComplete): their positions,
 * buffers and fetches are forgotten; the others' stay.
 */
export function revokePartitions(d: Draft, revoked: readonly TopicPartition[]): void {
  if (revoked.length === 0) return;
  const gone = new Set(revoked.map(keyOf));
  const keep = <T>(m: Readonly<Record<string, T>>) => Object.fromEntries(Object.entries(m).filter(([tp]) => !gone.has(tp)));
  d.assignment = d.assignment.filter((tp) => !gone.has(keyOf(tp)));
  d.positions = keep(d.positions);
  d.buffer = keep(d.buffer);
  d.bufferEnd = keep(d.bufferEnd);
  d.fetching = keep(d.fetching);
  d.fetchErrors = keep(d.fetchErrors);
  d.fetchedEnds = keep(d.fetchedEnds);
  forgetReset(d, [...gone]);
}

/**
 * Every position, buffer and fetch forgotten (the assignment stays): seekToBeginning, seekToCommitted.
 * A validation awaited is over too: the positions set next carry no leader epoch of the old ones.
 */
function forgetPositions(d: Draft): void {
  d.positions = {};
  d.buffer = {};
  d.bufferEnd = {};
  d.fetching = {};
  positionSetWithoutEpoch(d, null);
  forgetReset(d, null);
}

/**
 * ConsumerCoordinator.onJoinComplete → ConsumerRebalanceListener.onPartitionsAssigned, before any
 * position is fetched: an application that keeps its offsets outside Kafka seeks to them here.
 */
export function invokePartitionsAssigned(d: Draft, out: Out): void {
  if (!d.rebalanceListener) return;
  d.awaitingListener = true;
  out.call(d.app, 'onPartitionsAssigned', { partitions: d.assignment });
}

/** The listener returned, with the offsets it sought to: fetch the group's offsets for the other partitions. */
export function onListenerDone(d: Draft, call: EventOf<'partitionsAssignedDone'>, out: Out): void {
  if (!d.awaitingListener) return;
  d.awaitingListener = false;
  for (const tp of d.assignment) {
    const offset = call.args.offsets[keyOf(tp)];
    if (offset !== undefined) d.positions = { ...d.positions, [keyOf(tp)]: offset };
  }
  requestOffsets(d, out);
}

/** assign() without a group: every partition of the subscribed topics, no commits. */
export function assignAll(d: Draft, out: Out): void {
  d.assignment = d.topics.flatMap((topic) =>
    Array.from({ length: d.meta.topics[topic]?.partitions ?? 0 }, (_, partition) => ({ topic, partition })),
  );
  // assign(): the application seeks to its own offsets right after (as its listener would)
  invokePartitionsAssigned(d, out);
  requestOffsets(d, out);
}

export function onSeek(d: Draft, call: EventOf<'seek'>, out: Out): void {
  const name = keyOf(call.args);
  d.positions = { ...d.positions, [name]: call.args.offset };
  // ClassicKafkaConsumer.seek: FETCHING, no offsetEpoch — a validation awaited there is over
  positionSetWithoutEpoch(d, name);
  forgetReset(d, [name]);
  d.buffer = { ...d.buffer, [name]: [] };
  const { [name]: _end, ...bufferEnd } = d.bufferEnd;
  d.bufferEnd = bufferEnd;
  const { [name]: _f, ...fetching } = d.fetching;
  d.fetching = fetching;
  out.call(call.from, 'reply', { call: 'seek', ok: true });
  // seek() only moves the position (SubscriptionState.seek): the next poll() fetches from it
  fetchWhilePolling(d, out);
}

/**
 * seekToBeginning(): every assigned partition goes back to its log start offset — AWAIT_RESET
 * (requestOffsetReset, earliest), asked for by the next pass of poll() (KafkaConsumer.seekToBeginning
 * sends nothing).
 */
export function onSeekToBeginning(d: Draft, call: EventOf<'seekToBeginning'>, out: Out): void {
  forgetPositions(d);
  resetPositions(d, d.assignment, out, 'earliest');
  out.call(call.from, 'reply', { call: 'seekToBeginning', ok: true });
}

/** After an aborted transaction: forget the buffers and go back to the group's committed offsets. */
export function onSeekToCommitted(d: Draft, call: EventOf<'seekToCommitted'>, out: Out): void {
  forgetPositions(d);
  requestOffsets(d, out);
  out.call(call.from, 'reply', { call: 'seekToCommitted', ok: true });
}
