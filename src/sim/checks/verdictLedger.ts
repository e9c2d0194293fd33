/**
 * The verdict kept as the run goes (docs/architecture.md, "Views as accumulators"): folded after
 * the index journal (./indexJournal) from the same facts, it keeps what the journal's lists cannot
 * say by a prefix — each copy's transaction outcome and the step its marker closed it, the events
 * with something to say per topic, the records a group or a sink has yet to take in, the events a
 * writer owes a topic — as counts by step and as items alive over spans of steps (./intervalLog).
 * ./journalQueries answers the verdict's questions from it at any step in bounded time.
 *
 * It reads the logs of the step as the appends built them: it applies while no record was removed
 * (no truncation, compaction or leader change, no offset written twice); `usableAt` says so.
 */
import { keyOf, topicPartitionKey } from '../protocol/topicPartition';
import type { Fact } from '../trace/facts';
import type { FoldedCopy, IndexJournal } from './indexJournal';
import { IntervalLog } from './intervalLog';
import type { Occurrence } from './verdictIndex';

export interface LedgerApp {
  readonly id: string;
  readonly groupId: string | null;
  readonly topics: readonly string[];
  readonly sink: string | null;
}

export interface LedgerWriter {
  readonly topic: string;
  readonly writer: string;
  readonly kind: string;
  readonly sink?: string;
}

/** An event a writer owes a topic, alive while the topic has no copy of it. */
export interface MissingItem {
  readonly eventId: string;
  readonly by: string;
  readonly via: 'producer' | 'app' | 'relay';
  /** Its place among the reasons of its kind (results: client and ref; others: when it arose). */
  readonly order: readonly [number, number];
}

/** Per topic: what its copies are, counted by step. */
export class TopicLedger {
  readonly plain: number[] = [];
  readonly transactional: number[] = [];
  readonly commits: number[] = [];
  readonly aborts: number[] = [];
  /** The step of each event's first copy, in order. */
  readonly firstCopies: number[] = [];
  readonly writers = new Map<string, number>();
  /** Each event's place in the order of first copies. */
  readonly keySeq = new Map<string, number>();
  /** Events with an open copy: notable while it is open. */
  readonly openNotable: IntervalLog<string>;
  /** Events notable for good (a second copy, an aborted one, a recognised retry), with the step. */
  readonly notableSteps: number[] = [];
  readonly notableKeys: string[] = [];
  readonly notableSet = new Set<string>();
  readonly missing: IntervalLog<MissingItem>;
  /** Missing items per event id, to close when a copy arrives. */
  readonly missingIds = new Map<string, number[]>();
  readonly missingMade = new Set<string>();
  constructor(every: number) {
    this.openNotable = new IntervalLog(every);
    this.missing = new IntervalLog(every);
  }
}

/** Per reader (consumer or application): its occurrences, counted by step. */
export class ReaderLedger {
  /** The step each "topic|key" was first received, in order. */
  readonly firstSteps: number[] = [];
  /** Events received a second time: the step, and the event. */
  readonly repeatSteps: number[] = [];
  readonly repeatKeys: string[] = [];
  readonly groups = new Map<string, { seq: number; list: Occurrence[] }>();
  /** Received copies still open or aborted: entered at the delivery, left when a commit marker closes the copy. */
  readonly uncommittedIn: number[] = [];
  readonly uncommittedOut: number[] = [];
  /**
   * Of an application: the events it processed again — twice itself, or first after another
   * instance of its group had processed it at an earlier step —: the step it did, and the event.
   */
  readonly againSteps: number[] = [];
  readonly againKeys: string[] = [];
  readonly again = new Set<string>();
}

/** Processings of one event by the instances of a group, in step order (a tie in the group's order). */
export interface GroupProcessingLedger {
  readonly list: Occurrence[];
  readonly by: string[];
  /** Each one's instance's place in its group. */
  readonly rank: number[];
}

/** Per "client|topic-partition": when the client read from it and the lowest offset so far. */
interface ReadSteps {
  readonly steps: number[];
  readonly minOffsets: number[];
}

export interface DueItem {
  readonly copy: FoldedCopy;
}

/** Per sink: its effects counted by step. */
export class SinkLedger {
  readonly firstApplied: number[] = [];
  readonly skipped: number[] = [];
  readonly repeatSteps: number[] = [];
  readonly repeatIds: string[] = [];
  readonly applied = new Map<string, number[]>();
  readonly seq = new Map<string, number>();
  readonly unapplied: IntervalLog<DueItem>;
  readonly unappliedIds = new Map<string, number[]>();
  constructor(every: number) {
    this.unapplied = new IntervalLog(every);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function got<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

export class VerdictLedger {
  /** The first step that removed a record or wrote an offset twice: the ledger applies before it. */
  unusableFrom = Number.POSITIVE_INFINITY;
  /** Per copy (its place in the journal): the step its marker closed it, and whether it committed. */
  readonly closedAt: number[] = [];
  readonly committedCopy: boolean[] = [];
  private readonly openTxn = new Map<string, Map<number, FoldedCopy[]>>();
  /** Per copy, the readers that received it while open (a commit takes them out of the uncommitted count). */
  private readonly pendingReaders = new Map<number, ReaderLedger[]>();
  readonly topics = new Map<string, TopicLedger>();
  readonly readers = new Map<string, ReaderLedger>();
  readonly reads = new Map<string, ReadSteps>();
  /** The step each "topic|key" was first received or processed. */
  readonly seenAt = new Map<string, number>();
  /** Per application, the step it first processed each "topic|key", and each key in any topic. */
  readonly processedAt = new Map<string, Map<string, number>>();
  readonly processedKeyAt = new Map<string, Map<string, number>>();
  private readonly processedCount = new Map<string, number>();
  private readonly twiceKeys = new Set<string>();
  readonly twiceSteps: number[] = [];
  readonly retrySteps: number[] = [];
  private readonly origins = new Set<string>();
  /** Per application: the records it has yet to process. */
  readonly unprocessed = new Map<string, IntervalLog<DueItem>>();
  private readonly unprocessedIds = new Map<string, number[]>();
  readonly sinks = new Map<string, SinkLedger>();
  /** Per "topic-partition": the steps of its appends and the log end offset after each. */
  readonly appendSteps = new Map<string, { steps: number[]; ends: number[] }>();
  /** The step of the first result of each client, and each of its refs: sendResults' order. */
  readonly clientSeq = new Map<string, number>();
  private readonly refSeen = new Set<string>();
  /** Per "topic|eventId": the send()s that carried it (client, ref). */
  readonly resultRefs = new Map<string, { client: string; ref: number; order: readonly [number, number] }[]>();
  /** Per "producerId|state": the steps of the coordinator's transitions to it. */
  readonly txnSteps = new Map<string, number[]>();
  readonly resultTopics = new Map<string, number>();
  /**
   * Per topic, the send() results that told a failure after the record had left send() (not
   * `beforeAppend`): their steps and events, in step order — few in any run. What the verdict reads
   * for "written although its send() failed" (verdictTopics `writtenThoughFailed`).
   */
  readonly failedSends = new Map<string, { steps: number[]; eventIds: string[] }>();
  firstActivity = Number.POSITIVE_INFINITY;
  private readonly refSeq = new Map<string, number>();
  /** Occurrences taken so far per "d:consumer" / "p:app" (the journal's lists, in order). */
  private readonly taken = new Map<string, number>();
  /** Copies so far per "topic|key". */
  private readonly copyCount = new Map<string, number>();
  /** Per sink: the topics of the groups whose applications write to it (what the sink finding reads). */
  private readonly sinkTopics = new Map<string, Set<string>>();
  /** Per application: its group (group.id or application.id; alone without one) and its place in it. */
  private readonly groupOfApp = new Map<string, { key: string; rank: number }>();
  /** Per group, per "topic|key": every processing of the event by its instances. */
  readonly groupProcessed = new Map<string, Map<string, GroupProcessingLedger>>();

  constructor(
    private readonly journal: IndexJournal,
    private readonly apps: readonly LedgerApp[],
    private readonly writers: readonly LedgerWriter[],
    private readonly every: number,
  ) {
    const groupOf = (a: LedgerApp) => a.groupId ?? `app:${a.id}`;
    const sizes = new Map<string, number>();
    for (const a of apps) {
      const rank = sizes.get(groupOf(a)) ?? 0;
      sizes.set(groupOf(a), rank + 1);
      if (!this.groupOfApp.has(a.id)) this.groupOfApp.set(a.id, { key: groupOf(a), rank });
    }
    for (const a of apps)
      if (a.sink)
        for (const m of apps)
          if (groupOf(m) === groupOf(a)) for (const t of m.topics) got(this.sinkTopics, a.sink, () => new Set<string>()).add(t);
  }

  topic(name: string): TopicLedger {
    return got(this.topics, name, () => new TopicLedger(this.every));
  }

  private reader(id: string): ReaderLedger {
    return got(this.readers, id, () => new ReaderLedger());
  }

  /** The group of an application (an application the ledger was not told of: alone). */
  groupKeyOf(app: string): string {
    return this.groupOfApp.get(app)?.key ?? `app:${app}`;
  }

  sink(id: string): SinkLedger {
    return got(this.sinks, id, () => new SinkLedger(this.every));
  }

  /** Folds one step's facts, after the journal has. */
  fold(i: number, facts: readonly unknown[]): void {
    for (const raw of facts) this.foldFact(i, raw as Fact);
  }

  private business(topic: string): boolean {
    return !topic.startsWith('__') && !this.journal.ignored.has(topic);
  }

  private activity(i: number): void {
    if (i < this.firstActivity) this.firstActivity = i;
  }

  private foldFact(i: number, f: Fact): void {
    switch (f.kind) {
      case 'append': {
        if (!this.business(f.topic)) break;
        const tp = keyOf(f);
        const a = got(this.appendSteps, tp, () => ({ steps: [], ends: [] }));
        a.steps.push(i);
        a.ends.push(f.lastOffset + 1);
        if (f.control !== null) this.closeTxn(i, tp, f.producerId, f.control === 'COMMIT');
        else for (let o = f.baseOffset; o <= f.lastOffset; o++) this.copyAppended(i, this.journal.copiesAt.get(tp)?.get(o) as FoldedCopy);
        break;
      }
      case 'duplicate': {
        const at = this.journal.copiesAt.get(topicPartitionKey(f.topic, f.partition));
        const n = Math.max(1, f.lastSequence - f.baseSequence + 1);
        for (let o = f.baseOffset; o < f.baseOffset + n; o++) {
          const c = at?.get(o);
          if (c) this.notableForGood(i, c.topic, c.key);
        }
        break;
      }
      case 'cleaned':
      case 'truncated':
      case 'leaderChange':
        this.unusableFrom = Math.min(this.unusableFrom, i);
        break;
      case 'sendResult':
        if (this.journal.ignored.has(f.topic)) break;
        this.activity(i);
        if (!this.resultTopics.has(f.topic)) this.resultTopics.set(f.topic, i);
        if (f.error !== null && !f.beforeAppend && f.eventId) {
          const failed = got(this.failedSends, f.topic, () => ({ steps: [], eventIds: [] }));
          failed.steps.push(i);
          failed.eventIds.push(f.eventId);
        }
        if (!this.clientSeq.has(f.client)) this.clientSeq.set(f.client, this.clientSeq.size);
        if (!this.refSeen.has(`${f.client}#${f.ref}`)) {
          this.refSeen.add(`${f.client}#${f.ref}`);
          const refSeq = this.refSeq.get(f.client) ?? 0;
          this.refSeq.set(f.client, refSeq + 1);
          if (f.eventId) {
            const order = [this.clientSeq.get(f.client) as number, refSeq] as const;
            push(this.resultRefs, `${f.topic}|${f.eventId}`, { client: f.client, ref: f.ref, order });
            this.owed(i, f.topic, f.eventId, f.client, 'producer', [this.clientSeq.get(f.client) as number, refSeq]);
          }
        }
        break;
      case 'delivered':
      case 'processed': {
        if (this.journal.ignored.has(f.topic)) break;
        this.activity(i);
        const by = f.kind === 'delivered' ? f.consumer : f.app;
        const list = (f.kind === 'delivered' ? this.journal.delivered : this.journal.processed).get(by) as Occurrence[];
        const k = `${f.kind}|${by}`;
        const n = this.taken.get(k) ?? 0;
        this.taken.set(k, n + 1);
        this.occurred(i, by, list[n] as Occurrence, f.kind === 'delivered');
        break;
      }
      case 'sideEffect':
        if (f.eventId) this.effect(i, f.sink, f.eventId, f.applied);
        break;
      case 'txnState':
        push(this.txnSteps, `${f.producerId}|${f.to}`, i);
        break;
    }
  }

  /** The event is notable in its topic for good from step `i` on. */
  private notableForGood(i: number, topic: string, key: string): void {
    const t = this.topic(topic);
    if (t.notableSet.has(key)) return;
    t.notableSet.add(key);
    t.notableSteps.push(i);
    t.notableKeys.push(key);
  }

  private copyAppended(i: number, c: FoldedCopy): void {
    if (c.prev) this.unusableFrom = Math.min(this.unusableFrom, i);
    const t = this.topic(c.topic);
    const copies = (this.copyCount.get(`${c.topic}|${c.key}`) ?? 0) + 1;
    this.copyCount.set(`${c.topic}|${c.key}`, copies);
    if (copies === 1) {
      t.firstCopies.push(i);
      t.keySeq.set(c.key, t.keySeq.size);
    } else this.notableForGood(i, c.topic, c.key);
    if (c.writer !== null && !t.writers.has(c.writer)) t.writers.set(c.writer, i);
    if (c.origin) {
      if (this.origins.has(c.origin)) this.retrySteps.push(i);
      this.origins.add(c.origin);
    }
    // the events the topic was owed: it has them now
    for (const id of t.missingIds.get(c.key) ?? []) t.missing.close(id, i);
    t.missingIds.delete(c.key);
    this.closedAt[c.n] = Number.POSITIVE_INFINITY;
    this.committedCopy[c.n] = false;
    if (c.transactional) {
      t.transactional.push(i);
      const open = got(
        got(this.openTxn, c.tp, () => new Map<number, FoldedCopy[]>()),
        c.producerId,
        () => [],
      );
      open.push(c);
      (c as FoldedCopy & { notableId?: number }).notableId = t.openNotable.open(i, c.key);
    } else {
      t.plain.push(i);
      this.becameDue(i, c);
    }
  }

  /** A transaction marker of the producer in the partition: its open copies commit or abort. */
  private closeTxn(i: number, tp: string, producerId: number, commit: boolean): void {
    const open = this.openTxn.get(tp)?.get(producerId) ?? [];
    this.openTxn.get(tp)?.delete(producerId);
    for (const c of open) {
      this.closedAt[c.n] = i;
      this.committedCopy[c.n] = commit;
      const t = this.topic(c.topic);
      t.openNotable.close((c as FoldedCopy & { notableId: number }).notableId, i);
      if (commit) {
        t.commits.push(i);
        for (const r of this.pendingReaders.get(c.n) ?? []) r.uncommittedOut.push(i);
        this.becameDue(i, c);
      } else {
        t.aborts.push(i);
        this.notableForGood(i, c.topic, c.key);
      }
      this.pendingReaders.delete(c.n);
    }
  }

  /** A committed or plain copy: due to every application that reads its topic, and to their sinks. */
  private becameDue(i: number, c: FoldedCopy): void {
    const done = `${c.topic}|${c.key}`;
    for (const a of this.apps) {
      if (!a.topics.includes(c.topic)) continue;
      if (!this.processedAt.get(a.id)?.has(done)) {
        const log = got(this.unprocessed, a.id, () => new IntervalLog<DueItem>(this.every));
        push(this.unprocessedIds, `${a.id}|${done}`, log.open(i, { copy: c }));
      }
    }
    const eventId = this.eventIdOf(c);
    if (eventId === null) return;
    for (const [sink, topics] of this.sinkTopics)
      if (topics.has(c.topic) && !this.sink(sink).seq.has(eventId)) {
        const s = this.sink(sink);
        push(s.unappliedIds, eventId, s.unapplied.open(i, { copy: c }));
      }
  }

  /** The event_id header of a copy (its key, unless the key is its place in the log). */
  eventIdOf(c: FoldedCopy): string | null {
    return c.key === `${topicPartitionKey(c.topic, c.partition)}@${c.offset}` ? null : c.key;
  }

  private occurred(i: number, by: string, o: Occurrence, delivered: boolean): void {
    const r = this.reader(`${delivered ? 'd' : 'p'}:${by}`);
    const gk = `${o.topic}|${o.key}`;
    const g = r.groups.get(gk);
    if (!g) {
      r.groups.set(gk, { seq: r.groups.size, list: [o] });
      r.firstSteps.push(i);
    } else {
      g.list.push(o);
      if (g.list.length === 2) {
        r.repeatSteps.push(i);
        r.repeatKeys.push(gk);
      }
    }
    if (!this.seenAt.has(gk)) this.seenAt.set(gk, i);
    const rs = got(this.reads, `${by}|${topicPartitionKey(o.topic, o.partition)}`, () => ({ steps: [], minOffsets: [] }));
    rs.steps.push(i);
    rs.minOffsets.push(Math.min(o.offset, rs.minOffsets[rs.minOffsets.length - 1] ?? Number.POSITIVE_INFINITY));
    if (delivered) {
      const c = this.journal.copiesAt.get(topicPartitionKey(o.topic, o.partition))?.get(o.offset);
      if (c?.transactional && !this.committedCopy[c.n]) {
        r.uncommittedIn.push(i);
        if (this.closedAt[c.n] === Number.POSITIVE_INFINITY) push(this.pendingReaders, c.n, r);
      }
      return;
    }
    this.processedInGroup(i, by, r, gk, o);
    const at = got(this.processedAt, by, () => new Map<string, number>());
    if (!at.has(gk)) {
      at.set(gk, i);
      const ids = this.unprocessedIds.get(`${by}|${gk}`) ?? [];
      for (const id of ids) this.unprocessed.get(by)?.close(id, i);
      this.unprocessedIds.delete(`${by}|${gk}`);
    }
    const byKey = got(this.processedKeyAt, by, () => new Map<string, number>());
    if (!byKey.has(o.key)) byKey.set(o.key, i);
    const n = (this.processedCount.get(`${by}|${o.key}`) ?? 0) + 1;
    this.processedCount.set(`${by}|${o.key}`, n);
    if (n === 2 && !this.twiceKeys.has(o.key)) {
      this.twiceKeys.add(o.key);
      this.twiceSteps.push(i);
    }
    // an application that writes a topic owes it what it processed from other topics
    if (o.eventId)
      for (const w of this.writers)
        if (w.kind === 'app' && w.writer === by && w.topic !== o.topic) this.owed(i, w.topic, o.eventId, by, 'app', [i, 0]);
  }

  /**
   * A processing by `app` among its group's processings of the event: a repeat when the app had
   * processed the event already, or another instance of its group had at an earlier step.
   */
  private processedInGroup(i: number, app: string, r: ReaderLedger, gk: string, o: Occurrence): void {
    const { key, rank } = this.groupOfApp.get(app) ?? { key: `app:${app}`, rank: 0 };
    const g = got(
      got(this.groupProcessed, key, () => new Map<string, GroupProcessingLedger>()),
      gk,
      (): GroupProcessingLedger => ({ list: [], by: [], rank: [] }),
    );
    const again = (r.groups.get(gk)?.list.length ?? 0) > 1 || g.list.some((x, n) => g.by[n] !== app && x.step < i);
    // in step order, a tie in the group's order (as groupProcessingsOf sorts them)
    let at = g.list.length;
    while (at > 0 && (g.list[at - 1] as Occurrence).step === o.step && (g.rank[at - 1] as number) > rank) at--;
    g.list.splice(at, 0, o);
    g.by.splice(at, 0, app);
    g.rank.splice(at, 0, rank);
    if (again && !r.again.has(gk)) {
      r.again.add(gk);
      r.againSteps.push(i);
      r.againKeys.push(gk);
    }
  }

  private effect(i: number, sink: string, eventId: string, applied: boolean): void {
    const s = this.sink(sink);
    if (!s.seq.has(eventId)) {
      s.seq.set(eventId, s.seq.size);
      for (const id of s.unappliedIds.get(eventId) ?? []) s.unapplied.close(id, i);
      s.unappliedIds.delete(eventId);
    }
    if (!applied) {
      s.skipped.push(i);
      return;
    }
    const list = got(s.applied, eventId, () => []);
    list.push(i);
    if (list.length === 1) {
      s.firstApplied.push(i);
      // a relay owes its topic what its outbox applied
      for (const w of this.writers)
        if (w.kind === 'relay' && w.sink === sink) this.owed(i, w.topic, eventId, w.writer, 'relay', [s.seq.get(eventId) as number, 0]);
    }
    if (list.length === 2) {
      s.repeatSteps.push(i);
      s.repeatIds.push(eventId);
    }
  }

  /** The topic is owed the event (if it has no copy of it yet), for a reason of `via`'s kind. */
  private owed(i: number, topic: string, eventId: string, by: string, via: MissingItem['via'], order: [number, number]): void {
    const t = this.topic(topic);
    const made = `${via}|${by}|${eventId}`;
    if (t.missingMade.has(made) || (this.journal.copies.get(topic)?.has(eventId) ?? false)) return;
    t.missingMade.add(made);
    push(t.missingIds, eventId, t.missing.open(i, { eventId, by, via, order }));
  }
}
