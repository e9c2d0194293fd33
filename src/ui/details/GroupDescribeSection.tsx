/**
 * What `kafka-consumer-groups.sh --describe --group G` would print at the step, for a selected
 * consumer, application or Streams application with a group (sim/tools/describeGroup.ts): the tool's
 * own text in a terminal block, and a line saying where its LAG counts from.
 */
import { describeGroupAt, describeGroupText, metricsClientOf, type SimView, type Trace } from '../../sim/views';
import { useStrings } from '../i18n';

/** The group of the scenario client `id` belongs to: a consumer's group.id, a Streams application's application.id. */
function groupOf(trace: Trace, id: string): string | null {
  const client = metricsClientOf(trace, id);
  if (!client) return null;
  return trace.resolved.consumers[client]?.['group.id'] || trace.resolved.streams[client]?.['application.id'] || null;
}

export function GroupDescribeSection({ trace, view, id }: { readonly trace: Trace; readonly view: SimView; readonly id: string }) {
  const t = useStrings();
  const group = groupOf(trace, id);
  if (!group) return null;
  const result = describeGroupAt(view, group);
  return (
    <section
      className="group-describe"
      data-testid="group-describe"
      data-group={group}
      data-kind={result.kind}
      aria-label={t.describeGroupTitle(group)}
    >
      <h4>
        {t.describeGroupTitle(group)} <code translate="no">kafka-consumer-groups.sh --describe</code>
      </h4>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the tool's wide columns scroll sideways in their box, which must be focusable to scroll by keyboard (axe: scrollable-region-focusable) */}
      <pre className="tool-output" translate="no" tabIndex={0}>
        <span className="muted">$ kafka-consumer-groups.sh --bootstrap-server broker-0:9092 --describe --group {group}</span>
        {'\n'}
        {describeGroupText(result)}
      </pre>
      <p className="muted">{result.kind === 'unavailable' ? t.describeGroupUnavailable : t.describeGroupNote}</p>
    </section>
  );
}
