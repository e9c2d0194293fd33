/**
 * The findings' questions (./indexQueries) answered from a RunIndex gathered in full: each answer
 * walks what the index holds, so a verdict made this way costs time linear in the run (hand-made
 * traces, fast mode, the whole summary). The journal's bounded answers are ./journalQueries.
 */
import { recordAddress, topicPartitionKey } from '../protocol/topicPartition';
import type { ProducerExpiry, Truncation } from './indexJournal';
import type { DueRecord, Expected, IndexQueries, Repeated } from './indexQueries';
import type { Occurrence, RawCopy, RunIndex } from './verdictIndex';
import type { CopyState } from './verdictTypes';

export const EFFECTIVE: ReadonlySet<CopyState> = new Set<CopyState>(['committed', 'plain']);

export const NO_COPIES: Record<CopyState, number> = { committed: 0, plain: 0, aborted: 0, open: 0, removed: 0 };

/** A single committed or plain copy and no recognised retry: an event written once, with nothing to say. */
/** IndexQueries.expiredBetween over a partition's expiries (in step order). */
export function expiryBetween(
  list: readonly ProducerExpiry[] | undefined,
  producerId: number,
  from: number,
  to: number,
): ProducerExpiry | undefined {
  return list?.find((x) => x.step > from && x.step < to && x.producerIds.includes(producerId));
}

/**
 * IndexQueries.cutBy over a partition's elections (all, or the unclean ones) and truncations as of
 * the step described: the first election after `step`, then the first truncation after it that cut
 * `offset`.
 */
export function cutByOf(
  elections: readonly number[] | undefined,
  truncations: readonly Truncation[] | undefined,
  offset: number,
  step: number,
): number[] {
  const election = elections?.find((s) => s > step);
  const cut = truncations?.find((x) => x.step > step && x.fromOffset <= offset && offset < x.toOffset)?.step;
  return [...(election !== undefined ? [election] : []), ...(cut !== undefined ? [cut] : [])];
}

export function isPlainOnce(copies: readonly RawCopy[], deduplicated: number): boolean {
  return copies.length === 1 && EFFECTIVE.has((copies[0] as RawCopy).state) && deduplicated === 0;
}

/** Occurrences grouped by "topic|key", in the order of each group's first. */
export function byEvent(list: readonly Occurrence[]): Map<string, Occurrence[]> {
  const m = new Map<string, Occurrence[]>();
  for (const o of list) {
    const k = `${o.topic}|${o.key}`;
    const l = m.get(k);
    if (l) l.push(o);
    else m.set(k, [o]);
  }
  return m;
}

function repeatedOf(list: readonly Occurrence[]): Repeated[] {
  const out: Repeated[] = [];
  for (const g of byEvent(list).values())
    if (g.length > 1) out.push({ key: (g[0] as Occurrence).key, topic: (g[0] as Occurrence).topic, list: g });
  return out;
}

/** Processings of one event by the instances of a group, in step order, and whose each is. */
export interface GroupProcessings {
  readonly list: Occurrence[];
  readonly by: string[];
}

/**
 * The processings of each event ("topic|key") by the members of a group, in step order: a member's
 * own in their order, a tie between members in the members' order.
 */
export function groupProcessingsOf(
  processed: ReadonlyMap<string, readonly Occurrence[]>,
  members: readonly string[],
): Map<string, GroupProcessings> {
  const all = members.flatMap((m, k) => (processed.get(m) ?? []).map((o) => ({ o, m, k })));
  all.sort((x, y) => x.o.step - y.o.step || x.k - y.k);
  const out = new Map<string, GroupProcessings>();
  for (const { o, m } of all) {
    const k = `${o.topic}|${o.key}`;
    const g = out.get(k);
    if (g) {
      g.list.push(o);
      g.by.push(m);
    } else out.set(k, { list: [o], by: [m] });
  }
  return out;
}

/**
 * The events `app` processed again (IndexQueries.repeatedProcessings): processed by it twice, or
 * first processed by it after another member of its group had processed it at an earlier step.
 */
function repeatedInGroup(own: readonly Occurrence[], app: string, group: ReadonlyMap<string, GroupProcessings>): Repeated[] {
  const out: Repeated[] = [];
  for (const [k, mine] of byEvent(own)) {
    const first = mine[0] as Occurrence;
    const all = group.get(k);
    if (!all) continue;
    const again = mine.length > 1 || all.list.some((o, n) => all.by[n] !== app && o.step < first.step);
    if (again) out.push({ key: first.key, topic: first.topic, list: all.list, by: all.by });
  }
  return out;
}

/**
 * Events a writer should have put in `topic` that `has` says have no copy there: a send() answered
 * (`results`, in order), then per writer what its script sends, what it processed from other
 * topics, or what its outbox applied — the first reason an event is expected is kept.
 */
export function missingFrom(
  has: (eventId: string) => boolean,
  results: Iterable<{ eventId: string | null; client: string }>,
  topic: string,
  writers: readonly { topic: string; writer: string; kind: string; sink?: string }[],
  intended: readonly { client: string; topic: string; eventId: string }[],
  processedEvents: (app: string) => Iterable<{ eventId: string | null; topic: string }>,
  appliedEvents: (sink: string) => Iterable<string>,
): Map<string, Expected> {
  const out = new Map<string, Expected>();
  const add = (e: Expected) => {
    if (!has(e.eventId) && !out.has(e.eventId)) out.set(e.eventId, e);
  };
  for (const r of results) if (r.eventId) add({ eventId: r.eventId, by: r.client, via: 'producer' });
  for (const w of writers) {
    if (w.topic !== topic) continue;
    if (w.kind === 'producer') {
      for (const i of intended) if (i.client === w.writer && i.topic === topic) add({ eventId: i.eventId, by: w.writer, via: 'producer' });
    } else if (w.kind === 'app') {
      for (const o of processedEvents(w.writer)) if (o.eventId && o.topic !== topic) add({ eventId: o.eventId, by: w.writer, via: 'app' });
    } else if (w.sink) for (const eventId of appliedEvents(w.sink)) add({ eventId, by: w.writer, via: 'relay' });
  }
  return out;
}

export function queriesOfIndex(index: RunIndex): IndexQueries {
  const occurrencesOf = (members: readonly string[]) =>
    members.flatMap((m) => [...(index.delivered.get(m) ?? []), ...(index.processed.get(m) ?? [])]);
  let seenBy: Map<string, Set<string>> | null = null;
  // per set of members (ids joined): what they processed, and who last read each partition
  const memo = <T>(cache: Map<string, T>, members: readonly string[], make: () => T): T => {
    const k = members.join('|');
    let v = cache.get(k);
    if (v === undefined) {
      v = make();
      cache.set(k, v);
    }
    return v;
  };
  const done = new Map<string, { byTopic: Set<string>; byKey: Set<string> }>();
  const owners = new Map<string, Map<string, string>>();
  const groups = new Map<string, Map<string, GroupProcessings>>();
  const rowsOf = (topic: string, partition: number) => index.partitions.find((p) => p.topic === topic && p.partition === partition);
  const q: IndexQueries = {
    stepTime: index.stepTime,
    partitions: index.partitions,
    recordsIn: (topic, partition, from, to) => (rowsOf(topic, partition)?.records ?? []).filter((r) => r.offset >= from && r.offset < to),
    copyAt: index.copyAt,
    anything: () => index.copies.size > 0 || index.sendResults.length > 0 || index.delivered.size > 0 || index.processed.size > 0,
    copyTopics: () => index.copies.keys(),
    resultTopics: () => index.resultsByTopic.keys(),
    tally(topic) {
      const byKey = index.copies.get(topic) ?? new Map<string, RawCopy[]>();
      const copyCounts = { ...NO_COPIES };
      const writers: string[] = [];
      for (const list of byKey.values())
        for (const c of list) {
          copyCounts[c.state] += 1;
          if (c.writer !== null) writers.push(c.writer);
        }
      return { events: byKey.size, copyCounts, writers };
    },
    *notable(topic) {
      for (const [key, raw] of index.copies.get(topic) ?? []) if (!isPlainOnce(raw, q.deduplicated(topic, key))) yield [key, raw] as const;
    },
    copiesOf: (topic, key) => index.copies.get(topic)?.get(key) ?? [],
    deduplicated: (topic, key) => index.deduplicated.get(`${topic}|${key}`)?.length ?? 0,
    missing: (topic, writers, intended) =>
      missingFrom(
        (eventId) => index.copies.get(topic)?.has(eventId) ?? false,
        index.resultsByTopic.get(topic) ?? [],
        topic,
        writers,
        intended,
        (app) => index.processed.get(app) ?? [],
        (sink) => [...(index.sideEffects.get(sink) ?? [])].filter(([, e]) => e.applied.length > 0).map(([id]) => id),
      ),
    resultsOf: (topic, eventId) => index.resultsByEvent.get(`${topic}|${eventId}`) ?? [],
    failedSendEvents: (topic) =>
      new Set(
        (index.resultsByTopic.get(topic) ?? [])
          .filter((r) => r.error !== null && !r.beforeAppend && r.eventId !== null)
          .map((r) => r.eventId as string),
      ),
    sessionsUpTo: (client, step) => (index.sessions.get(client) ?? []).filter((s) => s <= step).length,
    transactionalId: (pid) => index.transactionalIds.get(pid) ?? null,
    lastTxnState: (pid) => index.txnStates.get(pid)?.at(-1),
    lastTxnStep: (pid, to) => [...(index.txnStates.get(pid) ?? [])].reverse().find((s) => s.to === to)?.step,
    firstTxnStepFrom: (pid, to, step) => (index.txnStates.get(pid) ?? []).find((s) => s.step >= step && s.to === to)?.step,
    timedOutBetween: (tid, from, to) => (index.timedOut.get(tid) ?? []).some((s) => s >= from && s <= to),
    stopNote: (client) => index.stopNotes.get(client),
    fatalError: (client) => index.fatalErrors.get(client),
    uncleanAfter: (topic, partition, step) => (index.uncleanElections.get(topicPartitionKey(topic, partition)) ?? []).some((s) => s > step),
    cutBy(topic, partition, offset, step, unclean) {
      const key = topicPartitionKey(topic, partition);
      return cutByOf((unclean ? index.uncleanElections : index.elections).get(key), index.truncations.get(key), offset, step);
    },
    operatorAbortAfter: (topic, partition, pid, offset) =>
      (index.operatorAborts.get(topicPartitionKey(topic, partition)) ?? []).find((a) => a.producerId === pid && a.markerOffset > offset),
    expiredBetween: (topic, partition, pid, from, to) =>
      expiryBetween(index.expiries.get(topicPartitionKey(topic, partition)), pid, from, to),
    committed: (groupId, topic, partition) => index.committed.get(groupId)?.get(topicPartitionKey(topic, partition)),
    seen(topic, key) {
      if (!seenBy) {
        const m = new Map<string, Set<string>>();
        for (const list of [...index.delivered.values(), ...index.processed.values()])
          for (const o of list) {
            if (!m.has(o.topic)) m.set(o.topic, new Set());
            m.get(o.topic)?.add(o.key);
          }
        seenBy = m;
      }
      return seenBy.get(topic)?.has(key) ?? false;
    },
    deliveries(reader) {
      const occ = index.delivered.get(reader) ?? [];
      return { received: occ.length, events: byEvent(occ).size };
    },
    repeatedDeliveries: (reader) => repeatedOf(index.delivered.get(reader) ?? []),
    uncommittedDelivered(reader) {
      let n = 0;
      for (const o of index.delivered.get(reader) ?? []) {
        const s = index.copyAt(o.topic, o.partition, o.offset)?.state ?? 'removed';
        if (s === 'aborted' || s === 'open') n++;
      }
      return n;
    },
    processings(app) {
      const occ = index.processed.get(app) ?? [];
      return { processed: occ.length, events: byEvent(occ).size };
    },
    repeatedProcessings: (app, members) =>
      repeatedInGroup(
        index.processed.get(app) ?? [],
        app,
        memo(groups, members, () => groupProcessingsOf(index.processed, members)),
      ),
    lastReader(members, topic, partition) {
      const last = memo(owners, members, () => {
        const best = new Map<string, { id: string; step: number }>();
        for (const m of members)
          for (const o of occurrencesOf([m])) {
            const tp = topicPartitionKey(o.topic, o.partition);
            const b = best.get(tp);
            if (!b || o.step > b.step) best.set(tp, { id: m, step: o.step });
          }
        return new Map([...best].map(([tp, b]) => [tp, b.id]));
      });
      return last.get(topicPartitionKey(topic, partition));
    },
    firstReadOffset: (members, topic, partition) =>
      occurrencesOf(members).reduce(
        (m, o) => (o.topic === topic && o.partition === partition ? Math.min(m, o.offset) : m),
        Number.POSITIVE_INFINITY,
      ),
    processedBy(members, topic, key) {
      const d = memo(done, members, () => {
        const list = members.flatMap((m) => index.processed.get(m) ?? []);
        return { byTopic: new Set(list.map((o) => `${o.topic}|${o.key}`)), byKey: new Set(list.map((o) => o.key)) };
      });
      return topic === null ? d.byKey.has(key) : d.byTopic.has(`${topic}|${key}`);
    },
    dueCandidates(_members, topics) {
      const out: DueRecord[] = [];
      for (const p of index.partitions) {
        if (!topics.has(p.topic)) continue;
        for (const x of p.records) {
          if (x.control !== null || !EFFECTIVE.has(x.txnOutcome === null ? 'plain' : x.txnOutcome)) continue;
          const key = x.headers.event_id ?? recordAddress(p.topic, p.partition, x.offset);
          out.push({ topic: p.topic, partition: p.partition, offset: x.offset, key, eventId: x.headers.event_id ?? null });
        }
      }
      return out;
    },
    sinkNames: () => [...index.sideEffects.keys()],
    hasEffect: (sink, eventId) => index.sideEffects.get(sink)?.has(eventId) ?? false,
    sinkTally(sink) {
      let events = 0;
      let skipped = 0;
      const repeated: { eventId: string; applied: readonly number[] }[] = [];
      for (const [eventId, e] of index.sideEffects.get(sink) ?? []) {
        if (e.applied.length > 0) events++;
        skipped += e.skipped.length;
        if (e.applied.length > 1) repeated.push({ eventId, applied: e.applied });
      }
      return { events, skipped, repeated };
    },
    counts: { ...index.counts, inboxConflicts: index.inboxConflicts },
    retriesWrittenTwice() {
      let n = 0;
      const seen = new Set<string>();
      for (const c of index.allCopies) {
        if (!c.origin) continue;
        if (seen.has(c.origin)) n++;
        seen.add(c.origin);
      }
      return n;
    },
    eventsProcessedTwice() {
      const twice = new Set<string>();
      for (const list of index.processed.values()) {
        const n = new Map<string, number>();
        for (const o of list) {
          const k = (n.get(o.key) ?? 0) + 1;
          n.set(o.key, k);
          if (k > 1) twice.add(o.key);
        }
      }
      return twice.size;
    },
  };
  return q;
}
