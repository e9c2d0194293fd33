/**
 * What a parsed dump says about each partition, the way Kafka's broker would read the same log:
 * each transactional record's outcome (its producer's next COMMIT/ABORT marker on the partition —
 * ProducerStateManager / the aborted-transaction index), the transactions still open at the end of
 * the dump and the Last Stable Offset they pin (UnifiedLog.lastStableOffset: the first offset of the
 * earliest open transaction, else the high watermark), with what `kafka-transactions.sh find-hanging`
 * would report for it; per producer the sequence gaps and epoch changes (ProducerAppendInfo's checks);
 * offsets missing from the dump (compaction); and, per topic, events stored more than once — by
 * `event_id` header or, failing that, by key and value.
 *
 * Pure: no DOM. Each partition becomes a PartitionRow, so lanes and the SVG export draw it as they
 * draw a run.
 */

import type { Mutable } from '../actors/draft';
import { keyOf, topicPartitionKey } from '../protocol/topicPartition';
import type { PartitionRow, RecordRow, TxnOutcome } from '../trace/logView';
import type { DumpBatch, DumpIssue, DumpSegment, ParsedDump } from './types';

/** A transaction with no marker in the dump: what find-hanging lists (Topic, Partition, ProducerId, ProducerEpoch, StartOffset, LastTimestamp). */
export interface OpenTxn {
  readonly topic: string;
  readonly partition: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly startOffset: number;
  readonly lastOffset: number;
  readonly records: number;
  readonly lastTimestamp: number | null;
  /** The last segment of the dump ends with it open: its marker may be in a later segment that was not given. */
  readonly mayEndLater: boolean;
}

export interface SequenceGap {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly offset: number;
  readonly expected: number;
  readonly found: number;
  /** Offsets are missing from the partition, so compaction may have removed the batches in between. */
  readonly mayBeCompaction: boolean;
}

export interface EpochChange {
  readonly producerId: number;
  readonly offset: number;
  readonly from: number;
  readonly to: number;
  /** The batch that carried the new epoch is a marker (transaction protocol v2 bumps the epoch on every EndTxn; a fenced producer's abort too). */
  readonly byMarker: boolean;
}

export interface DuplicateGroup {
  readonly topic: string;
  readonly by: 'event_id' | 'key+value';
  readonly id: string;
  readonly copies: readonly { partition: number; offset: number; producerId: number; producerEpoch: number; outcome: TxnOutcome | null }[];
  /** Copies a read_committed reader would get (not aborted, not open). */
  readonly visibleCopies: number;
}

export interface DumpLane {
  readonly key: string;
  readonly topic: string;
  readonly partition: number;
  readonly files: readonly { file: string; baseOffset: number | null; firstOffset: number | null; lastOffset: number | null }[];
  readonly row: PartitionRow;
  readonly batches: number;
  readonly dataRecords: number;
  readonly controlRecords: number;
  /** False when the dump does not say (Kafka's dumps never do): the high watermark is taken as the log end offset. */
  readonly highWatermarkKnown: boolean;
  readonly openTxns: readonly OpenTxn[];
  /** The open transaction with the lowest start offset, which holds the LSO back; null when none. */
  readonly lsoPin: OpenTxn | null;
  readonly sequenceGaps: readonly SequenceGap[];
  readonly epochChanges: readonly EpochChange[];
  readonly missingOffsets: number;
  /** Markers of producers with no transactional data in the dump (their transaction began in a segment not given). */
  readonly orphanMarkers: readonly { offset: number; producerId: number; marker: 'COMMIT' | 'ABORT' | null }[];
  /** Control batches whose type is unknown (no --deep-iteration and no .txnindex entry). */
  readonly unknownMarkers: readonly number[];
}

export interface DumpAnalysis {
  readonly lanes: readonly DumpLane[];
  readonly duplicates: readonly DuplicateGroup[];
  readonly deep: boolean;
  readonly data: boolean;
  readonly warnings: readonly DumpIssue[];
  readonly records: number;
}

/** Rows are made here and their outcome set when the marker is found (no copy per record). */
type MutableRow = Mutable<RecordRow>;

interface Open {
  producerId: number;
  producerEpoch: number;
  startOffset: number;
  lastOffset: number;
  rows: number[];
  lastTimestamp: number | null;
}

function groupSegments(segments: readonly DumpSegment[]): DumpSegment[][] {
  const by = new Map<string, DumpSegment[]>();
  for (const s of segments) {
    const k = keyOf(s);
    const list = by.get(k);
    if (list) list.push(s);
    else by.set(k, [s]);
  }
  return [...by.values()].map((l) => [...l].sort((a, b) => firstOffsetOf(a) - firstOffsetOf(b)));
}

function firstOffsetOf(s: DumpSegment): number {
  return s.batches[0]?.baseOffset ?? s.baseOffset ?? 0;
}

/** The offsets a batch's records sit at: as listed (--deep-iteration), else its offset range (cut to `count` when compaction left fewer). */
function recordOffsets(b: DumpBatch): number[] {
  if (b.records.length) return b.records.map((r) => r.offset);
  const span = b.lastOffset - b.baseOffset + 1;
  const n = b.count === null ? span : Math.min(b.count, span);
  const out: number[] = [];
  for (let i = 0; i < n - 1; i++) out.push(b.baseOffset + i);
  if (n > 0) out.push(b.lastOffset);
  return out;
}

function analyzePartition(segs: DumpSegment[]): DumpLane {
  const first = segs[0] as DumpSegment;
  const { topic, partition } = first;
  const batches = segs.flatMap((s) => s.batches);
  const aborted = segs.flatMap((s) => s.abortedTxns);
  const rows: RecordRow[] = [];
  const open = new Map<number, Open>();
  const orphanMarkers: DumpLane['orphanMarkers'][number][] = [];
  const unknownMarkers: number[] = [];
  const epochChanges: EpochChange[] = [];
  const lastEpoch = new Map<number, number>();
  const lastSeq = new Map<number, { epoch: number; seq: number }>();
  const gapsRaw: Omit<SequenceGap, 'mayBeCompaction'>[] = [];
  let missing = 0;
  let prevLast: number | null = null;
  let dataRecords = 0;
  let controlRecords = 0;

  for (const b of batches) {
    if (prevLast !== null && b.baseOffset > prevLast + 1) missing += b.baseOffset - prevLast - 1;
    const offsets = recordOffsets(b);
    missing += b.lastOffset - b.baseOffset + 1 - offsets.length;
    prevLast = b.lastOffset;
    const pid = b.producerId;
    if (pid >= 0) {
      const e = lastEpoch.get(pid);
      if (e !== undefined && e !== b.producerEpoch)
        epochChanges.push({ producerId: pid, offset: b.baseOffset, from: e, to: b.producerEpoch, byMarker: b.isControl });
      lastEpoch.set(pid, b.producerEpoch);
    }
    if (b.isControl) {
      controlRecords += offsets.length;
      let marker = b.records[0]?.marker ?? null;
      if (!marker) {
        const idx = aborted.find((a) => a.producerId === pid && a.lastOffset === b.baseOffset);
        marker = idx ? 'ABORT' : null;
      }
      const o = open.get(pid);
      if (o && marker) {
        const outcome: TxnOutcome = marker === 'COMMIT' ? 'committed' : 'aborted';
        for (const i of o.rows) (rows[i] as MutableRow).txnOutcome = outcome;
      }
      if (!o) orphanMarkers.push({ offset: b.baseOffset, producerId: pid, marker });
      // ended, but how is unknown: neither open nor known to be aborted
      else if (!marker) for (const i of o.rows) (rows[i] as MutableRow).txnOutcome = null;
      open.delete(pid);
      if (!marker) {
        unknownMarkers.push(b.baseOffset);
        continue;
      }
      for (const off of offsets)
        rows.push(
          rowOf(
            b,
            off,
            marker,
            null,
            b.records.find((r) => r.offset === off),
          ),
        );
      continue;
    }
    dataRecords += offsets.length;
    if (b.baseSequence >= 0 && pid >= 0) {
      const prev = lastSeq.get(pid);
      if (prev && prev.epoch === b.producerEpoch && b.baseSequence !== prev.seq + 1 && !(prev.seq === 2147483647 && b.baseSequence === 0))
        gapsRaw.push({
          producerId: pid,
          producerEpoch: b.producerEpoch,
          offset: b.baseOffset,
          expected: prev.seq + 1,
          found: b.baseSequence,
        });
      // a higher epoch starts at sequence 0 (ProducerAppendInfo.checkSequence)
      else if (prev && prev.epoch !== b.producerEpoch && b.baseSequence !== 0)
        gapsRaw.push({ producerId: pid, producerEpoch: b.producerEpoch, offset: b.baseOffset, expected: 0, found: b.baseSequence });
      lastSeq.set(pid, { epoch: b.producerEpoch, seq: b.lastSequence });
    }
    let o: Open | undefined;
    if (b.isTransactional) {
      o = open.get(pid);
      if (!o) {
        o = {
          producerId: pid,
          producerEpoch: b.producerEpoch,
          startOffset: b.baseOffset,
          lastOffset: b.lastOffset,
          rows: [],
          lastTimestamp: null,
        };
        open.set(pid, o);
      }
      o.lastOffset = b.lastOffset;
      o.producerEpoch = b.producerEpoch;
      o.lastTimestamp = b.maxTimestamp ?? o.lastTimestamp;
    }
    offsets.forEach((off, i) => {
      if (o) o.rows.push(rows.length);
      rows.push(rowOf(b, off, null, o ? 'open' : null, b.records[i] ?? undefined));
    });
  }
  // a .txnindex entry decides an outcome even when its marker is in a segment not given
  for (const a of aborted) {
    const o = open.get(a.producerId);
    if (o && o.startOffset >= a.firstOffset && o.startOffset <= a.lastOffset) {
      for (const i of o.rows) (rows[i] as MutableRow).txnOutcome = 'aborted';
      open.delete(a.producerId);
    }
  }
  const lastSeg = segs[segs.length - 1] as DumpSegment;
  const logEnd = lastSeg.summary?.logEndOffset ?? (prevLast === null ? (lastSeg.baseOffset ?? 0) : prevLast + 1);
  const hw = lastSeg.summary?.highWatermark ?? logEnd;
  const openTxns: OpenTxn[] = [...open.values()]
    .map((o) => ({
      topic,
      partition,
      producerId: o.producerId,
      producerEpoch: o.producerEpoch,
      startOffset: o.startOffset,
      lastOffset: o.lastOffset,
      records: o.rows.length,
      lastTimestamp: o.lastTimestamp,
      mayEndLater: lastSeg.summary === null,
    }))
    .sort((a, b) => a.startOffset - b.startOffset);
  const lsoPin = openTxns[0] ?? null;
  const lso = Math.min(lsoPin ? lsoPin.startOffset : hw, hw);
  const logStart = first.summary?.logStartOffset ?? first.baseOffset ?? batches[0]?.baseOffset ?? 0;
  const leader = first.leader ?? '(dump)';
  return {
    key: topicPartitionKey(topic, partition),
    topic,
    partition,
    files: segs.map((s) => ({
      file: s.file,
      baseOffset: s.baseOffset,
      firstOffset: s.batches[0]?.baseOffset ?? null,
      lastOffset: s.batches[s.batches.length - 1]?.lastOffset ?? null,
    })),
    row: {
      topic,
      partition,
      leader,
      internal: topic.startsWith('__'),
      logStartOffset: Math.min(logStart, batches[0]?.baseOffset ?? logStart),
      highWatermark: hw,
      lastStableOffset: lso,
      logEndOffset: logEnd,
      records: rows,
    },
    batches: batches.length,
    dataRecords,
    controlRecords,
    highWatermarkKnown: lastSeg.summary !== null,
    openTxns,
    lsoPin,
    sequenceGaps: gapsRaw.map((g) => ({ ...g, mayBeCompaction: missing > 0 })),
    epochChanges,
    missingOffsets: missing,
    orphanMarkers,
    unknownMarkers,
  };
}

function rowOf(
  b: DumpBatch,
  offset: number,
  control: 'COMMIT' | 'ABORT' | null,
  outcome: TxnOutcome | null,
  r: DumpBatch['records'][number] | undefined,
): RecordRow {
  return {
    offset,
    control,
    key: r?.key ?? null,
    value: r?.value ?? null,
    headers: r?.headers ?? {},
    producerId: b.producerId,
    producerEpoch: b.producerEpoch,
    sequence: control ? -1 : (r?.sequence ?? (b.baseSequence < 0 ? -1 : b.baseSequence + (offset - b.baseOffset))),
    transactional: b.isTransactional,
    txnOutcome: outcome,
    baseOffset: b.baseOffset,
    timestamp: r?.timestamp ?? b.maxTimestamp ?? 0,
    origin: null,
    // a marker's coordinator epoch, as its details panel shows it for a run (printed with the marker)
    ...(control && r?.coordinatorEpoch != null ? { coordinatorEpoch: r.coordinatorEpoch } : {}),
  };
}

function duplicateKey(topic: string, r: RecordRow): string | null {
  if (r.control) return null;
  const eventId = r.headers.event_id;
  if (eventId !== undefined) return `${topic}\u0000e\u0000${eventId}`;
  if (r.key !== null && r.value !== null) return `${topic}\u0000k\u0000${r.key}\u0000${r.value}`;
  return null;
}

/** Two passes: count every key, then collect only the keys seen more than once (a 100k-record dump allocates little). */
function duplicatesOf(lanes: readonly DumpLane[]): DuplicateGroup[] {
  const counts = new Map<string, number>();
  for (const lane of lanes) {
    if (lane.row.internal) continue;
    for (const r of lane.row.records) {
      const k = duplicateKey(lane.topic, r);
      if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  const groups = new Map<string, { topic: string; by: DuplicateGroup['by']; id: string; copies: DuplicateGroup['copies'][number][] }>();
  for (const lane of lanes) {
    if (lane.row.internal) continue;
    for (const r of lane.row.records) {
      const k = duplicateKey(lane.topic, r);
      if (k === null || (counts.get(k) ?? 0) < 2) continue;
      let g = groups.get(k);
      if (!g) {
        const eventId = r.headers.event_id;
        g =
          eventId !== undefined
            ? { topic: lane.topic, by: 'event_id', id: eventId, copies: [] }
            : { topic: lane.topic, by: 'key+value', id: `${r.key} → ${r.value}`, copies: [] };
        groups.set(k, g);
      }
      g.copies.push({
        partition: lane.partition,
        offset: r.offset,
        producerId: r.producerId,
        producerEpoch: r.producerEpoch,
        outcome: r.txnOutcome,
      });
    }
  }
  return [...groups.values()].map((g) => ({
    ...g,
    visibleCopies: g.copies.filter((c) => c.outcome === null || c.outcome === 'committed').length,
  }));
}

export function analyzeDump(dump: ParsedDump): DumpAnalysis {
  const lanes = groupSegments(dump.segments).map(analyzePartition);
  return {
    lanes,
    duplicates: duplicatesOf(lanes),
    deep: dump.deep,
    data: dump.data,
    warnings: dump.warnings,
    records: lanes.reduce((n, l) => n + l.row.records.length, 0),
  };
}
