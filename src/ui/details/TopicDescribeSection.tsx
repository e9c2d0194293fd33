/**
 * What `kafka-topics.sh --describe --topic T` would print at the step, for the topic of a selected
 * record (sim/tools/describeTopic.ts): each partition's leader, replicas and ISR as the controller
 * registered them, and the topic's configs that are not defaults.
 */
import { describeTopicAt, describeTopicText, type SimView, type Trace } from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolSection } from './ToolSection';

export function TopicDescribeSection({ trace, view, topic }: { readonly trace: Trace; readonly view: SimView; readonly topic: string }) {
  const t = useStrings();
  const result = describeTopicAt(view, trace.scenario, topic);
  return (
    <ToolSection
      testId="describe-topic"
      className="describe-topic"
      title={t.topicDescribeTitle(topic)}
      tool="kafka-topics.sh --describe"
      command={`kafka-topics.sh --bootstrap-server broker-0:9092 --describe --topic ${topic}`}
      text={describeTopicText(result)}
      data={{ kind: result.kind, partitions: result.kind === 'described' ? result.description.partitions.length : undefined }}
    >
      <p className="muted">{t.topicDescribeNote}</p>
    </ToolSection>
  );
}
