/**
 * The transaction coordinator (Kafka's TransactionCoordinator) as an XState machine: it hands out
 * producer ids and epochs (InitProducerId), tracks each transactional.id's state
 * (Empty → Ongoing → PrepareCommit/PrepareAbort → CompleteCommit/CompleteAbort, and
 * PrepareEpochFence when a newer instance fences an open transaction), writes every change to
 * `__transaction_state`, answers EndTxn as soon as PrepareX is written, then sends WriteTxnMarkers
 * to every partition of the transaction and writes CompleteX once all are acknowledged. It aborts
 * transactions left Ongoing past transaction.timeout.ms.
 *
 * The machine's own states are its availability: serving, loading (after a failover it replays
 * `__transaction_state`, answering COORDINATOR_LOAD_IN_PROGRESS meanwhile) and down. In Kafka the
 * coordinator is a module of the broker leading the `__transaction_state` partition; here it is an
 * actor of its own, and producer ids come from it too (in Kafka, from the controller).
 */
import { setup } from 'xstate';
import type { Mutable } from '../actors/draft';
import type { Lifecycle, Rpc, Timer } from '../actors/events';
import { handle, type Out, pendingRequest } from '../actors/out';
import { type ClusterMetadata, leaderOf, TRANSACTION_STATE_TOPIC } from '../cluster/metadata';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { appendProducerBatch, type PartitionLog } from '../log/partitionLog';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { KafkaError } from '../protocol/errors';
import type {
  AddOffsetsToTxnRequest,
  AddPartitionsToTxnRequest,
  EndTxnRequest,
  InitProducerIdRequest,
  TopicPartition,
  WriteTxnMarkersResponse,
} from '../protocol/messages';
import { keyOf, parseTopicPartition, topicPartitionKey } from '../protocol/topicPartition';
import { decodeTxnRecord, encodeTxnRecord, type TxnMetadata } from './transactionMetadata';
import { canTransition, type TxnState } from './transactionState';

export interface TxnCoordinatorConfig {
  /** transaction.abort.timed.out.transaction.cleanup.interval.ms */
  readonly cleanupIntervalMs: number;
  /** transaction.max.timeout.ms */
  readonly maxTimeoutMs: number;
  readonly transactionVersion: 1 | 2;
  /** How long replaying `__transaction_state` takes after a failover. */
  readonly loadTimeMs: number;
  /** Inter-broker request timeout for WriteTxnMarkers. */
  readonly requestTimeoutMs: number;
}

export const DEFAULT_TXN_COORDINATOR_CONFIG: TxnCoordinatorConfig = {
  cleanupIntervalMs: 10000,
  maxTimeoutMs: 900000,
  transactionVersion: 1,
  loadTimeMs: 50,
  requestTimeoutMs: 30000,
};

interface MarkerWork {
  readonly result: 'COMMIT' | 'ABORT';
  readonly producerId: number;
  readonly producerEpoch: number;
  /** Partitions whose marker is not yet acknowledged. */
  readonly remaining: readonly string[];
  /** Requests in flight: correlation id → partitions it carries. */
  readonly inFlight: Readonly<Record<number, readonly string[]>>;
}

export interface TxnCoordinatorContext {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: TxnCoordinatorConfig;
  /** Durable: producer ids are never handed out twice, even across a failover. */
  readonly nextProducerId: number;
  readonly coordinatorEpoch: number;
  readonly txns: Readonly<Record<string, TxnMetadata>>;
  readonly logs: Readonly<Record<string, PartitionLog>>;
  readonly markers: Readonly<Record<string, MarkerWork>>;
  readonly nextCorrelationId: number;
}

export interface TxnCoordinatorInput {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: TxnCoordinatorConfig;
  readonly logs: readonly PartitionLog[];
}

/** Every event the transaction coordinator handles. */
export type TxnCoordinatorEvent =
  | Rpc<'InitProducerId', InitProducerIdRequest>
  | Rpc<'AddPartitionsToTxn', AddPartitionsToTxnRequest>
  | Rpc<'AddOffsetsToTxn', AddOffsetsToTxnRequest>
  | Rpc<'EndTxn', EndTxnRequest>
  | Rpc<'WriteTxnMarkersResponse', WriteTxnMarkersResponse>
  | DisconnectedEvent
  | Timer<'markerRetry', { transactionalId: string }>
  | Timer<'txnTimeoutCheck' | 'loaded'>
  | Lifecycle;

type Draft = Mutable<TxnCoordinatorContext>;

/** Epochs are shorts; Kafka moves to a new producer id when an epoch would pass this. */
const MAX_EPOCH = 32766;

function stateLogKey(d: Draft, transactionalId: string): string {
  return topicPartitionKey(TRANSACTION_STATE_TOPIC, coordinatorPartitionFor(transactionalId, d.meta.transactionStatePartitions));
}

/** Writes a transactional.id's new metadata to `__transaction_state` and makes it current. */
function persist(d: Draft, m: TxnMetadata, now: number, out: Out): void {
  const previous = d.txns[m.transactionalId];
  if (previous && previous.state !== m.state && !canTransition(previous.state, m.state)) {
    // never happens if the handlers below are right; the invariant checks watch for it too
    out.fact({ kind: 'clientError', client: d.id, error: 'IllegalStateException', during: `${previous.state} → ${m.state}`, fatal: false });
    return;
  }
  const key = stateLogKey(d, m.transactionalId);
  const log = d.logs[key];
  if (log) {
    const { log: next } = appendProducerBatch(
      log,
      {
        producerId: -1,
        producerEpoch: -1,
        baseSequence: -1,
        isTransactional: false,
        records: [{ key: m.transactionalId, value: encodeTxnRecord(m), headers: {}, timestamp: now }],
      },
      now,
    );
    d.logs = { ...d.logs, [key]: next };
  }
  setState(d, m, out);
}

/** Changes the in-memory state without writing (PrepareEpochFence is not persisted). */
function setState(d: Draft, m: TxnMetadata, out: Out): void {
  const previous = d.txns[m.transactionalId];
  d.txns = { ...d.txns, [m.transactionalId]: m };
  if (!previous || previous.state !== m.state || previous.producerEpoch !== m.producerEpoch)
    out.fact({
      kind: 'txnState',
      transactionalId: m.transactionalId,
      producerId: m.producerId,
      producerEpoch: m.producerEpoch,
      from: previous?.state ?? '(new)',
      to: m.state,
    });
}

function allocateProducerId(d: Draft): number {
  const pid = d.nextProducerId;
  d.nextProducerId += 1;
  return pid;
}

/** The first cleanup tick at which `start + timeout < now` holds (the check runs every cleanup interval). */
function timeoutTick(d: Draft, m: TxnMetadata): number {
  const due = m.txnStartTimestamp + m.txnTimeoutMs + 1;
  return Math.ceil(due / d.config.cleanupIntervalMs) * d.config.cleanupIntervalMs;
}

function armTimeout(d: Draft, m: TxnMetadata, now: number, out: Out): void {
  out.timer(`txnTimeout:${m.transactionalId}`, 'txnTimeoutCheck', Math.max(0, timeoutTick(d, m) - now), {
    transactionalId: m.transactionalId,
    txnStartTimestamp: m.txnStartTimestamp,
  });
}

/** Ongoing → PrepareCommit/PrepareAbort, persisted; then markers to every partition. */
function prepareEnd(d: Draft, m: TxnMetadata, result: 'COMMIT' | 'ABORT', now: number, out: Out): void {
  const prepared: TxnMetadata = { ...m, state: result === 'COMMIT' ? 'PrepareCommit' : 'PrepareAbort', txnLastUpdateTimestamp: now };
  persist(d, prepared, now, out);
  out.cancel(`txnTimeout:${m.transactionalId}`);
  startMarkers(d, prepared, result, now, out);
}

function startMarkers(d: Draft, m: TxnMetadata, result: 'COMMIT' | 'ABORT', now: number, out: Out): void {
  d.markers = {
    ...d.markers,
    [m.transactionalId]: { result, producerId: m.producerId, producerEpoch: m.producerEpoch, remaining: m.partitions, inFlight: {} },
  };
  sendMarkers(d, m.transactionalId, out);
  maybeComplete(d, m.transactionalId, now, out);
}

/** Sends WriteTxnMarkers for every remaining partition not already in flight, one request per leader. */
function sendMarkers(d: Draft, transactionalId: string, out: Out): void {
  const work = d.markers[transactionalId];
  if (!work) return;
  const busy = new Set(Object.values(work.inFlight).flat());
  const byLeader = new Map<ActorId, TopicPartition[]>();
  for (const p of work.remaining) {
    if (busy.has(p)) continue;
    const tp = parseTopicPartition(p);
    const leader = leaderOf(d.meta, tp.topic, tp.partition);
    if (!leader) continue;
    byLeader.set(leader, [...(byLeader.get(leader) ?? []), tp]);
  }
  let inFlight = work.inFlight;
  for (const [leader, partitions] of [...byLeader].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const correlationId = d.nextCorrelationId;
    d.nextCorrelationId += 1;
    out.send(
      leader,
      'WriteTxnMarkers',
      {
        correlationId,
        markers: [
          {
            producerId: work.producerId,
            producerEpoch: work.producerEpoch,
            coordinatorEpoch: d.coordinatorEpoch,
            result: work.result,
            partitions,
            transactionalId,
          },
        ],
      },
      // TransactionMarkerChannelManager's NetworkClient: the broker's request.timeout.ms
      { timeoutMs: d.config.requestTimeoutMs },
    );
    inFlight = { ...inFlight, [correlationId]: partitions.map(keyOf) };
  }
  d.markers = { ...d.markers, [transactionalId]: { ...work, inFlight } };
}

/** Once every marker is acknowledged: CompleteCommit/CompleteAbort, partitions cleared. */
function maybeComplete(d: Draft, transactionalId: string, now: number, out: Out): void {
  const work = d.markers[transactionalId];
  const m = d.txns[transactionalId];
  if (!work || !m || work.remaining.length > 0) return;
  const { [transactionalId]: _done, ...rest } = d.markers;
  d.markers = rest;
  persist(
    d,
    { ...m, state: work.result === 'COMMIT' ? 'CompleteCommit' : 'CompleteAbort', partitions: [], txnLastUpdateTimestamp: now },
    now,
    out,
  );
}

/** Fence the current epoch (PrepareEpochFence, epoch+1) and abort: a newer instance or a timeout. */
function fenceAndAbort(d: Draft, m: TxnMetadata, now: number, out: Out): void {
  const fenced: TxnMetadata = { ...m, state: 'PrepareEpochFence', lastProducerEpoch: m.producerEpoch, producerEpoch: m.producerEpoch + 1 };
  setState(d, fenced, out);
  prepareEnd(d, fenced, 'ABORT', now, out);
}

function reply(out: Out, ev: RpcEvent<unknown>, rpc: Parameters<Out['reply']>[1], payload: object): void {
  out.reply(pendingRequest(ev), rpc, payload);
}

const onInitProducerId = (ctx: TxnCoordinatorContext, ev: RpcEvent<InitProducerIdRequest>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  const answer = (error: KafkaError, producerId = -1, producerEpoch = -1) =>
    reply(out, ev, 'InitProducerIdResponse', { error, producerId, producerEpoch });
  if (req.transactionalId === null) {
    // an idempotent producer without transactional.id: a fresh producer id, epoch 0, every time
    answer('NONE', allocateProducerId(d), 0);
    return d;
  }
  if (req.transactionTimeoutMs > d.config.maxTimeoutMs) {
    answer('INVALID_TRANSACTION_TIMEOUT');
    return d;
  }
  const id = req.transactionalId;
  let m = d.txns[id];
  if (!m) {
    m = {
      transactionalId: id,
      producerId: allocateProducerId(d),
      producerEpoch: -1,
      lastProducerEpoch: -1,
      txnTimeoutMs: req.transactionTimeoutMs,
      state: 'Empty',
      partitions: [],
      txnStartTimestamp: -1,
      txnLastUpdateTimestamp: ev.now,
    };
  }
  switch (m.state) {
    case 'Empty':
    case 'CompleteCommit':
    case 'CompleteAbort': {
      const exhausted = m.producerEpoch >= MAX_EPOCH;
      const next: TxnMetadata = {
        ...m,
        producerId: exhausted ? allocateProducerId(d) : m.producerId,
        producerEpoch: exhausted ? 0 : m.producerEpoch + 1,
        lastProducerEpoch: m.producerEpoch,
        txnTimeoutMs: req.transactionTimeoutMs,
        state: 'Empty',
        partitions: [],
        txnLastUpdateTimestamp: ev.now,
      };
      persist(d, next, ev.now, out);
      answer('NONE', next.producerId, next.producerEpoch);
      return d;
    }
    case 'Ongoing':
      // a newer instance: fence the old epoch and abort its transaction; the client retries
      fenceAndAbort(d, m, ev.now, out);
      answer('CONCURRENT_TRANSACTIONS');
      return d;
    default:
      answer('CONCURRENT_TRANSACTIONS');
      return d;
  }
};

/** Common checks of AddPartitionsToTxn / AddOffsetsToTxn / EndTxn (protocol v1). */
function validateProducer(m: TxnMetadata | undefined, producerId: number, producerEpoch: number): KafkaError | null {
  if (!m || m.producerId !== producerId) return 'INVALID_PRODUCER_ID_MAPPING';
  if (producerEpoch !== m.producerEpoch) return 'PRODUCER_FENCED';
  return null;
}

function addPartitions(
  d: Draft,
  ev: RpcEvent<unknown>,
  transactionalId: string,
  producerId: number,
  producerEpoch: number,
  added: readonly string[],
  rpc: 'AddPartitionsToTxnResponse' | 'AddOffsetsToTxnResponse',
  echo: object,
  out: Out,
): void {
  const m = d.txns[transactionalId];
  const invalid = validateProducer(m, producerId, producerEpoch);
  const fail = (error: KafkaError) => reply(out, ev, rpc, { error, ...echo });
  if (invalid || !m) {
    fail(invalid ?? 'INVALID_PRODUCER_ID_MAPPING');
    return;
  }
  if (m.state === 'PrepareCommit' || m.state === 'PrepareAbort' || m.state === 'PrepareEpochFence') {
    fail('CONCURRENT_TRANSACTIONS');
    return;
  }
  if (m.state === 'Ongoing' && added.every((p) => m.partitions.includes(p))) {
    reply(out, ev, rpc, { error: 'NONE', ...echo });
    return;
  }
  const starting = m.state !== 'Ongoing';
  const next: TxnMetadata = {
    ...m,
    state: 'Ongoing',
    partitions: [...m.partitions, ...added.filter((p) => !m.partitions.includes(p))],
    txnStartTimestamp: starting ? ev.now : m.txnStartTimestamp,
    txnLastUpdateTimestamp: ev.now,
  };
  persist(d, next, ev.now, out);
  if (starting) armTimeout(d, next, ev.now, out);
  reply(out, ev, rpc, { error: 'NONE', ...echo });
}

const onAddPartitions = (ctx: TxnCoordinatorContext, ev: RpcEvent<AddPartitionsToTxnRequest>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  const names = req.partitions.map(keyOf);
  if (req.verifyOnly) {
    // a leader checking, before it accepts a transactional batch, that the partition is in the transaction
    const m = d.txns[req.transactionalId];
    const invalid = validateProducer(m, req.producerId, req.producerEpoch);
    const busy = m && (m.state === 'PrepareCommit' || m.state === 'PrepareAbort') ? 'CONCURRENT_TRANSACTIONS' : null;
    const error = invalid ?? busy;
    reply(out, ev, 'AddPartitionsToTxnResponse', {
      error: error ?? 'NONE',
      partitions: req.partitions.map((p, i) => ({
        ...p,
        error: error ?? (m?.state === 'Ongoing' && m.partitions.includes(names[i] as string) ? 'NONE' : 'TRANSACTION_ABORTABLE'),
      })),
    });
    return d;
  }
  addPartitions(
    d,
    ev,
    req.transactionalId,
    req.producerId,
    req.producerEpoch,
    names,
    'AddPartitionsToTxnResponse',
    { partitions: req.partitions },
    out,
  );
  return d;
};

const onAddOffsets = (ctx: TxnCoordinatorContext, ev: RpcEvent<AddOffsetsToTxnRequest>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  // the group's __consumer_offsets partition joins the transaction, so it gets a marker too
  const offsetsPartition = topicPartitionKey('__consumer_offsets', coordinatorPartitionFor(req.groupId, d.meta.consumerOffsetsPartitions));
  addPartitions(d, ev, req.transactionalId, req.producerId, req.producerEpoch, [offsetsPartition], 'AddOffsetsToTxnResponse', {}, out);
  return d;
};

/**
 * EndTxn under protocol v2 (KIP-890): every EndTxn bumps the epoch (the markers carry the new one,
 * so a late produce of the old epoch is fenced), and a request one epoch behind is a retry.
 */
function endTxnV2(d: Draft, ev: RpcEvent<EndTxnRequest>, m: TxnMetadata, result: 'COMMIT' | 'ABORT', out: Out): void {
  const req = ev.payload;
  const current = req.producerEpoch === m.producerEpoch;
  const retry = req.producerEpoch === m.producerEpoch - 1;
  const answer = (error: KafkaError) => {
    const now = d.txns[m.transactionalId] ?? m;
    reply(out, ev, 'EndTxnResponse', { error, producerId: now.producerId, producerEpoch: now.producerEpoch });
  };
  const bumpAndEnd = (from: TxnMetadata, partitionsToo: boolean) => {
    const bumped: TxnMetadata = {
      ...from,
      state: result === 'COMMIT' ? 'PrepareCommit' : 'PrepareAbort',
      lastProducerEpoch: from.producerEpoch,
      producerEpoch: from.producerEpoch + 1,
      partitions: partitionsToo ? from.partitions : [],
      txnLastUpdateTimestamp: ev.now,
    };
    persist(d, bumped, ev.now, out);
    out.cancel(`txnTimeout:${m.transactionalId}`);
    startMarkers(d, bumped, result, ev.now, out);
    maybeComplete(d, m.transactionalId, ev.now, out);
    answer('NONE');
  };
  switch (m.state) {
    case 'Ongoing':
      if (current) bumpAndEnd(m, true);
      else answer('PRODUCER_FENCED');
      return;
    case 'PrepareCommit':
    case 'PrepareAbort':
      if (!retry) answer('PRODUCER_FENCED');
      else answer((m.state === 'PrepareCommit') === (result === 'COMMIT') ? 'CONCURRENT_TRANSACTIONS' : 'INVALID_TXN_STATE');
      return;
    case 'Empty':
      if (result === 'ABORT' && current) bumpAndEnd(m, false);
      else answer(result === 'COMMIT' && current ? 'INVALID_TXN_STATE' : 'PRODUCER_FENCED');
      return;
    case 'CompleteAbort':
    case 'CompleteCommit': {
      const same = (m.state === 'CompleteCommit') === (result === 'COMMIT');
      if (result === 'ABORT' && current) bumpAndEnd(m, false);
      else if (retry) answer(same ? 'NONE' : 'INVALID_TXN_STATE');
      else answer(current ? 'INVALID_TXN_STATE' : 'PRODUCER_FENCED');
      return;
    }
    default:
      answer('INVALID_TXN_STATE');
  }
}

const onEndTxn = (ctx: TxnCoordinatorContext, ev: RpcEvent<EndTxnRequest>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  const m = d.txns[req.transactionalId];
  const result = req.committed ? 'COMMIT' : 'ABORT';
  const answer = (error: KafkaError) =>
    reply(out, ev, 'EndTxnResponse', { error, producerId: m?.producerId ?? -1, producerEpoch: m?.producerEpoch ?? -1 });
  if (!m || m.producerId !== req.producerId) {
    answer('INVALID_PRODUCER_ID_MAPPING');
    return d;
  }
  if (d.config.transactionVersion === 2) {
    endTxnV2(d, ev, m, result, out);
    return d;
  }
  if (req.producerEpoch !== m.producerEpoch) {
    answer('PRODUCER_FENCED');
    return d;
  }
  switch (m.state) {
    case 'Ongoing':
      prepareEnd(d, m, result, ev.now, out);
      // answered as soon as PrepareCommit/PrepareAbort is written: the markers follow
      answer('NONE');
      return d;
    case 'CompleteCommit':
      answer(result === 'COMMIT' ? 'NONE' : 'INVALID_TXN_STATE');
      return d;
    case 'CompleteAbort':
      answer(result === 'ABORT' ? 'NONE' : 'INVALID_TXN_STATE');
      return d;
    case 'PrepareCommit':
      answer(result === 'COMMIT' ? 'CONCURRENT_TRANSACTIONS' : 'INVALID_TXN_STATE');
      return d;
    case 'PrepareAbort':
      answer(result === 'ABORT' ? 'CONCURRENT_TRANSACTIONS' : 'INVALID_TXN_STATE');
      return d;
    default:
      answer('INVALID_TXN_STATE');
      return d;
  }
};

function markerRequestDone(d: Draft, correlationId: number): { transactionalId: string; partitions: readonly string[] } | null {
  for (const [transactionalId, work] of Object.entries(d.markers)) {
    const partitions = work.inFlight[correlationId];
    if (!partitions) continue;
    const { [correlationId]: _gone, ...inFlight } = work.inFlight;
    d.markers = { ...d.markers, [transactionalId]: { ...work, inFlight } };
    return { transactionalId, partitions };
  }
  return null;
}

const onMarkersResponse = (
  ctx: TxnCoordinatorContext,
  ev: RpcEvent<WriteTxnMarkersResponse & { correlationId: number }>,
  out: Out,
): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const done = markerRequestDone(d, ev.payload.correlationId);
  if (!done) return ctx;
  const work = d.markers[done.transactionalId] as MarkerWork;
  let remaining = work.remaining;
  let retry = false;
  for (const r of ev.payload.markers)
    for (const p of r.partitions) {
      const name = keyOf(p);
      // acknowledged, or refused for good (a newer epoch already wrote there): stop sending
      if (p.error === 'NONE' || p.error === 'INVALID_PRODUCER_EPOCH' || p.error === 'TRANSACTION_COORDINATOR_FENCED')
        remaining = remaining.filter((x) => x !== name);
      else retry = true;
    }
  d.markers = { ...d.markers, [done.transactionalId]: { ...work, remaining } };
  if (retry) out.timer(`markerRetry:${done.transactionalId}`, 'markerRetry', 100, { transactionalId: done.transactionalId });
  maybeComplete(d, done.transactionalId, ev.now, out);
  return d;
};

/**
 * A WriteTxnMarkers request completed as a disconnect (no answer within request.timeout.ms, or the
 * leader is unreachable): TransactionMarkerRequestCompletionHandler puts its markers back in the
 * queue for that broker, and they are sent again.
 */
const onMarkerRequestLost = (ctx: TxnCoordinatorContext, ev: DisconnectedEvent, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const correlationId = (ev.payload as { correlationId?: number }).correlationId ?? -1;
  const done = markerRequestDone(d, correlationId);
  if (!done) return ctx;
  out.timer(`markerRetry:${done.transactionalId}`, 'markerRetry', 100, { transactionalId: done.transactionalId });
  return d;
};

const onMarkerRetry = (ctx: TxnCoordinatorContext, ev: TimerEvent<{ transactionalId: string }>, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  sendMarkers(d, ev.data.transactionalId, out);
  return d;
};

const onTimeoutCheck = (
  ctx: TxnCoordinatorContext,
  ev: TimerEvent<{ transactionalId: string; txnStartTimestamp: number }>,
  out: Out,
): TxnCoordinatorContext => {
  const d: Draft = { ...ctx };
  const m = d.txns[ev.data.transactionalId];
  if (!m || m.state !== 'Ongoing' || m.txnStartTimestamp !== ev.data.txnStartTimestamp) return ctx;
  if (!(m.txnStartTimestamp + m.txnTimeoutMs < ev.now)) {
    armTimeout(d, m, ev.now, out);
    return d;
  }
  out.fact({
    kind: 'note',
    actor: d.id,
    text: `transaction of ${m.transactionalId} has been open ${ev.now - m.txnStartTimestamp} ms, more than transaction.timeout.ms=${m.txnTimeoutMs}: fencing epoch ${m.producerEpoch} and aborting`,
  });
  fenceAndAbort(d, m, ev.now, out);
  return d;
};

const notServing = (error: KafkaError) =>
  handle((ctx: TxnCoordinatorContext, ev: RpcEvent, out: Out) => {
    const rpc = `${ev.type}Response` as Parameters<Out['reply']>[1];
    out.reply(pendingRequest(ev), rpc, { error, producerId: -1, producerEpoch: -1, partitions: [] });
    return ctx;
  });

/** After a failover: rebuild every transactional.id from the last record in `__transaction_state`, and finish what was prepared. */
const onLoaded = (ctx: TxnCoordinatorContext, ev: { now: number }, out: Out): TxnCoordinatorContext => {
  const d: Draft = { ...ctx, txns: {}, markers: {} };
  const loaded: Record<string, TxnMetadata> = {};
  for (const log of Object.values(d.logs))
    for (const b of log.batches)
      for (const r of b.records) {
        if (r.key === null || r.value === null) continue;
        const m = decodeTxnRecord(r.key, r.value);
        if (m) loaded[r.key] = m;
      }
  d.txns = loaded;
  out.fact({
    kind: 'note',
    actor: d.id,
    text: `loaded ${Object.keys(loaded).length} transactional id(s) from ${TRANSACTION_STATE_TOPIC} (coordinator epoch ${d.coordinatorEpoch})`,
  });
  for (const m of Object.values(loaded)) {
    if (m.state === 'PrepareCommit' || m.state === 'PrepareAbort')
      startMarkers(d, m, m.state === 'PrepareCommit' ? 'COMMIT' : 'ABORT', ev.now, out);
    else if (m.state === 'Ongoing') armTimeout(d, m, ev.now, out);
  }
  return d;
};

export const transactionCoordinatorMachine = setup({
  types: {} as { context: TxnCoordinatorContext; input: TxnCoordinatorInput; events: TxnCoordinatorEvent },
}).createMachine({
  id: 'transactionCoordinator',
  context: ({ input }) => ({
    id: input.id,
    meta: input.meta,
    config: input.config,
    nextProducerId: 1000,
    coordinatorEpoch: 0,
    txns: {},
    logs: Object.fromEntries(input.logs.map((l) => [keyOf(l), l])),
    markers: {},
    nextCorrelationId: 0,
  }),
  initial: 'serving',
  states: {
    serving: {
      on: {
        InitProducerId: { actions: handle(onInitProducerId) },
        AddPartitionsToTxn: { actions: handle(onAddPartitions) },
        AddOffsetsToTxn: { actions: handle(onAddOffsets) },
        EndTxn: { actions: handle(onEndTxn) },
        WriteTxnMarkersResponse: { actions: handle(onMarkersResponse) },
        disconnected: { actions: handle(onMarkerRequestLost) },
        markerRetry: { actions: handle(onMarkerRetry) },
        txnTimeoutCheck: { actions: handle(onTimeoutCheck) },
        crash: 'down',
      },
    },
    loading: {
      entry: handle((ctx: TxnCoordinatorContext, _ev: unknown, out: Out) => {
        out.timer('load', 'loaded', ctx.config.loadTimeMs);
        return ctx;
      }),
      on: {
        InitProducerId: { actions: notServing('COORDINATOR_LOAD_IN_PROGRESS') },
        AddPartitionsToTxn: { actions: notServing('COORDINATOR_LOAD_IN_PROGRESS') },
        AddOffsetsToTxn: { actions: notServing('COORDINATOR_LOAD_IN_PROGRESS') },
        EndTxn: { actions: notServing('COORDINATOR_LOAD_IN_PROGRESS') },
        loaded: { target: 'serving', actions: handle(onLoaded) },
        crash: 'down',
      },
    },
    down: {
      // the log is durable; the cache and the markers in progress were in memory
      entry: handle((ctx: TxnCoordinatorContext) => ({ ...ctx, txns: {}, markers: {} })),
      on: {
        restart: {
          target: 'loading',
          actions: handle((ctx: TxnCoordinatorContext) => ({ ...ctx, coordinatorEpoch: ctx.coordinatorEpoch + 1 })),
        },
      },
    },
  },
});

export type { TxnState };
