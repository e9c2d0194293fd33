/**
 * The verdict's index as an accumulator (docs/architecture.md, "Views as accumulators"): a run's
 * facts are folded once, step by step, into append-only lists stamped with their step — copies,
 * send() results, deliveries, processing, sink writes, coordinator states, commits. Nothing folded
 * is ever changed, so the accumulator as of any step is a prefix of every list (found by binary
 * search): no refold and no snapshot per checkpoint. `indexAt(step, partitions)` reads those
 * prefixes and joins them with the logs at the step (which copies are still there, and their
 * transaction outcome), giving the RunIndex buildIndex gave from the steps before `step`.
 */

import type { TraceStep } from '../kernel/simulation';
import { FORCE_CLOSE_MESSAGE } from '../producer/forceClose';
import { keyOf, topicPartitionKey } from '../protocol/topicPartition';
import type { Fact } from '../trace/facts';
import type { PartitionRow, TxnOutcome } from '../trace/logView';
import { isFence, isProducerFatalNotFence } from './producerFatal';
import { eventKey, type Occurrence, type RawCopy, type RunIndex, type SendResult, type TxnStep } from './verdictIndex';
import type { CopyState } from './verdictTypes';

/** A copy as appended: everything but its state, which the log at the step decides. */
export interface FoldedCopy {
  readonly tp: string;
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly origin: string | null;
  readonly writer: string | null;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly transactional: boolean;
  readonly step: number;
  /** Its place in `all`. */
  readonly n: number;
  /** The copy appended at the same offset before it (a log truncated and written again), if any. */
  readonly prev: FoldedCopy | undefined;
  /** The step a later copy took its offset (it was truncated away and the offset written again), else Infinity. */
  supersededAt: number;
  /**
   * The step an ABORT marker of its transaction was appended to its partition, else Infinity: once
   * the log cleaner has removed it, the copy is still an aborted one (never readable), not an event
   * compaction erased.
   */
  abortedAt: number;
  /** The leader epoch it was appended in (replicated partitions; undefined when the fact does not say). */
  readonly leaderEpoch: number | undefined;
}

export interface SinkEvent {
  readonly first: number;
  readonly applied: number[];
  readonly skipped: number[];
  readonly apps: { app: string; step: number }[];
}

type Stamped = { readonly step: number };

/** A broker's expiration check dropped producers from its copy of a partition at `step` (a `producerStateExpired` fact). */
export interface ProducerExpiry {
  readonly step: number;
  readonly broker: string;
  readonly producerIds: readonly number[];
  readonly expirationMs: number;
}

/** An operator's `kafka-transactions.sh abort` wrote producerId's ABORT marker at `markerOffset` at `step` (an `operatorAbort` fact). */
export interface OperatorAbort {
  readonly step: number;
  readonly producerId: number;
  readonly markerOffset: number;
}

/** A replica cut offsets [fromOffset, toOffset) from its log at `step` (a `truncated` fact). */
export interface Truncation {
  readonly step: number;
  readonly fromOffset: number;
  readonly toOffset: number;
}

/** How many of `length` entries in step order come before `step` (`stepAt(i)`: the step of entry i). */
function countBefore(length: number, step: number, stepAt: (i: number) => number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stepAt(mid) < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function before(list: readonly Stamped[], step: number): number {
  return countBefore(list.length, step, (i) => (list[i] as Stamped).step);
}

/** How many steps of a list in order come before `step`. */
export function stepsBefore(list: readonly number[], step: number): number {
  return countBefore(list.length, step, (i) => list[i] as number);
}

function prefix<T>(list: T[], n: number): T[] {
  return n === list.length ? list : list.slice(0, n);
}

/**
 * Each list of a map cut where `count` says (`take` makes what is kept of it). A map's keys are in
 * the order of their first entry, so the first key with nothing before the step ends the walk.
 */
function cutEach<K, L, R>(map: ReadonlyMap<K, L>, count: (list: L) => number, take: (list: L, n: number) => R): Map<K, R> {
  const out = new Map<K, R>();
  for (const [k, list] of map) {
    const n = count(list);
    if (n === 0) break;
    out.set(k, take(list, n));
  }
  return out;
}

function cutMap<K, T extends Stamped>(map: ReadonlyMap<K, T[]>, step: number): Map<K, T[]> {
  return cutEach(map, (list) => before(list, step), prefix);
}

function cutStepMap<K>(map: ReadonlyMap<K, number[]>, step: number): Map<K, number[]> {
  return cutEach(map, (list) => stepsBefore(list, step), prefix);
}

/** The last entry before `step` of each history in a map. */
function lastOf<K, T extends Stamped>(map: ReadonlyMap<K, T[]>, step: number): Map<K, T> {
  return cutEach(
    map,
    (list) => before(list, step),
    (list, n) => list[n - 1] as T,
  );
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A record a consumer received or an application processed, keyed by its business event. */
function occurrence(at: { topic: string; partition: number; offset: number }, eventId: string | null, step: number): Occurrence {
  return {
    topic: at.topic,
    partition: at.partition,
    offset: at.offset,
    key: eventKey(eventId, at.topic, at.partition, at.offset),
    eventId,
    step,
  };
}

/** A copy as the verdict reads it, in the state the log at the step gives it. */
export function rawCopy(c: FoldedCopy, state: CopyState): RawCopy {
  return {
    topic: c.topic,
    partition: c.partition,
    offset: c.offset,
    key: c.key,
    state,
    origin: c.origin,
    writer: c.writer,
    producerId: c.producerId,
    producerEpoch: c.producerEpoch,
    transactional: c.transactional,
    step: c.step,
  };
}

function stateOf(outcome: TxnOutcome | null): CopyState {
  return outcome === null ? 'plain' : outcome;
}

export class IndexJournal {
  /** The folded steps' indexes and times (a step with no facts is folded only when handed over). */
  readonly stepIs: number[] = [];
  readonly stepTs: number[] = [];
  readonly all: FoldedCopy[] = [];
  readonly copies = new Map<string, Map<string, FoldedCopy[]>>();
  /** The latest copy at each offset, per "topic-partition". */
  readonly copiesAt = new Map<string, Map<number, FoldedCopy>>();
  readonly deduplicated = new Map<string, number[]>();
  /** Every result of each send(), per client and ref. */
  readonly results = new Map<string, Map<number, SendResult[]>>();
  readonly delivered = new Map<string, Occurrence[]>();
  readonly processed = new Map<string, Occurrence[]>();
  readonly sideEffects = new Map<string, Map<string, SinkEvent>>();
  readonly inboxConflicts: number[] = [];
  readonly txnStates = new Map<number, TxnStep[]>();
  readonly transactionalIds = new Map<number, { id: string; step: number }[]>();
  readonly sessions = new Map<string, number[]>();
  private readonly lastPid = new Map<string, number>();
  readonly timedOut = new Map<string, number[]>();
  readonly stopNotes = new Map<string, { text: string; step: number }[]>();
  readonly fatalErrors = new Map<string, { error: string; step: number }>();
  /** Per group: the step of its first commit, and each "topic-partition"'s rising committed offsets. */
  readonly committed = new Map<string, { first: number; byTp: Map<string, { offset: number; step: number }[]> }>();
  readonly counts = {
    committed: [] as number[],
    aborted: [] as number[],
    fenced: [] as number[],
    /** The step each producer first failed fatally without a fence (one entry per producer). */
    fatal: [] as number[],
    commitFailures: [] as number[],
  };
  private readonly fatalNotFenced = new Set<string>();
  /** Steps of the controller's unclean leader elections, per "topic-partition". */
  readonly uncleanElections = new Map<string, number[]>();
  /** Steps of every leader election (a leader chosen, clean or not), per "topic-partition". */
  readonly elections = new Map<string, number[]>();
  /** Replicas' truncations (offsets [fromOffset, toOffset) cut), per "topic-partition". */
  readonly truncations = new Map<string, Truncation[]>();
  /** Producers dropped by brokers' expiration checks, per "topic-partition". */
  readonly expiries = new Map<string, ProducerExpiry[]>();
  /** Operators' transaction aborts that wrote a marker, per "topic-partition". */
  readonly operatorAborts = new Map<string, OperatorAbort[]>();

  constructor(readonly ignored: ReadonlySet<string>) {}

  /** Folds one step's facts (steps in order: a view cuts the lists by step). */
  fold(i: number, t: number, facts: readonly unknown[]): void {
    this.stepIs.push(i);
    this.stepTs.push(t);
    for (const raw of facts) this.foldFact(i, raw as Fact);
  }

  /** Per "topic-partition|producerId": its transactional copies no marker has decided yet. */
  private readonly undecided = new Map<string, FoldedCopy[]>();

  private addCopy(c: Omit<FoldedCopy, 'n' | 'prev' | 'supersededAt' | 'abortedAt'>): void {
    let at = this.copiesAt.get(c.tp);
    if (!at) {
      at = new Map();
      this.copiesAt.set(c.tp, at);
    }
    const prev = at.get(c.offset);
    // a deposed leader's append in an older epoch than the copy at its offset: in its own log only,
    // cut when it follows (DivergingEpoch); the newer epoch's copy stays the partition's
    const deposed =
      prev !== undefined &&
      prev.supersededAt === Number.POSITIVE_INFINITY &&
      prev.leaderEpoch !== undefined &&
      c.leaderEpoch !== undefined &&
      c.leaderEpoch < prev.leaderEpoch;
    // offsets are never reused but after a truncation: the earlier copy is gone from the log
    if (prev && !deposed) prev.supersededAt = c.step;
    const copy: FoldedCopy = {
      ...c,
      n: this.all.length,
      prev: deposed ? undefined : prev,
      supersededAt: deposed ? c.step : Number.POSITIVE_INFINITY,
      abortedAt: Number.POSITIVE_INFINITY,
    };
    if (!deposed) at.set(c.offset, copy);
    this.all.push(copy);
    if (c.transactional) push(this.undecided, `${c.tp}|${c.producerId}`, copy);
    let byKey = this.copies.get(c.topic);
    if (!byKey) {
      byKey = new Map();
      this.copies.set(c.topic, byKey);
    }
    push(byKey, c.key, copy);
  }

  /**
   * A marker at `markerOffset` decides its producer's transactional copies below it on its partition:
   * `abortedAt` the step of an ABORT (null: a COMMIT).
   */
  private decide(key: string, abortedAt: number | null, markerOffset: number): void {
    const list = this.undecided.get(key);
    if (!list) return;
    const left = list.filter((c) => c.offset > markerOffset);
    if (abortedAt !== null) for (const c of list) if (c.offset < markerOffset) c.abortedAt = abortedAt;
    if (left.length > 0) this.undecided.set(key, left);
    else this.undecided.delete(key);
  }

  private foldFact(step: number, f: Fact): void {
    const ignored = this.ignored;
    switch (f.kind) {
      case 'append': {
        if (f.topic.startsWith('__') || ignored.has(f.topic)) break;
        const tp = keyOf(f);
        if (f.control !== null) {
          this.decide(`${tp}|${f.producerId}`, f.control === 'ABORT' ? step : null, f.baseOffset);
          break;
        }
        for (let o = f.baseOffset; o <= f.lastOffset; o++) {
          const i = o - f.baseOffset;
          const origin = f.origins[i] ?? null;
          this.addCopy({
            tp,
            topic: f.topic,
            partition: f.partition,
            offset: o,
            key: eventKey(f.eventIds[i] ?? null, f.topic, f.partition, o),
            origin: origin ? `${origin.client}#${origin.ref}` : null,
            writer: origin?.client ?? null,
            producerId: f.producerId,
            producerEpoch: f.producerEpoch,
            transactional: f.transactional,
            step,
            leaderEpoch: f.leaderEpoch,
          });
        }
        break;
      }
      case 'duplicate': {
        const n = Math.max(1, f.lastSequence - f.baseSequence + 1);
        const at = this.copiesAt.get(topicPartitionKey(f.topic, f.partition));
        for (let o = f.baseOffset; o < f.baseOffset + n; o++) {
          const key = at?.get(o)?.key;
          if (key) push(this.deduplicated, `${f.topic}|${key}`, step);
        }
        break;
      }
      case 'sendResult': {
        if (ignored.has(f.topic)) break;
        let byRef = this.results.get(f.client);
        if (!byRef) {
          byRef = new Map();
          this.results.set(f.client, byRef);
        }
        push(byRef, f.ref, {
          client: f.client,
          topic: f.topic,
          eventId: f.eventId,
          offset: f.offset,
          error: f.error,
          step,
          ...(f.beforeAppend ? { beforeAppend: true as const } : {}),
          ...(f.message === FORCE_CLOSE_MESSAGE ? { closedForcefully: true as const } : {}),
        });
        break;
      }
      case 'delivered':
        if (ignored.has(f.topic)) break;
        push(this.delivered, f.consumer, occurrence(f, f.headers.event_id ?? null, step));
        break;
      case 'processed':
        if (ignored.has(f.topic)) break;
        push(this.processed, f.app, occurrence(f, f.eventId, step));
        break;
      case 'sideEffect': {
        if (f.effect === 'inbox conflict') this.inboxConflicts.push(step);
        if (!f.eventId) break;
        let bySink = this.sideEffects.get(f.sink);
        if (!bySink) {
          bySink = new Map();
          this.sideEffects.set(f.sink, bySink);
        }
        let e = bySink.get(f.eventId);
        if (!e) {
          e = { first: step, applied: [], skipped: [], apps: [] };
          bySink.set(f.eventId, e);
        }
        (f.applied ? e.applied : e.skipped).push(step);
        e.apps.push({ app: f.app, step });
        break;
      }
      case 'txnState':
        push(this.txnStates, f.producerId, {
          transactionalId: f.transactionalId,
          producerEpoch: f.producerEpoch,
          from: f.from,
          to: f.to,
          step,
        });
        push(this.transactionalIds, f.producerId, { id: f.transactionalId, step });
        if (f.to === 'CompleteCommit') this.counts.committed.push(step);
        if (f.to === 'CompleteAbort') this.counts.aborted.push(step);
        break;
      case 'producerId':
        // a new producer session: every initTransactions(), or a new producerId (a bumped epoch is the same session)
        if (f.transactionalId !== null) {
          push(this.transactionalIds, f.producerId, { id: f.transactionalId, step });
          push(this.sessions, f.client, step);
        } else if (this.lastPid.get(f.client) !== f.producerId) push(this.sessions, f.client, step);
        this.lastPid.set(f.client, f.producerId);
        break;
      case 'clientError':
        if (isFence(f)) this.counts.fenced.push(step);
        else if (isProducerFatalNotFence(f) && !this.fatalNotFenced.has(f.client)) {
          this.fatalNotFenced.add(f.client);
          this.counts.fatal.push(step);
        }
        if (f.error === 'CommitFailedException') this.counts.commitFailures.push(step);
        if (f.fatal && !this.fatalErrors.has(f.client)) this.fatalErrors.set(f.client, { error: f.error, step });
        break;
      case 'note': {
        const timeout = f.text.match(/^transaction of (\S+) has been open \d+ ms, more than transaction\.timeout\.ms/);
        if (timeout) push(this.timedOut, timeout[1] as string, step);
        if (/ stops$/.test(f.text) && f.actor.endsWith('.app')) push(this.stopNotes, f.actor.slice(0, -4), { text: f.text, step });
        break;
      }
      case 'leaderChange':
        if (f.election === 'unclean') push(this.uncleanElections, keyOf(f), step);
        if (f.leader !== null) push(this.elections, keyOf(f), step);
        break;
      case 'operatorAbort':
        if (f.spec !== null && f.markerOffset !== null)
          push(this.operatorAborts, keyOf(f), { step, producerId: f.spec.producerId, markerOffset: f.markerOffset });
        break;
      case 'truncated':
        push(this.truncations, keyOf(f), { step, fromOffset: f.fromOffset, toOffset: f.toOffset });
        break;
      case 'producerStateExpired':
        push(this.expiries, keyOf(f), {
          step,
          broker: f.broker,
          producerIds: f.producers.map((p) => p.producerId),
          expirationMs: f.expirationMs,
        });
        break;
      case 'producerStateLoaded':
        // a restarted broker left them out of its reload as expired: forgotten as by a check
        if (f.dropped.length > 0)
          push(this.expiries, keyOf(f), {
            step,
            broker: f.broker,
            producerIds: f.dropped.map((p) => p.producerId),
            expirationMs: f.expirationMs,
          });
        break;
      case 'offsetsCommitted': {
        let g = this.committed.get(f.groupId);
        if (!g) {
          g = { first: step, byTp: new Map() };
          this.committed.set(f.groupId, g);
        }
        for (const o of f.offsets) {
          const name = keyOf(o);
          const history = g.byTp.get(name);
          const prev = history?.[history.length - 1];
          if (!prev || o.offset > prev.offset) push(g.byTp, name, { offset: o.offset, step });
        }
        break;
      }
    }
  }

  /**
   * The index as of `step` (what the facts of the steps before it say), joined with the partition
   * logs at that step. `Infinity` reads everything folded, in whatever order it was handed over.
   */
  indexAt(step: number, partitions: readonly PartitionRow[]): RunIndex {
    const ignored = this.ignored;
    const business = partitions.filter((p) => !p.internal && !ignored.has(p.topic));
    // per "topic-partition", by offset: numbers as keys keep a long log cheap to index
    const present = new Map<string, Map<number, PartitionRow['records'][number]>>();
    for (const p of business) {
      const m = new Map<number, PartitionRow['records'][number]>();
      for (const r of p.records) if (r.control === null) m.set(r.offset, r);
      present.set(keyOf(p), m);
    }

    // the copies appended before `step`, with their state in the logs now
    const folded = before(this.all, step);
    const made: RawCopy[] = new Array(folded);
    for (let i = 0; i < folded; i++) {
      const c = this.all[i] as FoldedCopy;
      const row = c.supersededAt < step ? undefined : present.get(c.tp)?.get(c.offset);
      // gone from the log: an aborted copy the cleaner removed stays aborted (never readable)
      made[i] = rawCopy(c, row ? stateOf(row.txnOutcome) : c.abortedAt < step ? 'aborted' : 'removed');
    }
    const allCopies = made;
    const copies = new Map<string, Map<string, RawCopy[]>>();
    for (const [topic, byKey] of this.copies) {
      const m = new Map<string, RawCopy[]>();
      for (const [key, list] of byKey) {
        const n = before(list, step);
        if (n === 0) break;
        const out: RawCopy[] = new Array(n);
        for (let i = 0; i < n; i++) out[i] = made[(list[i] as FoldedCopy).n] as RawCopy;
        m.set(key, out);
      }
      if (m.size === 0) break;
      copies.set(topic, m);
    }
    // records in the log that no append fact announced (a trace cut short): present, with no step
    const unannounced = new Map<string, Map<number, RawCopy>>();
    const copyAt = (topic: string, partition: number, offset: number): RawCopy | undefined => {
      const tp = topicPartitionKey(topic, partition);
      let c = this.copiesAt.get(tp)?.get(offset);
      while (c && !(c.step < step)) c = c.prev;
      return c ? made[c.n] : unannounced.get(tp)?.get(offset);
    };
    for (const p of business)
      for (const r of p.records) {
        if (r.control !== null || copyAt(p.topic, p.partition, r.offset)) continue;
        const c: RawCopy = {
          topic: p.topic,
          partition: p.partition,
          offset: r.offset,
          key: eventKey(r.headers.event_id, p.topic, p.partition, r.offset),
          state: stateOf(r.txnOutcome),
          origin: r.origin ? `${r.origin.client}#${r.origin.ref}` : null,
          writer: r.origin?.client ?? null,
          producerId: r.producerId,
          producerEpoch: r.producerEpoch,
          transactional: r.transactional,
          step: null,
        };
        const tp = keyOf(p);
        let at = unannounced.get(tp);
        if (!at) {
          at = new Map();
          unannounced.set(tp, at);
        }
        at.set(r.offset, c);
        allCopies.push(c);
        let byKey = copies.get(c.topic);
        if (!byKey) {
          byKey = new Map();
          copies.set(c.topic, byKey);
        }
        const list = byKey.get(c.key);
        if (list) list.push(c);
        else byKey.set(c.key, [c]);
      }

    const sendResults: SendResult[] = [];
    for (const byRef of this.results.values()) {
      const last = lastOf(byRef, step);
      if (last.size === 0) break;
      for (const r of last.values()) sendResults.push(r);
    }
    const resultsByEvent = new Map<string, SendResult[]>();
    const resultsByTopic = new Map<string, SendResult[]>();
    for (const r of sendResults) {
      push(resultsByTopic, r.topic, r);
      if (r.eventId) push(resultsByEvent, `${r.topic}|${r.eventId}`, r);
    }

    const sideEffects = new Map<string, Map<string, { applied: number[]; skipped: number[]; apps: Set<string> }>>();
    for (const [sink, byEvent] of this.sideEffects) {
      const m = new Map<string, { applied: number[]; skipped: number[]; apps: Set<string> }>();
      for (const [eventId, e] of byEvent) {
        if (!(e.first < step)) break;
        const apps = new Set<string>();
        for (const a of e.apps) if (a.step < step) apps.add(a.app);
        m.set(eventId, {
          applied: prefix(e.applied, stepsBefore(e.applied, step)),
          skipped: prefix(e.skipped, stepsBefore(e.skipped, step)),
          apps,
        });
      }
      if (m.size === 0) break;
      sideEffects.set(sink, m);
    }

    const transactionalIds = new Map<number, string>();
    for (const [pid, e] of lastOf(this.transactionalIds, step)) transactionalIds.set(pid, e.id);
    const stopNotes = lastOf(this.stopNotes, step);
    const fatalErrors = new Map<string, { error: string; step: number }>();
    for (const [client, e] of this.fatalErrors) if (e.step < step) fatalErrors.set(client, e);
    const committed = new Map<string, Map<string, { offset: number; step: number }>>();
    for (const [groupId, g] of this.committed) {
      if (!(g.first < step)) break;
      committed.set(groupId, lastOf(g.byTp, step));
    }

    return {
      stepTime: this.stepTimeBefore(step),
      copies,
      copyAt,
      allCopies,
      partitions: business,
      deduplicated: cutStepMap(this.deduplicated, step),
      sendResults,
      resultsByEvent,
      resultsByTopic,
      delivered: cutMap(this.delivered, step),
      processed: cutMap(this.processed, step),
      sideEffects,
      inboxConflicts: stepsBefore(this.inboxConflicts, step),
      txnStates: cutMap(this.txnStates, step),
      transactionalIds,
      sessions: cutStepMap(this.sessions, step),
      timedOut: cutStepMap(this.timedOut, step),
      stopNotes,
      fatalErrors,
      committed,
      uncleanElections: cutStepMap(this.uncleanElections, step),
      elections: cutStepMap(this.elections, step),
      truncations: cutMap(this.truncations, step),
      expiries: cutMap(this.expiries, step),
      operatorAborts: cutMap(this.operatorAborts, step),
      counts: {
        committed: stepsBefore(this.counts.committed, step),
        aborted: stepsBefore(this.counts.aborted, step),
        fenced: stepsBefore(this.counts.fenced, step),
        fatal: stepsBefore(this.counts.fatal, step),
        commitFailures: stepsBefore(this.counts.commitFailures, step),
      },
    };
  }

  /**
   * The time of a folded step before `step` (0 for any other): a trace's steps are numbered by their
   * place in it, hand-made ones may not be; found by binary search, as they are in order.
   */
  stepTimeBefore(step: number): (s: number) => number {
    const is = this.stepIs;
    const ts = this.stepTs;
    const n = stepsBefore(is, step);
    return (s: number): number => {
      if (s < n && is[s] === s) return ts[s] as number;
      let lo = 0;
      let hi = n - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const i = is[mid] as number;
        if (i === s) return ts[mid] as number;
        if (i < s) lo = mid + 1;
        else hi = mid - 1;
      }
      for (let k = 0; k < n; k++) if (is[k] === s) return ts[k] as number;
      return 0;
    };
  }
}

/** The index of a list of steps (hand-made ones, or fast mode's steps with facts), all of them. */
export function buildIndex(steps: readonly TraceStep[], partitions: readonly PartitionRow[], ignored: ReadonlySet<string>): RunIndex {
  const journal = new IndexJournal(ignored);
  for (const s of steps) journal.fold(s.i, s.t, s.facts);
  return journal.indexAt(Number.POSITIVE_INFINITY, partitions);
}
