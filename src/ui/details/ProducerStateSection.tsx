/**
 * What `kafka-transactions.sh describe-producers --topic T --partition P` would print at the step, for
 * the partition of a selected record (sim/tools/describeProducers.ts): the leader's producer state —
 * all that idempotence and transactions keep on the broker.
 */
import { describeProducersAt, describeProducersText, type SimView } from '../../sim/views';
import { useStrings } from '../i18n';

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
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the tool's wide columns scroll sideways in their box, which must be focusable to scroll by keyboard (axe: scrollable-region-focusable) */}
      <pre className="tool-output" translate="no" tabIndex={0}>
        <span className="muted">
          $ kafka-transactions.sh --bootstrap-server broker-0:9092 describe-producers --topic {topic} --partition {partition}
        </span>
        {'\n'}
        {describeProducersText(result)}
      </pre>
      <p className="muted">{result.kind === 'unavailable' ? t.producerStateUnavailable : t.producerStateNote}</p>
    </section>
  );
}
