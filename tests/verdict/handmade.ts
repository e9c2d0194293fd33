/**
 * Hand-made traces for testing computeVerdict directly: steps that carry facts, and partition rows
 * as logView would read them, without running the engine.
 */
import type { VerdictInput } from '../../src/sim/checks/verdict';
import type { TraceStep } from '../../src/sim/kernel/simulation';
import type { Fact } from '../../src/sim/trace/facts';
import type { PartitionRow, RecordRow, TxnOutcome } from '../../src/sim/trace/logView';

export function step(i: number, t: number, ...facts: Fact[]): TraceStep {
  return {
    i,
    t,
    actor: 'test',
    kind: 'deliver',
    label: 'test',
    from: null,
    envelope: null,
    detail: null,
    before: '',
    after: '',
    sent: [],
    facts,
    faults: [],
  };
}

export interface Rec {
  readonly offset: number;
  readonly eventId?: string;
  readonly key?: string;
  readonly producerId?: number;
  readonly epoch?: number;
  readonly outcome?: TxnOutcome | null;
  readonly control?: 'COMMIT' | 'ABORT';
  readonly origin?: { client: string; ref: number };
}

export function row(r: Rec): RecordRow {
  return {
    offset: r.offset,
    control: r.control ?? null,
    key: r.key ?? null,
    value: 'v',
    headers: r.eventId ? { event_id: r.eventId } : {},
    producerId: r.producerId ?? 1000,
    producerEpoch: r.epoch ?? 0,
    sequence: r.offset,
    transactional: r.outcome !== undefined && r.outcome !== null,
    txnOutcome: r.control ? null : (r.outcome ?? null),
    baseOffset: r.offset,
    timestamp: 0,
    origin: r.origin ?? null,
  };
}

export function partition(topic: string, records: readonly Rec[], lso?: number): PartitionRow {
  const end = records.length ? Math.max(...records.map((r) => r.offset)) + 1 : 0;
  return {
    topic,
    partition: 0,
    leader: 'broker-0',
    internal: false,
    logStartOffset: 0,
    highWatermark: end,
    lastStableOffset: lso ?? end,
    logEndOffset: end,
    records: records.map(row),
  };
}

/** The append fact of one data record. */
export function append(topic: string, r: Rec, transactional = r.outcome !== undefined && r.outcome !== null): Fact {
  return {
    kind: 'append',
    topic,
    partition: 0,
    baseOffset: r.offset,
    lastOffset: r.offset,
    producerId: r.producerId ?? 1000,
    producerEpoch: r.epoch ?? 0,
    baseSequence: r.offset,
    lastSequence: r.offset,
    transactional,
    control: null,
    eventIds: [r.eventId ?? null],
    origins: [r.origin ?? null],
  };
}

export function delivered(consumer: string, topic: string, offset: number, eventId?: string, isolationLevel = 'read_uncommitted'): Fact {
  return {
    kind: 'delivered',
    consumer,
    groupId: consumer,
    isolationLevel,
    topic,
    partition: 0,
    offset,
    key: null,
    value: 'v',
    headers: eventId ? { event_id: eventId } : {},
  };
}

export function processed(app: string, topic: string, offset: number, eventId?: string): Fact {
  return { kind: 'processed', app, topic, partition: 0, offset, eventId: eventId ?? null, key: null };
}

export function sendResult(
  client: string,
  ref: number,
  topic: string,
  eventId: string,
  offset: number | null,
  error: string | null = null,
): Fact {
  return { kind: 'sendResult', client, ref, topic, partition: 0, offset, error: error as never, eventId };
}

export function input(over: Partial<VerdictInput> & Pick<VerdictInput, 'steps' | 'partitions'>): VerdictInput {
  return { consumers: [], groups: [], final: true, ...over };
}
