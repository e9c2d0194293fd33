/**
 * What a run has done up to a step, counted straight from its facts, for the readiness checklist:
 * transactions aborted (and whether transaction.timeout.ms expired one), producers fenced, producers
 * made fatal otherwise, commits that failed, and how many times each application processed each event. Counted here rather than
 * taken from the verdict, so the checklist reads the facts the same way at any step.
 */

import { recordAddress } from '../protocol/topicPartition';
import type { Trace } from '../run';
import type { Fact } from '../trace/facts';
import { isFence, isProducerFatalNotFence } from './producerFatal';

export interface RunSoFar {
  /** Steps taken (0 = nothing has happened yet). */
  readonly step: number;
  /** True at the end of the run: what depends on the run is final. */
  readonly final: boolean;
  readonly transactionsAborted: number;
  readonly producersFenced: number;
  /**
   * Producers in FATAL_ERROR for an error that is no fence (INVALID_PRODUCER_ID_MAPPING: the
   * transactional.id expired; an IllegalStateException that poisoned it; INVALID_TRANSACTION_TIMEOUT …),
   * by client, with that error: the application can only close them, and what they held is not written.
   */
  readonly producersFatal: ReadonlyMap<string, string>;
  readonly commitFailures: number;
  /** A coordinator aborted a transaction because transaction.timeout.ms expired. */
  readonly timedOut: boolean;
  /** Per application, the events (event_id, or topic-partition@offset) it processed more than once. */
  readonly processedTwice: ReadonlyMap<string, readonly string[]>;
  /**
   * Per application, the event_ids it processed from two or more different records of one topic: a
   * business duplicate (the same event sent twice), not a redelivery of one record, and not one event
   * passing two stages (a Streams input and its repartition topic).
   */
  readonly processedFromTwoRecords: ReadonlyMap<string, readonly string[]>;
  /** Per topic, the event_ids appended to it so far (whether or not the log still holds them). */
  readonly appended: ReadonlyMap<string, ReadonlySet<string>>;
  /** Per sink, the event_ids that took effect there more than once (applied side effects). */
  readonly appliedTwice: ReadonlyMap<string, readonly string[]>;
}

export function runSoFar(trace: Trace, atStep: number = trace.steps.length): RunSoFar {
  const step = Math.max(0, Math.min(atStep, trace.steps.length));
  let aborted = 0;
  let fenced = 0;
  let commitFailures = 0;
  const fatal = new Map<string, string>();
  let timedOut = false;
  const counts = new Map<string, Map<string, number>>();
  const records = new Map<string, Map<string, Map<string, Set<string>>>>();
  const applied = new Map<string, Map<string, number>>();
  const appended = new Map<string, Set<string>>();
  for (let i = 0; i < step; i++) {
    for (const raw of trace.steps.at(i)?.facts ?? []) {
      const f = raw as Fact;
      if (f.kind === 'txnState' && f.to === 'CompleteAbort') aborted++;
      else if (f.kind === 'clientError') {
        if (isFence(f)) fenced++;
        else if (isProducerFatalNotFence(f) && !fatal.has(f.client)) fatal.set(f.client, f.error);
        if (f.error === 'CommitFailedException') commitFailures++;
      } else if (f.kind === 'note' && /transaction\.timeout\.ms/.test(f.text)) timedOut = true;
      else if (f.kind === 'append' && f.control === null) {
        const ids = appended.get(f.topic) ?? new Set<string>();
        for (const id of f.eventIds) if (id !== null) ids.add(id);
        appended.set(f.topic, ids);
      } else if (f.kind === 'sideEffect' && f.applied && f.eventId !== null) {
        const bySink = applied.get(f.sink) ?? new Map<string, number>();
        bySink.set(f.eventId, (bySink.get(f.eventId) ?? 0) + 1);
        applied.set(f.sink, bySink);
      } else if (f.kind === 'processed') {
        const id = f.eventId ?? recordAddress(f.topic, f.partition, f.offset);
        const app = counts.get(f.app) ?? new Map<string, number>();
        app.set(id, (app.get(id) ?? 0) + 1);
        counts.set(f.app, app);
        if (f.eventId !== null) {
          const byId = records.get(f.app) ?? new Map<string, Map<string, Set<string>>>();
          const byTopic = byId.get(f.eventId) ?? new Map<string, Set<string>>();
          byTopic.set(f.topic, (byTopic.get(f.topic) ?? new Set<string>()).add(`${f.partition}@${f.offset}`));
          byId.set(f.eventId, byTopic);
          records.set(f.app, byId);
        }
      }
    }
  }
  const processedTwice = new Map<string, string[]>();
  for (const [app, byId] of counts) {
    const twice = [...byId].filter(([, n]) => n > 1).map(([id]) => id);
    if (twice.length) processedTwice.set(app, twice);
  }
  const processedFromTwoRecords = new Map<string, string[]>();
  for (const [app, byId] of records) {
    const twice = [...byId].filter(([, byTopic]) => [...byTopic.values()].some((at) => at.size > 1)).map(([id]) => id);
    if (twice.length) processedFromTwoRecords.set(app, twice);
  }
  const appliedTwice = new Map<string, string[]>();
  for (const [sink, byId] of applied) {
    const twice = [...byId].filter(([, n]) => n > 1).map(([id]) => id);
    if (twice.length) appliedTwice.set(sink, twice);
  }
  return {
    step,
    final: step >= trace.steps.length,
    transactionsAborted: aborted,
    producersFenced: fenced,
    producersFatal: fatal,
    commitFailures,
    timedOut,
    processedTwice,
    processedFromTwoRecords,
    appended,
    appliedTwice,
  };
}
