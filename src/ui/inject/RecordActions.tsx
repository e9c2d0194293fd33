/**
 * Actions on a record: the producing application sends the same event again (a business retry — a
 * new send() with the same event_id, which idempotence does not catch); and, on a record of an open
 * transaction, an operator aborts that transaction (kafka-transactions.sh abort --start-offset N,
 * the scenario fault abortTransaction) — the remedy for a hanging transaction.
 *
 * Props: `topic`, `partition`, `offset` — a record of the partition log at the current step (a
 * Selection of kind 'record'); `onReport` (optional) — told the outcome of an injection.
 */
import { abortTransactionNow, resendRecord, resendTarget, transactionAbortTarget } from '../../sim';
import { useSim } from '../../store/useSim';
import { ActionRow } from './ActionRow';
import type { InjectionReport } from './applyEdit';
import { Refusal } from './Refusal';
import { refusalText, useInjectStrings } from './strings';
import { useInjection } from './useInjection';

export interface RecordActionsProps {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly onReport?: InjectionReport;
}

export function RecordActions({ topic, partition, offset, onReport }: RecordActionsProps) {
  const t = useInjectStrings();
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const step = useSim((s) => s.step);
  const { run, refusal } = useInjection(onReport);
  if (!trace || !view) return null;
  const target = resendTarget({ trace, step, view, topic, partition, offset });
  const open = transactionAbortTarget({ trace, step, view, topic, partition, offset });
  return (
    <div className="record-actions" data-testid="record-actions">
      <h3>{t.recordHeading(topic, partition, offset)}</h3>
      {'code' in target ? (
        <p className="hint">{refusalText(t, target.code, target.reason)}</p>
      ) : (
        <ActionRow
          label={t.resend}
          hint={t.resendHint(target.client, target.eventId)}
          onClick={() => run((s, at) => resendRecord(s, { ...at, topic, partition, offset }))}
        />
      )}
      {open && (
        <ActionRow
          label={t.abortTxn(open.startOffset)}
          hint={t.abortTxnHint(open.producerId, open.producerEpoch, open.startOffset)}
          onClick={() => run((s, at) => abortTransactionNow(s, { ...at, topic, partition, startOffset: open.startOffset }))}
        />
      )}
      <Refusal text={refusal} />
    </div>
  );
}
