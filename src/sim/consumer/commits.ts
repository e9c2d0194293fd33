/**
 * ConsumerCoordinator's offsets: the committed offsets fetched for a new assignment (OffsetFetch,
 * requireStable), commitSync(), the auto-commit of poll() (maybeAutoCommitOffsetsAsync) and the
 * commit before rejoining (onJoinPrepare). Commits go out one at a time, so a later commit can never
 * overtake an earlier one and move the group's offset back (Kafka keeps them ordered on the
 * coordinator connection, and commitSync waits for earlier async commits). A queued commit is built
 * when its turn comes (nextCommit).
 */
import type { Out } from '../actors/out';
import type { ConsumerConfig } from '../config/consumerConfig';
import type { ActorId } from '../kernel/envelope';
import type { ClientException } from '../protocol/errors';
import type { TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import {
  type ConsumerContext,
  consumedOffsets,
  corr,
  countConsumer,
  type Draft,
  instanceId,
  outOfGeneration,
  type PendingCommit,
  sendToCoordinator,
} from './consumerContext';
import type { ConsumerEvent, EventOf, OffsetAndPartition } from './events';
import { fetchWhilePolling, servePoll } from './fetcher';
import { resetPositions, resetPositionsIfNeeded } from './offsetFetcher';
import { failPoll, throwPending } from './pollErrors';
import { startCommitLookup } from './pollLookup';
import { seekUnvalidated } from './positionValidation';
import { stopHeartbeatThread } from './sessionTimer';

/** default.api.timeout.ms: how long commitSync() without a timeout retries. */
export const DEFAULT_API_TIMEOUT_MS = 60000;
/** KafkaConsumer.close()'s default timeout (DEFAULT_CLOSE_TIMEOUT_MS): its auto-commit retries within it. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 30000;

/** The OffsetCommit errors after which ConsumerCoordinator retries (RetriableCommitFailedException and friends). */
const RETRIABLE_COMMIT_ERRORS: readonly string[] = [
  'COORDINATOR_LOAD_IN_PROGRESS',
  'COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'UNKNOWN_TOPIC_OR_PARTITION',
];

/** Errors that say the coordinator is not ready (moving or loading): the client finds it again and retries. */
export const COORDINATOR_ERRORS: readonly string[] = ['COORDINATOR_LOAD_IN_PROGRESS', 'COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR'];

/** ExponentialBackoff without jitter: retry.backoff.ms doubling per attempt up to retry.backoff.max.ms (commits, OffsetFetch, failed heartbeats). */
export function commitBackoff(config: ConsumerConfig, attempts: number): number {
  const base = config['retry.backoff.ms'];
  const max = Math.max(base, config['retry.backoff.max.ms']);
  return Math.min(max, base * 2 ** Math.min(attempts, 30));
}

export function autoCommits(d: ConsumerContext): boolean {
  return Boolean(d.config['enable.auto.commit'] && d.config['group.id'] && d.generationId >= 0);
}

/** Consumed positions the group has not acknowledged as committed. */
export function hasUncommittedPositions(d: ConsumerContext): boolean {
  return consumedOffsets(d).some((o) => d.knownCommitted[keyOf(o)] !== o.offset);
}

/** ConsumerCoordinator.onJoinPrepare commits the consumed positions first, when auto-commit is on and this member still has a generation. */
export function needsJoinPrepare(d: ConsumerContext): boolean {
  return autoCommits(d) && d.memberId !== '' && consumedOffsets(d).length > 0;
}

/**
 * ConsumerCoordinator.close → maybeAutoCommitOffsetsSync: with auto-commit on, close() first commits
 * the consumed positions (commitOffsetsSync, retried within the close timeout; a failure is only
 * logged), and only then leaves the group — so records polled but not yet processed count as
 * consumed. As onJoinPrepare, only for a member that has a generation and has consumed something.
 */
export function needsCloseCommit(d: ConsumerContext): boolean {
  return needsJoinPrepare(d);
}

/**
 * AbstractCoordinator.MemberState as far as a commit cares: STABLE (the model's STABLE, and its
 * JOIN_PREPARE, REVOKING and closing, where Kafka's member is still STABLE or already UNJOINED), or
 * rebalancing — its JoinGroup (PREPARING_REBALANCE) or SyncGroup (COMPLETING_REBALANCE) in flight.
 */
export type CommitState = 'STABLE' | 'PREPARING_REBALANCE' | 'COMPLETING_REBALANCE';

/**
 * ConsumerCoordinator.sendOffsetCommitRequest, when it builds the request: generationIfStable() is
 * null unless the member is STABLE (and in a generation); then `rebalanceInProgress()` (PREPARING_ or
 * COMPLETING_REBALANCE) fails it with RebalanceInProgressException ("Offset commit cannot be completed
 * since the consumer is undergoing a rebalance…": not fatal, the application can poll() and retry),
 * otherwise with CommitFailedException ("…not part of an active group…"). Null: it can be sent.
 */
export function refusedUnsent(
  d: Pick<ConsumerContext, 'config' | 'generationId' | 'memberId'>,
  state: CommitState,
): ClientException | null {
  if (!d.config['group.id']) return null;
  if (state !== 'STABLE') return 'RebalanceInProgressException';
  return outOfGeneration(d) ? 'CommitFailedException' : null;
}

function sendCommit(d: Draft, out: Out, c: PendingCommit, now: number): void {
  startCommitLookup(d, c.purpose);
  d.commitInFlight = c;
  sendToCoordinator(d, out, 'OffsetCommit', {
    correlationId: c.correlationId,
    groupId: d.config['group.id'],
    generationId: c.generationId,
    memberId: c.memberId,
    ...instanceId(d),
    offsets: c.offsets,
  });
  // commitOffsetsSync's timer: ensureCoordinatorReady(timer) for a commit held for an unknown
  // coordinator, client.poll(future, timer) for one on the wire — either gives up at the deadline
  if (hasTimer(c)) out.timer('commitDeadline', 'commitDeadline', Math.max(0, c.deadline - now), { correlationId: c.correlationId });
}

/** commitOffsetsSync's timer ends commitSync() (default.api.timeout.ms) and close()'s commit (its close timeout); the others have none. */
function hasTimer(c: PendingCommit): boolean {
  return c.purpose === 'sync' || c.purpose === 'close';
}

/** The commit waits for the coordinator (sendToCoordinator held it), not yet sent. */
function heldForCoordinator(d: Pick<ConsumerContext, 'coordinatorWaiting'>, c: PendingCommit): boolean {
  return (d.coordinatorWaiting ?? []).some((w) => w.rpc === 'OffsetCommit' && w.payload.correlationId === c.correlationId);
}

/**
 * commitOffsetsSync's timer has expired for the commit in flight: `do { … timer.sleep(backoff) } while
 * (timer.notExpired())` makes no further attempt (a retry that falls due at the deadline is not sent),
 * and ensureCoordinatorReady(timer) stops looking for the coordinator — commitSync() throws
 * TimeoutException, close() logs it and leaves the group.
 */
export function commitTimedOut(ctx: Pick<ConsumerContext, 'commitInFlight'>, now: number): boolean {
  const c = ctx.commitInFlight;
  return c !== null && hasTimer(c) && now >= c.deadline;
}

/** The `commitDeadline` timer found close()'s commit still waiting for the coordinator or for its answer: it ends, the member leaves. */
export function closeCommitTimesOut(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  const c = ctx.commitInFlight;
  return (
    ev.type === 'commitDeadline' &&
    c !== null &&
    c.purpose === 'close' &&
    c.correlationId === ev.data?.correlationId &&
    commitTimedOut(ctx, ev.now)
  );
}

/**
 * The commit's deadline (the timer is cancelled while a retry's backoff runs: onCommitRetry ends the
 * commit then). Held for an unknown coordinator (ensureCoordinatorReady(timer) returned false): the
 * held request is dropped and the commit fails with TimeoutException without a request. On the wire:
 * `client.poll(future, timer)` returns with the future not done, the loop ends, commitSync() throws
 * TimeoutException ("Timeout of … expired before successfully committing offsets") and close() goes on
 * — the request stays in flight, and its answer, when it comes, completes nothing the application
 * waits for.
 */
export function onCommitDeadline(d: Draft, ev: EventOf<'commitDeadline'>, out: Out): void {
  const c = d.commitInFlight;
  if (!c || c.correlationId !== ev.data?.correlationId || !commitTimedOut(d, ev.now)) return;
  if (heldForCoordinator(d, c))
    d.coordinatorWaiting = (d.coordinatorWaiting ?? []).filter(
      (w) => w.rpc !== 'OffsetCommit' || w.payload.correlationId !== c.correlationId,
    );
  failUnsent(d, out, c, ev.now, 'STABLE', 'TimeoutException');
  scheduleAutoCommit(d, ev.now, out);
}

/** Commits offsets with the current generation: sent now, or queued behind the commit in flight. */
export function commit(
  d: Draft,
  out: Out,
  offsets: readonly OffsetAndPartition[],
  waiter: ActorId | null,
  purpose: PendingCommit['purpose'],
  now: number,
  state: CommitState = 'STABLE',
): void {
  const refused = refusedUnsent(d, state);
  if (refused) {
    // ConsumerCoordinator.sendOffsetCommitRequest: not part of an active generation, or rebalancing:
    // nothing is sent (never for onJoinPrepare: needsJoinPrepare asks for a generation)
    if (waiter) {
      out.fact({ kind: 'clientError', client: d.client, error: refused, during: 'commitSync', fatal: false });
      out.call(waiter, 'reply', { call: 'commitSync', ok: false, error: refused });
    }
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
    // commitSync(): default.api.timeout.ms; onJoinPrepare: the rebalance timeout; close(): its timeout
    deadline:
      now +
      (purpose === 'joinPrepare'
        ? d.config['max.poll.interval.ms']
        : purpose === 'close'
          ? DEFAULT_CLOSE_TIMEOUT_MS
          : DEFAULT_API_TIMEOUT_MS),
  };
  if (!d.commitInFlight) {
    sendCommit(d, out, c, now);
    return;
  }
  // a newer commit replaces a queued auto-commit; a waiting commitSync or onJoinPrepare keeps its place
  if (d.commitQueued && d.commitQueued.purpose !== 'auto' && purpose === 'auto') return;
  d.commitQueued = c;
}

/**
 * The next queued commit goes out once the one in flight is done, built then: Kafka's
 * sendOffsetCommitRequest reads generationIfStable() when it builds the request, so the commit takes
 * the generation and member id of this moment, not those it was queued with — and with none (the
 * answer ahead of it, or a heartbeat's, reset the member) it fails without a request: with
 * RebalanceInProgressException while the member rebalances (`state`), else CommitFailedException.
 */
function nextCommit(d: Draft, out: Out, now: number, state: CommitState): void {
  // the commit that ended takes its deadline with it
  const ended = d.commitInFlight;
  if (ended && hasTimer(ended)) out.cancel('commitDeadline');
  d.commitInFlight = null;
  const next = d.commitQueued;
  d.commitQueued = null;
  if (!next) return;
  const refused = refusedUnsent(d, state);
  if (refused) {
    out.fact({ kind: 'note', actor: d.self, text: queuedRefusalNote(next.purpose, refused) });
    failUnsent(d, out, next, now, state, refused);
    return;
  }
  sendCommit(d, out, { ...next, generationId: d.generationId, memberId: d.memberId }, now);
}

const COMMIT_NAMES: Readonly<Record<PendingCommit['purpose'], string>> = {
  auto: 'auto-commit',
  sync: 'commitSync()',
  joinPrepare: "onJoinPrepare's commit",
  close: "close()'s commit",
};

/** The narration's note (notes.ts translates it) for a queued commit that finds no generation, or a rebalance, when its turn comes. */
export function queuedRefusalNote(purpose: PendingCommit['purpose'], exception: ClientException = 'CommitFailedException'): string {
  const why =
    exception === 'RebalanceInProgressException'
      ? 'was undergoing a rebalance (its JoinGroup or SyncGroup in flight)'
      : 'was no longer part of an active group';
  return `its ${COMMIT_NAMES[purpose]} waited behind the commit in flight; when its turn came the consumer ${why}, so it fails with ${exception} without a request`;
}

/**
 * A commit that finds no generation when it would be sent (sendOffsetCommitRequest: generationIfStable()
 * is null): CommitFailedException ("not part of an active group"), or RebalanceInProgressException
 * while rebalancing, without a request — commitSync() throws it, onJoinPrepare and close() log it and
 * go on ("Will continue to join group"), an auto-commit logs it — and the next commit's turn comes.
 */
function failUnsent(d: Draft, out: Out, c: PendingCommit, now: number, state: CommitState, exception: ClientException): void {
  const during =
    c.purpose === 'joinPrepare' ? 'onJoinPrepare' : c.purpose === 'close' ? 'close' : c.purpose === 'auto' ? 'auto-commit' : 'commitSync';
  out.fact({ kind: 'clientError', client: d.client, error: exception, during, fatal: false });
  if (c.waiter) out.call(c.waiter, 'reply', { call: 'commitSync', ok: false, error: exception });
  nextCommit(d, out, now, state);
}

/** commitSync, onJoinPrepare and close() retry a retriable failure until their deadline; everything else ends the commit. */
function retries(c: PendingCommit, error: string, now: number): boolean {
  return RETRIABLE_COMMIT_ERRORS.includes(error) && c.purpose !== 'auto' && now < c.deadline;
}

/**
 * Whether an OffsetCommit answer (`error`, or the error of a lost request) at `now` ends the
 * onJoinPrepare commit: the member then revokes its partitions and sends JoinGroup.
 */
export function endsJoinPrepare(d: ConsumerContext, correlationId: number, error: string, now: number): boolean {
  return endsCommitOf(d, 'joinPrepare', correlationId, error, now);
}

/** Whether an OffsetCommit answer (or a lost request) ends close()'s auto-commit: the member then leaves the group. */
export function endsCloseCommit(d: ConsumerContext, correlationId: number, error: string, now: number): boolean {
  return endsCommitOf(d, 'close', correlationId, error, now);
}

/** …also when the commit of `purpose` waits behind the one this answer ends and fails unsent (nextCommit). */
function endsCommitOf(d: ConsumerContext, purpose: PendingCommit['purpose'], correlationId: number, error: string, now: number): boolean {
  const c = d.commitInFlight;
  if (c === null || c.correlationId !== correlationId || (error !== 'NONE' && retries(c, error, now))) return false;
  return c.purpose === purpose || (d.commitQueued?.purpose === purpose && queuedRefusedAfter(d, error));
}

/** Whether the queued commit, sent once an answer (`error`) ends the commit in flight, finds the member without a generation. */
function queuedRefusedAfter(d: ConsumerContext, error: string): boolean {
  const after = { memberId: d.memberId, generationId: d.generationId, rejoinNeeded: d.rejoinNeeded };
  if (error !== 'NONE' && !RETRIABLE_COMMIT_ERRORS.includes(error)) afterCommitRefused(after, error, false);
  return Boolean(d.config['group.id']) && outOfGeneration(after);
}

/**
 * What commitSync() throws for a failed commit (ConsumerCoordinator.OffsetCommitResponseHandler):
 * a retriable error that outlived the deadline times out; the group moving on is a
 * CommitFailedException — or a RebalanceInProgressException while it rebalances, or when this
 * member's generation went stale and it is already rejoining (`staleWhileRejoining`); an error the
 * handler does not expect, such as GROUP_ID_NOT_FOUND, is "Unexpected error in commit", a KafkaException.
 */
function commitException(error: string, retriable: boolean, staleWhileRejoining: boolean, changed: boolean): ClientException {
  if (retriable) return 'TimeoutException';
  // OffsetCommitResponseHandler: FENCED_INSTANCE_ID is raised as itself while the generation is the one
  // the commit was sent with; otherwise RebalanceInProgressException while rejoining, else CommitFailedException
  if (error === 'FENCED_INSTANCE_ID')
    return !changed ? 'FencedInstanceIdException' : staleWhileRejoining ? 'RebalanceInProgressException' : 'CommitFailedException';
  if (error === 'REBALANCE_IN_PROGRESS') return 'RebalanceInProgressException';
  if ((error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') && staleWhileRejoining) return 'RebalanceInProgressException';
  if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') return 'CommitFailedException';
  return 'KafkaException';
}

/**
 * OffsetCommitResponseHandler: REBALANCE_IN_PROGRESS asks to rejoin (requestRejoin), keeping the
 * generation. UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION reset the member (resetStateOnResponseError →
 * resetStateAndRejoin: UNJOINED, the generation, the member id too for UNKNOWN_MEMBER_ID, and a
 * rejoin) — unless the commit was sent in a generation this member has since left and it is
 * rejoining (PREPARING_REBALANCE): that answer is about the old generation and changes nothing.
 * `out` absent: only the membership is worked out (commitRefusalRejoins), nothing is done.
 */
function afterCommitRefused(
  d: Pick<Draft, 'memberId' | 'generationId' | 'rejoinNeeded'>,
  error: string,
  staleWhileRejoining: boolean,
  out?: Out,
): void {
  if (error === 'REBALANCE_IN_PROGRESS') d.rejoinNeeded = true;
  if ((error !== 'UNKNOWN_MEMBER_ID' && error !== 'ILLEGAL_GENERATION') || staleWhileRejoining) return;
  if (error === 'UNKNOWN_MEMBER_ID') d.memberId = '';
  d.generationId = -1;
  d.rejoinNeeded = true;
  // UNJOINED: AbstractCoordinator.HeartbeatThread.run sends nothing while state.hasNotJoinedGroup()
  if (out) stopHeartbeatThread(out);
}

/**
 * An OffsetCommit answer that leaves a member waiting in poll() needing a rejoin (a refusal of the
 * commit in flight: UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION reset it, REBALANCE_IN_PROGRESS asks for
 * it), with the member id and generation it leaves; null otherwise. Kafka's poll() loop goes round
 * again once the answer is read (ClassicKafkaConsumer.poll → updateAssignmentMetadataIfNeeded →
 * ConsumerCoordinator.poll: rejoinNeededOrPending → ensureActiveGroup → joinGroupIfNeeded →
 * onJoinPrepare), so the member rejoins at once. For a STABLE member (not rejoining).
 */
function commitRefusalRejoins(ctx: ConsumerContext, ev: ConsumerEvent): ConsumerContext | null {
  if (ev.type !== 'OffsetCommitResponse' || ctx.pollWaiting === null) return null;
  const { correlationId, error } = ev.payload;
  const c = ctx.commitInFlight;
  if (!c || c.correlationId !== correlationId || error === 'NONE' || RETRIABLE_COMMIT_ERRORS.includes(error)) return null;
  const after = { memberId: ctx.memberId, generationId: ctx.generationId, rejoinNeeded: ctx.rejoinNeeded };
  afterCommitRefused(after, error, false);
  return after.rejoinNeeded ? { ...ctx, ...after } : null;
}

/** …and, with the member id and generation that refusal leaves, onJoinPrepare calls the rebalance listener first (revokesFirst). */
export function commitRefusalRejoinsAfterRevocation(
  ctx: ConsumerContext,
  ev: ConsumerEvent,
  revokesFirst: (c: ConsumerContext) => boolean,
): boolean {
  const after = commitRefusalRejoins(ctx, ev);
  return after !== null && revokesFirst(after);
}

/** A refused commit makes the member blocked in poll() rejoin now (otherwise its next poll() does). */
export function commitRefusalRejoinsNow(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  return commitRefusalRejoins(ctx, ev) !== null;
}

/** …and, with the member id and generation that refusal leaves (REBALANCE_IN_PROGRESS keeps them), onJoinPrepare commits first. */
export function commitRefusalRejoinsAfterCommit(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  const after = commitRefusalRejoins(ctx, ev);
  return after !== null && needsJoinPrepare(after);
}

/**
 * The commit in flight failed (an error answer, a broken connection, request.timeout.ms).
 * ConsumerCoordinator: commitSync retries a retriable failure after its backoff until its timeout
 * (commitOffsetsSync), onJoinPrepare retries one within the rebalance timeout, and an auto-commit
 * re-arms its timer to retry.backoff.ms (autoCommitOffsetsAsync); any other failure ends the commit.
 * `state`: the member's; PREPARING_REBALANCE (its JoinGroup in flight) is `rejoining` for the answer.
 */
export function commitFailed(d: Draft, out: Out, c: PendingCommit, error: string, now: number, state: CommitState = 'STABLE'): void {
  const rejoining = state === 'PREPARING_REBALANCE';
  const retriable = RETRIABLE_COMMIT_ERRORS.includes(error);
  if (retries(c, error, now)) {
    d.commitInFlight = { ...c, attempts: c.attempts + 1 };
    // commitSync() and close() go through commitOffsetsSync: its exponential backoff, bounded by the deadline
    const backoff = hasTimer(c) ? Math.min(commitBackoff(d.config, c.attempts), c.deadline - now) : d.config['retry.backoff.ms'];
    out.timer('commitRetry', 'commitRetry', backoff);
    // the backoff is bounded by the deadline: the retry's turn ends the commit if it is due then
    if (hasTimer(c)) out.cancel('commitDeadline');
    return;
  }
  // generationUnchanged(): the generation and member id the commit was sent with are still this member's
  const changed = c.generationId !== d.generationId || c.memberId !== d.memberId;
  const staleWhileRejoining = rejoining && changed;
  const fenced = error === 'FENCED_INSTANCE_ID' && !changed;
  if (c.waiter) {
    const exception = commitException(error, retriable, staleWhileRejoining, changed);
    out.fact({ kind: 'clientError', client: d.client, error: exception, during: 'commitSync', fatal: fenced });
    out.call(c.waiter, 'reply', { call: 'commitSync', ok: false, error: exception });
  }
  // an auto-commit (commitOffsetsAsync) fenced: asyncCommitFenced, and the next poll() throws
  // FencedInstanceIdException (invokeCompletedOffsetCommitCallbacks)
  if (fenced && c.purpose === 'auto') failPoll(d, out, 'FencedInstanceIdException');
  if (c.purpose === 'auto' && retriable) d.nextAutoCommitAt = now + d.config['retry.backoff.ms'];
  if (!retriable) afterCommitRefused(d, error, staleWhileRejoining, out);
  nextCommit(d, out, now, state);
  scheduleAutoCommit(d, now, out);
}

export function onOffsetCommitResponse(d: Draft, ev: EventOf<'OffsetCommitResponse'>, out: Out, state: CommitState = 'STABLE'): void {
  const r = ev.payload;
  const c = d.commitInFlight;
  if (!c || c.correlationId !== r.correlationId) return;
  // OffsetCommitResponseHandler.handle: commitSensor, whatever the answer says (commit-total)
  countConsumer(d, 'commits');
  if (r.error !== 'NONE') {
    out.fact({ kind: 'clientError', client: d.client, error: r.error, during: 'OffsetCommit', fatal: false });
    commitFailed(d, out, c, r.error, ev.now, state);
    return;
  }
  d.knownCommitted = { ...d.knownCommitted, ...Object.fromEntries(c.offsets.map((o) => [keyOf(o), o.offset])) };
  if (c.waiter) out.call(c.waiter, 'reply', { call: 'commitSync', ok: true, error: null });
  nextCommit(d, out, ev.now, state);
  scheduleAutoCommit(d, ev.now, out);
}

/**
 * Whether the commit waiting for its retry can no longer be sent: the member lost its generation
 * meanwhile (a heartbeat answered UNKNOWN_MEMBER_ID or ILLEGAL_GENERATION), so sendOffsetCommitRequest
 * finds no generationIfStable() and fails the attempt without a request.
 */
export function commitRetryRefused(ctx: ConsumerContext): boolean {
  return ctx.commitInFlight !== null && Boolean(ctx.config['group.id']) && outOfGeneration(ctx);
}

/**
 * …and that retry is onJoinPrepare's, or onJoinPrepare's commit waits behind it (and so fails unsent
 * too, nextCommit): the commit is over (a non-retriable failure) and the member rejoins.
 */
export function joinPrepareRetryRefused(ctx: ConsumerContext): boolean {
  return commitRetryRefused(ctx) && (ctx.commitInFlight?.purpose === 'joinPrepare' || ctx.commitQueued?.purpose === 'joinPrepare');
}

/**
 * The backoff after a retriable commit failure passed: the same offsets go out again, in a request
 * built anew — commitOffsetsSync and onJoinPrepare call sendOffsetCommitRequest for each attempt, which
 * reads generationIfStable() then, so the retry carries the member's generation and member id as they
 * are now, not those of the first attempt. Without a generation nothing is sent: the commit fails
 * with CommitFailedException ("not part of an active group"), as a first attempt would (commit) — or,
 * the member rebalancing (`state`), with RebalanceInProgressException.
 */
export function onCommitRetry(d: Draft, out: Out, now: number, state: CommitState = 'STABLE'): void {
  const c = d.commitInFlight;
  if (!c) return;
  // commitOffsetsSync's loop ends at its deadline: no attempt then
  const refused = commitTimedOut(d, now) ? 'TimeoutException' : refusedUnsent(d, state);
  if (!refused) {
    sendCommit(d, out, { ...c, correlationId: corr(d), generationId: d.generationId, memberId: d.memberId }, now);
    return;
  }
  failUnsent(d, out, c, now, state, refused);
  scheduleAutoCommit(d, now, out);
}

/**
 * KafkaConsumer.commitSync → ConsumerCoordinator.commitOffsetsSync: nothing to commit (no position
 * consumed, or every one awaiting validation) returns at once, successfully, without a request and
 * whatever the generation or rebalance (`offsets.isEmpty()` → invokePendingAsyncCommits; the model's
 * auto-commits are not waited for). Otherwise sendOffsetCommitRequest: during a rebalance (`state`)
 * RebalanceInProgressException without a request (refusedUnsent).
 */
export function onCommitSync(d: Draft, call: EventOf<'commitSync'>, out: Out, state: CommitState = 'STABLE'): void {
  const offsets = call.args.offsets ?? consumedOffsets(d);
  if (!d.config['group.id']) {
    out.call(call.from, 'reply', { call: 'commitSync', ok: false, error: 'InvalidGroupIdException' });
    return;
  }
  if (offsets.length === 0) {
    out.call(call.from, 'reply', { call: 'commitSync', ok: true, error: null });
    return;
  }
  commit(d, out, offsets, call.from, 'sync', call.now, state);
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
export function scheduleAutoCommit(d: Draft, now: number, out: Out): void {
  if (!d.pollWaiting || !autoCommits(d) || d.commitInFlight || !hasUncommittedPositions(d)) return;
  out.timer('autoCommit', 'autoCommitDue', Math.max(0, d.nextAutoCommitAt - now));
}

/**
 * poll() in a member with its partitions: auto-commit when due (ConsumerCoordinator.poll), then
 * hand over what is buffered, or — nothing there — send the fetches and wait
 * (ClassicKafkaConsumer.pollForFetches: collectFetch, else sendFetches and client.poll).
 */
export function onPoll(d: Draft, call: EventOf<'poll'>, out: Out): void {
  maybeAutoCommit(d, call.now, out);
  d.pollWaiting = call.from;
  // updateAssignmentMetadataIfNeeded before pollForFetches: the resets due go out first
  resetPositionsIfNeeded(d, call.now, out);
  // a partition whose collected fetch error makes it wait (fetcher.ts collectFetchErrors) is not fetched now
  const backingOff = new Set<string>();
  servePoll(d, out, backingOff);
  fetchWhilePolling(d, out, backingOff);
  scheduleAutoCommit(d, call.now, out);
}

/**
 * poll() with an exception pending (auto.offset.reset=none found no position, or a position out of
 * range): throws it, or — thrown already — polls (fetching again a position that was out of range)
 * and asks again for the committed offsets of the partitions without a position
 * (updateFetchPositions), which may throw again.
 */
export function onPollAfterPollError(d: Draft, call: EventOf<'poll'>, out: Out): void {
  if (throwPending(d, call, out)) return;
  onPoll(d, call, out);
  requestOffsets(d, out);
}

/**
 * poll() while the group is rebalancing (or before rejoining) just waits. No auto-commit:
 * ConsumerCoordinator.poll returns while a rejoin is needed or pending (ensureActiveGroup not done)
 * before maybeAutoCommitOffsetsAsync — onJoinPrepare's commit is the one that goes out.
 */
export function waitingPoll(d: Draft, call: EventOf<'poll'>): void {
  d.pollWaiting = call.from;
}

export function onAutoCommitDue(d: Draft, ev: EventOf<'autoCommitDue'>, out: Out): void {
  // only inside a poll() that is still waiting: otherwise the next poll() commits
  if (!d.pollWaiting) return;
  maybeAutoCommit(d, ev.now, out);
  scheduleAutoCommit(d, ev.now, out);
}

/**
 * onJoinPrepare: the auto-commit before the partitions are given up. The member waits for it —
 * retrying a retriable failure after retry.backoff.ms, for at most the rebalance timeout — and
 * only then revokes its partitions and sends JoinGroup.
 */
export function startJoinPrepare(d: Draft, now: number, out: Out): void {
  d.rejoinNeeded = false;
  commit(d, out, consumedOffsets(d), null, 'joinPrepare', now);
}

/** close() with auto-commit on: heartbeats stop and the consumed positions are committed before LeaveGroup (needsCloseCommit). */
export function startCloseCommit(d: Draft, now: number, out: Out): void {
  stopHeartbeatThread(out);
  commit(d, out, consumedOffsets(d), null, 'close', now);
}

/** ConsumerCoordinator.refreshCommittedOffsetsIfNeeded: the committed offsets of the partitions without a position. */
export function requestOffsets(d: Draft, out: Out): void {
  if (d.assignment.length === 0 || d.awaitingListener) return;
  const pending = d.assignment.filter((tp) => d.positions[keyOf(tp)] === undefined);
  if (pending.length === 0) {
    fetchWhilePolling(d, out);
    return;
  }
  if (!d.config['group.id']) {
    resetPositions(d, pending, out);
    return;
  }
  const correlationId = corr(d);
  d.offsetsRequest = correlationId;
  // the Java consumer always asks for stable offsets (requireStable=true)
  sendToCoordinator(d, out, 'OffsetFetch', {
    correlationId,
    groupId: d.config['group.id'],
    partitions: pending,
    requireStable: true,
  });
}

/**
 * A retriable OffsetFetch failure (UNSTABLE_OFFSET_COMMIT, the coordinator moving or loading, the
 * request lost): asked again after `retryBackoff.backoff(attempts++)`, as
 * ConsumerCoordinator.fetchCommittedOffsets does — 100, 200, 400, 800, then 1000 ms by default.
 * *Kafka counts the attempts within one poll(); the model from the last answer with offsets.*
 */
export function retryOffsetFetch(d: Draft, out: Out): void {
  out.timer('offsets', 'offsetsRetry', commitBackoff(d.config, d.offsetsAttempts));
  d.offsetsAttempts += 1;
}

export function onOffsetFetchResponse(d: Draft, ev: EventOf<'OffsetFetchResponse'>, out: Out): void {
  const r = ev.payload;
  if (r.correlationId !== d.offsetsRequest) return;
  d.offsetsRequest = null;
  if (r.error === 'UNSTABLE_OFFSET_COMMIT' || COORDINATOR_ERRORS.includes(r.error)) {
    // a transaction holding offsets for these partitions has not finished, or the coordinator is loading: ask again shortly
    out.fact({ kind: 'clientError', client: d.client, error: r.error, during: 'OffsetFetch', fatal: false });
    retryOffsetFetch(d, out);
    return;
  }
  d.offsetsAttempts = 0;
  // the partitions without a committed offset are reset together (one ListOffsets per leader)
  const toReset: TopicPartition[] = [];
  for (const o of r.offsets) {
    if (o.offset >= 0) {
      // refreshCommittedOffsets: with its committedLeaderEpoch the position is validated first (seekUnvalidated)
      if (o.committedLeaderEpoch !== undefined && o.committedLeaderEpoch >= 0) seekUnvalidated(d, o, o.offset, o.committedLeaderEpoch);
      else d.positions = { ...d.positions, [keyOf(o)]: o.offset };
      d.knownCommitted = { ...d.knownCommitted, [keyOf(o)]: o.offset };
    } else toReset.push({ topic: o.topic, partition: o.partition });
  }
  // the same pass (ClassicKafkaConsumer.updateFetchPositions): the resets before the fetches
  resetPositions(d, toReset, out);
  resetPositionsIfNeeded(d, ev.now, out);
  fetchWhilePolling(d, out);
}
