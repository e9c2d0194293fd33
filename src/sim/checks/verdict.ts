/**
 * The layered verdict: exactly once of what, inside which boundary. For every topic a writer
 * produces to, what each copy of each business event (its event_id header) is; for every reader,
 * what it received of what it can see, or where it is stalled behind the LSO; for every application,
 * what it processed and what its group never did; for every system outside Kafka, what took effect;
 * and every loss with its kind and cause. Computed from the trace's facts and the logs, nothing else
 * (plus which processes are down at the step described). Types: verdictTypes.ts; sentences:
 * verdictText.ts.
 */
import type { TraceStep } from '../kernel/simulation';
import { keyOf } from '../protocol/topicPartition';
import type { PartitionRow } from '../trace/logView';
import { buildIndex } from './indexJournal';
import type { IndexQueries } from './indexQueries';
import { queriesOfIndex } from './indexQueriesOfIndex';
import { eventKey, type RunIndex } from './verdictIndex';
import { type AppSpec, deliveryFinding, processingFinding, processingLosses, type ReaderContext, sinkFinding } from './verdictReaders';
import { aboveHighWatermarkOf, findingText } from './verdictText';
import { classifyCopies, type TopicWriter, topicFindings } from './verdictTopics';
import type { Counters, EventVerdict, LayerFinding, Loss, LossFinding, Verdict, VerdictView } from './verdictTypes';

export type { TopicWriter } from './verdictTopics';
export type * from './verdictTypes';

export interface VerdictConsumer {
  readonly id: string;
  readonly isolationLevel: string;
  readonly groupId: string | null;
  readonly topics?: readonly string[];
  readonly autoOffsetReset?: string;
}

export interface VerdictApp extends AppSpec {}

export interface VerdictInput {
  readonly steps: readonly TraceStep[];
  readonly partitions: readonly PartitionRow[];
  /** Consumers (client ids) with their isolation level, group and subscriptions. */
  readonly consumers: readonly VerdictConsumer[];
  /** Applications that process records (consumer applications, Kafka Streams), with the sink they write to. */
  readonly apps?: readonly VerdictApp[];
  /** Who produces to each topic: producer applications, processing applications and Streams, outbox relays. */
  readonly writers?: readonly TopicWriter[];
  /** Systems outside Kafka (sink ids). */
  readonly sinks?: readonly string[];
  /** The event ids the producer scripts send, per client and topic. */
  readonly intendedSends?: readonly { client: string; topic: string; eventId: string }[];
  /** Processes that are down, or applications that stopped for good, at the step described. */
  readonly stopped?: Readonly<Record<string, 'down' | 'stopped'>>;
  /** Topics written by applications as results (besides those `writers` names). */
  readonly outputTopics?: readonly string[];
  readonly groups: readonly { groupId: string; committed: Readonly<Record<string, number>> }[];
  /** Topics that carry no business events (Kafka Streams changelog and repartition topics). */
  readonly ignoredTopics?: readonly string[];
  /** The step described is the end of the run: what has not happened by now never will. */
  readonly final?: boolean;
}

function eventVerdicts(index: RunIndex, q: IndexQueries, outputs: ReadonlySet<string>): EventVerdict[] {
  interface Acc {
    origins: Set<string>;
    appended: number;
    retry: number;
    deliveries: Record<string, number>;
    processed: Record<string, number>;
    outCommitted: number;
    outAll: number;
    sinks: Record<string, { applied: number; skipped: number }>;
  }
  const events = new Map<string, Acc>();
  const acc = (id: string): Acc => {
    let a = events.get(id);
    if (!a) {
      a = { origins: new Set(), appended: 0, retry: 0, deliveries: {}, processed: {}, outCommitted: 0, outAll: 0, sinks: {} };
      events.set(id, a);
    }
    return a;
  };
  for (const [topic, byKey] of index.copies)
    for (const [key, raw] of byKey) {
      const a = acc(key);
      const output = outputs.has(topic);
      for (const c of raw.length > 1 ? classifyCopies(q, raw) : raw) {
        if (c.state === 'removed') continue;
        if (output) {
          a.outAll++;
          if (c.state === 'committed' || c.state === 'plain') a.outCommitted++;
          continue;
        }
        a.appended++;
        if ('cause' in c && c.cause === 'retry') a.retry++;
      }
      if (!output) for (const c of raw) if (c.origin) a.origins.add(c.origin);
    }
  for (const r of index.sendResults) if (r.eventId) acc(r.eventId);
  for (const [consumer, list] of index.delivered)
    for (const o of list) acc(o.key).deliveries[consumer] = (acc(o.key).deliveries[consumer] ?? 0) + 1;
  for (const [app, list] of index.processed) for (const o of list) acc(o.key).processed[app] = (acc(o.key).processed[app] ?? 0) + 1;
  for (const [sink, byEvent] of index.sideEffects)
    for (const [eventId, e] of byEvent) acc(eventId).sinks[sink] = { applied: e.applied.length, skipped: e.skipped.length };
  const hasOutput = index.partitions.some((p) => outputs.has(p.topic));
  return [...events.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([eventId, a]) => ({
      eventId,
      sends: a.origins.size,
      appended: a.appended,
      retryDuplicates: a.retry,
      deliveries: a.deliveries,
      processed: a.processed,
      committedOutput: hasOutput ? a.outCommitted : null,
      outputAll: hasOutput ? a.outAll : null,
      sideEffects: a.sinks,
    }));
}

function counters(index: IndexQueries, input: Omit<VerdictInput, 'steps'>): Counters {
  const consumerLag: Record<string, number> = {};
  for (const g of input.groups) {
    let lag = 0;
    for (const p of index.partitions) {
      const c = g.committed[keyOf(p)];
      if (c !== undefined) lag += Math.max(0, p.highWatermark - c);
    }
    consumerLag[g.groupId] = lag;
  }
  return {
    transactionsCommitted: index.counts.committed,
    transactionsAborted: index.counts.aborted,
    producersFenced: index.counts.fenced,
    producersFatal: index.counts.fatal,
    commitFailures: index.counts.commitFailures,
    retryDuplicates: index.retriesWrittenTwice(),
    duplicateEventIdsSeenByApplications: index.eventsProcessedTwice(),
    inboxConflicts: index.counts.inboxConflicts,
    consumerLag,
  };
}

export function computeVerdict(input: VerdictInput): Verdict {
  return verdictOfIndex(buildIndex(input.steps, input.partitions, new Set(input.ignoredTopics ?? [])), input);
}

/** The verdict from an index already gathered (a view's accumulator, ./indexJournal); `input.steps` is not read. */
export function verdictOfIndex(index: RunIndex, input: Omit<VerdictInput, 'steps'>): Verdict {
  const q = queriesOfIndex(index);
  const view = verdictView(q, input);
  return { events: eventVerdicts(index, q, outputsOf(input)), ...view };
}

function outputsOf(input: Omit<VerdictInput, 'steps'>): Set<string> {
  const writers = input.writers ?? [];
  return new Set([...(input.outputTopics ?? []), ...writers.filter((w) => w.kind !== 'producer').map((w) => w.topic)]);
}

/**
 * The verdict's findings and counters (all of it but the row of every event) from the index's
 * answers (./indexQueries): what the verdict panel, the embed and the exported figure show.
 */
export function verdictView(index: IndexQueries, input: Omit<VerdictInput, 'steps'>): VerdictView {
  const writers = input.writers ?? [];
  const outputs = outputsOf(input);
  const stopped = input.stopped ?? {};
  const final = input.final ?? false;
  const readers = input.consumers.map((c) => ({
    id: c.id,
    groupId: c.groupId,
    isolationLevel: c.isolationLevel,
    topics: c.topics ?? [],
    ...(c.autoOffsetReset ? { autoOffsetReset: c.autoOffsetReset } : {}),
  }));
  const apps: AppSpec[] = [...(input.apps ?? [])];
  const sinks = input.sinks ?? [...index.sinkNames()].sort();
  const rctx: ReaderContext = { index, readers, apps, sinks, stopped, final, rows: input.partitions };
  const seen = (topic: string, key: string) => index.seen(topic, key);

  const findings: Omit<LayerFinding, 'sentence'>[] = [];
  const topics = topicFindings({ index, writers, intended: input.intendedSends ?? [], stopped, final, seen }, outputs);
  findings.push(...topics.filter((t) => t.layer === 'log'), ...topics.filter((t) => t.layer === 'output'));
  for (const r of readers) findings.push(deliveryFinding(rctx, r));
  const lostInProcessing = processingLosses(rctx);
  for (const a of [...apps].sort((x, y) => (x.id < y.id ? -1 : 1)))
    findings.push(processingFinding(rctx, a, lostInProcessing.get(a.id) ?? []));
  for (const sink of sinks) findings.push(sinkFinding(rctx, sink, lostInProcessing));
  const losses: Loss[] = findings.flatMap((f) => ('losses' in f ? (f.losses as readonly Loss[]) : []));
  const lossFinding: Omit<LossFinding, 'sentence'> = {
    layer: 'loss',
    subject: null,
    status: losses.length ? 'lost' : index.anything() ? 'once' : 'not-applicable',
    losses,
    eventIds: [...new Set(losses.map((l) => l.eventId))],
    steps: [...new Set(losses.flatMap((l) => l.steps))].sort((a, b) => a - b),
  };
  findings.push(lossFinding);
  const aboveHw = aboveHighWatermarkOf(findings);
  const layers = findings.map((f) => ({ ...f, sentence: findingText(f as LayerFinding, 'en', aboveHw) }) as LayerFinding);
  return { layers, counters: counters(index, input), summary: layers.map((l) => l.sentence) };
}

export { eventKey };
