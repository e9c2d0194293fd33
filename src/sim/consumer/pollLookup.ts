/**
 * The main thread's coordinator lookup inside poll(): ClassicKafkaConsumer.poll → each pass of its
 * loop → updateAssignmentMetadataIfNeeded → ConsumerCoordinator.poll → coordinatorUnknownAndUnreadySync
 * → AbstractCoordinator.ensureCoordinatorReady(the poll's timer). With the coordinator unknown it calls
 * lookupCoordinator() at once (a FindCoordinator unless one is in flight) and waits for it; a failed
 * lookup (an error answer, a lost request, no node to ask: retriable) sleeps
 * `retryBackoff.backoff(attempts++)` — retry.backoff.ms doubling to retry.backoff.max.ms — then
 * awaitMetadataUpdate (a Metadata request, and its answer) and asks again; a coordinator named but
 * inside its reconnect backoff is marked unknown and asked for again after the same sleep, without
 * the metadata update. ensureCoordinatorReady is synchronized, so the heartbeat thread waits
 * meanwhile (groupLookup.ts onHeartbeatThreadLookup). The model's poll() has no timeout — it is
 * Kafka's poll(Long.MAX_VALUE) — so its attempts count from the poll() (or from the moment the
 * coordinator was lost while it waited), as that call's single ensureCoordinatorReady does; an
 * application's poll(timeout) would start them again at each call, and the model's applications make
 * none (kafka-behaviour.md §11, "Which poll() the model's is"). *No jitter*, as the model's other backoffs.
 */
import type { Out } from '../actors/out';
import { refreshBackoff, requestUpdate } from '../cluster/clientMetadata';
import {
  COORDINATOR_LOOKUP_TIMER,
  type ConsumerContext,
  checkAndGetCoordinator,
  type Draft,
  groupCoordinatorOnLeader,
  lookupCoordinator,
} from './consumerContext';
import type { ConsumerEvent, EventOf } from './events';

/**
 * The application's thread is in ensureCoordinatorReady — a poll() waits, or a commitSync() or close()'s
 * commit is held for the coordinator (commitHeld) — the member uses the group, its coordinator is
 * looked up.
 */
export function inPollLookup(
  ctx: Pick<ConsumerContext, 'pollWaiting' | 'config' | 'meta' | 'commitInFlight' | 'coordinatorWaiting'>,
): boolean {
  return (ctx.pollWaiting !== null || commitHeld(ctx)) && Boolean(ctx.config['group.id']) && groupCoordinatorOnLeader(ctx.meta);
}

/**
 * ConsumerCoordinator.commitOffsetsSync (commitSync(), close()'s auto-commit) calls
 * coordinatorUnknownAndUnreadySync(timer) → ensureCoordinatorReady(timer) before each attempt: its
 * commit held for the coordinator means the application's thread is in that lookup, with its doubling
 * backoff and metadata update, as poll()'s.
 */
function commitHeld(ctx: Pick<ConsumerContext, 'commitInFlight' | 'coordinatorWaiting'>): boolean {
  const c = ctx.commitInFlight;
  if (c === null || (c.purpose !== 'sync' && c.purpose !== 'close')) return false;
  return (ctx.coordinatorWaiting ?? []).some((w) => w.rpc === 'OffsetCommit' && w.payload.correlationId === c.correlationId);
}

/**
 * An attempt of commitOffsetsSync starts (a commitSync() or close()'s commit, or its retry): with the
 * coordinator unknown, a new ensureCoordinatorReady call — its attempts from 0.
 */
export function startCommitLookup(d: Draft, purpose: string): void {
  if (purpose !== 'sync' && purpose !== 'close') return;
  if (!groupCoordinatorOnLeader(d.meta) || checkAndGetCoordinator(d)) return;
  d.lookupAttempts = 0;
  d.lookupAfterMetadata = false;
}

/**
 * After a consumer event (the handler wrapper, consumerContext.ts `action`): a poll() that starts —
 * a new ensureCoordinatorReady, attempts from 0 — looks an unknown coordinator up at once, and so does
 * a waiting poll() whose coordinator this event made unknown (the loop's next pass, woken by it). A
 * Metadata answer ends awaitMetadataUpdate: the next lookup goes.
 */
export function onPollPass(before: ConsumerContext, d: Draft, ev: ConsumerEvent, out: Out): void {
  if (!groupCoordinatorOnLeader(d.meta) || !d.config['group.id']) return;
  const entering = ev.type === 'poll';
  const lost = Boolean(before.groupCoordinator) && !d.groupCoordinator && d.pollWaiting !== null;
  const metadataAnswered = ev.type === 'MetadataResponse' && before.metadata.inFlight === ev.payload.correlationId;
  if (entering || lost) {
    d.lookupAttempts = 0;
    d.lookupAfterMetadata = false;
    if (!checkAndGetCoordinator(d)) lookupCoordinator(d, out);
    return;
  }
  if (metadataAnswered && d.lookupAfterMetadata) {
    d.lookupAfterMetadata = false;
    if (inPollLookup(d) && !checkAndGetCoordinator(d)) lookupCoordinator(d, out);
  }
}

/**
 * A lookup failed (`metadata`: the FindCoordinator future failed — error answer, lost, no node — so
 * awaitMetadataUpdate follows the sleep; false: a coordinator named inside its reconnect backoff).
 * While poll() waits, or commitSync() / close() waits for the coordinator: the next after
 * retryBackoff.backoff(attempts++); otherwise, for another held request, after retry.backoff.ms.
 */
export function armLookupRetry(d: Draft, out: Out, metadata: boolean): void {
  if (!inPollLookup(d)) {
    out.timer(COORDINATOR_LOOKUP_TIMER, 'coordinatorLookupRetry', d.config['retry.backoff.ms'], { metadata: false });
    return;
  }
  const attempts = d.lookupAttempts ?? 0;
  d.lookupAttempts = attempts + 1;
  out.timer(COORDINATOR_LOOKUP_TIMER, 'coordinatorLookupRetry', refreshBackoff(d.config, attempts), { metadata });
}

/**
 * ensureCoordinatorReady's sleep is over: inside poll(), awaitMetadataUpdate first when the lookup's
 * future failed (an update requested; the wrapper sends it; its answer sends the FindCoordinator:
 * onPollPass), else FindCoordinator now; for the group requests held outside poll(), FindCoordinator.
 */
export function onCoordinatorLookupRetry(d: Draft, ev: EventOf<'coordinatorLookupRetry'>, out: Out): void {
  if (checkAndGetCoordinator(d)) return;
  if (inPollLookup(d)) {
    if (ev.data?.metadata) {
      d.metadata = requestUpdate(d.metadata);
      d.lookupAfterMetadata = true;
      return;
    }
    lookupCoordinator(d, out);
    return;
  }
  if ((d.coordinatorWaiting ?? []).length > 0) lookupCoordinator(d, out);
}
