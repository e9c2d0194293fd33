/**
 * What `kafka-topics.sh --describe --topic T` would print at the step, for the topic of a selected
 * record (sim/tools/describeTopic.ts): each partition's leader, replicas and ISR as the controller
 * registered them, and the topic's configs that are not defaults.
 */
import { describeTopicAt, describeTopicText, type SimView, type Trace } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolOutput } from './ToolOutput';

export function TopicDescribeSection({ trace, view, topic }: { readonly trace: Trace; readonly view: SimView; readonly topic: string }) {
  const t = useStrings();
  const result = describeTopicAt(view, trace.scenario, topic);
  const title = t.topicDescribeTitle(topic);
  return (
    <section
      className="group-describe describe-topic"
      data-testid="describe-topic"
      data-kind={result.kind}
      data-partitions={result.kind === 'described' ? result.description.partitions.length : undefined}
      aria-label={title}
    >
      <h4>
        {title} <code translate="no">kafka-topics.sh --describe</code>
      </h4>
      <ToolOutput
        command={`kafka-topics.sh --bootstrap-server broker-0:9092 --describe --topic ${topic}`}
        text={describeTopicText(result)}
      />
      <p className="muted">{t.topicDescribeNote}</p>
    </section>
  );
}
