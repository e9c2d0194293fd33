/**
 * The verdict's questions (./indexQueries) answered from the index journal and the verdict ledger
 * as of a step (docs/architecture.md, "Views as accumulators"): every answer is a binary search in a
 * list in step order, the items alive at the step (./intervalLog), or a read of the logs by offset
 * range — none walks the run so far. Null when the ledger does not apply at the step (a record was
 * removed, or the logs are not what the appends built): the caller then gathers the index in full.
 */
import type { PartitionLog } from '../log/partitionLog';
import { batchIndexAtOrAfter } from '../log/partitionLog';
import type { RecordBatch } from '../log/recordBatch';
import { topicPartitionKey } from '../protocol/topicPartition';
import { batchRows } from '../trace/logView';
import { before, type FoldedCopy, type IndexJournal, rawCopy, stepsBefore } from './indexJournal';
import type { DueRecord, IndexQueries, PartitionHead, Repeated } from './indexQueries';
import { cutByOf, expiryBetween, missingFrom, NO_COPIES } from './indexQueriesOfIndex';
import type { Occurrence, RawCopy } from './verdictIndex';
import type { MissingItem, ReaderLedger, VerdictLedger } from './verdictLedger';

const INF = Number.POSITIVE_INFINITY;

function byOrder(a: { order: readonly [number, number] }, b: { order: readonly [number, number] }): number {
  return a.order[0] - b.order[0] || a.order[1] - b.order[1];
}

/** The last entry before `step` of a list in step order. */
function lastBefore<T extends { readonly step: number }>(list: readonly T[] | undefined, step: number): T | undefined {
  if (!list) return undefined;
  const n = before(list, step);
  return n > 0 ? list[n - 1] : undefined;
}

export function journalQueries(
  journal: IndexJournal,
  ledger: VerdictLedger,
  step: number,
  heads: readonly { head: PartitionHead; log: PartitionLog }[],
): IndexQueries | null {
  if (ledger.unusableFrom < step) return null;
  const business = heads.filter((h) => !h.head.internal && !journal.ignored.has(h.head.topic));
  const logs = new Map<string, PartitionLog>();
  for (const { head, log } of business) {
    const a = ledger.appendSteps.get(topicPartitionKey(head.topic, head.partition));
    const n = a ? stepsBefore(a.steps, step) : 0;
    const end = n > 0 ? (a?.ends[n - 1] as number) : 0;
    // the log holds exactly what the appends before the step wrote
    if (head.logStartOffset !== 0 || head.logEndOffset !== end) return null;
    logs.set(topicPartitionKey(head.topic, head.partition), log);
  }
  const partitions = business.map((h) => h.head);
  const order = new Map(partitions.map((p, k) => [topicPartitionKey(p.topic, p.partition), k]));

  const raw = (c: FoldedCopy): RawCopy => {
    const closed = (ledger.closedAt[c.n] as number) < step;
    return rawCopy(c, closed ? (ledger.committedCopy[c.n] ? 'committed' : 'aborted') : c.transactional ? 'open' : 'plain');
  };
  const copiesOf = (topic: string, key: string): RawCopy[] => {
    const list = journal.copies.get(topic)?.get(key);
    return list ? list.slice(0, before(list, step)).map(raw) : [];
  };
  const has = (topic: string, key: string) => (journal.copies.get(topic)?.get(key)?.[0]?.step ?? INF) < step;
  const reader = (id: string) => ledger.readers.get(id);
  const tally = (r: ReaderLedger | undefined, list: readonly Occurrence[] | undefined) => ({
    count: list ? before(list, step) : 0,
    events: r ? stepsBefore(r.firstSteps, step) : 0,
  });
  const repeated = (r: ReaderLedger | undefined): Repeated[] => {
    if (!r) return [];
    const groups = r.repeatKeys
      .slice(0, stepsBefore(r.repeatSteps, step))
      .map((k) => r.groups.get(k) as { seq: number; list: Occurrence[] });
    return groups
      .sort((a, b) => a.seq - b.seq)
      .map((g) => {
        const list = g.list.slice(0, before(g.list, step));
        return { key: (list[0] as Occurrence).key, topic: (list[0] as Occurrence).topic, list };
      });
  };
  const reads = (client: string, topic: string, partition: number) => {
    const r = ledger.reads.get(`${client}|${topicPartitionKey(topic, partition)}`);
    const n = r ? stepsBefore(r.steps, step) : 0;
    return r && n > 0 ? { step: r.steps[n - 1] as number, min: r.minOffsets[n - 1] as number } : undefined;
  };
  const txnSteps = (pid: number, to: string) => {
    const list = ledger.txnSteps.get(`${pid}|${to}`) ?? [];
    return { list, n: stepsBefore(list, step) };
  };

  return {
    stepTime: journal.stepTimeBefore(step),
    partitions,
    recordsIn(topic, partition, from, to) {
      const log = logs.get(topicPartitionKey(topic, partition));
      if (!log) return [];
      // from the batch holding `from` to the log's end: the markers after decide the outcome
      const batches: RecordBatch[] = [];
      for (let k = batchIndexAtOrAfter(log, from); k < log.batches.length; k++) batches.push(log.batches.at(k) as RecordBatch);
      return batchRows(batches).filter((r) => r.offset >= from && r.offset < to);
    },
    copyAt(topic, partition, offset) {
      let c = journal.copiesAt.get(topicPartitionKey(topic, partition))?.get(offset);
      while (c && !(c.step < step)) c = c.prev;
      return c ? raw(c) : undefined;
    },
    anything: () => ledger.firstActivity < step || (journal.all[0]?.step ?? INF) < step,
    copyTopics: () => [...journal.copies.keys()].filter((t) => (ledger.topics.get(t)?.firstCopies[0] ?? INF) < step),
    resultTopics: () => [...ledger.resultTopics].filter(([, s]) => s < step).map(([t]) => t),
    tally(topic) {
      const t = ledger.topics.get(topic);
      if (!t) return { events: 0, copyCounts: { ...NO_COPIES }, writers: [] };
      const committed = stepsBefore(t.commits, step);
      const aborted = stepsBefore(t.aborts, step);
      const copyCounts = {
        committed,
        plain: stepsBefore(t.plain, step),
        aborted,
        open: stepsBefore(t.transactional, step) - committed - aborted,
        removed: 0,
      };
      const writers = [...t.writers].filter(([, s]) => s < step).map(([w]) => w);
      return { events: stepsBefore(t.firstCopies, step), copyCounts, writers };
    },
    notable(topic) {
      const t = ledger.topics.get(topic);
      if (!t) return [];
      const keys = new Set(t.notableKeys.slice(0, stepsBefore(t.notableSteps, step)));
      for (const k of t.openNotable.aliveAt(step)) keys.add(k);
      return [...keys]
        .sort((a, b) => (t.keySeq.get(a) as number) - (t.keySeq.get(b) as number))
        .map((k) => [k, copiesOf(topic, k)] as const);
    },
    copiesOf,
    deduplicated: (topic, key) => stepsBefore(journal.deduplicated.get(`${topic}|${key}`) ?? [], step),
    missing(topic, writers, intended) {
      const alive = ledger.topics.get(topic)?.missing.aliveAt(step) ?? [];
      const of = (via: MissingItem['via'], by?: string) =>
        alive.filter((m) => m.via === via && (by === undefined || m.by === by)).sort(byOrder);
      const relayOf = (sink: string) => writers.find((w) => w.kind === 'relay' && w.sink === sink && w.topic === topic)?.writer;
      return missingFrom(
        (eventId) => has(topic, eventId),
        of('producer').map((m) => ({ eventId: m.eventId, client: m.by })),
        topic,
        writers,
        intended,
        // what the application processed from other topics (the topic itself never owes its own)
        (app) => of('app', app).map((m) => ({ eventId: m.eventId, topic: '' })),
        (sink) => {
          const relay = relayOf(sink);
          return relay === undefined ? [] : of('relay', relay).map((m) => m.eventId);
        },
      );
    },
    resultsOf(topic, eventId) {
      const refs = [...(ledger.resultRefs.get(`${topic}|${eventId}`) ?? [])].sort(byOrder);
      const out = [];
      for (const r of refs) {
        const last = lastBefore(journal.results.get(r.client)?.get(r.ref), step);
        if (last) out.push(last);
      }
      return out;
    },
    failedSendEvents(topic) {
      const failed = ledger.failedSends.get(topic);
      return failed ? new Set(failed.eventIds.slice(0, stepsBefore(failed.steps, step))) : [];
    },
    sessionsUpTo: (client, s) => stepsBefore(journal.sessions.get(client) ?? [], Math.min(s + 1, step)),
    transactionalId: (pid) => lastBefore(journal.transactionalIds.get(pid), step)?.id ?? null,
    lastTxnState: (pid) => lastBefore(journal.txnStates.get(pid), step),
    lastTxnStep(pid, to) {
      const { list, n } = txnSteps(pid, to);
      return n > 0 ? list[n - 1] : undefined;
    },
    firstTxnStepFrom(pid, to, from) {
      const { list, n } = txnSteps(pid, to);
      const k = from === Number.NEGATIVE_INFINITY ? 0 : stepsBefore(list, from);
      return k < n ? list[k] : undefined;
    },
    timedOutBetween(tid, from, to) {
      const list = journal.timedOut.get(tid) ?? [];
      const k = from === Number.NEGATIVE_INFINITY ? 0 : stepsBefore(list, from);
      return k < stepsBefore(list, step) && (list[k] as number) <= to;
    },
    stopNote: (client) => lastBefore(journal.stopNotes.get(client), step),
    fatalError(client) {
      const e = journal.fatalErrors.get(client);
      return e && e.step < step ? e : undefined;
    },
    uncleanAfter(topic, partition, s) {
      const list = journal.uncleanElections.get(topicPartitionKey(topic, partition)) ?? [];
      const n = stepsBefore(list, step);
      return n > 0 && (list[n - 1] as number) > s;
    },
    cutBy(topic, partition, offset, s, unclean) {
      const key = topicPartitionKey(topic, partition);
      const elections = (unclean ? journal.uncleanElections : journal.elections).get(key) ?? [];
      const truncations = journal.truncations.get(key) ?? [];
      return cutByOf(elections.slice(0, stepsBefore(elections, step)), truncations.slice(0, before(truncations, step)), offset, s);
    },
    operatorAbortAfter(topic, partition, pid, offset) {
      const list = journal.operatorAborts.get(topicPartitionKey(topic, partition)) ?? [];
      return list.slice(0, before(list, step)).find((a) => a.producerId === pid && a.markerOffset > offset);
    },
    expiredBetween(topic, partition, pid, from, to) {
      const list = journal.expiries.get(topicPartitionKey(topic, partition)) ?? [];
      return expiryBetween(list.slice(0, before(list, step)), pid, from, to);
    },
    committed(groupId, topic, partition) {
      const g = journal.committed.get(groupId);
      return g && g.first < step ? lastBefore(g.byTp.get(topicPartitionKey(topic, partition)), step) : undefined;
    },
    seen: (topic, key) => (ledger.seenAt.get(`${topic}|${key}`) ?? INF) < step,
    deliveries(id) {
      const t = tally(reader(`d:${id}`), journal.delivered.get(id));
      return { received: t.count, events: t.events };
    },
    repeatedDeliveries: (id) => repeated(reader(`d:${id}`)),
    uncommittedDelivered(id) {
      const r = reader(`d:${id}`);
      return r ? stepsBefore(r.uncommittedIn, step) - stepsBefore(r.uncommittedOut, step) : 0;
    },
    processings(id) {
      const t = tally(reader(`p:${id}`), journal.processed.get(id));
      return { processed: t.count, events: t.events };
    },
    // the ledger's groups are the applications' (verdictAppsOf), the ones `members` is drawn from
    repeatedProcessings(id) {
      const r = reader(`p:${id}`);
      const group = ledger.groupProcessed.get(ledger.groupKeyOf(id));
      if (!r || !group) return [];
      return r.againKeys
        .slice(0, stepsBefore(r.againSteps, step))
        .sort((a, b) => (r.groups.get(a)?.seq as number) - (r.groups.get(b)?.seq as number))
        .map((k) => {
          const g = group.get(k) as { list: Occurrence[]; by: string[] };
          const n = before(g.list, step);
          const list = g.list.slice(0, n);
          return { key: (list[0] as Occurrence).key, topic: (list[0] as Occurrence).topic, list, by: g.by.slice(0, n) };
        });
    },
    lastReader(members, topic, partition) {
      let best: { id: string; step: number } | undefined;
      for (const m of members) {
        const r = reads(m, topic, partition);
        if (r && (!best || r.step > best.step)) best = { id: m, step: r.step };
      }
      return best?.id;
    },
    firstReadOffset: (members, topic, partition) => Math.min(INF, ...members.map((m) => reads(m, topic, partition)?.min ?? INF)),
    processedBy: (members, topic, key) =>
      members.some((m) =>
        topic === null
          ? (ledger.processedKeyAt.get(m)?.get(key) ?? INF) < step
          : (ledger.processedAt.get(m)?.get(`${topic}|${key}`) ?? INF) < step,
      ),
    dueCandidates(members, topics, unapplied) {
      const copies = new Map<number, FoldedCopy>();
      const lists =
        unapplied !== undefined
          ? [ledger.sinks.get(unapplied)?.unapplied.aliveAt(step) ?? []]
          : members.map((m) => ledger.unprocessed.get(m)?.aliveAt(step) ?? []);
      for (const list of lists) for (const { copy } of list) if (topics.has(copy.topic)) copies.set(copy.n, copy);
      const rank = (c: FoldedCopy) => order.get(c.tp) ?? INF;
      return [...copies.values()]
        .sort((a, b) => rank(a) - rank(b) || a.offset - b.offset)
        .map((c): DueRecord => ({ topic: c.topic, partition: c.partition, offset: c.offset, key: c.key, eventId: ledger.eventIdOf(c) }));
    },
    sinkNames: () =>
      [...journal.sideEffects].filter(([, byEvent]) => (byEvent.values().next().value?.first ?? INF) < step).map(([sink]) => sink),
    hasEffect: (sink, eventId) => (journal.sideEffects.get(sink)?.get(eventId)?.first ?? INF) < step,
    sinkTally(sink) {
      const s = ledger.sinks.get(sink);
      if (!s) return { events: 0, skipped: 0, repeated: [] };
      const ids = s.repeatIds.slice(0, stepsBefore(s.repeatSteps, step));
      ids.sort((a, b) => (s.seq.get(a) as number) - (s.seq.get(b) as number));
      const repeatedIds = ids.map((eventId) => {
        const applied = s.applied.get(eventId) ?? [];
        return { eventId, applied: applied.slice(0, stepsBefore(applied, step)) };
      });
      return { events: stepsBefore(s.firstApplied, step), skipped: stepsBefore(s.skipped, step), repeated: repeatedIds };
    },
    counts: {
      committed: stepsBefore(journal.counts.committed, step),
      aborted: stepsBefore(journal.counts.aborted, step),
      fenced: stepsBefore(journal.counts.fenced, step),
      fatal: stepsBefore(journal.counts.fatal, step),
      commitFailures: stepsBefore(journal.counts.commitFailures, step),
      inboxConflicts: stepsBefore(journal.inboxConflicts, step),
    },
    retriesWrittenTwice: () => stepsBefore(ledger.retrySteps, step),
    eventsProcessedTwice: () => stepsBefore(ledger.twiceSteps, step),
  };
}
