/**
 * What `kafka-transactions.sh find-hanging --topic T --partition P --max-transaction-timeout 0` would
 * print at the step, for the partition of a selected record (sim/tools/findHangingTransactions.ts): the
 * open transactions no coordinator will close — the on-call engineer's question when a read_committed
 * consumer stops at the Last Stable Offset.
 */
import { findHangingAt, findHangingText } from '../../sim/views';
import { useStrings } from '../i18n';
import { type PartitionToolProps, ToolSection } from './ToolSection';

/** The tool's --max-transaction-timeout here: its default, 15 minutes, is longer than any run. */
const MAX_TRANSACTION_TIMEOUT_MINUTES = 0;

export function HangingTransactionsSection({ view, topic, partition }: PartitionToolProps) {
  const t = useStrings();
  const result = findHangingAt(view, topic, partition, MAX_TRANSACTION_TIMEOUT_MINUTES);
  return (
    <ToolSection
      testId="find-hanging"
      className="find-hanging"
      title={t.hangingTitle(`${topic}-${partition}`)}
      tool="kafka-transactions.sh find-hanging"
      command={`kafka-transactions.sh --bootstrap-server broker-0:9092 find-hanging --topic ${topic} --partition ${partition} --max-transaction-timeout ${MAX_TRANSACTION_TIMEOUT_MINUTES}`}
      text={findHangingText(result)}
      data={{ kind: result.kind, hanging: result.kind === 'searched' ? result.hanging.length : undefined }}
    >
      {result.kind === 'searched' && <p>{t.hangingSummary(result.candidates, result.hanging.length)}</p>}
      <p className="muted">{result.kind === 'failed' ? t.hangingFailed : t.hangingNote}</p>
    </ToolSection>
  );
}
