/**
 * What `kafka-transactions.sh list` would print at the step, for a selected transaction coordinator
 * (sim/tools/listTransactions.ts): every transactional.id the coordinators hold, and its state.
 */
import { listTransactionsAt, listTransactionsText, type SimView } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolSection } from './ToolSection';

export const isTransactionCoordinator = (id: string) => id === 'txn-coordinator' || id.endsWith('.txn-coordinator');

export function TransactionListSection({ view, id }: { readonly view: SimView; readonly id: string }) {
  const t = useStrings();
  if (!isTransactionCoordinator(id)) return null;
  const result = listTransactionsAt(view);
  return (
    <ToolSection
      testId="list-transactions"
      className="list-transactions"
      title={t.txnListTitle}
      tool="kafka-transactions.sh list"
      command="kafka-transactions.sh --bootstrap-server broker-0:9092 list"
      text={listTransactionsText(result)}
      data={{ kind: result.kind, transactions: result.kind === 'listed' ? result.rows.length : undefined }}
    >
      <p className="muted">{result.kind === 'unavailable' ? t.txnListUnavailable : t.txnListNote}</p>
    </ToolSection>
  );
}
