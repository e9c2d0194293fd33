/**
 * Reading partition logs out of actor snapshots: every partition of the cluster (user topics on the
 * brokers, `__transaction_state` on the transaction coordinator, `__consumer_offsets` on the group
 * coordinator), and each record's transaction outcome, as kafka-dump-log.sh would show them.
 */
import type { BrokerContext } from '../broker/broker.machine';
import { CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC } from '../cluster/metadata';
import type { GroupCoordinatorContext } from '../coordinator/groupCoordinator.machine';
import type { TxnCoordinatorContext } from '../coordinator/transactionCoordinator.machine';
import type { ActorId } from '../kernel/envelope';
import type { BatchLog } from '../log/batchLog';
import { lastStableOffset, type PartitionLog, type UnreplicatedTxn } from '../log/partitionLog';
import type { ControlType, Headers, RecordBatch, RecordOrigin } from '../log/recordBatch';
import { keyOf } from '../protocol/topicPartition';
import { mainReplicas, type ReplicationRow, replicationRow, type Truncations } from './replicationView';

export type TxnOutcome = 'committed' | 'aborted' | 'open';

export interface RecordRow {
  readonly offset: number;
  readonly control: ControlType | null;
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: Headers;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly sequence: number;
  readonly transactional: boolean;
  readonly txnOutcome: TxnOutcome | null;
  readonly baseOffset: number;
  readonly timestamp: number;
  readonly origin: RecordOrigin | null;
  /** A marker's coordinator epoch (the coordinator that wrote it); absent for data records. */
  readonly coordinatorEpoch?: number;
}

export interface PartitionRow {
  readonly topic: string;
  readonly partition: number;
  readonly leader: ActorId;
  readonly internal: boolean;
  readonly logStartOffset: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly logEndOffset: number;
  readonly records: readonly RecordRow[];
  /**
   * Finished transactions whose marker is in the log at or above the high watermark
   * (ProducerStateManager.unreplicatedTxns): they hold the LSO at their first offset until the HW
   * passes the marker. Absent when there is none (always, with one replica).
   */
  readonly unreplicatedTxns?: readonly UnreplicatedTxn[];
  /** Replicas, ISR and leader epoch when the partition has more than one replica (./replicationView). */
  readonly replication?: ReplicationRow | null;
  /**
   * Batches the log cleaner kept as a header alone (RETAIN_EMPTY: an active producer's last batch),
   * which have no record row; kafka-dump-log prints them with `count: 0`. Absent when there is none.
   */
  readonly emptyBatches?: readonly EmptyBatchRow[];
}

/** The header of a batch kept without records (see PartitionRow.emptyBatches). */
export type EmptyBatchRow = Pick<
  RecordBatch,
  'baseOffset' | 'lastOffset' | 'producerId' | 'producerEpoch' | 'baseSequence' | 'lastSequence'
> & {
  readonly transactional: boolean;
  readonly control: ControlType | null;
  /** *The model keeps no header timestamp: the batch's append time.* */
  readonly timestamp: number;
};

/**
 * The batches the cleaner emptied but kept. Only the cleaned part of a log can hold them (below its
 * cleaner checkpoint), so a log never cleaned is not read.
 */
export function emptyBatchRows(log: PartitionLog): EmptyBatchRow[] {
  const out: EmptyBatchRow[] = [];
  if (log.cleanerCheckpoint <= 0) return out;
  for (const b of log.batches) {
    if (b.baseOffset >= log.cleanerCheckpoint) break;
    if (b.records.length > 0) continue;
    out.push({
      baseOffset: b.baseOffset,
      lastOffset: b.lastOffset,
      producerId: b.producerId,
      producerEpoch: b.producerEpoch,
      baseSequence: b.baseSequence,
      lastSequence: b.lastSequence,
      transactional: b.isTransactional,
      control: b.isControl ? b.controlType : null,
      timestamp: b.appendTime,
    });
  }
  return out;
}

/** Where reading a log stood before batch `batch`: how many rows, and the open transactions' rows. */
interface RowsMark {
  readonly batch: number;
  readonly rowCount: number;
  readonly open: ReadonlyMap<number, readonly number[]>;
}

/** The rows of a log version, the open transactions' rows at its end, and marks every MARK_EVERY batches. */
interface RowsMemo extends RowsMark {
  readonly batches: BatchLog;
  readonly rows: readonly RecordRow[];
  readonly marks: readonly RowsMark[];
}

/**
 * The rows of the last few log versions read. A log's batches are bytes (batchLog.ts), so reading
 * them all costs decoding; the views ask for every partition's rows at each step they show, and a
 * log at another step shares its first batches with one read before (appended to, or replayed
 * from the same checkpoint). So a version starts from the remembered version it shares most with:
 * at that version's end if it extends it, else at the last mark within what they share (the rows a
 * later marker closed are opened again), and decodes only from there.
 */
const memos: RowsMemo[] = [];
const MEMOS = 16;
const MARK_EVERY = 64;

const copyOpen = (open: ReadonlyMap<number, readonly number[]>) => new Map([...open].map(([p, list]) => [p, list.slice()]));

/** Every record of a log with its transaction outcome (a transactional record is open until its producer's next marker). */
export function recordRows(log: PartitionLog): RecordRow[] {
  const batches = log.batches;
  let memo: RowsMemo | undefined;
  let from: RowsMark = { batch: 0, rowCount: 0, open: new Map() };
  for (const m of memos) {
    const shared = batches.sharedPrefix(m.batches);
    let start: RowsMark | undefined = shared === m.batches.length ? m : undefined;
    if (!start) for (const mark of m.marks) if (mark.batch <= shared && mark.batch > (start?.batch ?? -1)) start = mark;
    if (start && start.batch > from.batch) {
      memo = m;
      from = start;
    }
  }
  if (memo && from === memo && from.batch === batches.length) {
    // the same batches: keep this memo among the recent ones
    memos.splice(memos.indexOf(memo), 1);
    memos.unshift(memo);
    return memo.rows.slice();
  }
  const rows = memo ? memo.rows.slice(0, from.rowCount) : [];
  const open = copyOpen(from.open);
  // rows a later marker closed in the remembered version are open again here
  if (memo && from !== memo)
    for (const list of open.values()) for (const idx of list) rows[idx] = { ...(rows[idx] as RecordRow), txnOutcome: 'open' };
  const marks = memo ? memo.marks.filter((m) => m.batch <= from.batch) : [];
  for (let i = from.batch; i < batches.length; i++) {
    if (i % MARK_EVERY === 0 && (marks.length === 0 || (marks[marks.length - 1] as RowsMark).batch < i))
      marks.push({ batch: i, rowCount: rows.length, open: copyOpen(open) });
    appendBatchRows(rows, open, batches.at(i) as RecordBatch);
  }
  memos.unshift({ batches, rows: rows.slice(), open: copyOpen(open), batch: batches.length, rowCount: rows.length, marks });
  if (memos.length > MEMOS) memos.pop();
  return rows;
}

/** The rows of batches in log order (also the batches a truncation cut). */
export function batchRows(batches: Iterable<RecordBatch>): RecordRow[] {
  const rows: RecordRow[] = [];
  const open = new Map<number, number[]>();
  for (const b of batches) appendBatchRows(rows, open, b);
  return rows;
}

/**
 * Appends a batch's rows. `open` holds the row indexes of each producer's open transaction; its
 * marker replaces them with rows carrying the outcome (new objects: earlier rows may be shared).
 */
function appendBatchRows(rows: RecordRow[], open: Map<number, number[]>, b: RecordBatch): void {
  if (b.isControl) {
    const txnOutcome: TxnOutcome = b.controlType === 'COMMIT' ? 'committed' : 'aborted';
    for (const idx of open.get(b.producerId) ?? []) rows[idx] = { ...(rows[idx] as RecordRow), txnOutcome };
    open.delete(b.producerId);
  }
  const pending = b.isTransactional && !b.isControl;
  let list = pending ? open.get(b.producerId) : undefined;
  if (pending && !list) {
    list = [];
    open.set(b.producerId, list);
  }
  for (const r of b.records) {
    const i = r.offset - b.baseOffset;
    list?.push(rows.length);
    rows.push({
      offset: r.offset,
      control: b.isControl ? b.controlType : null,
      key: r.key,
      value: r.value,
      headers: r.headers,
      producerId: b.producerId,
      producerEpoch: b.producerEpoch,
      sequence: b.baseSequence < 0 ? -1 : b.baseSequence + i,
      transactional: b.isTransactional,
      txnOutcome: pending ? 'open' : null,
      baseOffset: b.baseOffset,
      timestamp: r.timestamp,
      origin: r.origin ?? null,
      ...(b.isControl ? { coordinatorEpoch: b.coordinatorEpoch ?? -1 } : {}),
    });
  }
}

function row(
  log: PartitionLog,
  leader: ActorId,
  internal: boolean,
  actors?: ReadonlyMap<ActorId, { value: unknown; context: unknown }>,
  truncations?: Truncations,
  withRecords = true,
): PartitionRow {
  const replication = actors && log.epochs !== undefined ? replicationRow(actors, log.topic, log.partition, truncations) : null;
  const emptyBatches = withRecords ? emptyBatchRows(log) : [];
  return {
    ...(replication ? { replication } : {}),
    ...(emptyBatches.length ? { emptyBatches } : {}),
    topic: log.topic,
    partition: log.partition,
    leader,
    internal,
    logStartOffset: log.logStartOffset,
    highWatermark: log.highWatermark,
    lastStableOffset: lastStableOffset(log),
    logEndOffset: log.logEndOffset,
    records: withRecords ? recordRows(log) : [],
    ...(log.unreplicatedTxns ? { unreplicatedTxns: log.unreplicatedTxns } : {}),
  };
}

export interface LogSource {
  readonly id: ActorId;
  readonly logs: readonly PartitionLog[];
  readonly internal: boolean;
}

/**
 * All partition logs held by the actors, keyed by where they live. Of a replicated partition only
 * the main copy counts: its leader's log, or while it has no leader the last leader's
 * (replicationView.ts); the other replicas are read through `replicationRow`.
 */
export function logSources(actors: ReadonlyMap<ActorId, { value: unknown; context: unknown }>): LogSource[] {
  const out: LogSource[] = [];
  const main = mainReplicas(actors);
  for (const [id, snap] of actors) {
    const ctx = snap.context as Partial<BrokerContext & TxnCoordinatorContext & GroupCoordinatorContext>;
    if (id.startsWith('broker-') && ctx.partitions) {
      const logs = Object.values(ctx.partitions).filter((l) => l.epochs === undefined || main.get(keyOf(l)) === id);
      // a replicated __transaction_state or __consumer_offsets lives on the brokers, still an internal topic
      const isInternal = (l: PartitionLog) => l.topic === TRANSACTION_STATE_TOPIC || l.topic === CONSUMER_OFFSETS_TOPIC;
      out.push({ id, logs: logs.filter((l) => !isInternal(l)), internal: false });
      const internal = logs.filter(isInternal);
      if (internal.length > 0) out.push({ id, logs: internal, internal: true });
    } else if ((id === 'txn-coordinator' || id === 'group-coordinator') && ctx.logs)
      out.push({ id, logs: Object.values(ctx.logs), internal: true });
  }
  return out;
}

/**
 * Every partition's offsets and its log, without reading its records (a view reads those by range):
 * in partitionRows' order.
 */
export function partitionHeads(
  actors: ReadonlyMap<ActorId, { value: unknown; context: unknown }>,
): { head: Omit<PartitionRow, 'records' | 'replication'>; log: PartitionLog }[] {
  const out: { head: Omit<PartitionRow, 'records' | 'replication'>; log: PartitionLog }[] = [];
  for (const src of logSources(actors))
    for (const log of src.logs) {
      const { records: _, replication: __, ...head } = row(log, src.id, src.internal, undefined, undefined, false);
      out.push({ head, log });
    }
  return out.sort((a, b) => byTopic(a.head, b.head));
}

const rank = (t: string) => (t === TRANSACTION_STATE_TOPIC ? 2 : t === CONSUMER_OFFSETS_TOPIC ? 1 : 0);

function byTopic(a: { topic: string; partition: number }, b: { topic: string; partition: number }): number {
  return rank(a.topic) - rank(b.topic) || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition);
}

/** The rows of the partitions of some topics only, with their records (a Streams store's changelog and counted topic). */
export function partitionRowsOf(
  actors: ReadonlyMap<ActorId, { value: unknown; context: unknown }>,
  topics: ReadonlySet<string>,
): PartitionRow[] {
  const rows: PartitionRow[] = [];
  for (const src of logSources(actors)) for (const log of src.logs) if (topics.has(log.topic)) rows.push(row(log, src.id, src.internal));
  return rows.sort(byTopic);
}

/** Every partition's row; a replicated one's replication row lists the `truncations` given (truncationsAt). */
export function partitionRows(
  actors: ReadonlyMap<ActorId, { value: unknown; context: unknown }>,
  truncations?: Truncations,
): PartitionRow[] {
  const rows: PartitionRow[] = [];
  for (const src of logSources(actors)) for (const log of src.logs) rows.push(row(log, src.id, src.internal, actors, truncations));
  return rows.sort(byTopic);
}
