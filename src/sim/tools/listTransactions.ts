/**
 * What `kafka-transactions.sh list` would print at a step (TransactionsCommand.ListTransactionsCommand,
 * Kafka 4.0): ListTransactions to every broker, each coordinator answering with the transactional ids
 * of the `__transaction_state` partitions it leads (TransactionStateManager.listTransactionStates: every
 * state but Dead, "a transient state which indicates that the transactionalId and its metadata are in
 * the process of expiration and removal").
 *
 * `--duration-filter <ms>` (KIP-994; ListTransactionsOptions.filterOnDuration, ListTransactions v1's
 * DurationFilter): listTransactionStates leaves out a transactional id when the filter is ≥ 0 and
 * `now − txnStartTimestamp ≤ filter` — only transactions running *longer* than the filter stay. The
 * start is the last transaction's (TransactionMetadata keeps it through PrepareCommit and
 * CompleteCommit), so a finished transaction that started long ago is listed too. An id that never
 * began one has txnStartTimestamp −1: on the broker's wall clock that is a duration of some 55 years,
 * so Kafka always lists it; the model's clock starts at 0, and it lists such an id always as well
 * (not `now + 1 > filter`). A negative filter (Kafka's default, −1) lists everything.
 *
 * Simplified: read at one instant; rows by coordinator, then transactional id (Kafka: the order of
 * its maps); a coordinator that is down is left out (Kafka: once the controller has fenced its broker;
 * before that the tool waits and fails), and one still loading a partition answers for the others
 * (Kafka's answers COORDINATOR_LOAD_IN_PROGRESS and the tool retries). The model's one-replica
 * coordinator has no broker id: its name stands in the Coordinator column.
 */
import type { TxnMetadata } from '../coordinator/transactionMetadata';
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

/** ListTransactions' filters (ListTransactionsOptions): producer ids, and the DurationFilter with the broker's clock. */
export interface ListTransactionsFilters {
  readonly producerIds?: ReadonlySet<number>;
  /** Milliseconds; < 0 (Kafka's default −1): no filter. */
  readonly durationFilterMs?: number;
  /** The coordinator's time.milliseconds(), for the duration filter. */
  readonly now?: number;
}

/**
 * TransactionStateManager.listTransactionStates' shouldInclude for the duration filter: kept unless the
 * filter is ≥ 0 and the transaction has run no longer than it (`now − txnStartTimestamp ≤ filter`).
 * An id that never started a transaction (txnStartTimestamp −1) is always kept (see above).
 */
export function runsLongerThan(m: Pick<TxnMetadata, 'txnStartTimestamp'>, durationFilterMs: number, now: number): boolean {
  if (durationFilterMs < 0 || m.txnStartTimestamp < 0) return true;
  return now - m.txnStartTimestamp > durationFilterMs;
}

/** ListTransactions answered by the coordinators that can answer now, with ListTransactionsOptions' filters. */
export function listTransactions(
  coordinators: readonly TxnCoordinatorView[],
  filters: ListTransactionsFilters = {},
): ListTransactionsResult {
  const { producerIds, durationFilterMs = -1, now = 0 } = filters;
  const answering = coordinators.filter((c) => c.answers);
  if (answering.length === 0) return { kind: 'unavailable' };
  const rows: TransactionListing[] = [];
  for (const c of answering) {
    const listed = c.txns
      .filter(
        (m) =>
          m.state !== 'Dead' && (producerIds === undefined || producerIds.has(m.producerId)) && runsLongerThan(m, durationFilterMs, now),
      )
      .sort((a, b) => (a.transactionalId < b.transactionalId ? -1 : a.transactionalId > b.transactionalId ? 1 : 0));
    for (const m of listed)
      rows.push({ transactionalId: m.transactionalId, coordinator: c.coordinatorId, producerId: m.producerId, state: m.state });
  }
  return { kind: 'listed', rows };
}

/** `kafka-transactions.sh list [--duration-filter <ms>]` at the step `view` shows. */
export function listTransactionsAt(view: SimView, durationFilterMs = -1): ListTransactionsResult {
  return listTransactions(txnCoordinators(view), { durationFilterMs, now: view.time });
}

export function listTransactionsText(r: ListTransactionsResult): string {
  // printErrorAndExit(message, cause): the Admin client's timeout follows the colon
  if (r.kind === 'unavailable') return 'Failed to list transactions: …. Enable debug logging for additional detail.';
  return prettyPrintTable(
    LIST_TRANSACTIONS_HEADERS,
    r.rows.map((l) => [l.transactionalId, l.coordinator, String(l.producerId), l.state]),
  );
}
