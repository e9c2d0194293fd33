/**
 * The consumer client (KafkaConsumer, classic group protocol) as an XState machine:
 * joining → syncing → stable, back to joining when the coordinator says the group is rebalancing
 * or that this member's generation is gone. In stable it fetches its partitions, hands records to
 * the application's poll(), auto-commits from poll() when enable.auto.commit is on, and commits on
 * request. Without group.id it reads every partition of its topics and cannot commit.
 *
 * Simplifications: one Fetch per partition, issued when that partition's buffer is empty; poll()
 * blocks until records are available; on a rebalance every partition is revoked (eager protocol).
 */
import { setup } from 'xstate';
import type { Mutable } from '../actors/draft';
import { handle, type Out } from '../actors/out';
import { type ClusterMetadata, leaderOf } from '../cluster/metadata';
import type { ConsumerConfig } from '../config/consumerConfig';
import { type CallEvent, type DisconnectedEvent, disconnectError, type RpcEvent, type TimerEvent } from '../kernel/effects';
import type { ActorId, RequestRpc } from '../kernel/envelope';
import type { KafkaError } from '../protocol/errors';
import type {
  FetchResponse,
  JoinGroupResponse,
  OffsetFetchResponse,
  RecordForApp,
  SyncGroupResponse,
  TopicPartition,
} from '../protocol/messages';
import { collectFetched } from './fetchCollector';

export interface ConsumerContext {
  readonly self: ActorId;
  readonly app: ActorId;
  readonly client: string;
  readonly meta: ClusterMetadata;
  readonly config: ConsumerConfig;
  readonly topics: readonly string[];
  readonly memberId: string;
  readonly generationId: number;
  readonly assignment: readonly TopicPartition[];
  /** Next offset poll() will return, per partition ("topic-partition"); absent until known. */
  readonly positions: Readonly<Record<string, number>>;
  /** Fetched records not yet returned by poll(). */
  readonly buffer: Readonly<Record<string, readonly RecordForApp[]>>;
  /** Position after the buffered records (the fetch's next offset). */
  readonly bufferEnd: Readonly<Record<string, number>>;
  /** Correlation id of the fetch in flight per partition. */
  readonly fetching: Readonly<Record<string, number>>;
  readonly offsetsRequest: number | null;
  /**
   * The application has a ConsumerRebalanceListener (offsets-in-sink: it seeks to the offsets its
   * database holds): on every assignment the consumer calls onPartitionsAssigned and waits for it
   * before fetching the group's committed offsets for the partitions it did not seek.
   */
  readonly rebalanceListener: boolean;
  readonly awaitingListener: boolean;
  readonly pollWaiting: ActorId | null;
  /** An endOffsets() call in progress: correlation id → partition, and the offsets found so far. */
  readonly endOffsets: {
    readonly from: ActorId;
    readonly requests: Readonly<Record<number, string>>;
    readonly offsets: Readonly<Record<string, number>>;
  } | null;
  /** The OffsetCommit in flight (one at a time, so commits reach the coordinator in order). */
  readonly commitInFlight: PendingCommit | null;
  /** The next commit, waiting for the one in flight; a newer one replaces it. */
  readonly commitQueued: PendingCommit | null;
  /** ConsumerCoordinator.nextAutoCommitTimer: when poll() auto-commits next. */
  readonly nextAutoCommitAt: number;
  /** The group's committed offset as this consumer last learned it (an acknowledged commit, an OffsetFetch), by partition. */
  readonly knownCommitted: Readonly<Record<string, number>>;
  readonly nextCorrelationId: number;
  /**
   * The coordinator asked this member to rejoin. As in Kafka, it does so only inside the next
   * poll(): until then it keeps its partitions and generation, so the application can still commit
   * the batch it is processing.
   */
  readonly rejoinNeeded: boolean;
}

export interface PendingCommit {
  readonly correlationId: number;
  readonly generationId: number;
  readonly memberId: string;
  readonly offsets: readonly (TopicPartition & { offset: number })[];
  /** The application waiting in commitSync(), if any (auto-commits have none). */
  readonly waiter: ActorId | null;
  /** An auto-commit of poll(), the one before rejoining (ConsumerCoordinator.onJoinPrepare), or commitSync(). */
  readonly purpose: 'auto' | 'joinPrepare' | 'sync';
  /** Attempts so far: a retry waits retry.backoff.ms doubling up to retry.backoff.max.ms. */
  readonly attempts: number;
  /** commitSync() gives up at default.api.timeout.ms after it was called (TimeoutException). */
  readonly deadline: number;
}

/** default.api.timeout.ms: how long commitSync() without a timeout retries. */
export const DEFAULT_API_TIMEOUT_MS = 60000;

export interface ConsumerInput {
  readonly self: ActorId;
  readonly app: ActorId;
  readonly client: string;
  readonly meta: ClusterMetadata;
  readonly config: ConsumerConfig;
  readonly topics: readonly string[];
  /** offsets-in-sink: the application seeks in onPartitionsAssigned. */
  readonly rebalanceListener?: boolean;
}

type Ev =
  | RpcEvent
  | TimerEvent
  | CallEvent
  | DisconnectedEvent
  | { type: 'boot'; now: number }
  | { type: 'crash' }
  | { type: 'rejoin' }
  | { type: 'assigned' };

type Draft = Mutable<ConsumerContext>;

const tpName = (tp: TopicPartition) => `${tp.topic}-${tp.partition}`;

function initial(input: ConsumerInput): ConsumerContext {
  return {
    ...input,
    memberId: '',
    generationId: -1,
    assignment: [],
    positions: {},
    buffer: {},
    bufferEnd: {},
    fetching: {},
    offsetsRequest: null,
    rebalanceListener: input.rebalanceListener ?? false,
    awaitingListener: false,
    pollWaiting: null,
    endOffsets: null,
    commitInFlight: null,
    commitQueued: null,
    nextAutoCommitAt: input.config['auto.commit.interval.ms'],
    knownCommitted: {},
    nextCorrelationId: 0,
    rejoinNeeded: false,
  };
}

function corr(d: Draft): number {
  const c = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  return c;
}

/**
 * JoinGroup waits as long as a rebalance may take (AbstractCoordinator.sendJoinGroupRequest:
 * max(request.timeout.ms, rebalance.timeout.ms + JOIN_GROUP_TIMEOUT_LAPSE 5000), where the classic
 * protocol's rebalance timeout is max.poll.interval.ms); every other request request.timeout.ms.
 */
function timeoutFor(d: ConsumerContext, rpc: RequestRpc): number {
  const request = d.config['request.timeout.ms'];
  return rpc === 'JoinGroup' ? Math.max(request, d.config['max.poll.interval.ms'] + 5000) : request;
}

/**
 * Sends a request with its timeout: an answer that never comes (a lost envelope stalls the
 * connection) ends in the network closing the connection, and a `disconnected` event for each
 * request that was on it. Fetches are background: idle fetching alone does not keep a run going.
 */
function sendRequest(
  d: Draft,
  out: Out,
  to: ActorId,
  rpc: RequestRpc,
  payload: { correlationId: number } & Record<string, unknown>,
  background = false,
): void {
  out.send(to, rpc, payload, { background, timeoutMs: timeoutFor(d, rpc) });
}

/** The application's view of the group membership, for sendOffsetsToTransaction. */
function groupMetadata(d: ConsumerContext) {
  return { groupId: d.config['group.id'], generationId: d.generationId, memberId: d.memberId };
}

function consumedOffsets(d: ConsumerContext): (TopicPartition & { offset: number })[] {
  return d.assignment
    .filter((tp) => d.positions[tpName(tp)] !== undefined)
    .map((tp) => ({ ...tp, offset: d.positions[tpName(tp)] as number }));
}

function sendJoin(d: Draft, out: Out): void {
  sendRequest(d, out, d.meta.groupCoordinator, 'JoinGroup', {
    correlationId: corr(d),
    groupId: d.config['group.id'],
    memberId: d.memberId,
    sessionTimeoutMs: d.config['session.timeout.ms'],
    rebalanceTimeoutMs: d.config['max.poll.interval.ms'],
    topics: d.topics,
  });
}

function sendCommit(d: Draft, out: Out, c: PendingCommit): void {
  d.commitInFlight = c;
  sendRequest(d, out, d.meta.groupCoordinator, 'OffsetCommit', {
    correlationId: c.correlationId,
    groupId: d.config['group.id'],
    generationId: c.generationId,
    memberId: c.memberId,
    offsets: c.offsets,
  });
}

/**
 * Commits offsets with the current generation. Commits go out one at a time, so a later commit can
 * never overtake an earlier one and move the group's offset back (Kafka keeps them ordered on the
 * coordinator connection, and commitSync waits for earlier async commits).
 */
function commit(
  d: Draft,
  out: Out,
  offsets: readonly (TopicPartition & { offset: number })[],
  waiter: ActorId | null,
  purpose: PendingCommit['purpose'],
  now: number,
): void {
  if (d.config['group.id'] && (d.generationId < 0 || !d.memberId)) {
    // ConsumerCoordinator.sendOffsetCommitRequest: not part of an active generation, nothing is sent
    if (waiter) {
      out.fact({ kind: 'clientError', client: d.client, error: 'CommitFailedException', during: 'commitSync', fatal: false });
      out.call(waiter, 'reply', { call: 'commitSync', ok: false, error: 'CommitFailedException' });
    }
    if (purpose === 'joinPrepare') out.raise({ type: 'prepared' });
    return;
  }
  const c: PendingCommit = {
    correlationId: corr(d),
    generationId: d.generationId,
    memberId: d.memberId,
    offsets,
    waiter,
    purpose,
    attempts: 0,
    // commitSync(): default.api.timeout.ms; onJoinPrepare: the rebalance timeout
    deadline: now + (purpose === 'joinPrepare' ? d.config['max.poll.interval.ms'] : DEFAULT_API_TIMEOUT_MS),
  };
  if (!d.commitInFlight) {
    sendCommit(d, out, c);
    return;
  }
  // a newer commit replaces a queued auto-commit; a waiting commitSync or onJoinPrepare keeps its place
  if (d.commitQueued && d.commitQueued.purpose !== 'auto' && purpose === 'auto') return;
  d.commitQueued = c;
}

/** The OffsetCommit errors after which ConsumerCoordinator retries (RetriableCommitFailedException and friends). */
const RETRIABLE_COMMIT_ERRORS: readonly string[] = [
  'COORDINATOR_LOAD_IN_PROGRESS',
  'COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'UNKNOWN_TOPIC_OR_PARTITION',
];

/** ExponentialBackoff without jitter: retry.backoff.ms doubling per attempt up to retry.backoff.max.ms. */
export function commitBackoff(config: ConsumerConfig, attempts: number): number {
  const base = config['retry.backoff.ms'];
  const max = Math.max(base, config['retry.backoff.max.ms']);
  return Math.min(max, base * 2 ** Math.min(attempts, 30));
}

/** The next queued commit goes out once the one in flight is done. */
function nextCommit(d: Draft, out: Out): void {
  d.commitInFlight = null;
  const next = d.commitQueued;
  d.commitQueued = null;
  if (next) sendCommit(d, out, next);
}

/**
 * The commit in flight failed (an error answer, a broken connection, request.timeout.ms).
 * ConsumerCoordinator: commitSync retries a retriable failure after its backoff until its timeout
 * (commitOffsetsSync), onJoinPrepare retries one within the rebalance timeout, and an auto-commit
 * re-arms its timer to retry.backoff.ms (autoCommitOffsetsAsync); any other failure ends the commit.
 */
function commitFailed(d: Draft, out: Out, c: PendingCommit, error: string, now: number): void {
  const retriable = RETRIABLE_COMMIT_ERRORS.includes(error);
  if (retriable && c.purpose === 'sync' && now < c.deadline) {
    d.commitInFlight = { ...c, attempts: c.attempts + 1 };
    out.timer('commitRetry', 'commitRetry', Math.min(commitBackoff(d.config, c.attempts), c.deadline - now));
    return;
  }
  if (retriable && c.purpose === 'joinPrepare' && now < c.deadline) {
    d.commitInFlight = { ...c, attempts: c.attempts + 1 };
    out.timer('commitRetry', 'commitRetry', d.config['retry.backoff.ms']);
    return;
  }
  if (c.waiter) {
    const exception = retriable
      ? 'TimeoutException'
      : error === 'REBALANCE_IN_PROGRESS'
        ? 'RebalanceInProgressException'
        : 'CommitFailedException';
    out.fact({ kind: 'clientError', client: d.client, error: exception, during: 'commitSync', fatal: false });
    out.call(c.waiter, 'reply', { call: 'commitSync', ok: false, error: exception });
  }
  if (c.purpose === 'auto' && retriable) d.nextAutoCommitAt = now + d.config['retry.backoff.ms'];
  // the group moved on or forgot this member (OffsetCommitResponseHandler): rejoin at the next poll()
  if (!retriable && c.generationId === d.generationId && c.memberId === d.memberId) {
    if (error === 'UNKNOWN_MEMBER_ID') d.memberId = '';
    if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') d.generationId = -1;
    if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION' || error === 'REBALANCE_IN_PROGRESS') d.rejoinNeeded = true;
  }
  nextCommit(d, out);
  if (c.purpose === 'joinPrepare') out.raise({ type: 'prepared' });
  scheduleAutoCommit(d, now, out);
}

/** Partitions revoked (eager rebalance): positions, buffers and fetches are forgotten. */
function revokeAll(d: Draft): void {
  d.assignment = [];
  d.positions = {};
  d.buffer = {};
  d.bufferEnd = {};
  d.fetching = {};
  d.offsetsRequest = null;
}

function requestOffsets(d: Draft, out: Out): void {
  if (d.assignment.length === 0 || d.awaitingListener) return;
  const pending = d.assignment.filter((tp) => d.positions[tpName(tp)] === undefined);
  if (pending.length === 0) {
    fetchMore(d, out);
    return;
  }
  if (!d.config['group.id']) {
    for (const tp of pending) resetPosition(d, tp, out);
    return;
  }
  const correlationId = corr(d);
  d.offsetsRequest = correlationId;
  // the Java consumer always asks for stable offsets (requireStable=true)
  sendRequest(d, out, d.meta.groupCoordinator, 'OffsetFetch', {
    correlationId,
    groupId: d.config['group.id'],
    partitions: pending,
    requireStable: true,
  });
}

function resetPosition(d: Draft, tp: TopicPartition, out: Out, to: 'earliest' | 'latest' | null = null): void {
  const leader = leaderOf(d.meta, tp.topic, tp.partition);
  if (!leader) return;
  const where = to ?? (d.config['auto.offset.reset'] === 'earliest' ? 'earliest' : 'latest');
  sendRequest(d, out, leader, 'ListOffsets', {
    correlationId: corr(d),
    topic: tp.topic,
    partition: tp.partition,
    timestamp: where === 'earliest' ? -2 : -1,
    isolationLevel: d.config['isolation.level'],
  });
}

/** Issues a fetch for every assigned partition with a known position, an empty buffer and nothing in flight. */
function fetchMore(d: Draft, out: Out): void {
  for (const tp of d.assignment) {
    const name = tpName(tp);
    const position = d.positions[name];
    if (position === undefined || d.fetching[name] !== undefined || (d.buffer[name]?.length ?? 0) > 0) continue;
    const leader = leaderOf(d.meta, tp.topic, tp.partition);
    if (!leader) continue;
    const correlationId = corr(d);
    d.fetching = { ...d.fetching, [name]: correlationId };
    sendRequest(
      d,
      out,
      leader,
      'Fetch',
      {
        correlationId,
        topic: tp.topic,
        partition: tp.partition,
        fetchOffset: position,
        isolationLevel: d.config['isolation.level'],
        maxRecords: d.config['max.poll.records'],
        maxWaitMs: d.config['fetch.max.wait.ms'],
      },
      true,
    );
  }
}

/** Hands buffered records to a waiting poll(), up to max.poll.records. */
function servePoll(d: Draft, out: Out): void {
  if (!d.pollWaiting) return;
  const records: RecordForApp[] = [];
  const max = d.config['max.poll.records'];
  const positions = { ...d.positions };
  const buffer = { ...d.buffer };
  for (const tp of [...d.assignment].sort((a, b) => (tpName(a) < tpName(b) ? -1 : 1))) {
    const name = tpName(tp);
    const buf = buffer[name] ?? [];
    if (buf.length === 0 || records.length >= max) continue;
    const take = buf.slice(0, max - records.length);
    records.push(...take);
    buffer[name] = buf.slice(take.length);
    positions[name] =
      (buffer[name] as RecordForApp[]).length === 0 ? (d.bufferEnd[name] as number) : (take[take.length - 1] as RecordForApp).offset + 1;
  }
  if (records.length === 0) return;
  d.buffer = buffer;
  d.positions = positions;
  for (const r of records)
    out.fact({
      kind: 'delivered',
      consumer: d.client,
      groupId: d.config['group.id'],
      isolationLevel: d.config['isolation.level'],
      topic: r.topic,
      partition: r.partition,
      offset: r.offset,
      key: r.key,
      value: r.value,
      headers: r.headers,
    });
  out.call(d.pollWaiting, 'reply', { call: 'poll', ok: true, records, groupMetadata: groupMetadata(d), positions });
  d.pollWaiting = null;
  fetchMore(d, out);
}

function autoCommits(d: ConsumerContext): boolean {
  return Boolean(d.config['enable.auto.commit'] && d.config['group.id'] && d.generationId >= 0);
}

/** Consumed positions the group has not acknowledged as committed. */
export function hasUncommittedPositions(d: ConsumerContext): boolean {
  return consumedOffsets(d).some((o) => d.knownCommitted[tpName(o)] !== o.offset);
}

/**
 * ConsumerCoordinator.maybeAutoCommitOffsetsAsync: once nextAutoCommitTimer has expired it is reset
 * to auto.commit.interval.ms and the consumed positions are committed (a retriable failure sets it
 * to retry.backoff.ms instead: commitFailed).
 */
export function maybeAutoCommit(d: Draft, now: number, out: Out): void {
  if (!autoCommits(d) || now < d.nextAutoCommitAt) return;
  d.nextAutoCommitAt = now + d.config['auto.commit.interval.ms'];
  const offsets = consumedOffsets(d);
  if (offsets.length === 0) return;
  commit(d, out, offsets, null, 'auto', now);
}

/**
 * Kafka's poll() auto-commits every auto.commit.interval.ms even while it waits for records
 * (ConsumerCoordinator.poll runs on each pass of its loop), so an idle consumer does not leave its
 * last batch uncommitted. The model's poll() waits without looping: a timer stands in for the loop,
 * set only while a consumed position is not yet acknowledged as committed (a lost commit is sent
 * again at the next due time) and no commit is in flight, so that a quiet run still ends.
 */
function scheduleAutoCommit(d: Draft, now: number, out: Out): void {
  if (!d.pollWaiting || !autoCommits(d) || d.commitInFlight || !hasUncommittedPositions(d)) return;
  out.timer('autoCommit', 'autoCommitDue', Math.max(0, d.nextAutoCommitAt - now));
}

const action = (fn: (d: Draft, ev: Ev & { now: number }, out: Out) => void) =>
  handle((ctx: ConsumerContext, ev: Ev & { now: number }, out: Out) => {
    const d: Draft = { ...ctx };
    fn(d, ev, out);
    // events raised for a state change carry the virtual time on, as the kernel's do
    for (const r of out.raised) r.now ??= ev.now;
    return d;
  });

const onListOffsetsRetry = action((d, ev, out) => {
  const { lostCorrelationId, payload } = (ev as TimerEvent<{ lostCorrelationId: number; payload: Record<string, unknown> }>).data;
  const tp = { topic: payload.topic as string, partition: payload.partition as number };
  const leader = leaderOf(d.meta, tp.topic, tp.partition);
  if (!leader) return;
  const pending = d.endOffsets;
  if (pending && pending.requests[lostCorrelationId] !== undefined) {
    const { [lostCorrelationId]: _gone, ...requests } = pending.requests;
    const c = corr(d);
    d.endOffsets = { ...pending, requests: { ...requests, [c]: tpName(tp) } };
    sendRequest(d, out, leader, 'ListOffsets', { ...payload, correlationId: c });
  } else if (d.positions[tpName(tp)] === undefined && d.assignment.some((a) => tpName(a) === tpName(tp))) {
    resetPosition(d, tp, out, payload.timestamp === -2 ? 'earliest' : 'latest');
  }
});

/**
 * A request completed as a disconnect: its connection was closed after a request on it passed
 * request.timeout.ms (REQUEST_TIMED_OUT), or it broke — the leader or coordinator is down, or the
 * connection was reset (NETWORK_EXCEPTION). The client tries again, as Kafka's does for retriable
 * errors. Whatever state the consumer is in, the request is no longer in flight.
 */
const onRequestLost = action((d, ev, out) => {
  const e = ev as DisconnectedEvent;
  const lost = { rpc: e.rpc, payload: e.payload as Record<string, unknown> };
  const correlationId = lost.payload.correlationId as number;
  const tp = { topic: lost.payload.topic as string, partition: lost.payload.partition as number };
  if (lost.rpc !== 'Fetch') out.fact({ kind: 'clientError', client: d.client, error: disconnectError(e), during: lost.rpc, fatal: false });
  switch (lost.rpc) {
    case 'Fetch':
      if (d.fetching[tpName(tp)] === correlationId) {
        const { [tpName(tp)]: _f, ...fetching } = d.fetching;
        d.fetching = fetching;
        out.timer(`fetchRetry:${tpName(tp)}`, 'fetchRetry', d.config['retry.backoff.ms'], {}, true);
      }
      return;
    case 'OffsetFetch':
      if (d.offsetsRequest === correlationId) {
        d.offsetsRequest = null;
        out.timer('offsets', 'offsetsRetry', d.config['retry.backoff.ms']);
      }
      return;
    case 'ListOffsets':
      // ask again after retry.backoff.ms (a down leader refuses at once: no tight loop)
      out.timer(`listOffsets:${tpName(tp)}`, 'listOffsetsRetry', d.config['retry.backoff.ms'], {
        lostCorrelationId: correlationId,
        payload: lost.payload,
      });
      return;
    case 'OffsetCommit': {
      // retried after a backoff (commitSync, onJoinPrepare) or at the next auto-commit due time
      const c = d.commitInFlight;
      if (!c || c.correlationId !== correlationId) return;
      commitFailed(d, out, c, disconnectError(e), ev.now);
      return;
    }
    case 'JoinGroup':
    case 'SyncGroup':
      out.raise({ type: 'connectionLost' });
      return;
    default:
      return;
  }
});

const onJoinResponse = action((d, ev, out) => {
  const r = (ev as RpcEvent<JoinGroupResponse>).payload;
  if (r.error === 'NONE') {
    d.memberId = r.memberId;
    d.generationId = r.generationId;
    sendRequest(d, out, d.meta.groupCoordinator, 'SyncGroup', {
      correlationId: corr(d),
      groupId: d.config['group.id'],
      generationId: r.generationId,
      memberId: r.memberId,
    });
    out.raise({ type: 'joined' });
    return;
  }
  out.fact({ kind: 'clientError', client: d.client, error: r.error, during: 'JoinGroup', fatal: false });
  if (r.error === 'UNKNOWN_MEMBER_ID') d.memberId = '';
  out.timer('rejoin', 'rejoinBackoff', d.config['retry.backoff.ms']);
});

const onSyncResponse = action((d, ev, out) => {
  const r = (ev as RpcEvent<SyncGroupResponse>).payload;
  if (r.error !== 'NONE') {
    out.fact({ kind: 'clientError', client: d.client, error: r.error, during: 'SyncGroup', fatal: false });
    if (r.error === 'UNKNOWN_MEMBER_ID') d.memberId = '';
    out.raise({ type: 'rejoin' });
    return;
  }
  d.assignment = r.assignment;
  out.timer('heartbeat', 'heartbeatDue', d.config['heartbeat.interval.ms'], {}, true);
  // ConsumerCoordinator.onJoinComplete: the auto-commit timer starts again from the assignment
  d.nextAutoCommitAt = ev.now + d.config['auto.commit.interval.ms'];
  invokePartitionsAssigned(d, out);
  requestOffsets(d, out);
  out.raise({ type: 'assigned' });
});

/**
 * ConsumerCoordinator.onJoinComplete → ConsumerRebalanceListener.onPartitionsAssigned, before any
 * position is fetched: an application that keeps its offsets outside Kafka seeks to them here.
 */
function invokePartitionsAssigned(d: Draft, out: Out): void {
  if (!d.rebalanceListener) return;
  d.awaitingListener = true;
  out.call(d.app, 'onPartitionsAssigned', { partitions: d.assignment });
}

/** The listener returned, with the offsets it sought to: fetch the group's offsets for the other partitions. */
const onListenerDone = action((d, ev, out) => {
  const call = ev as CallEvent<{ offsets: Record<string, number> }>;
  if (!d.awaitingListener) return;
  d.awaitingListener = false;
  for (const tp of d.assignment) {
    const offset = call.args.offsets[tpName(tp)];
    if (offset !== undefined) d.positions = { ...d.positions, [tpName(tp)]: offset };
  }
  requestOffsets(d, out);
});

const onOffsetFetchResponse = action((d, ev, out) => {
  const r = (ev as RpcEvent<OffsetFetchResponse & { correlationId: number }>).payload;
  if (r.correlationId !== d.offsetsRequest) return;
  d.offsetsRequest = null;
  if (r.error === 'UNSTABLE_OFFSET_COMMIT' || COORDINATOR_ERRORS.includes(r.error)) {
    // a transaction holding offsets for these partitions has not finished, or the coordinator is loading: ask again shortly
    out.fact({ kind: 'clientError', client: d.client, error: r.error, during: 'OffsetFetch', fatal: false });
    out.timer('offsets', 'offsetsRetry', d.config['retry.backoff.ms']);
    return;
  }
  for (const o of r.offsets) {
    if (o.offset >= 0) {
      d.positions = { ...d.positions, [tpName(o)]: o.offset };
      d.knownCommitted = { ...d.knownCommitted, [tpName(o)]: o.offset };
    } else resetPosition(d, o, out);
  }
  fetchMore(d, out);
});

/**
 * endOffsets(): the latest offset of each assigned partition — the LSO under read_committed, unless
 * the caller names the isolation level (Kafka Streams asks for the log end offset, read_uncommitted).
 */
const onEndOffsets = action((d, ev, out) => {
  const call = ev as CallEvent<{ isolationLevel?: string }>;
  const isolationLevel = call.args.isolationLevel ?? d.config['isolation.level'];
  const requests: Record<number, string> = {};
  for (const tp of d.assignment) {
    const leader = leaderOf(d.meta, tp.topic, tp.partition);
    if (!leader) continue;
    const correlationId = corr(d);
    requests[correlationId] = tpName(tp);
    sendRequest(d, out, leader, 'ListOffsets', {
      correlationId,
      topic: tp.topic,
      partition: tp.partition,
      timestamp: -1,
      isolationLevel,
    });
  }
  d.endOffsets = { from: call.from, requests, offsets: {} };
  if (Object.keys(requests).length === 0) {
    out.call(call.from, 'reply', { call: 'endOffsets', ok: true, offsets: {} });
    d.endOffsets = null;
  }
});

const onListOffsetsResponse = action((d, ev, out) => {
  const r = (ev as RpcEvent<TopicPartition & { error: KafkaError; offset: number; correlationId: number }>).payload;
  const pending = d.endOffsets;
  if (pending && pending.requests[r.correlationId] !== undefined) {
    const { [r.correlationId]: _done, ...requests } = pending.requests;
    const offsets = { ...pending.offsets, [tpName(r)]: r.offset };
    if (Object.keys(requests).length === 0) {
      out.call(pending.from, 'reply', { call: 'endOffsets', ok: true, offsets });
      d.endOffsets = null;
    } else d.endOffsets = { ...pending, requests, offsets };
    return;
  }
  if (r.error !== 'NONE' || !d.assignment.some((tp) => tpName(tp) === tpName(r))) return;
  if (d.positions[tpName(r)] === undefined) d.positions = { ...d.positions, [tpName(r)]: r.offset };
  fetchMore(d, out);
});

const onFetchResponse = action((d, ev, out) => {
  const r = (ev as RpcEvent<FetchResponse & { correlationId: number }>).payload;
  const name = tpName(r);
  if (d.fetching[name] !== r.correlationId) return;
  const { [name]: _done, ...fetching } = d.fetching;
  d.fetching = fetching;
  const position = d.positions[name];
  if (position === undefined) return;
  if (r.error === 'OFFSET_OUT_OF_RANGE') {
    const { [name]: _p, ...positions } = d.positions;
    d.positions = positions;
    resetPosition(d, r, out);
    return;
  }
  if (r.error !== 'NONE') {
    out.timer(`fetchRetry:${name}`, 'fetchRetry', d.config['retry.backoff.ms'], {}, true);
    return;
  }
  const c = collectFetched(r.topic, r.partition, r.batches, r.abortedTransactions, d.config['isolation.level'], position);
  for (const s of c.skipped) out.fact({ kind: 'skipped', consumer: d.client, topic: r.topic, partition: r.partition, ...s });
  if (c.records.length === 0) {
    // markers or aborted data only: the position still moves past them, and poll() returns empty
    if (c.nextOffset > position) {
      d.positions = { ...d.positions, [name]: c.nextOffset };
      if (d.pollWaiting) {
        out.call(d.pollWaiting, 'reply', { call: 'poll', ok: true, records: [], groupMetadata: groupMetadata(d), positions: d.positions });
        d.pollWaiting = null;
      }
    }
  } else {
    d.buffer = { ...d.buffer, [name]: c.records };
    d.bufferEnd = { ...d.bufferEnd, [name]: c.nextOffset };
  }
  servePoll(d, out);
  fetchMore(d, out);
});

const onPoll = action((d, ev, out) => {
  const call = ev as CallEvent;
  maybeAutoCommit(d, call.now, out);
  d.pollWaiting = call.from;
  // poll() is where a member rejoins the group (ConsumerCoordinator.poll)
  if (d.rejoinNeeded) {
    out.raise({ type: 'rejoin' });
    return;
  }
  servePoll(d, out);
  scheduleAutoCommit(d, call.now, out);
});

const onCommitSync = action((d, ev, out) => {
  const call = ev as CallEvent<{ offsets?: (TopicPartition & { offset: number })[] }>;
  const offsets = call.args.offsets ?? consumedOffsets(d);
  if (!d.config['group.id']) {
    out.call(call.from, 'reply', { call: 'commitSync', ok: false, error: 'InvalidGroupIdException' });
    return;
  }
  commit(d, out, offsets, call.from, 'sync', call.now);
});

const onOffsetCommitResponse = action((d, ev, out) => {
  const r = (ev as RpcEvent<{ correlationId: number; error: KafkaError }>).payload;
  const c = d.commitInFlight;
  if (!c || c.correlationId !== r.correlationId) return;
  if (r.error !== 'NONE') {
    out.fact({ kind: 'clientError', client: d.client, error: r.error, during: 'OffsetCommit', fatal: false });
    commitFailed(d, out, c, r.error, ev.now);
    return;
  }
  d.knownCommitted = { ...d.knownCommitted, ...Object.fromEntries(c.offsets.map((o) => [tpName(o), o.offset])) };
  if (c.waiter) out.call(c.waiter, 'reply', { call: 'commitSync', ok: true, error: null });
  nextCommit(d, out);
  if (c.purpose === 'joinPrepare') out.raise({ type: 'prepared' });
  scheduleAutoCommit(d, ev.now, out);
});

/** The backoff after a retriable commit failure passed: the same offsets go out again. */
const onCommitRetry = action((d, _ev, out) => {
  const c = d.commitInFlight;
  if (c) sendCommit(d, out, { ...c, correlationId: corr(d) });
});

const onSeek = action((d, ev, out) => {
  const call = ev as CallEvent<{ topic: string; partition: number; offset: number }>;
  const name = tpName(call.args);
  d.positions = { ...d.positions, [name]: call.args.offset };
  d.buffer = { ...d.buffer, [name]: [] };
  const { [name]: _f, ...fetching } = d.fetching;
  d.fetching = fetching;
  out.call(call.from, 'reply', { call: 'seek', ok: true });
  fetchMore(d, out);
});

/** seekToBeginning(): every assigned partition goes back to its log start offset. */
const onSeekToBeginning = action((d, ev, out) => {
  const call = ev as CallEvent;
  d.positions = {};
  d.buffer = {};
  d.bufferEnd = {};
  d.fetching = {};
  for (const tp of d.assignment) resetPosition(d, tp, out, 'earliest');
  out.call(call.from, 'reply', { call: 'seekToBeginning', ok: true });
});

/** After an aborted transaction: forget the buffers and go back to the group's committed offsets. */
const onSeekToCommitted = action((d, ev, out) => {
  const call = ev as CallEvent;
  d.positions = {};
  d.buffer = {};
  d.bufferEnd = {};
  d.fetching = {};
  requestOffsets(d, out);
  out.call(call.from, 'reply', { call: 'seekToCommitted', ok: true });
});

const onHeartbeatDue = action((d, _ev, out) => {
  sendRequest(
    d,
    out,
    d.meta.groupCoordinator,
    'Heartbeat',
    { correlationId: corr(d), groupId: d.config['group.id'], generationId: d.generationId, memberId: d.memberId },
    true,
  );
  out.timer('heartbeat', 'heartbeatDue', d.config['heartbeat.interval.ms'], {}, true);
});

/** Errors that say the coordinator is not ready (moving or loading): the client finds it again and retries. */
const COORDINATOR_ERRORS: readonly string[] = ['COORDINATOR_LOAD_IN_PROGRESS', 'COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR'];

const onHeartbeatResponse = action((d, ev, out) => {
  const r = (ev as RpcEvent<{ error: KafkaError }>).payload;
  if (r.error === 'NONE') return;
  // HeartbeatResponseHandler: the coordinator is marked unknown; the member keeps its generation and heartbeats on
  if (COORDINATOR_ERRORS.includes(r.error)) return;
  if (!d.rejoinNeeded) out.fact({ kind: 'clientError', client: d.client, error: r.error, during: 'Heartbeat', fatal: false });
  // AbstractCoordinator.HeartbeatResponseHandler: the member id is forgotten for UNKNOWN_MEMBER_ID, the generation for both
  if (r.error === 'UNKNOWN_MEMBER_ID') d.memberId = '';
  if (r.error === 'UNKNOWN_MEMBER_ID' || r.error === 'ILLEGAL_GENERATION') d.generationId = -1;
  // a member that is no longer in the generation stops heartbeating; one asked to rejoin keeps its session alive
  if (r.error !== 'REBALANCE_IN_PROGRESS') out.cancel('heartbeat');
  d.rejoinNeeded = true;
  if (d.pollWaiting) out.raise({ type: 'rejoin' });
});

const startRejoin = action((d, _ev, out) => {
  out.cancel('heartbeat');
  d.rejoinNeeded = false;
  revokeAll(d);
  sendJoin(d, out);
});

/**
 * Kafka Streams' unsubscribe() + subscribe() after a TaskMigratedException (StreamThread.handleTaskMigrated):
 * the member gives up its partitions and positions and rejoins the group, so it reads again from the
 * committed offsets of a new generation. Already joining, it only confirms.
 */
const onResubscribe = action((_d, ev, out) => {
  out.call((ev as CallEvent).from, 'reply', { call: 'resubscribe', ok: true });
});

/** ConsumerCoordinator.onJoinPrepare commits the consumed positions first, when auto-commit is on and this member still has a generation. */
function needsJoinPrepare(d: ConsumerContext): boolean {
  return autoCommits(d) && d.memberId !== '' && consumedOffsets(d).length > 0;
}

/**
 * onJoinPrepare: the auto-commit before the partitions are given up. The member waits for it —
 * retrying a retriable failure after retry.backoff.ms, for at most the rebalance timeout — and
 * only then revokes its partitions and sends JoinGroup.
 */
const startJoinPrepare = action((d, ev, out) => {
  d.rejoinNeeded = false;
  commit(d, out, consumedOffsets(d), null, 'joinPrepare', ev.now);
});

const onClose = action((d, ev, out) => {
  const call = ev as CallEvent;
  out.cancel('heartbeat');
  if (d.config['group.id'] && d.memberId)
    sendRequest(d, out, d.meta.groupCoordinator, 'LeaveGroup', {
      correlationId: corr(d),
      groupId: d.config['group.id'],
      memberId: d.memberId,
    });
  out.call(call.from, 'reply', { call: 'close', ok: true });
});

const startStandalone = action((d, _ev, out) => {
  d.assignment = d.topics.flatMap((topic) =>
    Array.from({ length: d.meta.topics[topic]?.partitions ?? 0 }, (_, partition) => ({ topic, partition })),
  );
  // assign(): the application seeks to its own offsets right after (as its listener would)
  invokePartitionsAssigned(d, out);
  requestOffsets(d, out);
});

const onAutoCommitDue = action((d, ev, out) => {
  // only inside a poll() that is still waiting: otherwise the next poll() commits
  if (!d.pollWaiting) return;
  maybeAutoCommit(d, ev.now, out);
  scheduleAutoCommit(d, ev.now, out);
});

const stableEvents = {
  Fetch: {},
  FetchResponse: { actions: onFetchResponse },
  fetchRetry: { actions: action((d, _e, out) => fetchMore(d, out)) },
  OffsetFetchResponse: { actions: onOffsetFetchResponse },
  offsetsRetry: { actions: action((d, _e, out) => requestOffsets(d, out)) },
  ListOffsetsResponse: { actions: onListOffsetsResponse },
  endOffsets: { actions: onEndOffsets },
  poll: { actions: onPoll },
  autoCommitDue: { actions: onAutoCommitDue },
  commitSync: { actions: onCommitSync },
  OffsetCommitResponse: { actions: onOffsetCommitResponse },
  seek: { actions: onSeek },
  seekToCommitted: { actions: onSeekToCommitted },
  seekToBeginning: { actions: onSeekToBeginning },
} as const;

/** poll() while the group is rebalancing just waits; commits are refused. */
const waitingPoll = action((d, ev, out) => {
  const call = ev as CallEvent;
  maybeAutoCommit(d, call.now, out);
  d.pollWaiting = call.from;
});

export const consumerMachine = setup({
  types: {} as { context: ConsumerContext; input: ConsumerInput; events: Ev },
  guards: { hasGroup: ({ context }) => context.config['group.id'] !== null },
}).createMachine({
  id: 'consumer',
  context: ({ input }) => initial(input),
  initial: 'created',
  on: {
    crash: '.down',
    partitionsAssignedDone: { actions: onListenerDone },
    listOffsetsRetry: { actions: onListOffsetsRetry },
    commitRetry: { actions: onCommitRetry },
    disconnected: { actions: onRequestLost },
  },
  states: {
    // not started yet (before its startAt): a crash or restart of its process changes nothing
    created: { on: { boot: 'starting', crash: {}, restart: {} } },
    starting: {
      always: [
        { guard: 'hasGroup', target: 'joining', actions: action((d, _e, out) => sendJoin(d, out)) },
        { target: 'assigned', actions: startStandalone },
      ],
    },
    joining: {
      on: {
        JoinGroupResponse: { actions: onJoinResponse },
        joined: 'syncing',
        rejoinBackoff: { actions: action((d, _e, out) => sendJoin(d, out)) },
        connectionLost: { actions: action((d, _e, out) => out.timer('rejoin', 'rejoinBackoff', d.config['retry.backoff.ms'])) },
        poll: { actions: waitingPoll },
        commitSync: {
          actions: action((_d, ev, out) => {
            out.call((ev as CallEvent).from, 'reply', { call: 'commitSync', ok: false, error: 'RebalanceInProgressException' });
          }),
        },
        resubscribe: { actions: onResubscribe },
        close: { target: 'closed', actions: onClose },
        OffsetCommitResponse: { actions: onOffsetCommitResponse },
      },
    },
    syncing: {
      on: {
        SyncGroupResponse: { actions: onSyncResponse },
        assigned: 'stable',
        connectionLost: {
          target: 'joining',
          actions: action((d, _e, out) => out.timer('rejoin', 'rejoinBackoff', d.config['retry.backoff.ms'])),
        },
        rejoin: { target: 'joining', actions: startRejoin },
        resubscribe: { target: 'joining', actions: [startRejoin, onResubscribe] },
        poll: { actions: waitingPoll },
        close: { target: 'closed', actions: onClose },
        OffsetCommitResponse: { actions: onOffsetCommitResponse },
      },
    },
    stable: {
      on: {
        ...stableEvents,
        heartbeatDue: { actions: onHeartbeatDue },
        HeartbeatResponse: { actions: onHeartbeatResponse },
        rejoin: [
          { guard: ({ context }) => needsJoinPrepare(context), target: 'preparingRejoin', actions: startJoinPrepare },
          { target: 'joining', actions: startRejoin },
        ],
        resubscribe: { target: 'joining', actions: [startRejoin, onResubscribe] },
        close: { target: 'closed', actions: onClose },
      },
    },
    /** onJoinPrepare: waiting for the auto-commit of the consumed positions before rejoining. */
    preparingRejoin: {
      on: {
        OffsetCommitResponse: { actions: onOffsetCommitResponse },
        prepared: { target: 'joining', actions: startRejoin },
        heartbeatDue: { actions: onHeartbeatDue },
        HeartbeatResponse: { actions: onHeartbeatResponse },
        poll: {
          actions: action((d, ev) => {
            d.pollWaiting = (ev as CallEvent).from;
          }),
        },
        close: { target: 'closed', actions: onClose },
      },
    },
    /** No group: every partition of the subscribed topics, no commits. */
    assigned: {
      on: { ...stableEvents, close: { target: 'closed', actions: onClose } },
    },
    closed: {},
    down: {
      entry: handle((ctx: ConsumerContext) => initial(ctx)),
      on: { restart: 'starting' },
    },
  },
});

export { groupMetadata };
