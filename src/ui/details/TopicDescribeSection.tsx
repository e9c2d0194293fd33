/**
 * What `kafka-topics.sh --describe --topic T` would print at the step, for the topic of a selected
 * record (sim/tools/describeTopic.ts): each partition's leader, replicas and ISR as the controller
 * registered them, and the topic's configs that are not defaults. On a cluster of several brokers,
 * the tool's partition reports too (`--under-replicated-partitions`, `--unavailable-partitions`,
 * `--under-min-isr-partitions`, `--at-min-isr-partitions`): what an on-call engineer runs first
 * when a broker is out.
 */
import { useState } from 'react';
import {
  describeTopicAt,
  describeTopicsAt,
  describeTopicsText,
  describeTopicText,
  type SimView,
  TOPIC_REPORTS,
  type TopicReport,
  type Trace,
} from '../../sim/views';
import { useStrings } from '../i18n';
import { ToolChoice } from './ToolChoice';
import { ToolSection } from './ToolSection';

/** What the tool prints for the topic, with a report or without. `--topic` is the name as typed: Kafka reads it as a regular expression. */
function output(
  view: SimView,
  trace: Trace,
  topic: string,
  report: TopicReport | null,
): { text: string; kind: string; partitions?: number } {
  if (report === null) {
    const r = describeTopicAt(view, trace.scenario, topic);
    return { text: describeTopicText(r), kind: r.kind, partitions: r.kind === 'described' ? r.description.partitions.length : undefined };
  }
  const r = describeTopicsAt(view, trace.scenario, { topic, reports: [report] });
  const partitions = r.kind === 'described' ? r.topics.reduce((n, x) => n + x.partitions.length, 0) : undefined;
  return { text: describeTopicsText(r), kind: r.kind, partitions };
}

export function TopicDescribeSection({ trace, view, topic }: { readonly trace: Trace; readonly view: SimView; readonly topic: string }) {
  const t = useStrings();
  const [report, setReport] = useState<TopicReport | null>(null);
  // the reports find something only where a broker can be out while others serve: several brokers
  const offerReports = Number(trace.scenario.cluster?.brokers ?? 1) > 1;
  const shown = offerReports ? report : null;
  const out = output(view, trace, topic, shown);
  return (
    <ToolSection
      testId="describe-topic"
      className="describe-topic"
      title={t.topicDescribeTitle(topic)}
      tool="kafka-topics.sh --describe"
      command={`kafka-topics.sh --bootstrap-server broker-0:9092 --describe --topic ${topic}${shown ? ` --${shown}` : ''}`}
      text={out.text}
      data={{ kind: out.kind, partitions: out.partitions, report: shown ?? 'none' }}
      controls={
        offerReports && (
          <ToolChoice<TopicReport | null>
            testId="describe-topic-report"
            label={t.topicReportView}
            attribute="report"
            options={[
              { id: null, label: t.topicReportAll, words: true, data: 'none' },
              ...TOPIC_REPORTS.map((r) => ({ id: r, label: `--${r}` })),
            ]}
            chosen={shown}
            onChoose={setReport}
          />
        )
      }
    >
      {shown === null ? (
        <p className="muted">{t.topicDescribeNote}</p>
      ) : (
        <p className="muted" data-testid="describe-topic-report-note">
          <code translate="no">--{shown}</code>
          {t.topicReportNote(t.topicReportFinds[shown])}
          {out.partitions === 0 ? ` ${t.topicReportNone}` : ''}
        </p>
      )}
    </ToolSection>
  );
}
