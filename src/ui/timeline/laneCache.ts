/**
 * Lanes from one step to the next without rebuilding unchanged logs: a log's records (and their
 * transaction outcomes) change only when batches are appended or the cleaner rewrites the log, so
 * a lane whose log start, log end, batch count and cleaner checkpoint are unchanged keeps its
 * records, typed arrays and level of detail; only its HW, LSO and pointers are read again.
 * Stepping through a run with 100k records then costs the changed partitions, not all of them.
 *
 * A replicated partition's lane draws the leader's log (replicas on other brokers hold copies of
 * it); its replication row (replicas, ISR, leader epoch, truncations) is read again every step.
 */
import {
  CONSUMER_OFFSETS_TOPIC,
  keyOf,
  lastStableOffset,
  logSources,
  type PartitionLog,
  recordRows,
  TRANSACTION_STATE_TOPIC,
  type Truncations,
} from '../../sim/views';
import { buildLane, collectPointers, type LaneModel, sortPointers } from './laneModel';
import { type ReplicationSource, replicationFromRows } from './replicationSource';

type Actors = ReadonlyMap<string, { value: unknown; context: unknown }>;
type LogSource = ReturnType<typeof logSources>[number];

function signature(holder: string, log: PartitionLog): string {
  // the holder too: after a leader change the lane draws another broker's log, which may differ
  return `${holder}|${log.logStartOffset}|${log.logEndOffset}|${log.batches.length}|${log.cleanerCheckpoint}`;
}

const rank = (t: string) => (t === TRANSACTION_STATE_TOPIC ? 2 : t === CONSUMER_OFFSETS_TOPIC ? 1 : 0);

export class LaneCache {
  private readonly entries = new Map<string, { sig: string; lane: LaneModel }>();

  constructor(private readonly replicationOf: ReplicationSource = replicationFromRows) {}

  /**
   * The lanes of the view, in partitionRows order (user topics, then the internal ones);
   * `truncations` (truncationsAt) are the records cut from replicas so far.
   */
  lanes(actors: Actors, truncations?: Truncations): LaneModel[] {
    const pointers = collectPointers(actors);
    const replicated = this.replicationOf(actors, truncations);
    // one log per partition: a replicated partition's holder (the leader), else the first found
    const chosen = new Map<string, { src: LogSource; log: PartitionLog }>();
    for (const src of logSources(actors))
      for (const log of src.logs) {
        const key = keyOf(log);
        if (!chosen.has(key) || replicated.get(key)?.logHolder === src.id) chosen.set(key, { src, log });
      }
    const out: LaneModel[] = [];
    for (const [key, { src, log }] of chosen) {
      const sig = signature(src.id, log);
      let entry = this.entries.get(key);
      if (!entry || entry.sig !== sig) {
        const lane = buildLane({
          topic: log.topic,
          partition: log.partition,
          leader: src.id,
          internal: src.internal,
          logStartOffset: log.logStartOffset,
          highWatermark: log.highWatermark,
          lastStableOffset: lastStableOffset(log),
          logEndOffset: log.logEndOffset,
          records: recordRows(log),
        });
        entry = { sig, lane };
        this.entries.set(key, entry);
      }
      out.push({
        ...entry.lane,
        leader: src.id,
        internal: src.internal,
        highWatermark: log.highWatermark,
        lastStableOffset: lastStableOffset(log),
        pointers: sortPointers(pointers.get(key) ?? []),
        replication: replicated.get(key)?.replication ?? null,
      });
    }
    for (const k of this.entries.keys()) if (!chosen.has(k)) this.entries.delete(k);
    return out.sort(
      (a, b) => rank(a.topic) - rank(b.topic) || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition),
    );
  }
}
