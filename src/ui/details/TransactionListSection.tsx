/**
 * What `kafka-transactions.sh list [--duration-filter <ms>]` would print at the step, for a selected
 * transaction coordinator (sim/tools/listTransactions.ts): every transactional.id the coordinators
 * hold, and its state — or, with the duration filter (KIP-994), only those whose last transaction
 * started more than that many milliseconds ago.
 */
import { useId, useState } from 'react';
import { listTransactionsAt, listTransactionsText, type SimView } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolSection } from './ToolSection';

export const isTransactionCoordinator = (id: string) => id === 'txn-coordinator' || id.endsWith('.txn-coordinator');

/** The filter as the tool takes it: a whole number of milliseconds (argparse4j's Long), else none. */
const filterOf = (text: string): number | null => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : null);

export function TransactionListSection({ view, id }: { readonly view: SimView; readonly id: string }) {
  const t = useStrings();
  const inputId = useId();
  const [typed, setTyped] = useState('');
  if (!isTransactionCoordinator(id)) return null;
  const filter = filterOf(typed);
  const result = listTransactionsAt(view, filter ?? -1);
  return (
    <ToolSection
      testId="list-transactions"
      className="list-transactions"
      title={t.txnListTitle}
      tool="kafka-transactions.sh list"
      command={`kafka-transactions.sh --bootstrap-server broker-0:9092 list${filter === null ? '' : ` --duration-filter ${filter}`}`}
      text={listTransactionsText(result)}
      data={{
        kind: result.kind,
        transactions: result.kind === 'listed' ? result.rows.length : undefined,
        'duration-filter': filter ?? undefined,
      }}
      controls={
        <p className="tool-option">
          <label htmlFor={inputId}>
            <code translate="no">--duration-filter</code> {t.txnListDurationLabel}
          </label>{' '}
          <input
            id={inputId}
            data-testid="list-transactions-duration"
            type="text"
            inputMode="numeric"
            size={8}
            value={typed}
            placeholder="-1"
            onChange={(e) => setTyped(e.target.value)}
          />
        </p>
      }
    >
      <p className="muted">{result.kind === 'unavailable' ? t.txnListUnavailable : t.txnListNote}</p>
      {filter !== null && filter >= 0 && <p className="muted">{t.txnListDurationNote(filter)}</p>}
    </ToolSection>
  );
}
