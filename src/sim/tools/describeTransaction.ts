/**
 * What `kafka-transactions.sh describe --transactional-id X` would print at a step
 * (TransactionsCommand.DescribeTransactionsCommand, Kafka 4.0): the coordinator's metadata of one
 * transactional id (TransactionCoordinator.handleDescribeTransactions; DescribeTransactionsHandler):
 * its producer id and epoch, state, timeout, the start of its current transaction ("None" when the
 * stored start is negative) and how long ago that was, and the partitions in the transaction — the
 * partitions of an Ongoing one, and those still waiting for their marker in PrepareCommit/PrepareAbort.
 * An id the coordinator does not hold, or holds as Dead, is TRANSACTIONAL_ID_NOT_FOUND.
 *
 * Simplified: read at one instant; TopicPartitions by topic then partition (Kafka: a HashSet's
 * order); with no coordinator able to answer (down, moving, loading) the tool's retries end in its
 * timeout, shown as "…". The model's one-replica coordinator has no broker id: its name stands in
 * the CoordinatorId column.
 */
import type { TxnState } from '../coordinator/transactionState';
import { coordinatorFor, type TxnCoordinatorView, txnCoordinators } from '../trace/coordinatorTxns';
import type { SimView } from '../trace/trace';
import { prettyPrintTable } from './prettyPrintTable';

/** TransactionsCommand.DescribeTransactionsCommand.HEADERS */
export const DESCRIBE_TRANSACTIONS_HEADERS = [
  'CoordinatorId',
  'TransactionalId',
  'ProducerId',
  'ProducerEpoch',
  'TransactionState',
  'TransactionTimeoutMs',
  'CurrentTransactionStartTimeMs',
  'TransactionDurationMs',
  'TopicPartitions',
] as const;

export interface TransactionDescription {
  readonly coordinatorId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly state: TxnState;
  readonly transactionTimeoutMs: number;
  /** null: none stored (−1), "None". */
  readonly transactionStartTimeMs: number | null;
  /** "topic-partition", by topic then partition. */
  readonly topicPartitions: readonly string[];
}

export type DescribeTransactionResult =
  | { readonly kind: 'unavailable'; readonly transactionalId: string }
  | { readonly kind: 'not-found'; readonly transactionalId: string }
  | { readonly kind: 'described'; readonly transactionalId: string; readonly now: number; readonly description: TransactionDescription };

function byTopicThenPartition(a: string, b: string): number {
  const cut = (s: string) => {
    const i = s.lastIndexOf('-');
    return [s.slice(0, i), Number(s.slice(i + 1))] as const;
  };
  const [ta, pa] = cut(a);
  const [tb, pb] = cut(b);
  return ta < tb ? -1 : ta > tb ? 1 : pa - pb;
}

/** DescribeTransactions for one id, from the coordinator that can answer for it now. */
export function describeTransaction(
  coordinators: readonly TxnCoordinatorView[],
  transactionalId: string,
  now: number,
): DescribeTransactionResult {
  const c = coordinatorFor(coordinators, transactionalId);
  if (!c) return { kind: 'unavailable', transactionalId };
  const m = c.txns.find((x) => x.transactionalId === transactionalId);
  // "The transaction state is being expired, so ignore it"
  if (!m || m.state === 'Dead') return { kind: 'not-found', transactionalId };
  return {
    kind: 'described',
    transactionalId,
    now,
    description: {
      coordinatorId: c.coordinatorId,
      producerId: m.producerId,
      producerEpoch: m.producerEpoch,
      state: m.state,
      transactionTimeoutMs: m.txnTimeoutMs,
      transactionStartTimeMs: m.txnStartTimestamp < 0 ? null : m.txnStartTimestamp,
      topicPartitions: [...m.partitions].sort(byTopicThenPartition),
    },
  };
}

/** `kafka-transactions.sh describe --transactional-id <id>` at the step `view` shows. */
export function describeTransactionAt(view: SimView, transactionalId: string): DescribeTransactionResult {
  return describeTransaction(txnCoordinators(view), transactionalId, view.time);
}

export function describeTransactionText(r: DescribeTransactionResult): string {
  const failed = `Failed to describe transaction state of transactional-id \`${r.transactionalId}\``;
  if (r.kind === 'unavailable') return `${failed}: …. Enable debug logging for additional detail.`;
  if (r.kind === 'not-found')
    return `${failed}: DescribeTransactions request for transactionalId \`${r.transactionalId}\` failed because the ID could not be found. Enable debug logging for additional detail.`;
  const d = r.description;
  const start = d.transactionStartTimeMs;
  return prettyPrintTable(DESCRIBE_TRANSACTIONS_HEADERS, [
    [
      d.coordinatorId,
      r.transactionalId,
      String(d.producerId),
      String(d.producerEpoch),
      d.state,
      String(d.transactionTimeoutMs),
      start === null ? 'None' : String(start),
      start === null ? 'None' : String(r.now - start),
      d.topicPartitions.join(','),
    ],
  ]);
}
