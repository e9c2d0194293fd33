/**
 * The A/B view (loaded on demand): what B changes, the two verdicts layer by layer, the two runs'
 * partitions side by side under one scrubber, and what each costs — every difference highlighted.
 * The address bar carries both runs (#ab=1.…) while it is open.
 */
import { useEffect, useMemo, useState } from 'react';
import { ErrorMessage } from '../../share/ErrorMessage';
import { shareStore } from '../../share/shareState';
import { openScenario } from '../../share/source';
import { AB_PREFIX, encodeAbLink, settingsOf } from '../../sim';
import type { RunCost } from '../../sim/views';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { costScales } from '../cost/CostChart';
import { CostAssumptions, CostFigures } from '../cost/CostPanel';
import { costStrings } from '../cost/costStrings';
import { useStrings } from '../i18n';
import { useScenarioTexts } from '../usePresetTexts';
import { CompareSettings } from './CompareSettings';
import { CompareTimelines } from './CompareTimelines';
import { CompareVerdict } from './CompareVerdict';
import { compareHeading } from './compareHeading';
import { compareStore, endTime, useCompare } from './compareStore';
import { compareStrings } from './compareStrings';
import '../timeline/timeline.css';

/** Keys of the cost chart's bars (and "committed") whose figure differs between the two runs. */
export function costDifferences(a: RunCost, b: RunCost): Set<string> {
  const out = new Set<string>();
  const ids = new Set([...a.consumers, ...b.consumers].map((c) => c.consumer));
  for (const id of ids) {
    const x = a.consumers.find((c) => c.consumer === id);
    const y = b.consumers.find((c) => c.consumer === id);
    if (x?.latency.p50 !== y?.latency.p50 || x?.latency.p99 !== y?.latency.p99) out.add(`latency:${id}`);
    if (x?.lsoWait?.p99 !== y?.lsoWait?.p99) out.add(`lso:${id}`);
  }
  if (a.writePathRequestsPerCommittedRecord !== b.writePathRequestsPerCommittedRecord) out.add('writePath');
  if (a.transactionRequestsPerCommittedRecord !== b.transactionRequestsPerCommittedRecord) out.add('transaction');
  if (a.committedRecords !== b.committedRecords || a.committedPerSecond !== b.committedPerSecond) out.add('committed');
  return out;
}

/**
 * Puts the comparison's link in the address bar: a history entry of its own when the comparison was
 * opened from the page (so Back returns to the scenario it came from — urlViews.ts closes it), the
 * same entry once it is there (a setting changed, the scrubber moved).
 */
function writeAddress(link: string): void {
  try {
    if (location.hash.startsWith(AB_PREFIX)) history.replaceState(history.state, '', link);
    else history.pushState(null, '', link);
  } catch {
    // a sandboxed host may forbid it: Copy link still works
  }
}

/** A side's scenario by its title in the page's language, else its id. */
const titleOf = (texts: { readonly title?: string | null } | null, s: { readonly id?: string } | undefined) => texts?.title || s?.id || '?';

export function ComparePage() {
  const language = useSim((s) => s.language);
  const t = compareStrings(language);
  const ct = costStrings(language);
  const words = useStrings();
  const a = useCompare((s) => s.a);
  const b = useCompare((s) => s.b);
  const changes = useCompare((s) => s.changes);
  const comparison = useCompare((s) => s.comparison);
  const time = useCompare((s) => s.time);
  const error = useCompare((s) => s.error);
  const requested = useCompare((s) => s.requested);
  // B's settings as asked: the run's, or — when B cannot run — the scenario it was asked to be
  const bScenario = requested ?? b?.scenario;
  const [copied, setCopied] = useState(false);
  const end = endTime({ a, b });
  const link = useMemo(
    () => (a && b ? encodeAbLink(changes ? { a: a.scenario, changes, t: time } : { a: a.scenario, b: b.scenario, t: time }) : null),
    [a, b, changes, time],
  );
  // the page behind the comparison is scenario A — its title in the header, and where "Back to the
  // simulator" returns — also when the comparison came from a link or the gallery (A is then not
  // the scenario the simulator had; the button's own comparison starts from it, and keeps its step)
  useEffect(() => {
    if (!a) return;
    const current = simStore.getState().scenario;
    if (current === a.scenario || (current !== null && JSON.stringify(current) === JSON.stringify(a.scenario))) return;
    openScenario(simStore, a.scenario);
  }, [a]);
  // while the comparison is shown the address bar carries it, not the run's own link
  useEffect(() => {
    shareStore.getState().setHoldHash(true);
    return () => shareStore.getState().setHoldHash(false);
  }, []);
  useEffect(() => {
    if (!link) return;
    const timer = setTimeout(() => writeAddress(link), 250);
    return () => clearTimeout(timer);
  }, [link]);
  const scales = useMemo(() => (a && b ? costScales([a.cost, b.cost]) : undefined), [a, b]);
  const differs = useMemo(() => (a && b ? costDifferences(a.cost, b.cost) : new Set<string>()), [a, b]);
  // closing releases the address bar: hashSync writes the run's own link again
  const close = () => compareStore.getState().close();
  // the runs in the words the person chose: B's settings against A's, or the two scenarios' titles
  const textsA = useScenarioTexts(a?.scenario, language);
  const textsB = useScenarioTexts(bScenario, language);
  const heading = useMemo(() => {
    if (!a || !bScenario) return null;
    return changes === null
      ? compareHeading({ kind: 'pair', a: titleOf(textsA, a.scenario), b: titleOf(textsB, bScenario) }, t)
      : compareHeading({ kind: 'changes', title: titleOf(textsA, a.scenario), settings: settingsOf(a.scenario), changes }, t);
  }, [a, bScenario, changes, textsA, textsB, t]);
  return (
    <main className="app-main compare-view" data-testid="compare-view">
      <div className="dump-bar">
        <h2 data-testid="compare-heading">{heading ?? t.compareButton}</h2>
        <button
          type="button"
          disabled={!link}
          data-testid="compare-copy-link"
          onClick={async () => {
            if (!link) return;
            writeAddress(link);
            try {
              await navigator.clipboard.writeText(location.href);
            } catch {
              // the address bar holds the link
            }
            setCopied(true);
          }}
        >
          {copied ? t.linkCopied : t.copyLink}
        </button>
        <button type="button" onClick={close} data-testid="compare-close">
          {t.close}
        </button>
      </div>
      {error && (
        <div className="dump-errors" role="alert" data-testid="compare-error">
          <p>
            {t.cannotRun}:{' '}
            {error.errors
              ? error.errors.map((e, i) => (
                  <span key={`${e.path}:${e.message}`}>
                    {i > 0 && '; '}
                    {e.path}: <ErrorMessage error={e} language={language} />
                  </span>
                ))
              : language === 'ko'
                ? error.ko
                : error.en}
          </p>
          {words.kafkaMessagesInEnglish && /Exception/.test(language === 'ko' ? error.ko : error.en) && (
            <p className="muted">{words.kafkaMessagesInEnglish}</p>
          )}
        </div>
      )}
      {a && bScenario && (
        <CompareSettings
          a={a.scenario}
          b={bScenario}
          changes={changes}
          onChange={(c) => compareStore.getState().setChanges(c)}
          language={language}
          t={t}
        />
      )}
      {a && b && comparison && !error && (
        <>
          <CompareVerdict comparison={comparison} a={a.summary} b={b.summary} language={language} t={t} />
          <CompareTimelines
            a={a.trace}
            b={b.trace}
            time={time}
            end={end}
            onTime={(x) => compareStore.getState().setTime(x)}
            language={language}
            t={t}
          />
          <section className="compare-cost" data-testid="compare-cost">
            <h3>{t.costTitle}</h3>
            <div className="compare-columns">
              <div className="compare-column" data-side="A">
                <h4>A</h4>
                <CostFigures cost={a.cost} t={ct} scales={scales} differs={differs} />
              </div>
              <div className="compare-column" data-side="B">
                <h4>B</h4>
                <CostFigures cost={b.cost} t={ct} scales={scales} differs={differs} />
              </div>
            </div>
            <CostAssumptions scenario={a.scenario} t={ct} />
          </section>
        </>
      )}
    </main>
  );
}
