/**
 * What a consumer's polls return, one partition at a time: Jepsen's Kafka checker names the
 * anomalies "non-monotonic poll" (a poll returns an offset at or below one an earlier poll
 * returned, with nothing having moved the position back) and "poll skip" (the consumer passes over
 * committed data it never returned). In Kafka a consumer holds one position per assigned partition
 * (`SubscriptionState`), which only a fetch's records move forward — by the records returned, and
 * past markers and aborted batches (`CompletedFetch.nextFetchOffset`) — until something sets it
 * again: the committed offset after an assignment (OffsetFetch), a reset (ListOffsets), a seek,
 * or a new process.
 *
 * The check follows each consumer's deliveries of each partition, starting over at each of those
 * resets (a step of the consumer that may set positions, or a crash or restart of its process).
 * Between two deliveries of one partition, without a reset, the second offset is above the first,
 * and every offset between them is accounted for: passed over as a marker or aborted data (a
 * `skipped` fact of this consumer), or not a record a reader could have been given (never
 * appended by then, a marker, data aborted by then, cut by a truncation). A partition the log
 * cleaner has cleaned, or that had an unclean election, is not checked for skips (which offsets
 * the cleaner removed is not in the facts; an unclean election rewrites offsets).
 */

import type { ActorId } from '../kernel/envelope';
import { processOf } from '../kernel/faults';
import { keyOf } from '../protocol/topicPartition';
import type { Trace } from '../run';
import type { Fact } from '../trace/facts';
import { stepsBefore } from './indexJournal';
import type { Ledger, LoggedRecord } from './invariants';
import { settledAs } from './settlement';
import { STARTS_OVER } from './startsOver';

export type PollInvariantId = 'polls-in-order';

export const POLL_INVARIANTS: Readonly<Record<PollInvariantId, string>> = {
  'polls-in-order':
    "A consumer's polls return each partition's records in offset order and pass over only markers and, with read_committed, aborted data (no non-monotonic poll, no poll skip), until its position is set again: by an assignment's committed offset, a reset, a seek or a restart.",
};

/** Steps of a consumer actor that may set its positions (labels are RPC, call and fault names). */
const SETS_POSITIONS = new Set([
  'OffsetFetchResponse',
  'ListOffsetsResponse',
  // KIP-320: a truncation detected moves the position back to where the logs diverge
  'OffsetsForLeaderEpochResponse',
  'JoinGroupResponse',
  'SyncGroupResponse',
  'partitionsAssignedDone',
  'partitionsRevokedDone',
  'seek',
  'seekToCommitted',
  'seekToBeginning',
  'seekToEnd',
  'subscribe',
  'resubscribe',
  'assign',
  'close',
]);

type Report = (invariant: PollInvariantId, step: number, message: string) => void;

interface Window {
  /** The last offset delivered, and at which step. */
  readonly last: number;
  readonly lastStep: number;
}

/**
 * Whether an offset whose appends are `versions` holds nothing a reader could have been given before
 * `step`: never appended by then, a marker, cut by a truncation, or (read_committed) data aborted
 * by then. read_committed never passes an open transaction's data either: it lies above the LSO.
 */
function notDeliverable(versions: readonly LoggedRecord[], step: number, readCommitted: boolean): boolean {
  const before = versions.filter((r) => r.step < step);
  if (before.length === 0) return true;
  return before.some(
    (r) => r.control !== null || (r.supersededAt !== null && r.supersededAt <= step) || (readCommitted && settledAs(r, 'aborted', step)),
  );
}

export function checkPolls(trace: Trace, facts: readonly { step: number; fact: Fact }[], ledger: Ledger, report: Report): void {
  // the actors behind each consumer name (`c1` is `c1.consumer`; a Streams instance's restore
  // consumer `st0-restore` is `st0.restore`): those whose steps report its polls
  const actorsOf = new Map<string, Set<ActorId>>();
  for (const s of trace.steps)
    for (const f of s.facts as readonly Fact[]) {
      if (f.kind !== 'delivered' && f.kind !== 'skipped') continue;
      const set = actorsOf.get(f.consumer) ?? new Set<ActorId>();
      set.add(s.actor);
      actorsOf.set(f.consumer, set);
    }
  /** Steps at which positions may have been set: by actor (its own steps), and by process (a crash or restart). */
  const resets = new Map<string, number[]>();
  const note = (key: string, step: number) => {
    const list = resets.get(key) ?? [];
    list.push(step);
    resets.set(key, list);
  };
  for (const s of trace.steps) {
    if (SETS_POSITIONS.has(s.label)) note(`actor:${s.actor}`, s.i);
    if (STARTS_OVER.has(s.label)) note(`process:${processOf(s.actor)}`, s.i);
  }
  const resetBetween = (consumer: string, from: number, to: number) =>
    [...(actorsOf.get(consumer) ?? [])].some((actor) =>
      [`actor:${actor}`, `process:${processOf(actor)}`].some((key) => {
        const list = resets.get(key) ?? [];
        return stepsBefore(list, to + 1) > stepsBefore(list, from);
      }),
    );
  /** Each consumer's skipped ranges per partition, in step order. */
  const skipped = new Map<string, { steps: number[]; ranges: [base: number, last: number][] }>();
  for (const { step, fact } of facts) {
    if (fact.kind !== 'skipped') continue;
    const k = `${fact.consumer}|${keyOf(fact)}`;
    const list = skipped.get(k) ?? { steps: [], ranges: [] };
    list.steps.push(step);
    list.ranges.push([fact.baseOffset, fact.lastOffset]);
    skipped.set(k, list);
  }
  /** Whether `consumer` passed over offset `o` (a skipped fact) in steps from..to. */
  const passedOver = (key: string, o: number, from: number, to: number) => {
    const list = skipped.get(key);
    if (!list) return false;
    for (let i = stepsBefore(list.steps, from), end = stepsBefore(list.steps, to + 1); i < end; i++) {
      const [base, last] = list.ranges[i] as [number, number];
      if (base <= o && o <= last) return true;
    }
    return false;
  };
  const windows = new Map<string, Window>();
  for (const { step, fact } of facts) {
    if (fact.kind !== 'delivered') continue;
    const tp = keyOf(fact);
    const key = `${fact.consumer}|${tp}`;
    const w = windows.get(key);
    windows.set(key, { last: fact.offset, lastStep: step });
    if (!w || resetBetween(fact.consumer, w.lastStep, step)) continue;
    if (fact.offset <= w.last) {
      report(
        'polls-in-order',
        step,
        `${fact.consumer} received ${tp}@${fact.offset} after ${tp}@${w.last} (step ${w.lastStep}), with nothing setting its position back in between`,
      );
      continue;
    }
    if (fact.offset === w.last + 1 || ledger.cleanedAt.has(tp) || ledger.unclean.has(tp)) continue;
    const readCommitted = fact.isolationLevel === 'read_committed';
    for (let o = w.last + 1; o < fact.offset; o++) {
      if (passedOver(key, o, w.lastStep, step)) continue;
      if (notDeliverable(ledger.versions.get(tp)?.get(o) ?? [], step, readCommitted)) continue;
      report(
        'polls-in-order',
        step,
        `${fact.consumer} received ${tp}@${fact.offset} after ${tp}@${w.last} (step ${w.lastStep}) and never returned ${tp}@${o}, which is neither a marker nor aborted data`,
      );
      break;
    }
  }
}
