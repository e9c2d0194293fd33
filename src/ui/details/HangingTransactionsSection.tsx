/**
 * What `kafka-transactions.sh find-hanging … --max-transaction-timeout 0` would print at the step, for
 * the partition of a selected record (sim/tools/findHangingTransactions.ts): the open transactions no
 * coordinator will close — the on-call engineer's question when a read_committed consumer stops at the
 * Last Stable Offset. The tool's scopes are offered as it takes them: the partition (`--topic T
 * --partition P`), its whole topic (`--topic T`), and the broker that leads it (`--broker-id N`: every
 * partition with a replica there, each read from that broker's own replica).
 */
import { useState } from 'react';
import { type FindHangingScope, findHanging, findHangingText, leaderBrokerId } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolChoice, type ToolOption } from './ToolChoice';
import { type PartitionToolProps, ToolSection } from './ToolSection';

/** The tool's --max-transaction-timeout here: its default, 15 minutes, is longer than any run. */
const MAX_TRANSACTION_TIMEOUT_MINUTES = 0;

type Scope = 'partition' | 'topic' | 'broker';

export function HangingTransactionsSection({ view, topic, partition }: PartitionToolProps) {
  const t = useStrings();
  const [chosen, setChosen] = useState<Scope>('partition');
  const brokerId = leaderBrokerId(view, topic, partition);
  // a partition led by no broker (the model's one-process coordinators) has no --broker-id to offer
  const scope: Scope = chosen === 'broker' && brokerId === null ? 'partition' : chosen;
  const args: FindHangingScope =
    scope === 'partition' ? { topic, partition } : scope === 'topic' ? { topic } : { brokerId: brokerId ?? undefined };
  const options =
    scope === 'partition'
      ? `--topic ${topic} --partition ${partition}`
      : scope === 'topic'
        ? `--topic ${topic}`
        : `--broker-id ${brokerId}`;
  const result = findHanging(view, args, MAX_TRANSACTION_TIMEOUT_MINUTES);
  const scopes: readonly ToolOption<Scope>[] = [
    { id: 'partition', label: '--partition' },
    { id: 'topic', label: '--topic' },
    ...(brokerId === null ? [] : [{ id: 'broker' as const, label: `--broker-id ${brokerId}` }]),
  ];
  const title =
    scope === 'partition'
      ? t.hangingTitle(`${topic}-${partition}`)
      : scope === 'topic'
        ? t.hangingTitleTopic(topic)
        : t.hangingTitleBroker(`broker-${brokerId}`);
  return (
    <ToolSection
      testId="find-hanging"
      className="find-hanging"
      title={title}
      tool="kafka-transactions.sh find-hanging"
      command={`kafka-transactions.sh --bootstrap-server broker-0:9092 find-hanging ${options} --max-transaction-timeout ${MAX_TRANSACTION_TIMEOUT_MINUTES}`}
      text={findHangingText(result)}
      data={{
        kind: result.kind,
        scope,
        hanging: result.kind === 'searched' ? result.hanging.length : undefined,
        partitions: result.kind === 'searched' ? result.partitions : undefined,
      }}
      controls={
        <ToolChoice
          testId="find-hanging-scope"
          label={t.hangingScope}
          attribute="scope"
          options={scopes}
          chosen={scope}
          onChoose={setChosen}
        />
      }
    >
      {result.kind === 'searched' && (
        <p>
          {scope !== 'partition' && `${t.hangingSearched(result.partitions)} `}
          {t.hangingSummary(result.candidates, result.hanging.length)}
        </p>
      )}
      <p className="muted">{result.kind === 'failed' ? t.hangingFailed : t.hangingNote}</p>
      {scope !== 'partition' && result.kind === 'searched' && (
        <p className="muted">{scope === 'topic' ? t.hangingTopicNote : t.hangingBrokerNote}</p>
      )}
    </ToolSection>
  );
}
