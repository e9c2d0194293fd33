/**
 * What `kafka-transactions.sh describe --transactional-id X` would print at the step, for a selected
 * client whose producer has a transactional.id (sim/tools/describeTransaction.ts): the coordinator's
 * side of the transaction, to set beside the partitions' side (describe-producers, find-hanging).
 */
import { describeTransactionAt, describeTransactionText, metricsClientOf, type SimView, type Trace } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolOutput } from './ToolOutput';

/** The transactional.id of the producer of the scenario client `id` belongs to, as its producer holds it now. */
function transactionalIdOf(trace: Trace, view: SimView, id: string): string | null {
  const client = metricsClientOf(trace, id);
  if (!client) return null;
  const ctx = view.actors.get(`${client}.producer`)?.context as { config?: { 'transactional.id'?: string | null } } | undefined;
  return ctx?.config?.['transactional.id'] || null;
}

export function TransactionDescribeSection({ trace, view, id }: { readonly trace: Trace; readonly view: SimView; readonly id: string }) {
  const t = useStrings();
  const transactionalId = transactionalIdOf(trace, view, id);
  if (!transactionalId) return null;
  const result = describeTransactionAt(view, transactionalId);
  const title = t.txnDescribeTitle(transactionalId);
  return (
    <section
      className="group-describe describe-transaction"
      data-testid="describe-transaction"
      data-kind={result.kind}
      data-state={result.kind === 'described' ? result.description.state : undefined}
      aria-label={title}
    >
      <h4>
        {title} <code translate="no">kafka-transactions.sh describe</code>
      </h4>
      <ToolOutput
        command={`kafka-transactions.sh --bootstrap-server broker-0:9092 describe --transactional-id ${transactionalId}`}
        text={describeTransactionText(result)}
      />
      <p className="muted">
        {result.kind === 'unavailable' ? t.txnDescribeUnavailable : result.kind === 'not-found' ? t.txnDescribeNotFound : t.txnDescribeNote}
      </p>
    </section>
  );
}
