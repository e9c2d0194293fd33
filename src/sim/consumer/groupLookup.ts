/**
 * Finding the group coordinator when it lives on a `__consumer_offsets` leader
 * (offsets.topic.replication.factor > 1): AbstractCoordinator.lookupCoordinator's FindCoordinator
 * (key type GROUP) answered — the held group requests go to the coordinator named — or failed
 * (COORDINATOR_NOT_AVAILABLE, or lost: the next broker), then asked again after retry.backoff.ms.
 * Sending and forgetting the coordinator: consumerContext.ts (sendToCoordinator, markCoordinatorUnknownOn).
 */
import type { Out } from '../actors/out';
import { lookupIndexOf } from '../cluster/clientMetadata';
import { type Draft, lookupCoordinator, sendRequest } from './consumerContext';
import type { EventOf } from './events';

export function onFindCoordinatorResponse(d: Draft, ev: EventOf<'FindCoordinatorResponse'>, out: Out): void {
  if (ev.payload.correlationId !== d.coordinatorLookup) return;
  d.coordinatorLookup = null;
  const coordinator = ev.payload.coordinator;
  if (ev.payload.error !== 'NONE' || !coordinator) {
    out.fact({ kind: 'clientError', client: d.client, error: ev.payload.error, during: 'FindCoordinator', fatal: false });
    out.timer('coordinatorLookup', 'coordinatorLookupRetry', d.config['retry.backoff.ms']);
    return;
  }
  d.groupCoordinator = coordinator;
  d.lookupNode = lookupIndexOf(d.meta, coordinator, d.lookupNode);
  const waiting = d.coordinatorWaiting ?? [];
  d.coordinatorWaiting = [];
  for (const w of waiting) sendRequest(d, out, coordinator, w.rpc, w.payload, w.background);
}

/** A lost FindCoordinator: the next broker, after retry.backoff.ms. */
export function onFindCoordinatorLost(d: Draft, correlationId: number, out: Out): void {
  if (correlationId !== d.coordinatorLookup) return;
  d.coordinatorLookup = null;
  d.lookupNode = (d.lookupNode ?? 0) + 1;
  out.timer('coordinatorLookup', 'coordinatorLookupRetry', d.config['retry.backoff.ms']);
}

export function onCoordinatorLookupRetry(d: Draft, out: Out): void {
  if (!d.groupCoordinator && (d.coordinatorWaiting ?? []).length > 0) lookupCoordinator(d, out);
}
