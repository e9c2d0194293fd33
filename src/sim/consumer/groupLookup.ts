/**
 * Finding the group coordinator when it lives on a `__consumer_offsets` leader
 * (offsets.topic.replication.factor > 1): AbstractCoordinator.lookupCoordinator's FindCoordinator
 * (key type GROUP, to the least loaded node) answered — the held group requests go to the coordinator
 * named — or failed (COORDINATOR_NOT_AVAILABLE, or lost), then asked again after the backoff: inside
 * poll() ensureCoordinatorReady's doubling one (pollLookup.ts), else retry.backoff.ms. While the member
 * is in a group and outside poll(), its heartbeat thread looks an unknown coordinator up every
 * retry.backoff.ms whether or not a request waits (`onHeartbeatThreadLookup`).
 * Sending and forgetting the coordinator: consumerContext.ts (sendToCoordinator, checkAndGetCoordinator,
 * markCoordinatorUnknownOn).
 */
import type { Out } from '../actors/out';
import {
  type ConsumerContext,
  checkAndGetCoordinator,
  coordinatorUnavailable,
  type Draft,
  groupCoordinatorOnLeader,
  HEARTBEAT_THREAD_TIMER,
  knownCoordinator,
  lookupCoordinator,
  outOfGeneration,
  sendRequest,
} from './consumerContext';
import type { EventOf } from './events';
import { armLookupRetry, inPollLookup } from './pollLookup';
import { heartbeatThreadWakes, resetSessionTimeout } from './sessionTimer';

/**
 * AbstractCoordinator.coordinatorUnknown() read without marking anything (for a guard): no coordinator
 * known, or — one on a __consumer_offsets leader — its connection inside its reconnect backoff.
 */
export function coordinatorUnknown(ctx: Pick<ConsumerContext, 'meta' | 'groupCoordinator' | 'connections'>): boolean {
  const known = knownCoordinator(ctx);
  return known === null || (groupCoordinatorOnLeader(ctx.meta) && coordinatorUnavailable(ctx, known));
}

/**
 * FindCoordinatorResponseHandler: the coordinator named, and the held requests sent to it — unless
 * its connection is inside its reconnect backoff (a broker that died and is not fenced yet is still
 * named): then ensureCoordinatorReady marks it unknown again ("coordinator unavailable") and looks it
 * up after the backoff; the requests keep waiting.
 */
export function onFindCoordinatorResponse(d: Draft, ev: EventOf<'FindCoordinatorResponse'>, out: Out): void {
  if (ev.payload.correlationId !== d.coordinatorLookup) return;
  d.coordinatorLookup = null;
  const coordinator = ev.payload.coordinator;
  if (ev.payload.error !== 'NONE' || !coordinator) {
    out.fact({ kind: 'clientError', client: d.client, error: ev.payload.error, during: 'FindCoordinator', fatal: false });
    armLookupRetry(d, out, true);
    return;
  }
  if (coordinatorUnavailable(d, coordinator)) {
    if ((d.coordinatorWaiting ?? []).length > 0 || inPollLookup(d)) armLookupRetry(d, out, false);
    return;
  }
  d.groupCoordinator = coordinator;
  // ensureCoordinatorReady returns: the next starts its attempts from 0
  d.lookupAttempts = 0;
  d.lookupAfterMetadata = false;
  // FindCoordinatorResponseHandler: heartbeat.resetSessionTimeout() (checked only while the member has joined)
  if (!outOfGeneration(d)) resetSessionTimeout(d, ev.now, out);
  const waiting = d.coordinatorWaiting ?? [];
  d.coordinatorWaiting = [];
  for (const w of waiting) sendRequest(d, out, coordinator, w.rpc, w.payload, w.background);
}

/** A lost FindCoordinator: asked again after the backoff (of the least loaded node then). */
export function onFindCoordinatorLost(d: Draft, correlationId: number, out: Out): void {
  if (correlationId !== d.coordinatorLookup) return;
  d.coordinatorLookup = null;
  armLookupRetry(d, out, true);
}

/**
 * AbstractCoordinator.HeartbeatThread.run, while the member is in a group (the machine's states with
 * heartbeats; not UNJOINED: a reset generation): `if (coordinatorUnknown())` — unknown, or its
 * connection inside its backoff — `lookupCoordinator()` then `wait(retryBackoffMs)`: the coordinator
 * is looked for every retry.backoff.ms even when no group request waits. Found: the wake-ups stop.
 * *Simplification*: Kafka's thread, finding the last lookup's future still set (a FindCoordinator
 * answered with a coordinator it cannot reach yet), only clears it on that wake-up and asks on the
 * next; the model sends one FindCoordinator per wake-up unless one is in flight. While a poll() waits
 * the thread sends none: the main thread's ensureCoordinatorReady holds the lock (pollLookup.ts).
 */
export function onHeartbeatThreadLookup(d: Draft, ev: { readonly now: number }, out: Out): void {
  if (!groupCoordinatorOnLeader(d.meta) || outOfGeneration(d) || checkAndGetCoordinator(d)) return;
  heartbeatThreadWakes(d, ev.now);
  // the main thread inside poll() holds the coordinator's lock (ensureCoordinatorReady is synchronized):
  // the thread waits; the lookups are poll()'s
  if (!inPollLookup(d)) lookupCoordinator(d, out);
  out.timer(HEARTBEAT_THREAD_TIMER, 'heartbeatThreadLookup', d.config['retry.backoff.ms'], {}, true);
}
