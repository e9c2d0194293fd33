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
 * Simplified: the tool's requests are read at one instant at the partition's leader (`--broker-id` is
 * not offered); the rows are in producer id order (Kafka: the order of its producer map);
 * LastTimestamp is the run's virtual milliseconds.
 */
import type { ActorId } from '../kernel/envelope';
import { processOf } from '../kernel/faults';
import type { PartitionLog } from '../log/partitionLog';
import { lastSeq } from '../log/producerStateEntry';
import type { SimView } from '../run';
import { partitionHeads } from '../trace/logView';
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
  | { readonly kind: 'unavailable'; readonly topic: string; readonly partition: number }
  | {
      readonly kind: 'described';
      readonly topic: string;
      readonly partition: number;
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

/** `kafka-transactions.sh describe-producers --topic <topic> --partition <partition>` at the step `view` shows. */
export function describeProducersAt(view: SimView, topic: string, partition: number): DescribeProducersResult {
  const found = partitionHeads(view.actors).find(({ head }) => head.topic === topic && head.partition === partition);
  if (!found || view.processes.get(processOf(found.head.leader))?.down) return { kind: 'unavailable', topic, partition };
  return { kind: 'described', topic, partition, leader: found.head.leader, rows: activeProducers(found.log) };
}

/** The tool's output: ToolsUtils.prettyPrintTable (each column padded to its widest value, then a tab). */
export function describeProducersText(r: DescribeProducersResult): string {
  // printErrorAndExit(message, cause): the Admin client's timeout follows the colon
  if (r.kind === 'unavailable') return `Failed to describe producers for partition ${r.topic}-${r.partition} on leader: …`;
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
