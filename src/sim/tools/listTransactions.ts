/**
 * What `kafka-transactions.sh list` would print at a step (TransactionsCommand.ListTransactionsCommand,
 * Kafka 4.0): ListTransactions to every broker, each coordinator answering with the transactional ids
 * of the `__transaction_state` partitions it leads (TransactionStateManager.listTransactionStates: every
 * state but Dead, "a transient state which indicates that the transactionalId and its metadata are in
 * the process of expiration and removal").
 *
 * Simplified: read at one instant; rows by coordinator, then transactional id (Kafka: the order of
 * its maps); a coordinator that is down is left out (Kafka: once the controller has fenced its broker;
 * before that the tool waits and fails), and one still loading a partition answers for the others
 * (Kafka's answers COORDINATOR_LOAD_IN_PROGRESS and the tool retries). The model's one-replica
 * coordinator has no broker id: its name stands in the Coordinator column.
 */
import type { TxnState } from '../coordinator/transactionState';
import { type TxnCoordinatorView, txnCoordinators } from '../trace/coordinatorTxns';
import type { SimView } from '../trace/trace';
import { prettyPrintTable } from './prettyPrintTable';

/** TransactionsCommand.ListTransactionsCommand.HEADERS */
export const LIST_TRANSACTIONS_HEADERS = ['TransactionalId', 'Coordinator', 'ProducerId', 'TransactionState'] as const;

export interface TransactionListing {
  readonly transactionalId: string;
  readonly coordinator: string;
  readonly producerId: number;
  readonly state: TxnState;
}

export type ListTransactionsResult =
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'listed'; readonly rows: readonly TransactionListing[] };

/** ListTransactions answered by the coordinators that can answer now, optionally only for some producer ids. */
export function listTransactions(coordinators: readonly TxnCoordinatorView[], producerIds?: ReadonlySet<number>): ListTransactionsResult {
  const answering = coordinators.filter((c) => c.answers);
  if (answering.length === 0) return { kind: 'unavailable' };
  const rows: TransactionListing[] = [];
  for (const c of answering) {
    const listed = c.txns
      .filter((m) => m.state !== 'Dead' && (producerIds === undefined || producerIds.has(m.producerId)))
      .sort((a, b) => (a.transactionalId < b.transactionalId ? -1 : a.transactionalId > b.transactionalId ? 1 : 0));
    for (const m of listed)
      rows.push({ transactionalId: m.transactionalId, coordinator: c.coordinatorId, producerId: m.producerId, state: m.state });
  }
  return { kind: 'listed', rows };
}

/** `kafka-transactions.sh list` at the step `view` shows. */
export function listTransactionsAt(view: SimView): ListTransactionsResult {
  return listTransactions(txnCoordinators(view));
}

export function listTransactionsText(r: ListTransactionsResult): string {
  // printErrorAndExit(message, cause): the Admin client's timeout follows the colon
  if (r.kind === 'unavailable') return 'Failed to list transactions: …. Enable debug logging for additional detail.';
  return prettyPrintTable(
    LIST_TRANSACTIONS_HEADERS,
    r.rows.map((l) => [l.transactionalId, l.coordinator, String(l.producerId), l.state]),
  );
}
