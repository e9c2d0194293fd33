/**
 * A request completed as a disconnect: its connection was closed after a request on it passed
 * request.timeout.ms (REQUEST_TIMED_OUT), or it broke — the leader or coordinator is down, or the
 * connection was reset (NETWORK_EXCEPTION). The client tries again, as Kafka's does for retriable
 * errors. Whatever state the consumer is in, the request is no longer in flight. (A lost JoinGroup
 * or SyncGroup is the membership's: the machine's guards send the member back to JoinGroup.) What
 * the disconnect does to the broker's connection state — its reconnect backoff, a metadata update —
 * is NetworkClient's, done before (metadataUpdater.ts `noteConnectionEvent`).
 */
import type { Out } from '../actors/out';
import { onMetadataLost } from '../cluster/metadataUpdater';
import { type DisconnectedEvent, disconnectError } from '../kernel/effects';
import { type CommitState, commitFailed, endsCloseCommit, endsJoinPrepare, retryOffsetFetch } from './commits';
import { type ConsumerContext, countConsumer, type Draft } from './consumerContext';
import type { ConsumerEvent } from './events';
import { fetchAnswered, fetchWhilePolling } from './fetcher';
import { onFindCoordinatorLost } from './groupLookup';
import { failHeartbeat } from './membership';
import { onListOffsetsLost } from './offsetFetcher';
import { onValidationLost } from './positionValidation';

/** The lost request's correlation id (every request of the consumer carries one). */
const correlationOf = (e: DisconnectedEvent) => e.payload.correlationId as number;

/**
 * `heartbeating`: the member's heartbeats run (a lost Heartbeat then re-arms them after the backoff:
 * failHeartbeat). `state`: the member's, for a commit queued behind a lost one (commits.ts nextCommit).
 */
export function onRequestLost(d: Draft, e: DisconnectedEvent, out: Out, heartbeating = false, state: CommitState = 'STABLE'): void {
  const correlationId = correlationOf(e);
  // a lost Metadata request is a failed update: it is asked again after the backoff, of another broker
  if (e.rpc === 'Metadata') {
    onMetadataLost(d, correlationId, e.now);
    return;
  }
  if (e.rpc === 'FindCoordinator') {
    onFindCoordinatorLost(d, correlationId, out);
    return;
  }
  if (e.rpc !== 'Fetch') out.fact({ kind: 'clientError', client: d.client, error: disconnectError(e), during: e.rpc, fatal: false });
  // the joinFuture fails (failed-rebalance-total)
  if (e.rpc === 'JoinGroup' || e.rpc === 'SyncGroup') countConsumer(d, 'failedRebalances');
  switch (e.rpc) {
    case 'Fetch':
      // no retry timer of its own (AbstractFetch.handleFetchFailure only forgets the request): the
      // next pass of a waiting poll() fetches again, skipping the leader while it is in its
      // reconnect backoff — whose end wakes the consumer (prepareFetchRequests: isUnavailable)
      // its broker is free again, and every partition it named is fetched again
      fetchAnswered(d, correlationId);
      d.fetching = Object.fromEntries(Object.entries(d.fetching).filter(([, c]) => c !== correlationId));
      fetchWhilePolling(d, out);
      return;
    case 'OffsetFetch':
      if (d.offsetsRequest === correlationId) {
        d.offsetsRequest = null;
        retryOffsetFetch(d, out);
      }
      return;
    case 'OffsetsForLeaderEpoch':
      onValidationLost(d, correlationId, out);
      return;
    case 'ListOffsets':
      // its partitions asked again after retry.backoff.ms, a metadata update asked for (OffsetFetcherUtils.onFailedResponseForResettingPositions)
      onListOffsetsLost(d, correlationId, e.now);
      return;
    case 'OffsetCommit': {
      // retried after a backoff (commitSync, onJoinPrepare) or at the next auto-commit due time
      const c = d.commitInFlight;
      if (!c || c.correlationId !== correlationId) return;
      commitFailed(d, out, c, disconnectError(e), e.now, state);
      return;
    }
    case 'Heartbeat':
      // Heartbeat.failHeartbeat: the next heartbeat after the backoff, not heartbeat.interval.ms later
      failHeartbeat(d, out, heartbeating, e.now);
      return;
    default:
      return;
  }
}

/** A Heartbeat lost (disconnect or request.timeout.ms) while the member heartbeats. */
export function heartbeatLost(ev: ConsumerEvent): boolean {
  return ev.type === 'disconnected' && ev.rpc === 'Heartbeat';
}

/** A JoinGroup or SyncGroup lost: the member asks again (the membership's transition). */
export function joinOrSyncLost(ev: ConsumerEvent): boolean {
  return ev.type === 'disconnected' && (ev.rpc === 'JoinGroup' || ev.rpc === 'SyncGroup');
}

/** close()'s auto-commit lost and not retried: the member leaves the group. */
export function closeCommitLost(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  return ev.type === 'disconnected' && ev.rpc === 'OffsetCommit' && endsCloseCommit(ctx, correlationOf(ev), disconnectError(ev), ev.now);
}

/** The onJoinPrepare commit lost and not retried: the member rejoins. */
export function joinPrepareCommitLost(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  return ev.type === 'disconnected' && ev.rpc === 'OffsetCommit' && endsJoinPrepare(ctx, correlationOf(ev), disconnectError(ev), ev.now);
}
