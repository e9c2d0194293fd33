/**
 * One pass over a run's facts and partition logs, gathered for the verdict: every copy of every
 * business event per topic (present now, or appended and later removed), what each send() was told,
 * what each consumer received, each application processed and each sink took in, the transaction
 * coordinator's states per producer, and the offsets each group committed.
 */
import type { TraceStep } from '../kernel/simulation';
import { keyOf, recordAddress, topicPartitionKey } from '../protocol/topicPartition';
import type { Fact } from '../trace/facts';
import type { PartitionRow, TxnOutcome } from '../trace/logView';
import type { CopyState } from './verdictTypes';

/** A business event's identity: its event_id header, else its place in the log. */
export function eventKey(eventId: string | null | undefined, topic: string, partition: number, offset: number): string {
  return eventId ?? recordAddress(topic, partition, offset);
}

export interface RawCopy {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly state: CopyState;
  readonly origin: string | null;
  readonly writer: string | null;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly transactional: boolean;
  readonly step: number | null;
}

export interface SendResult {
  readonly client: string;
  readonly topic: string;
  readonly eventId: string | null;
  readonly offset: number | null;
  readonly error: string | null;
  readonly step: number;
}

export interface Occurrence {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly eventId: string | null;
  readonly step: number;
}

export interface TxnStep {
  readonly transactionalId: string;
  readonly producerEpoch: number;
  readonly from: string;
  readonly to: string;
  readonly step: number;
}

export interface RunIndex {
  readonly stepTime: (step: number) => number;
  /** Copies per topic, then per event key, in append order (removed ones included). */
  readonly copies: ReadonlyMap<string, ReadonlyMap<string, RawCopy[]>>;
  /** The copy at an offset, if one was appended there. */
  readonly copyAt: (topic: string, partition: number, offset: number) => RawCopy | undefined;
  /** Every copy, in append order (records no append fact announced last). */
  readonly allCopies: readonly RawCopy[];
  /** Topics that hold data (now or once), with their partitions' current rows. */
  readonly partitions: readonly PartitionRow[];
  /** Broker-recognised retries per "topic|key": how many, and where. */
  readonly deduplicated: ReadonlyMap<string, number[]>;
  /** The last result of each send(). */
  readonly sendResults: readonly SendResult[];
  /** The same results by "topic|eventId", and by topic. */
  readonly resultsByEvent: ReadonlyMap<string, readonly SendResult[]>;
  readonly resultsByTopic: ReadonlyMap<string, readonly SendResult[]>;
  readonly delivered: ReadonlyMap<string, Occurrence[]>;
  readonly processed: ReadonlyMap<string, Occurrence[]>;
  /** Per sink, per event id: effects that took effect and attempts that changed nothing. */
  readonly sideEffects: ReadonlyMap<string, Map<string, { applied: number[]; skipped: number[]; apps: Set<string> }>>;
  readonly inboxConflicts: number;
  /** Coordinator transitions per producerId. */
  readonly txnStates: ReadonlyMap<number, TxnStep[]>;
  /** transactional.id per producerId (from InitProducerId results and coordinator states). */
  readonly transactionalIds: ReadonlyMap<number, string>;
  /** Steps at which each client got a producer id with initTransactions (a new transactional session). */
  readonly sessions: ReadonlyMap<string, number[]>;
  /** Steps where the coordinator timed out a transaction, by transactional.id. */
  readonly timedOut: ReadonlyMap<string, number[]>;
  /** Notes of applications that stopped ("… this instance was fenced and stops"), by client. */
  readonly stopNotes: ReadonlyMap<string, { text: string; step: number }>;
  /** Fatal client errors, by client. */
  readonly fatalErrors: ReadonlyMap<string, { error: string; step: number }>;
  /** Highest committed offset per group and "topic-partition", with the step it was committed at. */
  readonly committed: ReadonlyMap<string, Map<string, { offset: number; step: number }>>;
  readonly counts: { committed: number; aborted: number; fenced: number; commitFailures: number };
}

/** The send() results that carried an event to a topic. */
export function resultsOf(index: RunIndex, topic: string, eventId: string): readonly SendResult[] {
  return index.resultsByEvent.get(`${topic}|${eventId}`) ?? [];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function stateOf(outcome: TxnOutcome | null): CopyState {
  return outcome === null ? 'plain' : outcome;
}

const FENCING = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'INVALID_TXN_STATE']);

export function buildIndex(steps: readonly TraceStep[], partitions: readonly PartitionRow[], ignored: ReadonlySet<string>): RunIndex {
  // a trace's steps are numbered by their place in it; hand-made ones may not be
  // (fast mode hands over only the steps that have facts: found by binary search, as they are in order)
  const stepTime = (step: number): number => {
    if (steps[step]?.i === step) return (steps[step] as TraceStep).t;
    let lo = 0;
    let hi = steps.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const s = steps[mid] as TraceStep;
      if (s.i === step) return s.t;
      if (s.i < step) lo = mid + 1;
      else hi = mid - 1;
    }
    return steps.find((s) => s.i === step)?.t ?? 0;
  };
  const business = partitions.filter((p) => !p.internal && !ignored.has(p.topic));
  // per "topic-partition", by offset: numbers as keys keep a long log cheap to index
  const present = new Map<string, Map<number, PartitionRow['records'][number]>>();
  for (const p of business) {
    const m = new Map<number, PartitionRow['records'][number]>();
    for (const r of p.records) if (r.control === null) m.set(r.offset, r);
    present.set(keyOf(p), m);
  }

  const copies = new Map<string, Map<string, RawCopy[]>>();
  const copiesAt = new Map<string, Map<number, RawCopy>>();
  const allCopies: RawCopy[] = [];
  const copyAt = (topic: string, partition: number, offset: number) => copiesAt.get(topicPartitionKey(topic, partition))?.get(offset);
  const addCopy = (c: RawCopy) => {
    const tp = keyOf(c);
    let m = copiesAt.get(tp);
    if (!m) {
      m = new Map();
      copiesAt.set(tp, m);
    }
    m.set(c.offset, c);
    allCopies.push(c);
    let byKey = copies.get(c.topic);
    if (!byKey) {
      byKey = new Map();
      copies.set(c.topic, byKey);
    }
    push(byKey, c.key, c);
  };
  const deduplicated = new Map<string, number[]>();
  /** the last result of each send(), per client and ref */
  const results = new Map<string, Map<number, SendResult>>();
  const delivered = new Map<string, Occurrence[]>();
  const processed = new Map<string, Occurrence[]>();
  const sideEffects = new Map<string, Map<string, { applied: number[]; skipped: number[]; apps: Set<string> }>>();
  const txnStates = new Map<number, TxnStep[]>();
  const transactionalIds = new Map<number, string>();
  const sessions = new Map<string, number[]>();
  const timedOut = new Map<string, number[]>();
  const stopNotes = new Map<string, { text: string; step: number }>();
  const fatalErrors = new Map<string, { error: string; step: number }>();
  const committed = new Map<string, Map<string, { offset: number; step: number }>>();
  const counts = { committed: 0, aborted: 0, fenced: 0, commitFailures: 0 };
  let inboxConflicts = 0;
  const lastPid = new Map<string, number>();

  for (const s of steps)
    for (const raw of s.facts) {
      const f = raw as Fact;
      switch (f.kind) {
        case 'append': {
          if (f.control !== null || f.topic.startsWith('__') || ignored.has(f.topic)) break;
          const rows = present.get(keyOf(f));
          for (let o = f.baseOffset; o <= f.lastOffset; o++) {
            const i = o - f.baseOffset;
            const row = rows?.get(o);
            const origin = f.origins[i] ?? null;
            const key = eventKey(f.eventIds[i] ?? null, f.topic, f.partition, o);
            addCopy({
              topic: f.topic,
              partition: f.partition,
              offset: o,
              key,
              state: row ? stateOf(row.txnOutcome) : 'removed',
              origin: origin ? `${origin.client}#${origin.ref}` : null,
              writer: origin?.client ?? null,
              producerId: f.producerId,
              producerEpoch: f.producerEpoch,
              transactional: f.transactional,
              step: s.i,
            });
          }
          break;
        }
        case 'duplicate': {
          const n = Math.max(1, f.lastSequence - f.baseSequence + 1);
          for (let o = f.baseOffset; o < f.baseOffset + n; o++) {
            const key = copyAt(f.topic, f.partition, o)?.key;
            if (key) push(deduplicated, `${f.topic}|${key}`, s.i);
          }
          break;
        }
        case 'sendResult':
          if (ignored.has(f.topic)) break;
          if (!results.has(f.client)) results.set(f.client, new Map());
          results.get(f.client)?.set(f.ref, {
            client: f.client,
            topic: f.topic,
            eventId: f.eventId,
            offset: f.offset,
            error: f.error,
            step: s.i,
          });
          break;
        case 'delivered':
          if (ignored.has(f.topic)) break;
          push(delivered, f.consumer, {
            topic: f.topic,
            partition: f.partition,
            offset: f.offset,
            key: eventKey(f.headers.event_id, f.topic, f.partition, f.offset),
            eventId: f.headers.event_id ?? null,
            step: s.i,
          });
          break;
        case 'processed':
          if (ignored.has(f.topic)) break;
          push(processed, f.app, {
            topic: f.topic,
            partition: f.partition,
            offset: f.offset,
            key: eventKey(f.eventId, f.topic, f.partition, f.offset),
            eventId: f.eventId,
            step: s.i,
          });
          break;
        case 'sideEffect': {
          if (f.effect === 'inbox conflict') inboxConflicts++;
          if (!f.eventId) break;
          let bySink = sideEffects.get(f.sink);
          if (!bySink) {
            bySink = new Map();
            sideEffects.set(f.sink, bySink);
          }
          let e = bySink.get(f.eventId);
          if (!e) {
            e = { applied: [], skipped: [], apps: new Set() };
            bySink.set(f.eventId, e);
          }
          (f.applied ? e.applied : e.skipped).push(s.i);
          e.apps.add(f.app);
          break;
        }
        case 'txnState':
          push(txnStates, f.producerId, {
            transactionalId: f.transactionalId,
            producerEpoch: f.producerEpoch,
            from: f.from,
            to: f.to,
            step: s.i,
          });
          transactionalIds.set(f.producerId, f.transactionalId);
          if (f.to === 'CompleteCommit') counts.committed++;
          if (f.to === 'CompleteAbort') counts.aborted++;
          break;
        case 'producerId':
          // a new producer session: every initTransactions(), or a new producerId (a bumped epoch is the same session)
          if (f.transactionalId !== null) {
            transactionalIds.set(f.producerId, f.transactionalId);
            push(sessions, f.client, s.i);
          } else if (lastPid.get(f.client) !== f.producerId) push(sessions, f.client, s.i);
          lastPid.set(f.client, f.producerId);
          break;
        case 'clientError':
          if (f.fatal && FENCING.has(f.error)) counts.fenced++;
          if (f.error === 'CommitFailedException') counts.commitFailures++;
          if (f.fatal && !fatalErrors.has(f.client)) fatalErrors.set(f.client, { error: f.error, step: s.i });
          break;
        case 'note': {
          const timeout = f.text.match(/^transaction of (\S+) has been open \d+ ms, more than transaction\.timeout\.ms/);
          if (timeout) push(timedOut, timeout[1] as string, s.i);
          if (/ stops$/.test(f.text) && f.actor.endsWith('.app')) stopNotes.set(f.actor.slice(0, -4), { text: f.text, step: s.i });
          break;
        }
        case 'offsetsCommitted': {
          let byTp = committed.get(f.groupId);
          if (!byTp) {
            byTp = new Map();
            committed.set(f.groupId, byTp);
          }
          for (const o of f.offsets) {
            const name = keyOf(o);
            const prev = byTp.get(name);
            if (!prev || o.offset > prev.offset) byTp.set(name, { offset: o.offset, step: s.i });
          }
          break;
        }
      }
    }

  const resultsByEvent = new Map<string, SendResult[]>();
  const resultsByTopic = new Map<string, SendResult[]>();
  const sendResults = [...results.values()].flatMap((m) => [...m.values()]);
  for (const r of sendResults) {
    push(resultsByTopic, r.topic, r);
    if (r.eventId) push(resultsByEvent, `${r.topic}|${r.eventId}`, r);
  }

  // records in the log that no append fact announced (a trace cut short): present, with no step
  for (const p of business)
    for (const r of p.records) {
      if (r.control !== null || copyAt(p.topic, p.partition, r.offset)) continue;
      addCopy({
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
      });
    }

  return {
    stepTime,
    copies,
    copyAt,
    allCopies,
    partitions: business,
    deduplicated,
    sendResults,
    resultsByEvent,
    resultsByTopic,
    delivered,
    processed,
    sideEffects,
    inboxConflicts,
    txnStates,
    transactionalIds,
    sessions,
    timedOut,
    stopNotes,
    fatalErrors,
    committed,
    counts,
  };
}
