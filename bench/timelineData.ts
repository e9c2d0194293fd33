/**
 * Synthetic partitions for the timeline benchmark: one big partition of `records` records written
 * in transactions of 9 records and a marker (mostly committed, every 7th aborted, the last one
 * open), plus two small partitions, with consumer and group pointers. Built directly as PartitionRow
 * objects (what the engine's logView returns), so the benchmark measures drawing, not the engine.
 */
import type { PartitionRow, RecordRow } from '../src/sim/trace/logView';
import { buildLanes, type LaneModel, type LanePointer } from '../src/ui/timeline/laneModel';
import type { LaneExtent } from '../src/ui/timeline/offsetScale';

function partition(topic: string, p: number, records: number): PartitionRow {
  const rows: RecordRow[] = [];
  const pending: number[] = [];
  let txn = 0;
  for (let offset = 0; offset < records; offset++) {
    const endOfTxn = offset % 10 === 9;
    const lastTxn = offset >= records - (records % 10 || 10);
    if (endOfTxn && !lastTxn) {
      const aborted = txn % 7 === 6;
      for (const i of pending) rows[i] = { ...(rows[i] as RecordRow), txnOutcome: aborted ? 'aborted' : 'committed' };
      pending.length = 0;
      rows.push({
        offset,
        control: aborted ? 'ABORT' : 'COMMIT',
        key: null,
        value: null,
        headers: {},
        producerId: 1000,
        producerEpoch: 0,
        sequence: -1,
        transactional: true,
        txnOutcome: null,
        baseOffset: offset,
        timestamp: offset,
        origin: null,
      });
      txn++;
      continue;
    }
    pending.push(rows.length);
    rows.push({
      offset,
      control: null,
      key: `order-${offset % 997}`,
      value: `{"orderId":${offset}}`,
      headers: { event_id: `evt-${offset}` },
      producerId: 1000,
      producerEpoch: 0,
      sequence: offset - txn,
      transactional: true,
      txnOutcome: 'open',
      baseOffset: offset - (offset % 10),
      timestamp: offset,
      origin: { client: 'bench-producer', ref: offset },
    });
  }
  const end = records;
  const lso = pending.length ? (rows[pending[0] as number] as RecordRow).offset : end;
  return {
    topic,
    partition: p,
    leader: 'broker-0',
    internal: false,
    logStartOffset: 0,
    highWatermark: end,
    lastStableOffset: lso,
    logEndOffset: end,
    records: rows,
  };
}

export interface SyntheticTimeline {
  readonly lanes: LaneModel[];
  readonly extents: Map<string, LaneExtent>;
}

export function syntheticTimeline(records: number): SyntheticTimeline {
  const rows = [partition('orders', 0, records), partition('orders', 1, 40), partition('payments', 0, 25)];
  const pointers = new Map<string, LanePointer[]>([
    [
      'orders-0',
      [
        { kind: 'position', owner: 'billing', offset: Math.floor(records * 0.8) },
        { kind: 'committed', owner: 'billing', offset: Math.floor(records * 0.6) },
      ],
    ],
  ]);
  const lanes = buildLanes(rows, pointers);
  const extents = new Map(lanes.map((l) => [l.key, { start: l.logStartOffset, end: l.logEndOffset + 1 }]));
  return { lanes, extents };
}
