/**
 * What `kafka-transactions.sh describe-producers --topic T --partition P [--broker-id N]` would print at
 * the step, for the partition of a selected record (sim/tools/describeProducers.ts): the leader's
 * producer state — all that idempotence and transactions keep on the broker — or, for a partition with
 * several replicas, the one a chosen broker holds (a follower's is built from what it has fetched).
 */
import { useState } from 'react';
import { describeProducersAt, describeProducersText, replicaBrokerIds } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolChoice } from './ToolChoice';
import { type PartitionToolProps, ToolSection } from './ToolSection';

export function ProducerStateSection({ view, topic, partition }: PartitionToolProps) {
  const t = useStrings();
  /** null: the leader (no --broker-id). */
  const [chosen, setChosen] = useState<number | null>(null);
  const replicas = replicaBrokerIds(view, topic, partition);
  // a choice of replica only where there is more than one
  const offered = replicas.length > 1 ? replicas : [];
  const brokerId = chosen !== null && offered.includes(chosen) ? chosen : null;
  const result = describeProducersAt(view, topic, partition, brokerId ?? undefined);
  return (
    <ToolSection
      testId="describe-producers"
      className="producer-state"
      title={
        brokerId === null
          ? t.producerStateTitle(`${topic}-${partition}`)
          : t.producerStateReplicaTitle(`${topic}-${partition}`, `broker-${brokerId}`)
      }
      tool="kafka-transactions.sh describe-producers"
      command={`kafka-transactions.sh --bootstrap-server broker-0:9092 describe-producers --topic ${topic} --partition ${partition}${brokerId === null ? '' : ` --broker-id ${brokerId}`}`}
      text={describeProducersText(result)}
      data={{ kind: result.kind, producers: result.kind === 'described' ? result.rows.length : undefined, broker: brokerId ?? undefined }}
      controls={
        offered.length > 0 && (
          <ToolChoice<number | null>
            testId="describe-producers-replica"
            label={t.producerStateReplica}
            attribute="broker"
            options={[
              { id: null, label: t.producerStateLeader, words: true, data: 'leader' },
              ...offered.map((b) => ({ id: b, label: `--broker-id ${b}` })),
            ]}
            chosen={brokerId}
            onChoose={setChosen}
          />
        )
      }
    >
      <p className="muted">
        {result.kind === 'unavailable'
          ? brokerId === null
            ? t.producerStateUnavailable
            : t.producerStateBrokerDown
          : result.kind === 'not-hosted'
            ? t.producerStateNotHosted
            : brokerId === null
              ? t.producerStateNote
              : `${t.producerStateNote} ${t.producerStateReplicaNote}`}
      </p>
    </ToolSection>
  );
}
