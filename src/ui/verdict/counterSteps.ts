/**
 * The steps behind each operational counter of the verdict, so that every count on screen links to
 * where it happened. Counted from the same facts computeVerdict counts (a test keeps them equal).
 */
import type { Fact, ListLike, TraceStep } from '../../sim/views';
import { isFence, isProducerFatalNotFence, recordAddress } from '../../sim/views';

export type CounterId =
  | 'transactionsCommitted'
  | 'transactionsAborted'
  | 'producersFenced'
  | 'producersFatal'
  | 'commitFailures'
  | 'retryDuplicates'
  | 'duplicateEventIdsSeenByApplications'
  | 'inboxConflicts';

/**
 * Steps (trace indexes, one entry per counted fact) for the fact-based counters, up to `upTo` steps
 * taken. `ignoredTopics` are the topics the verdict leaves out (Kafka Streams' changelog and
 * repartition topics carry no business events), so that both count the same.
 */
export function counterSteps(
  steps: ListLike<TraceStep>,
  upTo: number,
  ignoredTopics: ReadonlySet<string> = new Set(),
): Record<CounterId, number[]> {
  const out: Record<CounterId, number[]> = {
    transactionsCommitted: [],
    transactionsAborted: [],
    producersFenced: [],
    producersFatal: [],
    commitFailures: [],
    retryDuplicates: [],
    duplicateEventIdsSeenByApplications: [],
    inboxConflicts: [],
  };
  const seenOrigins = new Set<string>();
  const fatalClients = new Set<string>();
  const processed = new Map<string, number[]>();
  for (const s of steps) {
    if (s.i >= upTo) break;
    for (const raw of s.facts) {
      const f = raw as Fact;
      switch (f.kind) {
        case 'txnState':
          if (f.to === 'CompleteCommit') out.transactionsCommitted.push(s.i);
          if (f.to === 'CompleteAbort') out.transactionsAborted.push(s.i);
          break;
        case 'clientError':
          if (isFence(f)) out.producersFenced.push(s.i);
          else if (isProducerFatalNotFence(f) && !fatalClients.has(f.client)) {
            fatalClients.add(f.client);
            out.producersFatal.push(s.i);
          }
          if (f.error === 'CommitFailedException') out.commitFailures.push(s.i);
          break;
        case 'sideEffect':
          if (f.effect === 'inbox conflict') out.inboxConflicts.push(s.i);
          break;
        case 'append':
          if (f.control === null && !ignoredTopics.has(f.topic) && !f.topic.startsWith('__'))
            for (const o of f.origins) {
              if (!o) continue;
              const key = `${o.client}#${o.ref}`;
              if (seenOrigins.has(key)) out.retryDuplicates.push(s.i);
              seenOrigins.add(key);
            }
          break;
        case 'processed': {
          if (ignoredTopics.has(f.topic)) break;
          const key = f.eventId ?? recordAddress(f.topic, f.partition, f.offset);
          processed.set(`${f.app}|${key}`, [...(processed.get(`${f.app}|${key}`) ?? []), s.i]);
          break;
        }
      }
    }
  }
  // an event processed more than once: the steps where it was processed again
  for (const list of processed.values()) if (list.length > 1) out.duplicateEventIdsSeenByApplications.push(...list.slice(1));
  out.duplicateEventIdsSeenByApplications.sort((a, b) => a - b);
  return out;
}

/** The steps of every counter over a whole trace, computed once per trace. */
const whole = new WeakMap<object, Record<CounterId, number[]>>();

/**
 * counterSteps at any step without another pass over the trace: each counter's steps only grow
 * with the run (a step is counted by what came before it, never by what comes after), so the
 * lists at `upTo` are the whole run's lists cut at `upTo` — one binary search each.
 */
export function counterStepsAt(
  trace: { readonly steps: ListLike<TraceStep> },
  upTo: number,
  ignoredTopics: ReadonlySet<string> = new Set(),
): Record<CounterId, number[]> {
  let all = whole.get(trace);
  if (!all) {
    all = counterSteps(trace.steps, Number.POSITIVE_INFINITY, ignoredTopics);
    whole.set(trace, all);
  }
  const out = {} as Record<CounterId, number[]>;
  for (const [id, list] of Object.entries(all) as [CounterId, number[]][]) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((list[mid] as number) < upTo) lo = mid + 1;
      else hi = mid;
    }
    out[id] = list.slice(0, lo);
  }
  return out;
}
