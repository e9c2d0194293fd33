/**
 * What narration needs to know about the rest of the run to say "again" or "the second time":
 * where each send() was first appended, how often an event was processed, charged or delivered.
 * Built once per trace (a WeakMap keeps it while the trace lives).
 */
import type { TraceStep } from '../kernel/simulation';
import type { ListLike } from '../kernel/traceLists';
import { keyOf, recordAddress } from '../protocol/topicPartition';
import type { Trace } from '../run';
import type { Fact } from '../trace/facts';

export interface Occurrence {
  readonly step: number;
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly transactional: boolean;
  readonly origin: string | null;
  readonly producerId: number;
}

export interface MarkerAt {
  readonly step: number;
  readonly control: 'COMMIT' | 'ABORT';
}

export interface TraceIndex {
  /** Appends of each send() (by "client#ref"), in order. */
  readonly appendsByOrigin: ReadonlyMap<string, readonly Occurrence[]>;
  /** Appends of each event_id (data records), in order. */
  readonly appendsByEvent: ReadonlyMap<string, readonly Occurrence[]>;
  /** Steps where "<app>|<event>" was processed. */
  readonly processed: ReadonlyMap<string, readonly number[]>;
  /** Steps where "<consumer>|<event>" was delivered. */
  readonly delivered: ReadonlyMap<string, readonly number[]>;
  /** Steps where "<sink>|<event>" took effect. */
  readonly applied: ReadonlyMap<string, readonly number[]>;
  /** Producer ids each client got, in order. */
  readonly producerIds: ReadonlyMap<string, readonly { step: number; producerId: number; producerEpoch: number }[]>;
  /** Transaction markers per "topic-partition|producerId", in order. */
  readonly markers: ReadonlyMap<string, readonly MarkerAt[]>;
  /** The transactional.id of each producerId that has one. */
  readonly transactionalIds: ReadonlyMap<number, string>;
  /** Steps where each client was refused for a fenced epoch (PRODUCER_FENCED, INVALID_PRODUCER_EPOCH, INVALID_TXN_STATE). */
  readonly fencedAt: ReadonlyMap<string, readonly number[]>;
}

const cache = new WeakMap<Trace, TraceIndex>();

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function eventKey(eventId: string | null | undefined, topic: string, partition: number, offset: number): string {
  return eventId ?? recordAddress(topic, partition, offset);
}

function build(steps: ListLike<TraceStep>): TraceIndex {
  const appendsByOrigin = new Map<string, Occurrence[]>();
  const appendsByEvent = new Map<string, Occurrence[]>();
  const processed = new Map<string, number[]>();
  const delivered = new Map<string, number[]>();
  const applied = new Map<string, number[]>();
  const producerIds = new Map<string, { step: number; producerId: number; producerEpoch: number }[]>();
  const markers = new Map<string, MarkerAt[]>();
  const transactionalIds = new Map<number, string>();
  const fencedAt = new Map<string, number[]>();
  for (const s of steps)
    for (const raw of s.facts) {
      const f = raw as Fact;
      switch (f.kind) {
        case 'append': {
          if (f.control !== null) {
            if (f.control === 'COMMIT' || f.control === 'ABORT')
              push(markers, `${keyOf(f)}|${f.producerId}`, { step: s.i, control: f.control });
            break;
          }
          for (let o = f.baseOffset; o <= f.lastOffset; o++) {
            const origin = f.origins[o - f.baseOffset] ?? null;
            const key = origin ? `${origin.client}#${origin.ref}` : null;
            const occ: Occurrence = {
              step: s.i,
              topic: f.topic,
              partition: f.partition,
              offset: o,
              transactional: f.transactional,
              origin: key,
              producerId: f.producerId,
            };
            if (key) push(appendsByOrigin, key, occ);
            const ev = f.eventIds[o - f.baseOffset];
            if (ev) push(appendsByEvent, ev, occ);
          }
          break;
        }
        case 'processed':
          push(processed, `${f.app}|${eventKey(f.eventId, f.topic, f.partition, f.offset)}`, s.i);
          break;
        case 'delivered':
          push(delivered, `${f.consumer}|${eventKey(f.headers.event_id, f.topic, f.partition, f.offset)}`, s.i);
          break;
        case 'sideEffect':
          if (f.applied && f.eventId) push(applied, `${f.sink}|${f.eventId}`, s.i);
          break;
        case 'producerId':
          push(producerIds, f.client, { step: s.i, producerId: f.producerId, producerEpoch: f.producerEpoch });
          if (f.transactionalId !== null) transactionalIds.set(f.producerId, f.transactionalId);
          break;
        case 'clientError':
          if (f.error === 'PRODUCER_FENCED' || f.error === 'INVALID_PRODUCER_EPOCH' || f.error === 'INVALID_TXN_STATE')
            push(fencedAt, f.client, s.i);
          break;
      }
    }
  return { appendsByOrigin, appendsByEvent, processed, delivered, applied, producerIds, markers, transactionalIds, fencedAt };
}

export function traceIndex(trace: Trace): TraceIndex {
  let idx = cache.get(trace);
  if (!idx) {
    idx = build(trace.steps);
    cache.set(trace, idx);
  }
  return idx;
}

/** How a transactional record written at `at.step` stands at `step`: committed, aborted or still open (null: not transactional). */
export function outcomeAt(index: TraceIndex, at: Occurrence, step: number): 'COMMIT' | 'ABORT' | 'open' | null {
  if (!at.transactional) return null;
  const m = (index.markers.get(`${keyOf(at)}|${at.producerId}`) ?? []).find((x) => x.step > at.step && x.step < step);
  return m ? m.control : 'open';
}

/** How many entries of a step list are at or before `step`. */
export function countUpTo(steps: readonly number[] | undefined, step: number): number {
  if (!steps) return 0;
  let n = 0;
  for (const s of steps) if (s <= step) n++;
  return n;
}
