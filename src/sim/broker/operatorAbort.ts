/**
 * An operator aborts a transaction on one partition: `kafka-transactions.sh abort --topic t
 * --partition p --start-offset N` (TransactionsCommand.AbortTransactionCommand, Kafka 4.0), the
 * remedy for a hanging transaction:
 *
 * 1. buildAbortSpec: DescribeProducers on the partition's leader; the active producer whose
 *    currentTransactionStartOffset is N. None: the tool prints "Could not find any open transactions
 *    starting at offset N on partition t-p" and exits, having written nothing. Found: the spec
 *    AbortTransactionSpec(t-p, its producerId, its producerEpoch, its coordinatorEpoch or 0 when it
 *    has none).
 * 2. Admin.abortTransaction (AbortTransactionHandler): a WriteTxnMarkers request with one ABORT
 *    marker for that one partition and the spec's epochs, sent to the partition's leader, which
 *    appends it as any marker (broker.machine's shared marker append: the epoch and coordinator-epoch
 *    checks of ProducerAppendInfo.appendEndTxnMarker). INVALID_PRODUCER_EPOCH and
 *    TRANSACTION_COORDINATOR_FENCED fail the tool; NOT_LEADER_OR_FOLLOWER and the like are retried
 *    after a new leader lookup; any other error fails it ("unexpected error").
 *
 * The transaction coordinator is not told: a transaction it still has open keeps going, and its own
 * markers come later (a COMMIT then lands on the other partitions — atomicity broken).
 *
 * A leader the admin client cannot connect to — down, or restarted and not listening until the
 * controller unfences it (broker/listeners.ts) — fails the tool: KafkaAdminClient keeps the
 * DescribeProducers call for that broker (AdminApiDriver's fulfillment scope, ConstantNodeIdProvider),
 * and each refused connection only puts it back among the pending calls (`unassignUnsentCalls(client::
 * connectionFailed)`, no failure, so no new leader lookup) until its deadline, default.api.timeout.ms
 * (60000) after the tool started: TimeoutProcessor fails it "Timed out waiting for a node assignment.
 * Call: describeProducers(api=DESCRIBE_PRODUCERS)", which TransactionsCommand prints as "Failed to
 * validate producer state for partition t-p: <message>. Enable debug logging for additional detail.".
 *
 * With no leader (every replica down, or none in the ISR) the lookup's Metadata answer says
 * LEADER_NOT_AVAILABLE and AdminApiDriver looks up again, without backoff, until the deadline; a
 * leader found before it gets the abort (routeAbort's `retrying`, the kernel's `tryAgainInMs`).
 *
 * Simplified (said in docs/kafka-model.md): the tool's two requests are one step at the partition's
 * leader at one instant; without a reachable leader it looks again every 100 ms (ADMIN_RETRY_MS);
 * the marker is in the log at that instant and the tool's success is said then, before the marker
 * is replicated (Kafka answers once the high watermark passes it).
 */
import { leaderOf as metadataLeaderOf } from '../cluster/metadata';
import type { ActorId } from '../kernel/envelope';
import type { PartitionLog } from '../log/partitionLog';
import type { KafkaError } from '../protocol/errors';
import { topicPartitionKey } from '../protocol/topicPartition';
import { brokerRefusesConnections } from './listeners';

export interface AbortTransactionRequest {
  readonly topic: string;
  readonly partition: number;
  /** --start-offset: the first offset of the transaction to abort. */
  readonly startOffset: number;
}

/** The signal the kernel hands the partition's leader at the abort's instant. */
export interface AbortTransactionEvent extends AbortTransactionRequest {
  readonly type: 'operatorAbortTransaction';
  /** The brokers of the cluster: where the partition's leader is looked for (and who reports its absence). */
  readonly brokers: readonly ActorId[];
  /** The partition's leader at the instant (null: none, or unreachable — the tool fails); set by prepareSignal. */
  readonly leader?: ActorId | null;
  /** The leader the admin client would be sent to but cannot connect to (down or not listening); set by prepareSignal. */
  readonly unreachable?: ActorId;
  /** The actor the kernel hands the signal to (prepareSignal's routing). */
  readonly deliverTo?: ActorId;
  /** When the tool started (the fault's instant): its admin client's calls time out default.api.timeout.ms later. */
  readonly startedAt?: number;
  /** The tool is still looking for a reachable leader: nothing is done now, and it is tried again (set by routeAbort). */
  readonly retrying?: true;
  /** The kernel prepares the signal again this much later (set by routeAbort with `retrying`). */
  readonly tryAgainInMs?: number;
}

/** AbortTransactionSpec: what the tool aborts. */
export interface AbortSpec {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
}

/** TopicPartition.toString: "t-p". */
export function partitionName(req: AbortTransactionRequest): string {
  return topicPartitionKey(req.topic, req.partition);
}

/** AbortTransactionSpec.toString, as the tool prints it in its errors. */
export function specText(req: AbortTransactionRequest, spec: AbortSpec): string {
  return `AbortTransactionSpec(topicPartition=${partitionName(req)}, producerId=${spec.producerId}, producerEpoch=${spec.producerEpoch}, coordinatorEpoch=${spec.coordinatorEpoch})`;
}

/** What the tool prints when no active producer's transaction starts at --start-offset (buildAbortSpec). */
export function noOpenTransaction(req: AbortTransactionRequest): string {
  return `Could not find any open transactions starting at offset ${req.startOffset} on partition ${partitionName(req)}`;
}

/**
 * What the tool prints when the partition had no leader until default.api.timeout.ms: the leader
 * lookup's Metadata answers LEADER_NOT_AVAILABLE (PartitionLeaderStrategy.handlePartitionError:
 * "Will retry"), AdminApiDriver looks up again, and the next lookup call, created past the deadline,
 * is timed out pending (KafkaAdminClient.timeoutPendingCalls) — its name the handler's and the
 * lookup's API (AdminApiDriver.RequestSpec: `describeProducers(api=METADATA)`).
 */
export function noLeader(req: AbortTransactionRequest): string {
  return `Failed to validate producer state for partition ${partitionName(req)}: Timed out waiting for a node assignment. Call: describeProducers(api=METADATA). Enable debug logging for additional detail.`;
}

/**
 * How often the model's tool looks again for a reachable leader. *Simplified:* Kafka's admin client
 * looks the leader up again as soon as each Metadata answer says there is none (AdminApiDriver
 * clears a lookup request without backoff: `clearInflight`, not `clearInflightAndBackoff`), and
 * tries an unreachable leader again after each reconnect backoff (reconnect.backoff.ms 50 doubling
 * to reconnect.backoff.max.ms 1000); the model looks once per retry.backoff.ms (100).
 */
export const ADMIN_RETRY_MS = 100;

/**
 * What the tool prints when the partition's leader does not accept its connection: the admin
 * client's TimeoutException at default.api.timeout.ms (KafkaAdminClient.TimeoutProcessor, the call
 * pending: "Timed out waiting for a node assignment."), wrapped by TransactionsCommand.printErrorAndExit.
 */
export function leaderUnreachable(req: AbortTransactionRequest): string {
  return `Failed to validate producer state for partition ${partitionName(req)}: Timed out waiting for a node assignment. Call: describeProducers(api=DESCRIBE_PRODUCERS). Enable debug logging for additional detail.`;
}

/** default.api.timeout.ms (AdminClientConfig): how long the tool's admin client waits for the leader. */
export const DEFAULT_API_TIMEOUT_MS = 60000;

/**
 * buildAbortSpec: the active producer whose current transaction starts at --start-offset, with its
 * epoch and coordinator epoch (the producer state's -1 when no marker was written for it yet: 0, as
 * DescribeProducers reports none and the tool takes `coordinatorEpoch.orElse(0)`). Null: none.
 */
export function findAbortSpec(log: PartitionLog, startOffset: number): AbortSpec | null {
  for (const [producerId, entry] of log.producers)
    if (entry.currentTxnFirstOffset === startOffset)
      return { producerId, producerEpoch: entry.producerEpoch, coordinatorEpoch: Math.max(0, entry.coordinatorEpoch) };
  return null;
}

/**
 * What the tool prints when the leader refused its marker (AbortTransactionHandler.handleError,
 * wrapped by TransactionsCommand's "Failed to abort transaction <spec>: <message>.").
 */
export function abortRefused(req: AbortTransactionRequest, spec: AbortSpec, error: KafkaError): string {
  const s = specText(req, spec);
  const message =
    error === 'INVALID_PRODUCER_EPOCH'
      ? `WriteTxnMarkers request with ${s} failed due an invalid producer epoch`
      : error === 'TRANSACTION_COORDINATOR_FENCED'
        ? `WriteTxnMarkers request with ${s} failed since the provided coordinator epoch ${spec.coordinatorEpoch} has been fenced by the active coordinator`
        : error === 'NOT_ENOUGH_REPLICAS'
          ? `WriteTxnMarkers request with ${s} failed due to unexpected error: Messages are rejected since there are fewer in-sync replicas than required.`
          : `WriteTxnMarkers request with ${s} failed due to unexpected error: ${error}`;
  return `Failed to abort transaction ${s}: ${message}. Enable debug logging for additional detail.`;
}

/** The partition's leader among live brokers: the one that leads it (with replication) or holds it (one replica). */
export function leaderOf(
  req: AbortTransactionRequest,
  brokers: readonly ActorId[],
  contextOf: (actor: ActorId) => unknown,
): ActorId | null {
  const key = partitionName(req);
  for (const broker of brokers) {
    const ctx = contextOf(broker) as
      | { partitions?: Readonly<Record<string, unknown>>; replication?: { leading: Readonly<Record<string, unknown>> } }
      | undefined;
    if (!ctx?.partitions?.[key]) continue;
    if (ctx.replication ? ctx.replication.leading[key] !== undefined : true) return broker;
  }
  return null;
}

/** Would the broker accept the admin client's connection: up, and listening (not registering after a restart). */
function listening(broker: ActorId, contextOf: (actor: ActorId) => unknown): boolean {
  const ctx = contextOf(broker);
  // any request but the controller's records is refused alike (the model has no DescribeProducers RPC)
  return ctx !== undefined && brokerRefusesConnections(ctx, 'Metadata') === null;
}

/**
 * The leader the admin client's lookup (PartitionLeaderStrategy: a Metadata request to the least
 * loaded broker) is told: the one named in the metadata cache of the first broker that accepts
 * connections. Null: no such broker, or it names none.
 */
function namedLeader(req: AbortTransactionRequest, brokers: readonly ActorId[], contextOf: (actor: ActorId) => unknown): ActorId | null {
  const asked = brokers.find((b) => listening(b, contextOf));
  if (asked === undefined) return null;
  const ctx = contextOf(asked) as {
    meta?: Parameters<typeof metadataLeaderOf>[0];
    replication?: { registrations?: Readonly<Record<string, { leader: ActorId | null } | undefined>> };
  };
  // a replicated cluster's broker answers from the controller's records (a partition may have none)
  const registration = ctx.replication?.registrations?.[partitionName(req)];
  if (registration !== undefined) return registration.leader;
  return ctx.meta ? metadataLeaderOf(ctx.meta, req.topic, req.partition) : null;
}

/**
 * Routes an abort to the partition's leader at its instant (the tool's lookup). A leader that does
 * not accept connections — the broker leading it is registering after a restart, or, with no broker
 * leading it, the metadata still names a broker that is down or registering (its old incarnation not
 * yet fenced) — is `unreachable`: the tool fails with the admin client's timeout. With no leader, or
 * an unreachable one, the first broker that listens (else the first live one) reports the failure.
 */
export function routeAbort(event: AbortTransactionEvent, contextOf: (actor: ActorId) => unknown, now = 0): AbortTransactionEvent {
  const leading = leaderOf(event, event.brokers, contextOf);
  const named = leading ?? namedLeader(event, event.brokers, contextOf);
  const unreachable = named !== null && !listening(named, contextOf) ? named : null;
  const leader = unreachable === null ? leading : null;
  const reporter = leader ?? event.brokers.find((b) => listening(b, contextOf)) ?? event.brokers.find((b) => contextOf(b) !== undefined);
  // no reachable leader yet: the admin client keeps trying until default.api.timeout.ms
  const deadline = (event.startedAt ?? now) + DEFAULT_API_TIMEOUT_MS;
  const retry =
    leader === null && now < deadline ? { retrying: true as const, tryAgainInMs: Math.min(ADMIN_RETRY_MS, deadline - now) } : {};
  return {
    ...event,
    leader,
    ...(unreachable !== null ? { unreachable } : {}),
    ...(reporter !== undefined ? { deliverTo: reporter } : {}),
    ...retry,
  };
}
