/**
 * NetworkClient's DefaultMetadataUpdater for the producer and the consumer: after each event the
 * client calls `maybeUpdateMetadata`, which sends a Metadata request to the least loaded broker when
 * one is due (clientMetadata.ts decides), or arms the `metadataUpdateDue` timer for when it will be.
 * The answer replaces the client's `meta`; a lost request is a failed update (backoff) and puts that
 * broker last for the next choice. Metadata traffic is background: it alone keeps no run going.
 */
import type { Out } from '../actors/out';
import type { ActorId } from '../kernel/envelope';
import type { TopicPartition } from '../protocol/messages';
import type { MetadataResponse } from '../protocol/replicationMessages';
import {
  applyMetadataResponse,
  type ClientMetadataState,
  connectionAnswered,
  connectionFailed,
  failedUpdate,
  type MetadataConfig,
  metadataSent,
  nextMetadataStep,
  refreshesPeriodically,
} from './clientMetadata';
import type { ClusterMetadata } from './metadata';

/** What a client's draft holds for this: its metadata, when to refresh it, its correlation ids. */
export interface MetadataHolder {
  meta: ClusterMetadata;
  metadata: ClientMetadataState;
  nextCorrelationId: number;
  readonly config: MetadataConfig & { readonly 'request.timeout.ms': number };
}

export const METADATA_TIMER = 'metadata';

/** DefaultMetadataUpdater.maybeUpdate, for a client interested in `topics`. */
export function maybeUpdateMetadata(d: MetadataHolder, topics: readonly string[], now: number, out: Out): void {
  const step = nextMetadataStep(d.metadata, d.meta, d.config, now, refreshesPeriodically(d.meta, topics));
  if (step.kind === 'wait') out.timer(METADATA_TIMER, 'metadataUpdateDue', step.ms, {}, true);
  if (step.kind !== 'send') return;
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  d.metadata = metadataSent(d.metadata, correlationId);
  out.send(
    step.broker,
    'Metadata',
    { correlationId, topics: [...topics] },
    { timeoutMs: d.config['request.timeout.ms'], background: true },
  );
}

/**
 * The answer to this client's Metadata request (handleSuccessfulResponse → Metadata.update). Returns
 * the partitions whose leader or epoch changed, or null for an answer it no longer waits for.
 */
export function onMetadataResponse(
  d: MetadataHolder,
  from: ActorId,
  payload: MetadataResponse & { readonly correlationId: number },
  now: number,
): TopicPartition[] | null {
  if (d.metadata.inFlight !== payload.correlationId) return null;
  const r = applyMetadataResponse(d.meta, connectionAnswered(d.metadata, from), payload, now);
  d.meta = r.meta;
  d.metadata = r.state;
  return r.changed;
}

/** A Metadata request completed as a disconnect (handleFailedRequest → Metadata.failedUpdate). Returns whether it was ours. */
export function onMetadataLost(d: MetadataHolder, broker: ActorId, correlationId: number, now: number): boolean {
  if (d.metadata.inFlight !== correlationId) return false;
  d.metadata = connectionFailed(failedUpdate(d.metadata, now), broker, now);
  return true;
}
