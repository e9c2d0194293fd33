/**
 * The layered verdict: for each business event (its event_id header), what happened once and what
 * happened more than once, layer by layer — Kafka's log, delivery to each consumer, processing,
 * committed output, and each system outside Kafka — plus the operational counters the seed
 * articles ask operators to watch. Computed from the trace's facts and the logs, nothing else.
 */
import type { TraceStep } from '../kernel/simulation';
import type { Fact } from '../trace/facts';
import type { PartitionRow } from '../trace/logView';

export type LayerId = 'log' | 'delivery' | 'processing' | 'output' | 'sink' | 'loss';

export interface EventVerdict {
  readonly eventId: string;
  /** Separate application send() calls that produced this event to a source topic. */
  readonly sends: number;
  /** Data records with this event_id in source topics. */
  readonly appended: number;
  /** Records that are a second append of the same send (a producer retry without idempotence). */
  readonly retryDuplicates: number;
  /** Records in the log per consumer delivery, by consumer id. */
  readonly deliveries: Readonly<Record<string, number>>;
  readonly processed: Readonly<Record<string, number>>;
  /** Copies in output topics a read_committed reader sees (null: no output topic). */
  readonly committedOutput: number | null;
  /** All copies in output topics, aborted and open included (what read_uncommitted sees). */
  readonly outputAll: number | null;
  /** Per sink: side effects that took effect, and attempts that wrote nothing (replays, conflicts). */
  readonly sideEffects: Readonly<Record<string, { applied: number; skipped: number }>>;
}

export interface LayerFinding {
  readonly layer: LayerId;
  /** Which actor or sink the finding is about (consumer, application or sink id), if any. */
  readonly subject: string | null;
  readonly status: 'once' | 'more-than-once' | 'lost' | 'not-applicable';
  readonly sentence: string;
  /** Event ids concerned (duplicated or lost ones). */
  readonly eventIds: readonly string[];
  /** Trace steps that caused what the sentence reports. */
  readonly steps: readonly number[];
}

export interface Counters {
  readonly transactionsCommitted: number;
  readonly transactionsAborted: number;
  readonly producersFenced: number;
  readonly commitFailures: number;
  readonly retryDuplicates: number;
  readonly duplicateEventIdsSeenByApplications: number;
  readonly inboxConflicts: number;
  readonly consumerLag: Readonly<Record<string, number>>;
}

export interface Verdict {
  readonly events: readonly EventVerdict[];
  readonly layers: readonly LayerFinding[];
  readonly counters: Counters;
  /** One plain sentence per layer, in order. */
  readonly summary: readonly string[];
}

export interface VerdictInput {
  readonly steps: readonly TraceStep[];
  readonly partitions: readonly PartitionRow[];
  /** Topics written by applications as results (outputs of processing, streams, outbox relays). */
  readonly outputTopics: readonly string[];
  /** Consumers (client ids) that process records, with their isolation level and subscriptions. */
  readonly consumers: readonly { id: string; isolationLevel: string; groupId: string | null; topics?: readonly string[] }[];
  /** Applications whose processing writes to an output topic (consume-transform-produce, Streams). */
  readonly producingApps?: readonly string[];
  readonly groups: readonly { groupId: string; committed: Readonly<Record<string, number>> }[];
  /** Topics that carry no business events (Kafka Streams changelog and repartition topics). */
  readonly ignoredTopics?: readonly string[];
}

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

function eventKey(eventId: string | null, topic: string, partition: number, offset: number): string {
  return eventId ?? `${topic}-${partition}@${offset}`;
}

function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 3).join(', ');
  return ids.length > 3 ? `${shown} and ${ids.length - 3} more` : shown;
}

export function computeVerdict(input: VerdictInput): Verdict {
  const facts: { step: number; fact: Fact }[] = [];
  for (const s of input.steps) for (const f of s.facts) facts.push({ step: s.i, fact: f as Fact });
  const output = new Set(input.outputTopics);
  const ignored = new Set(input.ignoredTopics ?? []);
  const readsSource = new Set(input.consumers.filter((c) => (c.topics ?? []).some((t) => !output.has(t))).map((c) => c.id));
  const producing = input.producingApps ? new Set(input.producingApps) : null;

  interface Acc {
    origins: Set<string>;
    appended: number;
    appendSteps: number[];
    retry: number;
    deliveries: Record<string, number>;
    deliverySteps: Record<string, number[]>;
    processed: Record<string, number>;
    processSteps: Record<string, number[]>;
    outCommitted: number;
    outAll: number;
    sinks: Record<string, { applied: number; skipped: number; steps: number[] }>;
    sent: boolean;
  }
  const events = new Map<string, Acc>();
  const acc = (id: string): Acc => {
    let a = events.get(id);
    if (!a) {
      a = {
        origins: new Set(),
        appended: 0,
        appendSteps: [],
        retry: 0,
        deliveries: {},
        deliverySteps: {},
        processed: {},
        processSteps: {},
        outCommitted: 0,
        outAll: 0,
        sinks: {},
        sent: false,
      };
      events.set(id, a);
    }
    return a;
  };

  // the log: source-topic records, and which send each came from
  const appendStepByOffset = new Map<string, number>();
  for (const { step, fact } of facts)
    if (fact.kind === 'append' && fact.control === null)
      for (let o = fact.baseOffset; o <= fact.lastOffset; o++) appendStepByOffset.set(`${fact.topic}-${fact.partition}@${o}`, step);
  for (const p of input.partitions) {
    if (p.internal || ignored.has(p.topic)) continue;
    const seenOrigins = new Map<string, number>();
    for (const r of p.records) {
      if (r.control) continue;
      const id = eventKey(r.headers.event_id ?? null, p.topic, p.partition, r.offset);
      const a = acc(id);
      if (output.has(p.topic)) {
        a.outAll++;
        if (r.txnOutcome === null || r.txnOutcome === 'committed') a.outCommitted++;
        continue;
      }
      a.appended++;
      const step = appendStepByOffset.get(`${p.topic}-${p.partition}@${r.offset}`);
      if (step !== undefined) a.appendSteps.push(step);
      if (r.origin) {
        const o = `${r.origin.client}#${r.origin.ref}`;
        if (seenOrigins.has(o)) a.retry++;
        seenOrigins.set(o, r.offset);
        a.origins.add(o);
      }
    }
  }
  let committed = 0;
  let aborted = 0;
  let fenced = 0;
  let commitFailures = 0;
  let inboxConflicts = 0;
  for (const { step, fact } of facts) {
    switch (fact.kind) {
      case 'sendResult':
        if (fact.eventId) acc(fact.eventId).sent = true;
        break;
      case 'delivered': {
        if (ignored.has(fact.topic)) break;
        // a consumer of both an input and an output topic: its output copies are not extra deliveries of the input
        if (output.has(fact.topic) && readsSource.has(fact.consumer)) break;
        const a = acc(eventKey(fact.headers.event_id ?? null, fact.topic, fact.partition, fact.offset));
        a.deliveries[fact.consumer] = (a.deliveries[fact.consumer] ?? 0) + 1;
        a.deliverySteps[fact.consumer] = [...(a.deliverySteps[fact.consumer] ?? []), step];
        break;
      }
      case 'processed': {
        if (ignored.has(fact.topic)) break;
        const a = acc(fact.eventId ?? `${fact.topic}-${fact.partition}@${fact.offset}`);
        a.processed[fact.app] = (a.processed[fact.app] ?? 0) + 1;
        a.processSteps[fact.app] = [...(a.processSteps[fact.app] ?? []), step];
        break;
      }
      case 'sideEffect': {
        if (!fact.eventId) break;
        const a = acc(fact.eventId);
        const s = a.sinks[fact.sink] ?? { applied: 0, skipped: 0, steps: [] };
        a.sinks[fact.sink] = {
          applied: s.applied + (fact.applied ? 1 : 0),
          skipped: s.skipped + (fact.applied ? 0 : 1),
          steps: [...s.steps, step],
        };
        if (fact.effect === 'inbox conflict') inboxConflicts++;
        break;
      }
      case 'txnState':
        if (fact.to === 'CompleteCommit') committed++;
        if (fact.to === 'CompleteAbort') aborted++;
        break;
      case 'clientError':
        if (
          fact.fatal &&
          (fact.error === 'PRODUCER_FENCED' || fact.error === 'INVALID_PRODUCER_EPOCH' || fact.error === 'INVALID_TXN_STATE')
        )
          fenced++;
        if (fact.error === 'CommitFailedException') commitFailures++;
        break;
    }
  }

  const hasOutput = input.partitions.some((p) => output.has(p.topic) && !ignored.has(p.topic));
  const verdicts: EventVerdict[] = [...events.entries()]
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
      sideEffects: Object.fromEntries(Object.entries(a.sinks).map(([k, v]) => [k, { applied: v.applied, skipped: v.skipped }])),
    }));
  const sourceEvents = [...events.entries()].filter(([, a]) => a.appended > 0 || a.sent);

  const layers: LayerFinding[] = [];
  // 1. the log
  {
    const retried = sourceEvents.filter(([, a]) => a.retry > 0);
    const resent = sourceEvents.filter(([, a]) => a.origins.size > 1);
    const steps = [...retried, ...resent].flatMap(([, a]) => a.appendSteps);
    const appendedEvents = sourceEvents.filter(([, a]) => a.appended > 0);
    let sentence: string;
    if (appendedEvents.length === 0) sentence = 'Kafka log: nothing was written.';
    else if (retried.length === 0 && resent.length === 0) sentence = `Kafka log: each of ${appendedEvents.length} event(s) appended once.`;
    else {
      const parts: string[] = [];
      if (retried.length)
        parts.push(
          `${listIds(retried.map(([id]) => id))} appended again by a producer retry (the same send() written twice: nothing de-duplicated it)`,
        );
      if (resent.length)
        parts.push(
          `${listIds(resent.map(([id]) => id))} appended by ${resent.length === 1 ? `${(resent[0] as [string, Acc])[1].origins.size} separate send() calls` : 'separate send() calls'} — a business duplicate that only the event_id shows`,
        );
      sentence = `Kafka log: ${parts.join('; ')}.`;
    }
    layers.push({
      layer: 'log',
      subject: null,
      status: retried.length || resent.length ? 'more-than-once' : appendedEvents.length ? 'once' : 'not-applicable',
      sentence,
      eventIds: [...new Set([...retried, ...resent].map(([id]) => id))],
      steps,
    });
  }
  // 2. delivery, per consumer
  for (const c of input.consumers) {
    const got = sourceEvents.filter(([, a]) => (a.deliveries[c.id] ?? 0) > 0);
    const twice = got.filter(([, a]) => (a.deliveries[c.id] ?? 0) > 1);
    const missing = sourceEvents.filter(([, a]) => a.appended > 0 && (a.deliveries[c.id] ?? 0) === 0);
    const label = `${c.id} (${c.isolationLevel})`;
    let sentence: string;
    if (twice.length)
      sentence = `Delivery to ${label}: ${listIds(twice.map(([id]) => id))} received ${times(Math.max(...twice.map(([, a]) => a.deliveries[c.id] ?? 0)))}.`;
    else if (got.length) sentence = `Delivery to ${label}: each event received once.`;
    else sentence = `Delivery to ${label}: nothing received.`;
    if (missing.length && got.length) sentence = `${sentence.slice(0, -1)}; ${listIds(missing.map(([id]) => id))} not received.`;
    layers.push({
      layer: 'delivery',
      subject: c.id,
      status: twice.length ? 'more-than-once' : got.length ? 'once' : 'not-applicable',
      sentence,
      eventIds: twice.map(([id]) => id),
      steps: twice.flatMap(([, a]) => a.deliverySteps[c.id] ?? []),
    });
  }
  // 3. processing, per application
  const apps = [...new Set(sourceEvents.flatMap(([, a]) => Object.keys(a.processed)))].sort();
  for (const app of apps) {
    const twice = sourceEvents.filter(([, a]) => (a.processed[app] ?? 0) > 1);
    const done = sourceEvents.filter(([, a]) => (a.processed[app] ?? 0) > 0);
    layers.push({
      layer: 'processing',
      subject: app,
      status: twice.length ? 'more-than-once' : 'once',
      sentence: twice.length
        ? `Processing in ${app}: ${listIds(twice.map(([id]) => id))} processed ${times(Math.max(...twice.map(([, a]) => a.processed[app] ?? 0)))}.`
        : `Processing in ${app}: each of ${done.length} event(s) processed once.`,
      eventIds: twice.map(([id]) => id),
      steps: twice.flatMap(([, a]) => a.processSteps[app] ?? []),
    });
  }
  // 4. committed output
  if (hasOutput) {
    // what the applications that write output processed should be there once
    const processedIds = sourceEvents.filter(([, a]) => Object.keys(a.processed).some((app) => producing === null || producing.has(app)));
    const twice = processedIds.filter(([, a]) => a.outCommitted > 1);
    const missing = processedIds.filter(([, a]) => a.outCommitted === 0);
    const abortedCopies = [...events.values()].reduce((n, a) => n + (a.outAll - a.outCommitted), 0);
    let sentence = twice.length
      ? `Committed output: ${listIds(twice.map(([id]) => id))} present ${times(Math.max(...twice.map(([, a]) => a.outCommitted)))} — every reader sees the copies.`
      : missing.length
        ? `Committed output: ${listIds(missing.map(([id]) => id))} missing.`
        : 'Committed output: each input exactly once.';
    if (abortedCopies > 0)
      sentence = `${sentence.slice(0, -1)} (${abortedCopies} aborted or open cop${abortedCopies === 1 ? 'y' : 'ies'} in the log, hidden from read_committed).`;
    layers.push({
      layer: 'output',
      subject: null,
      status: twice.length ? 'more-than-once' : missing.length ? 'lost' : 'once',
      sentence,
      eventIds: [...twice, ...missing].map(([id]) => id),
      steps: [],
    });
  }
  // 5. systems outside Kafka
  const sinkIds = [...new Set([...events.values()].flatMap((a) => Object.keys(a.sinks)))].sort();
  for (const sink of sinkIds) {
    const twice = [...events.entries()].filter(([, a]) => (a.sinks[sink]?.applied ?? 0) > 1);
    const any = [...events.entries()].filter(([, a]) => (a.sinks[sink]?.applied ?? 0) > 0);
    const skipped = [...events.values()].reduce((n, a) => n + (a.sinks[sink]?.skipped ?? 0), 0);
    let sentence = twice.length
      ? `${sink}: took effect ${times(Math.max(...twice.map(([, a]) => a.sinks[sink]?.applied ?? 0)))} for ${listIds(twice.map(([id]) => id))}.`
      : `${sink}: each of ${any.length} event(s) took effect once.`;
    if (skipped) sentence = `${sentence.slice(0, -1)}; ${skipped} repeated attempt(s) changed nothing.`;
    layers.push({
      layer: 'sink',
      subject: sink,
      status: twice.length ? 'more-than-once' : 'once',
      sentence,
      eventIds: twice.map(([id]) => id),
      steps: twice.flatMap(([, a]) => a.sinks[sink]?.steps ?? []),
    });
  }
  // 6. losses
  {
    const neverLogged = [...events.entries()].filter(([, a]) => a.sent && a.appended === 0);
    const processors = apps.length > 0;
    const neverProcessed = processors ? sourceEvents.filter(([, a]) => a.appended > 0 && Object.keys(a.processed).length === 0) : [];
    const lost = [...neverLogged, ...neverProcessed];
    const parts: string[] = [];
    if (neverLogged.length) parts.push(`${listIds(neverLogged.map(([id]) => id))} never reached the log`);
    if (neverProcessed.length) parts.push(`${listIds(neverProcessed.map(([id]) => id))} never processed`);
    layers.push({
      layer: 'loss',
      subject: null,
      status: lost.length ? 'lost' : 'once',
      sentence: lost.length ? `Lost: ${parts.join('; ')}.` : 'Lost: nothing.',
      eventIds: lost.map(([id]) => id),
      steps: [],
    });
  }

  const consumerLag: Record<string, number> = {};
  for (const g of input.groups) {
    let lag = 0;
    for (const p of input.partitions) {
      if (p.internal || ignored.has(p.topic)) continue;
      const c = g.committed[`${p.topic}-${p.partition}`];
      if (c !== undefined) lag += Math.max(0, p.highWatermark - c);
    }
    consumerLag[g.groupId] = lag;
  }
  const counters: Counters = {
    transactionsCommitted: committed,
    transactionsAborted: aborted,
    producersFenced: fenced,
    commitFailures,
    retryDuplicates: verdicts.reduce((n, e) => n + e.retryDuplicates, 0),
    duplicateEventIdsSeenByApplications: verdicts.filter((e) => Object.values(e.processed).some((n) => n > 1)).length,
    inboxConflicts,
    consumerLag,
  };
  return { events: verdicts, layers, counters, summary: layers.map((l) => l.sentence) };
}
