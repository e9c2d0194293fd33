/**
 * What `kafka-transactions.sh describe-producers --topic T --partition P` would print at the step, for
 * the partition of a selected record (sim/tools/describeProducers.ts): the leader's producer state —
 * all that idempotence and transactions keep on the broker.
 */
import { describeProducersAt, describeProducersText } from '../../sim/views';
import { useStrings } from '../i18n';
import { type PartitionToolProps, ToolSection } from './ToolSection';

export function ProducerStateSection({ view, topic, partition }: PartitionToolProps) {
  const t = useStrings();
  const result = describeProducersAt(view, topic, partition);
  return (
    <ToolSection
      testId="describe-producers"
      className="producer-state"
      title={t.producerStateTitle(`${topic}-${partition}`)}
      tool="kafka-transactions.sh describe-producers"
      command={`kafka-transactions.sh --bootstrap-server broker-0:9092 describe-producers --topic ${topic} --partition ${partition}`}
      text={describeProducersText(result)}
      data={{ kind: result.kind, producers: result.kind === 'described' ? result.rows.length : undefined }}
    >
      <p className="muted">{result.kind === 'unavailable' ? t.producerStateUnavailable : t.producerStateNote}</p>
    </ToolSection>
  );
}
