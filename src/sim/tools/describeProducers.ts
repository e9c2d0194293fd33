/**
 * What `kafka-transactions.sh describe-producers --topic T --partition P` would print at a step
 * (TransactionsCommand.DescribeProducersCommand, Kafka 4.0): the partition leader's producer state —
 * what idempotence and transactions are on the broker. DescribeProducers is answered from the leader's
 * log (Partition.activeProducerState → UnifiedLog.activeProducers): per producer id its epoch, the
 * coordinator epoch of its last marker (−1: none), the last sequence of its last batch (−1: none), the
 * timestamp of its last batch or marker, and the first offset of its open transaction ("None").
 *
 * The broker keeps nothing else about a producer: no key, no value, no event id. A retry with the same
 * producer id, epoch and sequence is recognised here; the same order sent again by the application
 * (a new sequence, or a new producer id after a restart) is not.
 *
 * `--broker-id N` (DescribeProducersOptions.brokerId) sends the request to that broker instead of the
 * leader: ReplicaManager.activeProducerState answers from whatever replica it hosts, leader or follower
 * (Partition.activeProducerState: the local log's activeProducers). A follower's producer state is
 * its own — built by UnifiedLog.appendAsFollower from the batches it fetched (replicaLog.ts) — so it
 * can lag the leader's. A broker that hosts no replica answers NOT_LEADER_OR_FOLLOWER, which
 * DescribeProducersHandler.handlePartitionError makes fatal when the broker was named ("Failed to
 * describe active producers for partition T-P on brokerId N"); a broker that is down never answers
 * (the Admin client's timeout).
 *
 * Simplified: the tool's requests are read at one instant; the rows are in producer id order (Kafka: the order of its producer map);
 * LastTimestamp is the run's virtual milliseconds.
 */
import type { BrokerContext } from '../broker/broker.machine';
import type { ActorId } from '../kernel/envelope';
import { processOf } from '../kernel/faults';
import type { PartitionLog } from '../log/partitionLog';
import { lastSeq } from '../log/producerStateEntry';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { SimView } from '../run';
import { partitionHeads } from '../trace/logView';
import { replicationRow } from '../trace/replicationView';
import { prettyPrintTable } from './prettyPrintTable';

/** TransactionsCommand.DescribeProducersCommand.HEADERS */
export const DESCRIBE_PRODUCERS_HEADERS = [
  'ProducerId',
  'ProducerEpoch',
  'LatestCoordinatorEpoch',
  'LastSequence',
  'LastTimestamp',
  'CurrentTransactionStartOffset',
] as const;

export interface ProducerStateRow {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly lastSequence: number;
  readonly lastTimestamp: number;
  /** null: no open transaction ("None"). */
  readonly currentTransactionStartOffset: number | null;
}

export type DescribeProducersResult =
  | { readonly kind: 'unavailable'; readonly topic: string; readonly partition: number; readonly brokerId?: number }
  | { readonly kind: 'not-hosted'; readonly topic: string; readonly partition: number; readonly brokerId: number }
  | {
      readonly kind: 'described';
      readonly topic: string;
      readonly partition: number;
      /** The broker that answered: the leader, or the one `--broker-id` named (maybe a follower). */
      readonly leader: ActorId;
      readonly rows: readonly ProducerStateRow[];
    };

/** UnifiedLog.activeProducers, in producer id order. */
export function activeProducers(log: PartitionLog): ProducerStateRow[] {
  return [...log.producers.values()]
    .sort((a, b) => a.producerId - b.producerId)
    .map((e) => ({
      producerId: e.producerId,
      producerEpoch: e.producerEpoch,
      coordinatorEpoch: e.coordinatorEpoch,
      lastSequence: lastSeq(e),
      lastTimestamp: e.lastTimestamp,
      currentTransactionStartOffset: e.currentTxnFirstOffset,
    }));
}

/** The broker with this id, as the model names it (broker.id N ↔ `broker-N`). */
export const brokerActor = (brokerId: number): ActorId => `broker-${brokerId}`;

/**
 * The replica of a partition a broker holds, as DescribeProducers with a broker id reaches it: its log;
 * 'down' when the broker cannot answer (down, or no such broker: the Admin client waits until its
 * timeout); 'not-hosted' when it is up and holds no replica (NOT_LEADER_OR_FOLLOWER).
 */
export function replicaOn(
  view: SimView,
  brokerId: number,
  topic: string,
  partition: number,
):
  | { readonly kind: 'log'; readonly log: PartitionLog; readonly broker: ActorId }
  | { readonly kind: 'down' }
  | { readonly kind: 'not-hosted' } {
  const broker = brokerActor(brokerId);
  const snap = view.actors.get(broker);
  if (!snap || view.processes.get(broker)?.down) return { kind: 'down' };
  const log = (snap.context as Partial<BrokerContext> | undefined)?.partitions?.[topicPartitionKey(topic, partition)];
  return log ? { kind: 'log', log, broker } : { kind: 'not-hosted' };
}

/** The broker id of a broker process (`broker-N` → N); null for any other process (the model's one-process coordinators). */
export function brokerIdOf(actor: ActorId): number | null {
  const m = /^broker-(\d+)$/.exec(processOf(actor));
  return m ? Number(m[1]) : null;
}

/**
 * The brokers that hold a replica of the partition, by id, in the replicas' order: those the controller
 * registered, or for a partition with one replica its leader's broker (none when it is not a broker).
 * What a page offers `--broker-id` for.
 */
export function replicaBrokerIds(view: SimView, topic: string, partition: number): number[] {
  const replication = replicationRow(view.actors, topic, partition);
  if (replication) return replication.replicas.map((r) => brokerIdOf(r.broker)).filter((id): id is number => id !== null);
  const found = partitionHeads(view.actors).find(({ head }) => head.topic === topic && head.partition === partition);
  const id = found ? brokerIdOf(found.head.leader) : null;
  return id === null ? [] : [id];
}

/** The broker id of the partition's leader (its main copy's broker), or null. */
export function leaderBrokerId(view: SimView, topic: string, partition: number): number | null {
  const found = partitionHeads(view.actors).find(({ head }) => head.topic === topic && head.partition === partition);
  return found ? brokerIdOf(found.head.leader) : null;
}

/**
 * `kafka-transactions.sh describe-producers --topic <topic> --partition <partition> [--broker-id <id>]`
 * at the step `view` shows: the leader's producer state, or the named broker's replica's.
 */
export function describeProducersAt(view: SimView, topic: string, partition: number, brokerId?: number): DescribeProducersResult {
  if (brokerId !== undefined) {
    const replica = replicaOn(view, brokerId, topic, partition);
    if (replica.kind === 'down') return { kind: 'unavailable', topic, partition, brokerId };
    if (replica.kind === 'not-hosted') return { kind: 'not-hosted', topic, partition, brokerId };
    return { kind: 'described', topic, partition, leader: replica.broker, rows: activeProducers(replica.log) };
  }
  const found = partitionHeads(view.actors).find(({ head }) => head.topic === topic && head.partition === partition);
  if (!found || view.processes.get(processOf(found.head.leader))?.down) return { kind: 'unavailable', topic, partition };
  return { kind: 'described', topic, partition, leader: found.head.leader, rows: activeProducers(found.log) };
}

/** The tool's output: ToolsUtils.prettyPrintTable (each column padded to its widest value, then a tab). */
export function describeProducersText(r: DescribeProducersResult): string {
  // printErrorAndExit(message, cause): the Admin client's timeout follows the colon
  const on = r.kind !== 'described' && r.brokerId !== undefined ? `broker ${r.brokerId}` : 'leader';
  if (r.kind === 'unavailable') return `Failed to describe producers for partition ${r.topic}-${r.partition} on ${on}: …`;
  if (r.kind === 'not-hosted')
    return `Failed to describe producers for partition ${r.topic}-${r.partition} on ${on}: Failed to describe active producers for partition ${r.topic}-${r.partition} on brokerId ${r.brokerId}. Enable debug logging for additional detail.`;
  const rows = r.rows.map((p) => [
    String(p.producerId),
    String(p.producerEpoch),
    String(p.coordinatorEpoch),
    String(p.lastSequence),
    String(p.lastTimestamp),
    p.currentTransactionStartOffset === null ? 'None' : String(p.currentTransactionStartOffset),
  ]);
  return prettyPrintTable(DESCRIBE_PRODUCERS_HEADERS, rows);
}
