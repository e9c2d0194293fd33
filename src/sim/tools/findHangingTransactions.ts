/**
 * What `kafka-transactions.sh find-hanging` would print at a step
 * (TransactionsCommand.FindHangingTransactionsCommand, Kafka 4.0), for one of its scopes:
 *
 * - `--topic T --partition P`: that partition;
 * - `--topic T`: every partition of T (collectTopicPartitionsToSearch → findTopicPartitions:
 *   Admin.describeTopics; a topic that does not exist fails "Failed to describe 1 topics");
 * - `--broker-id N` (with or without `--topic T`): every partition — of T, or of every topic, internal
 *   ones included (listTopics with listInternal(true)) — that has a **replica** on broker N
 *   (hasReplica: the partition's replicas, not only its leader), and DescribeProducers is sent to
 *   broker N itself (DescribeProducersOptions.brokerId), so each partition is read from N's own
 *   replica, a follower's producer state included.
 *
 * Then, over all those partitions:
 *
 * 1. DescribeProducers: the producers with an open transaction (CurrentTransactionStartOffset
 *    present) whose last write is more than M minutes old (`--max-transaction-timeout`, 15 by
 *    default) — the candidates;
 * 2. ListTransactions filtered by those producer ids: their transactional ids;
 * 3. DescribeTransactions of those ids. A candidate is **hanging** when no transactional id owns its
 *    producer id, when its id is not found, or when the coordinator's transaction does not list the
 *    partition (an Ongoing transaction lists its partitions, a PrepareCommit/PrepareAbort one those still
 *    waiting for their marker): no coordinator will ever write the marker that closes it, and it holds
 *    the partition's Last Stable Offset until an operator aborts it (`kafka-transactions.sh abort`).
 *
 * An open transaction the coordinator knows about is not hanging, however long it is open: the
 * coordinator's timeout will abort it. Rows: Topic, Partition, ProducerId, ProducerEpoch,
 * CoordinatorEpoch (−1: none), StartOffset, LastTimestamp, Duration(min) (whole minutes since
 * LastTimestamp).
 *
 * Simplified: read at one instant; rows in producer id order, then in partition order (Kafka: its
 * HashMap of producer ids, then the order describeTopics answered); the Admin client's batches of
 * 500 partitions are one request here.
 */
import { processOf } from '../kernel/faults';
import type { PartitionLog } from '../log/partitionLog';
import { topicPartitionKey } from '../protocol/topicPartition';
import { txnCoordinators } from '../trace/coordinatorTxns';
import { partitionHeads } from '../trace/logView';
import { replicationRow } from '../trace/replicationView';
import type { SimView } from '../trace/trace';
import { activeProducers, brokerActor, type ProducerStateRow, replicaOn } from './describeProducers';
import { describeTransaction } from './describeTransaction';
import { listTransactions } from './listTransactions';
import { prettyPrintTable } from './prettyPrintTable';

/** TransactionsCommand.FindHangingTransactionsCommand.HEADERS */
export const FIND_HANGING_HEADERS = [
  'Topic',
  'Partition',
  'ProducerId',
  'ProducerEpoch',
  'CoordinatorEpoch',
  'StartOffset',
  'LastTimestamp',
  'Duration(min)',
] as const;

export interface HangingTransaction {
  readonly topic: string;
  readonly partition: number;
  readonly producer: ProducerStateRow;
  /** Why it hangs: no transactional id owns the producer id; the id is unknown; the coordinator does not list the partition. */
  readonly why: 'no-transactional-id' | 'not-found' | 'partition-not-in-transaction';
  readonly transactionalId: string | null;
}

export type FindHangingResult =
  | { readonly kind: 'failed'; readonly message: string }
  | {
      readonly kind: 'searched';
      readonly scope: FindHangingScope;
      /** The partitions searched. */
      readonly partitions: number;
      readonly now: number;
      /** Open transactions older than the bound, the tool's candidates. */
      readonly candidates: number;
      readonly hanging: readonly HangingTransaction[];
    };

/** Where find-hanging searches: `--topic` [`--partition`], `--broker-id`, or a topic on a broker. */
export interface FindHangingScope {
  readonly topic?: string;
  readonly partition?: number;
  readonly brokerId?: number;
}

const FAILED_TAIL = ': …. Enable debug logging for additional detail.';
/** printErrorAndExit(message, cause) appends "." to the cause's message, which has its own. */
const UNKNOWN_TOPIC = ': This server does not host this topic-partition.. Enable debug logging for additional detail.';

interface Searched {
  readonly topic: string;
  readonly partition: number;
}

/**
 * collectTopicPartitionsToSearch: the one partition named, else the partitions of the topic (or of
 * every topic) from the metadata, those with a replica on the broker when one is named; a string when
 * describeTopics fails.
 */
function partitionsToSearch(view: SimView, scope: FindHangingScope): Searched[] | string {
  const { topic, partition, brokerId } = scope;
  if (topic !== undefined && partition !== undefined) return [{ topic, partition }];
  const heads = partitionHeads(view.actors).map(({ head }) => head);
  const ofTopic = topic === undefined ? heads : heads.filter((h) => h.topic === topic);
  if (topic !== undefined && ofTopic.length === 0) return `Failed to describe 1 topics${UNKNOWN_TOPIC}`;
  if (brokerId === undefined) return ofTopic.map(({ topic, partition }) => ({ topic, partition }));
  const broker = brokerActor(brokerId);
  return ofTopic
    .filter((h) => {
      // hasReplica: the replicas the controller registered; a partition with one replica, its leader's broker
      const replication = replicationRow(view.actors, h.topic, h.partition);
      return replication ? replication.replicas.some((r) => r.broker === broker) : processOf(h.leader) === broker;
    })
    .map(({ topic, partition }) => ({ topic, partition }));
}

/** The hanging transactions of one partition at the step `view` shows. */
export function findHangingAt(view: SimView, topic: string, partition: number, maxTransactionTimeoutMinutes: number): FindHangingResult {
  return findHanging(view, { topic, partition }, maxTransactionTimeoutMinutes);
}

/** `find-hanging` over a scope (see above) at the step `view` shows. */
export function findHanging(view: SimView, scope: FindHangingScope, maxTransactionTimeoutMinutes: number): FindHangingResult {
  const searchedPartitions = partitionsToSearch(view, scope);
  if (typeof searchedPartitions === 'string') return { kind: 'failed', message: searchedPartitions };
  const now = view.time;
  const maxMs = maxTransactionTimeoutMinutes * 60000;
  // DescribeProducers over all the partitions: one that cannot answer fails the whole call (all().get())
  const logs: { tp: Searched; log: PartitionLog }[] = [];
  let failure: string | null = null;
  for (const tp of searchedPartitions) {
    if (scope.brokerId !== undefined) {
      const replica = replicaOn(view, scope.brokerId, tp.topic, tp.partition);
      if (replica.kind === 'log') logs.push({ tp, log: replica.log });
      else
        failure ??=
          replica.kind === 'not-hosted'
            ? `: Failed to describe active producers for partition ${tp.topic}-${tp.partition} on brokerId ${scope.brokerId}. Enable debug logging for additional detail.`
            : FAILED_TAIL;
      continue;
    }
    const found = partitionHeads(view.actors).find(({ head }) => head.topic === tp.topic && head.partition === tp.partition);
    if (!found || view.processes.get(processOf(found.head.leader))?.down) failure ??= FAILED_TAIL;
    else logs.push({ tp, log: found.log });
  }
  if (failure !== null) {
    // `" partitions on broker " + brokerId`: an Optional<Integer>, printed as such
    const broker = scope.brokerId === undefined ? 'Optional.empty' : `Optional[${scope.brokerId}]`;
    return {
      kind: 'failed',
      message: `Failed to describe producers for ${searchedPartitions.length} partitions on broker ${broker}${failure}`,
    };
  }
  const candidates = logs.flatMap(({ tp, log }) =>
    activeProducers(log)
      .filter((p) => p.currentTransactionStartOffset !== null && now - p.lastTimestamp > maxMs)
      .map((producer) => ({ ...tp, producer })),
  );
  const searched = (hanging: HangingTransaction[]): FindHangingResult => ({
    kind: 'searched',
    scope,
    partitions: searchedPartitions.length,
    now,
    candidates: candidates.length,
    hanging: hanging.sort((a, b) => a.producer.producerId - b.producer.producerId),
  });
  if (candidates.length === 0) return searched([]);
  const coordinators = txnCoordinators(view);
  const producerIds = new Set(candidates.map((c) => c.producer.producerId));
  const listed = listTransactions(coordinators, { producerIds });
  if (listed.kind === 'unavailable')
    return { kind: 'failed', message: `Failed to list transactions for ${producerIds.size} producers${FAILED_TAIL}` };
  const idOf = new Map(listed.rows.map((l) => [l.producerId, l.transactionalId] as const));
  const ids = [...new Set(idOf.values())];
  const descriptions = new Map(ids.map((id) => [id, describeTransaction(coordinators, id, now)] as const));
  if ([...descriptions.values()].some((d) => d.kind === 'unavailable'))
    return { kind: 'failed', message: `Failed to describe ${ids.length} transactions${FAILED_TAIL}` };
  const hanging: HangingTransaction[] = [];
  for (const c of candidates) {
    const transactionalId = idOf.get(c.producer.producerId) ?? null;
    if (transactionalId === null) {
      hanging.push({ ...c, why: 'no-transactional-id', transactionalId });
      continue;
    }
    const d = descriptions.get(transactionalId);
    if (d?.kind !== 'described') hanging.push({ ...c, why: 'not-found', transactionalId });
    else if (!d.description.topicPartitions.includes(topicPartitionKey(c.topic, c.partition)))
      hanging.push({ ...c, why: 'partition-not-in-transaction', transactionalId });
  }
  return searched(hanging);
}

export function findHangingText(r: FindHangingResult): string {
  if (r.kind === 'failed') return r.message;
  return prettyPrintTable(
    FIND_HANGING_HEADERS,
    r.hanging.map(({ topic, partition, producer: p }) => [
      topic,
      String(partition),
      String(p.producerId),
      String(p.producerEpoch),
      String(p.coordinatorEpoch),
      String(p.currentTransactionStartOffset ?? -1),
      String(p.lastTimestamp),
      String(Math.floor((r.now - p.lastTimestamp) / 60000)),
    ]),
  );
}
