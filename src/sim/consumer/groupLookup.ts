/**
 * Finding the group coordinator when it lives on a `__consumer_offsets` leader
 * (offsets.topic.replication.factor > 1): AbstractCoordinator.lookupCoordinator's FindCoordinator
 * (key type GROUP, to the least loaded node) answered — the held group requests go to the coordinator
 * named — or failed (COORDINATOR_NOT_AVAILABLE, or lost), then asked again after retry.backoff.ms.
 * While the member is in a group, its heartbeat thread looks an unknown coordinator up every
 * retry.backoff.ms whether or not a request waits (`onHeartbeatThreadLookup`).
 * Sending and forgetting the coordinator: consumerContext.ts (sendToCoordinator, checkAndGetCoordinator,
 * markCoordinatorUnknownOn).
 */
import type { Out } from '../actors/out';
import {
  COORDINATOR_LOOKUP_TIMER,
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
    out.timer(COORDINATOR_LOOKUP_TIMER, 'coordinatorLookupRetry', d.config['retry.backoff.ms']);
    return;
  }
  if (coordinatorUnavailable(d, coordinator)) {
    if ((d.coordinatorWaiting ?? []).length > 0)
      out.timer(COORDINATOR_LOOKUP_TIMER, 'coordinatorLookupRetry', d.config['retry.backoff.ms']);
    return;
  }
  d.groupCoordinator = coordinator;
  const waiting = d.coordinatorWaiting ?? [];
  d.coordinatorWaiting = [];
  for (const w of waiting) sendRequest(d, out, coordinator, w.rpc, w.payload, w.background);
}

/** A lost FindCoordinator: asked again after retry.backoff.ms (of the least loaded node then). */
export function onFindCoordinatorLost(d: Draft, correlationId: number, out: Out): void {
  if (correlationId !== d.coordinatorLookup) return;
  d.coordinatorLookup = null;
  out.timer(COORDINATOR_LOOKUP_TIMER, 'coordinatorLookupRetry', d.config['retry.backoff.ms']);
}

/** ensureCoordinatorReady's next try, for the group requests waiting for the coordinator. */
export function onCoordinatorLookupRetry(d: Draft, out: Out): void {
  if (!checkAndGetCoordinator(d) && (d.coordinatorWaiting ?? []).length > 0) lookupCoordinator(d, out);
}

/**
 * AbstractCoordinator.HeartbeatThread.run, while the member is in a group (the machine's states with
 * heartbeats; not UNJOINED: a reset generation): `if (coordinatorUnknown())` — unknown, or its
 * connection inside its backoff — `lookupCoordinator()` then `wait(retryBackoffMs)`: the coordinator
 * is looked for every retry.backoff.ms even when no group request waits. Found: the wake-ups stop.
 * *Simplification*: Kafka's thread, finding the last lookup's future still set (a FindCoordinator
 * answered with a coordinator it cannot reach yet), only clears it on that wake-up and asks on the
 * next, and the main thread inside poll() looks up too (ensureCoordinatorReady, its own backoff); the
 * model sends one FindCoordinator per wake-up unless one is in flight.
 */
export function onHeartbeatThreadLookup(d: Draft, out: Out): void {
  if (!groupCoordinatorOnLeader(d.meta) || outOfGeneration(d) || checkAndGetCoordinator(d)) return;
  lookupCoordinator(d, out);
  out.timer(HEARTBEAT_THREAD_TIMER, 'heartbeatThreadLookup', d.config['retry.backoff.ms'], {}, true);
}
