/**
 * The steps a consumer application plans for a polled batch, by processing mode: where the commit
 * goes relative to processing is what each mode is about.
 */
import type { RecordForApp, TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import type { ProcessingMode } from '../scenario/schema';

export type PlanStep =
  | { readonly kind: 'process'; readonly i: number }
  | { readonly kind: 'sideEffect'; readonly i: number }
  | { readonly kind: 'produce'; readonly i: number }
  | { readonly kind: 'beginTransaction' }
  | { readonly kind: 'groupMetadata' }
  | { readonly kind: 'sendOffsets' }
  | { readonly kind: 'commitTransaction' }
  | { readonly kind: 'flush' }
  | { readonly kind: 'commitSync'; readonly offsets: 'next' | 'last-processed' }
  | { readonly kind: 'point'; readonly name: string };

/** The end of a transaction: the next offsets into it, then commit. */
export const COMMIT_STEPS: readonly PlanStep[] = [
  { kind: 'sendOffsets' },
  { kind: 'point', name: 'beforeCommit' },
  { kind: 'commitTransaction' },
];

/**
 * A batched transaction's commit that falls due while the application waits in poll(): that poll()
 * returned nothing, so consumer.groupMetadata() is read first — a rebalance inside it may have
 * changed it — and sendOffsetsToTransaction carries what it answers.
 */
export const COMMIT_STEPS_AFTER_EMPTY_POLL: readonly PlanStep[] = [{ kind: 'groupMetadata' }, ...COMMIT_STEPS];

/**
 * exactly-once with commitIntervalMs: the steps for one polled batch of a transaction kept open
 * across polls — begin only when none is open, commit only once the interval has passed.
 */
export function batchedPlan(n: number, hasSink: boolean, hasOutput: boolean, open: boolean, due: boolean): PlanStep[] {
  const records = planFor('at-most-once', n, hasSink, hasOutput).slice(2);
  return [...(open ? [] : [{ kind: 'beginTransaction' } as const]), ...records, ...(due ? COMMIT_STEPS : [])];
}

/** The steps for one polled batch, by mode. */
export function planFor(mode: ProcessingMode, n: number, hasSink: boolean, hasOutput: boolean): PlanStep[] {
  const perRecord = (i: number): PlanStep[] => [
    { kind: 'process', i },
    ...(hasSink ? [{ kind: 'sideEffect', i } as const] : []),
    ...(hasOutput ? [{ kind: 'produce', i } as const] : []),
  ];
  const records = Array.from({ length: n }, (_, i) => perRecord(i)).flat();
  switch (mode) {
    case 'at-most-once':
      return [{ kind: 'point', name: 'beforeCommit' }, { kind: 'commitSync', offsets: 'next' }, ...records];
    case 'at-least-once':
      return [...records, { kind: 'point', name: 'beforeCommit' }, { kind: 'commitSync', offsets: 'next' }];
    case 'commit-last-processed':
      return [...records, { kind: 'point', name: 'beforeCommit' }, { kind: 'commitSync', offsets: 'last-processed' }];
    case 'exactly-once':
      return [
        { kind: 'beginTransaction' },
        ...records,
        { kind: 'sendOffsets' },
        { kind: 'point', name: 'beforeCommit' },
        { kind: 'commitTransaction' },
      ];
    case 'consume-produce-no-transactions':
      return [...records, { kind: 'flush' }, { kind: 'point', name: 'beforeCommit' }, { kind: 'commitSync', offsets: 'next' }];
    case 'auto-commit':
    case 'offsets-in-sink':
      return records;
  }
}

/** The pitfall: the offset of the last processed record per partition, instead of the next one. */
export function lastProcessedOffsets(batch: readonly RecordForApp[]): (TopicPartition & { offset: number })[] {
  const last = new Map<string, RecordForApp>();
  for (const r of batch) last.set(keyOf(r), r);
  return [...last.values()].map((r) => ({ topic: r.topic, partition: r.partition, offset: r.offset }));
}
