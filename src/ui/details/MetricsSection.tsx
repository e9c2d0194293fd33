/**
 * The selected actor's metrics at the step: a client's (sim/metrics/clientMetrics.ts) for a producer,
 * a consumer or an application, a broker's JMX gauges (sim/metrics/brokerMetrics.ts) for a broker.
 * Kafka's name in code style, a partition's metric with its partition beside the name, the value,
 * Kafka's meaning under it and the metric's group on hover. Nothing for a coordinator or a sink.
 */
import {
  BROKER_METRIC_MEANINGS,
  brokerMetricsAt,
  clientMetricsAt,
  groupDigits,
  METRIC_MEANINGS,
  metricsClientOf,
  type SimView,
  type Trace,
} from '../../sim/views';
import type { Language } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';

interface ShownMetric {
  readonly group: string;
  readonly name: string;
  readonly value: number;
  readonly partition?: string;
  readonly overRun?: number;
}

interface ShownMetrics {
  /** What the section is about: a client id or a broker id. */
  readonly of: string;
  readonly kind: 'client' | 'broker';
  readonly down: boolean;
  readonly metrics: readonly ShownMetric[];
}

function metricsOf(trace: Trace, view: SimView, id: string): ShownMetrics | null {
  const broker = brokerMetricsAt(trace, view, id);
  if (broker) return { of: broker.broker, kind: 'broker', down: broker.down, metrics: broker.metrics };
  const client = metricsClientOf(trace, id);
  const m = client ? clientMetricsAt(trace, view, client) : null;
  return m ? { of: m.client, kind: 'client', down: m.down, metrics: m.metrics } : null;
}

function meaningOf(name: string, language: Language): string {
  return (METRIC_MEANINGS[name] ?? BROKER_METRIC_MEANINGS[name])?.[language] ?? '';
}

function MetricList({
  metrics,
  language,
  overRun,
}: {
  readonly metrics: readonly ShownMetric[];
  readonly language: Language;
  readonly overRun: (n: number) => string;
}) {
  return (
    <dl className="fields metrics">
      {metrics.map((x, i) => (
        <div
          key={`${x.name} ${x.partition ?? ''}`}
          data-metric={x.name}
          data-partition={x.partition}
          data-value={x.value}
          title={`${x.group} · ${x.name}${x.partition ? ` · ${x.partition}` : ''}`}
        >
          <dt>
            <code translate="no">{x.name}</code>
            {x.partition && (
              <>
                {' '}
                <code translate="no" className="metric-partition">
                  {x.partition}
                </code>
              </>
            )}
          </dt>
          <dd>
            <span className="metric-value">{groupDigits(x.value)}</span>
            {x.overRun !== undefined && <span className="muted"> ({overRun(x.overRun)})</span>}
            {/* a partition's metric repeats its meaning only on its first partition */}
            {metrics.findIndex((y) => y.name === x.name) === i && (
              <span className="metric-meaning muted" lang={language}>
                {meaningOf(x.name, language)}
              </span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function MetricsSection({ trace, view, id }: { readonly trace: Trace; readonly view: SimView; readonly id: string }) {
  const t = useStrings();
  const language = useSim((s) => s.language);
  const m = metricsOf(trace, view, id);
  if (!m || (!m.down && m.metrics.length === 0)) return null;
  const inner = (
    <>
      <h4>
        {t.metrics}: {m.of}
      </h4>
      <p className="muted" lang={language}>
        {m.kind === 'broker' ? t.metricsBrokerNote : t.metricsNote}
      </p>
      {m.down ? (
        <p className="muted">{t.metricsDown}</p>
      ) : (
        <MetricList metrics={m.metrics} language={language} overRun={t.metricsOverRun} />
      )}
    </>
  );
  // each kind its own literal test id (docs/syllabus.md's `ui:` references are found by it)
  return m.kind === 'broker' ? (
    <section className="client-metrics" data-testid="broker-metrics" data-broker={m.of} aria-label={`${t.metrics}: ${m.of}`}>
      {inner}
    </section>
  ) : (
    <section className="client-metrics" data-testid="client-metrics" data-client={m.of} aria-label={`${t.metrics}: ${m.of}`}>
      {inner}
    </section>
  );
}
