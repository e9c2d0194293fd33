/**
 * The layered verdict at the current step (the engine's verdictAtStep(trace, view)): one row
 * per finding — the Kafka log and committed output per topic, delivery per consumer, processing per
 * application, each system outside Kafka, losses — with its status (once, more than once, lost,
 * stalled, above the HW, not applicable), its sentence and the facts under it (what each copy is, what pins the
 * LSO, each loss's kind), then the operational counters.
 * Every finding and count links to the steps that caused it. Rows carry data-layer, data-subject and
 * data-status so tests can compare the screen with the engine.
 */
import { type ReactNode, useId, useMemo } from 'react';
import {
  eventlessTopicsOf,
  findingSentence,
  groupDigits,
  LAYER_NAMES,
  mostTimes,
  outputTopicsOf,
  statusNameOf,
  verdictViewAt,
} from '../../sim/views';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';
import { Icon } from '../playback/icons';
import { StepLinks } from '../StepLink';
import { useThrottled } from '../useThrottled';
import { type CounterId, counterStepsAt } from './counterSteps';
import { EosLayersLegend } from './EosLayersLegend';
import { FindingDetails } from './FindingDetails';
import { findingSteps } from './findingSteps';

/** The operational counters, in order; one `rare` is listed only when it counted something. */
const COUNTERS: readonly { id: CounterId; en: string; ko: string; rare?: true }[] = [
  { id: 'transactionsCommitted', en: 'transactions committed', ko: '커밋된 트랜잭션' },
  { id: 'transactionsAborted', en: 'transactions aborted', ko: '취소된 트랜잭션' },
  { id: 'producersFenced', en: 'producers fenced', ko: '펜싱된 프로듀서' },
  // fatal for another cause (an expired transactional.id …): closed like a fenced one, though nothing fenced it
  { id: 'producersFatal', en: 'producers failed fatally, not fenced', ko: '펜싱 없이 치명적 오류로 멈춘 프로듀서', rare: true },
  { id: 'commitFailures', en: 'offset commits failed (CommitFailedException)', ko: '실패한 offset 커밋(CommitFailedException)' },
  // records: a second append of one send() (a retry without idempotence, or one an epoch bump rewrote), not duplicates of any kind
  { id: 'retryDuplicates', en: 'duplicates written by producer retries', ko: '프로듀서 재시도로 중복 기록된 레코드' },
  { id: 'duplicateEventIdsSeenByApplications', en: 'duplicate event_ids seen by applications', ko: '애플리케이션이 본 중복 event_id' },
  { id: 'inboxConflicts', en: 'inbox conflicts', ko: 'inbox 충돌' },
];

// stalled is drawn: Debian's and many phones' fonts have no pause symbol (U+23F8), which showed as a missing-glyph box
const GLYPH: Record<string, ReactNode> = {
  once: '✓',
  // the panel writes the finding's own count (mostTimes): ×2, ×4 …
  'more-than-once': '×2',
  lost: '∅',
  stalled: <Icon name="pause" inline />,
  // appended, above the high watermark: not committed yet
  'above-hw': '↑',
  'not-applicable': '–',
};

export function VerdictPanel() {
  const titleId = useId();
  const t = useStrings();
  const trace = useSim((s) => s.trace);
  const liveView = useSim((s) => s.view);
  const playing = useSim((s) => s.playing);
  const language = useSim((s) => s.language);
  // while a run plays, recompute a few times a second rather than on every frame
  const view = useThrottled(liveView, 200, playing);
  // the verdict alone: the rest of summarize (every delivery, every error) would double the cost
  const summary = useMemo(() => (trace && view ? { atStep: view.step, verdict: verdictViewAt(trace, view) } : null), [trace, view]);
  const ignoredTopics = useMemo(() => (trace ? eventlessTopicsOf(trace) : new Set<string>()), [trace]);
  const causes = useMemo(() => (trace && view ? counterStepsAt(trace, view.step, ignoredTopics) : null), [trace, view, ignoredTopics]);
  if (!trace || !summary || !causes) return null;
  const { verdict } = summary;
  const outputs = outputTopicsOf(trace.scenario);
  const lag = Object.entries(verdict.counters.consumerLag);
  return (
    <section className="verdict-panel" aria-labelledby={titleId} data-testid="verdict" data-step={summary.atStep}>
      <h2 id={titleId}>{t.verdict}</h2>
      <table className="verdict-table">
        <caption>{t.verdictAt(summary.atStep)}</caption>
        <thead>
          <tr>
            <th scope="col">{t.layer}</th>
            <th scope="col">{t.finding}</th>
          </tr>
        </thead>
        <tbody>
          {verdict.layers.map((f) => {
            const layerName = LAYER_NAMES[f.layer];
            const statusName = statusNameOf(f.layer, f.status);
            const steps = findingSteps(f, trace.steps, summary.atStep, outputs);
            return (
              <tr
                key={`${f.layer}:${f.subject ?? ''}`}
                data-layer={f.layer}
                data-subject={f.subject ?? ''}
                data-status={f.status}
                className={`status-${f.status}`}
              >
                <th scope="row">
                  {layerName ? (language === 'ko' ? layerName[1] : layerName[0]) : f.layer}
                  {f.subject && <span className="subject">{f.subject}</span>}
                  <span className="status-cell">
                    <span className="glyph" aria-hidden="true">
                      {f.status === 'more-than-once' ? `×${mostTimes(f) ?? 2}` : GLYPH[f.status]}
                    </span>{' '}
                    {language === 'ko' ? statusName[1] : statusName[0]}
                  </span>
                </th>
                <td>
                  <span className="sentence" data-sentence-en={f.sentence}>
                    {findingSentence(f, verdict, language)}
                  </span>
                  <FindingDetails finding={f} language={language} />
                  {steps.length > 0 && (
                    <span className="causes">
                      {' '}
                      {t.causes}: <StepLinks steps={steps} ordered />
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h3>{t.counters}</h3>
      <dl className="counters">
        {COUNTERS.filter((c) => !c.rare || verdict.counters[c.id] > 0).map((c) => (
          <div key={c.id} data-counter={c.id} data-value={verdict.counters[c.id]} className={verdict.counters[c.id] > 0 ? 'nonzero' : ''}>
            <dt>{language === 'ko' ? c.ko : c.en}</dt>
            <dd>
              <span className="count">{groupDigits(verdict.counters[c.id])}</span>
              {causes[c.id].length > 0 && <StepLinks steps={causes[c.id]} max={3} />}
            </dd>
          </div>
        ))}
        {lag.map(([group, n]) => (
          <div key={`lag-${group}`} data-counter="consumerLag" data-group={group} data-value={n} className={n > 0 ? 'nonzero' : ''}>
            <dt>{language === 'ko' ? `그룹 ${group}의 lag` : `lag of group ${group}`}</dt>
            <dd>
              <span className="count">{groupDigits(n)}</span>
            </dd>
          </div>
        ))}
      </dl>
      <EosLayersLegend language={language} />
    </section>
  );
}
