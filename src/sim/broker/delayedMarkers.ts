/**
 * A WriteTxnMarkers request waiting for replication (KafkaApis.handleWriteTxnMarkersRequest appends
 * the markers with ReplicaManager.appendRecords(requiredAcks = -1, timeout = request.timeout.ms)):
 * the answer is sent once every marker of a replicated partition has its HW past it, or the
 * partition ended otherwise (DelayedProduce: NOT_ENOUGH_REPLICAS_AFTER_APPEND, NOT_LEADER_OR_FOLLOWER,
 * REQUEST_TIMED_OUT on expiry). Pure list operations; the broker's replication state holds the list.
 */
import type { Out, PendingRequest } from '../actors/out';
import type { KafkaError } from '../protocol/errors';
import type { ErrorOrNone, WriteTxnMarkersResponse } from '../protocol/messages';
import { topicPartitionKey } from '../protocol/topicPartition';

/** One marker partition whose answer waits for the HW to reach `requiredOffset` (marker offset + 1). */
export interface MarkerWait {
  readonly producerId: number;
  readonly topic: string;
  readonly partition: number;
  readonly requiredOffset: number;
}

export interface DelayedMarkers {
  readonly id: number;
  readonly request: PendingRequest;
  /** The answer as it will be sent; a waiting partition reads REQUEST_TIMED_OUT (DelayedProduce's initial status). */
  readonly answer: WriteTxnMarkersResponse['markers'];
  readonly waiting: readonly MarkerWait[];
}

/** The timer of a delayed marker write. */
export const markersTimerKey = (id: number) => `markers:${id}`;

function setError(answer: DelayedMarkers['answer'], w: MarkerWait, error: ErrorOrNone): DelayedMarkers['answer'] {
  return answer.map((m) =>
    m.producerId !== w.producerId
      ? m
      : { ...m, partitions: m.partitions.map((p) => (p.topic === w.topic && p.partition === w.partition ? { ...p, error } : p)) },
  );
}

/**
 * DelayedProduce.tryComplete for the marker writes waiting on partition `key`: `check` gives a
 * waiting partition's result (null: keep waiting). A write with nothing left waiting is answered.
 */
export function settleMarkers(
  list: readonly DelayedMarkers[],
  key: string,
  check: (w: MarkerWait) => KafkaError | 'NONE' | null,
  out: Out,
): readonly DelayedMarkers[] {
  if (!list.some((d) => d.waiting.some((w) => topicPartitionKey(w.topic, w.partition) === key))) return list;
  const still: DelayedMarkers[] = [];
  for (const d of list) {
    let answer = d.answer;
    const waiting: MarkerWait[] = [];
    for (const w of d.waiting) {
      const result = topicPartitionKey(w.topic, w.partition) === key ? check(w) : null;
      if (result === null) waiting.push(w);
      else answer = setError(answer, w, result);
    }
    if (waiting.length > 0) still.push(waiting.length === d.waiting.length ? d : { ...d, answer, waiting });
    else {
      out.cancel(markersTimerKey(d.id));
      out.reply(d.request, 'WriteTxnMarkersResponse', { markers: answer });
    }
  }
  return still;
}

/** DelayedProduce.onExpiration: the partitions still waiting answer REQUEST_TIMED_OUT (the markers stay in the log). */
export function expireMarkers(list: readonly DelayedMarkers[], id: number, out: Out): readonly DelayedMarkers[] {
  const d = list.find((x) => x.id === id);
  if (!d) return list;
  out.reply(d.request, 'WriteTxnMarkersResponse', { markers: d.answer });
  return list.filter((x) => x !== d);
}
