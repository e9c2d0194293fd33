/**
 * A restarted broker opens its logs again and rebuilds each one's producer state from its latest
 * snapshot and the batches after it (LogLoader.load → UnifiedLog.rebuildProducerState;
 * `log/producerSnapshot.ts`). Most reloads give back the state the broker had; a
 * `producerStateLoaded` fact tells the ones that do not: producers left out as expired, producers an
 * expiration check had dropped that the log brought back, and producers that kept only their last
 * batch (a snapshot holds one per producer).
 */
import type { Out } from '../actors/out';
import type { PartitionLog } from '../log/partitionLog';
import { reloadAfterCleanShutdown, reloadProducerState } from '../log/producerSnapshot';
import type { ProducerStateEntry } from '../log/producerStateEntry';
import type { BrokerContext } from './broker.machine';

/** A producer as a `producerStateLoaded` fact names it. */
const describedProducer = (e: ProducerStateEntry) => ({
  producerId: e.producerId,
  producerEpoch: e.producerEpoch,
  lastTimestamp: e.lastTimestamp,
});

/** What a reload found, as `log/producerSnapshot.ts` and `log/replicaLog.ts` report it. */
export interface ReloadFindings {
  readonly snapshotOffset: number | null;
  readonly replayedFrom: number;
  readonly dropped: readonly ProducerStateEntry[];
  readonly restored?: readonly ProducerStateEntry[];
  readonly fewerBatches: readonly ProducerStateEntry[];
}

/** The `producerStateLoaded` fact of a reload that differs (nothing when it gave back what was there). */
export function tellReload(
  out: Out,
  broker: string,
  where: { readonly topic: string; readonly partition: number },
  cause: 'restart' | 'cleanRestart' | 'truncation',
  r: ReloadFindings,
  expirationMs: number,
): void {
  const restored = r.restored ?? [];
  if (r.dropped.length + restored.length + r.fewerBatches.length === 0) return;
  out.fact({
    kind: 'producerStateLoaded',
    cause,
    broker,
    topic: where.topic,
    partition: where.partition,
    snapshotOffset: r.snapshotOffset,
    replayedFrom: r.replayedFrom,
    dropped: r.dropped.map(describedProducer),
    restored: restored.map(describedProducer),
    lastBatchOnly: r.fewerBatches.map(describedProducer),
    expirationMs,
  });
}

/** Every log of the broker with its producer state reloaded at `now`: after a crash, or after a clean shutdown (`clean`). */
export function reloadProducerStates(ctx: BrokerContext, now: number, out: Out, clean = false): BrokerContext {
  const expirationMs = ctx.producerExpiration.expirationMs;
  const partitions: Record<string, PartitionLog> = {};
  for (const [key, log] of Object.entries(ctx.partitions)) {
    const r = clean ? reloadAfterCleanShutdown(log, now, expirationMs) : reloadProducerState(log, now, expirationMs);
    partitions[key] = r.log;
    tellReload(out, ctx.id, log, clean ? 'cleanRestart' : 'restart', r, expirationMs);
  }
  return { ...ctx, partitions };
}
