/**
 * What `kafka-transactions.sh describe-producers --topic T --partition P` would print at the step, for
 * the partition of a selected record (sim/tools/describeProducers.ts): the leader's producer state —
 * all that idempotence and transactions keep on the broker.
 */
import { describeProducersAt, describeProducersText, type SimView } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolOutput } from './ToolOutput';

export function ProducerStateSection({
  view,
  topic,
  partition,
}: {
  readonly view: SimView;
  readonly topic: string;
  readonly partition: number;
}) {
  const t = useStrings();
  const result = describeProducersAt(view, topic, partition);
  return (
    <section
      className="group-describe producer-state"
      data-testid="describe-producers"
      data-kind={result.kind}
      data-producers={result.kind === 'described' ? result.rows.length : undefined}
      aria-label={t.producerStateTitle(`${topic}-${partition}`)}
    >
      <h4>
        {t.producerStateTitle(`${topic}-${partition}`)} <code translate="no">kafka-transactions.sh describe-producers</code>
      </h4>
      <ToolOutput
        command={`kafka-transactions.sh --bootstrap-server broker-0:9092 describe-producers --topic ${topic} --partition ${partition}`}
        text={describeProducersText(result)}
      />
      <p className="muted">{result.kind === 'unavailable' ? t.producerStateUnavailable : t.producerStateNote}</p>
    </section>
  );
}
