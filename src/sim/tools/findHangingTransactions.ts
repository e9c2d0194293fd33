/**
 * What `kafka-transactions.sh find-hanging --topic T --partition P --max-transaction-timeout M` would
 * print at a step (TransactionsCommand.FindHangingTransactionsCommand, Kafka 4.0):
 *
 * 1. DescribeProducers at the partition's leader: the producers with an open transaction
 *    (CurrentTransactionStartOffset present) whose last write is more than M minutes old — the
 *    candidates;
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
 * Simplified: read at one instant; rows in producer id order.
 */
import { processOf } from '../kernel/faults';
import { txnCoordinators } from '../trace/coordinatorTxns';
import { partitionHeads } from '../trace/logView';
import type { SimView } from '../trace/trace';
import { activeProducers, type ProducerStateRow } from './describeProducers';
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
  readonly producer: ProducerStateRow;
  /** Why it hangs: no transactional id owns the producer id; the id is unknown; the coordinator does not list the partition. */
  readonly why: 'no-transactional-id' | 'not-found' | 'partition-not-in-transaction';
  readonly transactionalId: string | null;
}

export type FindHangingResult =
  | { readonly kind: 'failed'; readonly message: string }
  | {
      readonly kind: 'searched';
      readonly topic: string;
      readonly partition: number;
      readonly now: number;
      /** Open transactions older than the bound, the tool's candidates. */
      readonly candidates: number;
      readonly hanging: readonly HangingTransaction[];
    };

const FAILED_TAIL = ': …. Enable debug logging for additional detail.';

/** The hanging transactions of one partition at the step `view` shows. */
export function findHangingAt(view: SimView, topic: string, partition: number, maxTransactionTimeoutMinutes: number): FindHangingResult {
  const found = partitionHeads(view.actors).find(({ head }) => head.topic === topic && head.partition === partition);
  if (!found || view.processes.get(processOf(found.head.leader))?.down)
    // `" partitions on broker " + brokerId`: the Optional of a search by --topic prints as such
    return { kind: 'failed', message: `Failed to describe producers for 1 partitions on broker Optional.empty${FAILED_TAIL}` };
  const now = view.time;
  const maxMs = maxTransactionTimeoutMinutes * 60000;
  const candidates = activeProducers(found.log).filter((p) => p.currentTransactionStartOffset !== null && now - p.lastTimestamp > maxMs);
  const searched = (hanging: HangingTransaction[]): FindHangingResult => ({
    kind: 'searched',
    topic,
    partition,
    now,
    candidates: candidates.length,
    hanging,
  });
  if (candidates.length === 0) return searched([]);
  const coordinators = txnCoordinators(view);
  const producerIds = new Set(candidates.map((p) => p.producerId));
  const listed = listTransactions(coordinators, producerIds);
  if (listed.kind === 'unavailable')
    return { kind: 'failed', message: `Failed to list transactions for ${producerIds.size} producers${FAILED_TAIL}` };
  const idOf = new Map(listed.rows.map((l) => [l.producerId, l.transactionalId] as const));
  const ids = [...new Set(idOf.values())];
  const descriptions = new Map(ids.map((id) => [id, describeTransaction(coordinators, id, now)] as const));
  if ([...descriptions.values()].some((d) => d.kind === 'unavailable'))
    return { kind: 'failed', message: `Failed to describe ${ids.length} transactions${FAILED_TAIL}` };
  const key = `${topic}-${partition}`;
  const hanging: HangingTransaction[] = [];
  for (const producer of candidates) {
    const transactionalId = idOf.get(producer.producerId) ?? null;
    if (transactionalId === null) {
      hanging.push({ producer, why: 'no-transactional-id', transactionalId });
      continue;
    }
    const d = descriptions.get(transactionalId);
    if (d?.kind !== 'described') hanging.push({ producer, why: 'not-found', transactionalId });
    else if (!d.description.topicPartitions.includes(key)) hanging.push({ producer, why: 'partition-not-in-transaction', transactionalId });
  }
  return searched(hanging);
}

export function findHangingText(r: FindHangingResult): string {
  if (r.kind === 'failed') return r.message;
  return prettyPrintTable(
    FIND_HANGING_HEADERS,
    r.hanging.map(({ producer: p }) => [
      r.topic,
      String(r.partition),
      String(p.producerId),
      String(p.producerEpoch),
      String(p.coordinatorEpoch),
      String(p.currentTransactionStartOffset ?? -1),
      String(p.lastTimestamp),
      String(Math.floor((r.now - p.lastTimestamp) / 60000)),
    ]),
  );
}
