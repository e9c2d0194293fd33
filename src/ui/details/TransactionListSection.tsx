/**
 * What `kafka-transactions.sh list` would print at the step, for a selected transaction coordinator
 * (sim/tools/listTransactions.ts): every transactional.id the coordinators hold, and its state.
 */
import { listTransactionsAt, listTransactionsText, type SimView } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolOutput } from './ToolOutput';

export const isTransactionCoordinator = (id: string) => id === 'txn-coordinator' || id.endsWith('.txn-coordinator');

export function TransactionListSection({ view, id }: { readonly view: SimView; readonly id: string }) {
  const t = useStrings();
  if (!isTransactionCoordinator(id)) return null;
  const result = listTransactionsAt(view);
  return (
    <section
      className="group-describe list-transactions"
      data-testid="list-transactions"
      data-kind={result.kind}
      data-transactions={result.kind === 'listed' ? result.rows.length : undefined}
      aria-label={t.txnListTitle}
    >
      <h4>
        {t.txnListTitle} <code translate="no">kafka-transactions.sh list</code>
      </h4>
      <ToolOutput command="kafka-transactions.sh --bootstrap-server broker-0:9092 list" text={listTransactionsText(result)} />
      <p className="muted">{result.kind === 'unavailable' ? t.txnListUnavailable : t.txnListNote}</p>
    </section>
  );
}
