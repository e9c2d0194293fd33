/**
 * What `kafka-transactions.sh describe --transactional-id X` would print at the step, for a selected
 * client whose producer has a transactional.id (sim/tools/describeTransaction.ts): the coordinator's
 * side of the transaction, to set beside the partitions' side (describe-producers, find-hanging).
 */
import { describeTransactionAt, describeTransactionText, metricsClientOf, type SimView, type Trace } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolSection } from './ToolSection';

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
  return (
    <ToolSection
      testId="describe-transaction"
      className="describe-transaction"
      title={t.txnDescribeTitle(transactionalId)}
      tool="kafka-transactions.sh describe"
      command={`kafka-transactions.sh --bootstrap-server broker-0:9092 describe --transactional-id ${transactionalId}`}
      text={describeTransactionText(result)}
      data={{ kind: result.kind, state: result.kind === 'described' ? result.description.state : undefined }}
    >
      <p className="muted">
        {result.kind === 'unavailable' ? t.txnDescribeUnavailable : result.kind === 'not-found' ? t.txnDescribeNotFound : t.txnDescribeNote}
      </p>
    </ToolSection>
  );
}
