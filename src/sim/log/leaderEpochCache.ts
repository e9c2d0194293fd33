/**
 * The leader epoch cache of a replicated log (storage's LeaderEpochFileCache): one (epoch, start
 * offset) entry per leader epoch that wrote to the log, oldest first. Pure functions over a list.
 */
export interface EpochEntry {
  readonly epoch: number;
  readonly startOffset: number;
}

/** Kafka's UNDEFINED_EPOCH / UNDEFINED_EPOCH_OFFSET. */
export const UNDEFINED_EPOCH = -1;
export const UNDEFINED_EPOCH_OFFSET = -1;

export function latestEpoch(epochs: readonly EpochEntry[]): number | null {
  return epochs.length ? (epochs[epochs.length - 1] as EpochEntry).epoch : null;
}

/**
 * LeaderEpochFileCache.assign: records that `epoch` starts at `startOffset`. The latest epoch again
 * (at the same or a later offset) changes nothing; entries it conflicts with (an epoch at or above
 * it, or a start offset at or after it) are removed first.
 */
export function assignEpoch(epochs: readonly EpochEntry[], epoch: number, startOffset: number): readonly EpochEntry[] {
  const last = epochs[epochs.length - 1];
  // isUpdateNeeded
  if (last && last.epoch === epoch && startOffset >= last.startOffset) return epochs;
  // maybeTruncateNonMonotonicEntries
  const kept = epochs.filter((e) => e.epoch < epoch && e.startOffset < startOffset);
  return [...kept, { epoch, startOffset }];
}

/**
 * LeaderEpochFileCache.endOffsetFor(requestedEpoch, logEndOffset): the end offset of an epoch is
 * the start offset of the next higher epoch, or the log end offset for the latest one. Returns the
 * largest epoch ≤ the requested one with that end offset; (UNDEFINED, UNDEFINED) when the
 * requested epoch is undefined or above every epoch here.
 */
export function endOffsetFor(
  epochs: readonly EpochEntry[],
  requestedEpoch: number,
  logEndOffset: number,
): { epoch: number; endOffset: number } {
  const undefinedAnswer = { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET };
  if (requestedEpoch === UNDEFINED_EPOCH) return undefinedAnswer;
  const latest = latestEpoch(epochs);
  if (latest !== null && latest === requestedEpoch) return { epoch: requestedEpoch, endOffset: logEndOffset };
  const higher = epochs.find((e) => e.epoch > requestedEpoch);
  if (!higher) return undefinedAnswer;
  let floor: EpochEntry | undefined;
  for (const e of epochs) if (e.epoch <= requestedEpoch) floor = e;
  return floor ? { epoch: floor.epoch, endOffset: higher.startOffset } : { epoch: requestedEpoch, endOffset: higher.startOffset };
}

/** LeaderEpochFileCache.truncateFromEnd(endOffset): entries starting at or after endOffset go. */
export function truncateEpochsFromEnd(epochs: readonly EpochEntry[], endOffset: number): readonly EpochEntry[] {
  const kept = epochs.filter((e) => e.startOffset < endOffset);
  return kept.length === epochs.length ? epochs : kept;
}
