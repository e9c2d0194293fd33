/**
 * One replica's copy of a partition at a step of a run, as the replication tests state it: each
 * record's offset, value and the leader epoch its batch was written in, the replica's own high
 * watermark and log end offset, and (on the leader) the ISR it holds and its waiting acks=all
 * produces.
 */
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { topicPartitionKey } from '../../src/sim/protocol/topicPartition';
import { type SimView, stateAt, type Trace } from '../../src/sim/run';
import type { TraceStep } from '../../src/sim/views';

export interface ReplicaCopy {
  /** [offset, value, partitionLeaderEpoch] per record. */
  readonly records: readonly (readonly [number, string | null, number | undefined])[];
  readonly highWatermark: number;
  readonly logEndOffset: number;
  /** [producerId, lastSequence, lastOffset] of each producer's last batch, from the producer state. */
  readonly producers: readonly (readonly [number, number, number])[];
  /** The ISR this broker holds as leader (null: not the leader). */
  readonly leaderIsr: readonly string[] | null;
  /** requiredOffset of each acks=all produce waiting in this broker's purgatory. */
  readonly delayedProduces: readonly number[];
}

export function replicaCopy(view: SimView, broker: string, key: string): ReplicaCopy {
  const ctx = view.actors.get(broker)?.context as BrokerContext | undefined;
  const log = ctx?.partitions[key];
  if (!ctx || !log) throw new Error(`${broker} holds no ${key}`);
  return {
    records: log.batches.toArray().flatMap((b) => b.records.map((r, i) => [b.baseOffset + i, r.value, b.partitionLeaderEpoch] as const)),
    highWatermark: log.highWatermark,
    logEndOffset: log.logEndOffset,
    producers: [...log.producers.values()].map((p) => {
      const last = p.batches[p.batches.length - 1];
      return [p.producerId, last?.lastSeq ?? -1, last?.lastOffset ?? -1] as const;
    }),
    leaderIsr: ctx.replication?.leading[key]?.isr ?? null,
    delayedProduces: (ctx.replication?.delayed ?? [])
      .flatMap((d) => d.waiting)
      .filter((w) => topicPartitionKey(w.topic, w.partition) === key)
      .map((w) => w.requiredOffset),
  };
}

/** The index of the first step from `from` on that matches; throws when none does. */
export function firstStep(trace: Trace, pred: (s: TraceStep) => boolean, from = 0): number {
  for (let i = from; i < trace.steps.length; i++) if (pred(trace.steps.at(i) as TraceStep)) return i;
  throw new Error('no such step');
}

/** A step predicate: one of the step's facts is of this kind (and matches `pred`). */
export const withFact =
  (kind: string, pred: (f: Readonly<Record<string, unknown>>) => boolean = () => true) =>
  (s: TraceStep): boolean =>
    s.facts.some((f) => f.kind === kind && pred(f as unknown as Record<string, unknown>));

/** Every replica's copy at the end of the run: [broker, records, HW, LEO] in the given order. */
export function copiesAtEnd(trace: Trace, brokers: readonly string[], key: string) {
  const end = stateAt(trace, trace.steps.length);
  return brokers.map((b) => {
    const c = replicaCopy(end, b, key);
    return [b, c.records, c.highWatermark, c.logEndOffset] as const;
  });
}
