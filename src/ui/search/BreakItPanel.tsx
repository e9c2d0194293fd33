/**
 * The Break it panel: property, where, bound and fault kinds; Start / Stop; progress (schedules
 * tried, schedules per second, the current number of faults per schedule); counterexamples as the
 * workers find them, each one click to open — the link replays the configuration with its faults,
 * opening at the first fault. The search runs in workers (breakItStore.ts), never on this thread.
 */
import { useMemo, useState } from 'react';
import { openScenario, resolveSource } from '../../share/source';
import { shareText } from '../../share/strings';
import {
  brokeText,
  describeFault,
  describeProperty,
  FAULT_KINDS,
  type FaultKind,
  type FaultSpec,
  type LinkSearch,
  noCounterexampleText,
  PROPERTY_IDS,
  type PropertyId,
  recordedResult,
  type Scenario,
} from '../../sim';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { Modal } from '../Modal';
import { useNarrator } from '../useNarrator';
import { useScenarioTexts } from '../usePresetTexts';
import { breakItStore, searchLinkOf, useBreakIt } from './breakItStore';
import { BREAK_IT_TEXT, type BreakItText } from './strings';

/** Topics, readers, applications and sinks a property can be about. */
function subjectsOf(s: Scenario | null): string[] {
  if (!s) return [];
  const out = new Set<string>();
  for (const t of s.topics) out.add(t.name);
  for (const c of s.clients) {
    if (c.type === 'consumer' || c.type === 'streams') out.add(c.id);
    if (c.type === 'consumer' && c.processing?.outputTopic) out.add(c.processing.outputTopic);
    if (c.type === 'streams') out.add(c.outputTopic);
  }
  for (const k of s.sinks ?? []) out.add(k.id);
  return [...out];
}

/** What a search link recorded, in the words the panel uses for an answer found here. */
function recordedText(recorded: NonNullable<LinkSearch['result']>, maxFaults: number, t: BreakItText, language: 'en' | 'ko'): string {
  if (recorded.counterexampleFaults !== undefined) return t.recordedCounterexample(recorded.counterexampleFaults);
  const result = recordedResult({ property: { id: 'any' }, maxFaults, kinds: [], result: recorded });
  return result ? noCounterexampleText(result, language) : '';
}

/** The link to this search, always shown as text; Copy puts it on the clipboard when allowed. */
function SearchLink({ link, t }: { link: string; t: BreakItText }) {
  const url = window.location.href.replace(/#.*$/, '') + link;
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  };
  return (
    <section aria-label={t.linkHeading}>
      <h3>{t.linkHeading}</h3>
      <p className="eos-hint">{t.linkHint}</p>
      {/* the Share panel's field: the panel's width, monospace, in the page's theme */}
      <div className="eos-field">
        <textarea
          readOnly
          value={url}
          rows={2}
          aria-label={t.linkHeading}
          data-testid="break-it-link"
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <div className="eos-actions">
        <button type="button" onClick={() => void copy()} data-testid="break-it-copy-link">
          {t.copy}
        </button>
        <output>{status === 'copied' ? t.copied : status === 'failed' ? t.copyFailed : ''}</output>
      </div>
    </section>
  );
}

export function BreakItPanel() {
  const language = useSim((s) => s.language);
  const t = BREAK_IT_TEXT[language];
  const st = useBreakIt((s) => s);
  const subjects = useMemo(() => subjectsOf(st.scenario), [st.scenario]);
  // the searched scenario by its title (a gallery card's preset is not the run behind the panel)
  const texts = useScenarioTexts(st.scenario, language);
  const onScreenId = useSim((s) => s.scenario?.id);
  // a counterexample's faults in the reader's language, as the page's list of faults shows them
  const narrator = useNarrator();
  const faultLabel = (f: FaultSpec) => (narrator ? narrator.faultSpecLabel(f, language) : describeFault(f));
  const store = breakItStore.getState();
  if (!st.open) return null;
  const openFound = (link: string) => {
    const r = resolveSource(link);
    if (!r.ok) return;
    store.hide();
    openScenario(simStore, r.scenario, { ...r.view, language });
  };
  const toggleKind = (k: FaultKind) =>
    store.configure({ kinds: st.kinds.includes(k) ? st.kinds.filter((x) => x !== k) : [...st.kinds, k] });
  const done = !st.running && (st.result !== null || st.stopped);
  const link = st.running ? null : searchLinkOf(st, language);
  return (
    <Modal title={t.title} onClose={store.hide} closeLabel={shareText(language).close} testId="break-it">
      <p className="eos-hint">{t.intro}</p>
      {st.keepFaults && (
        <p className="eos-hint" data-testid="break-it-keeps-faults">
          {t.keepsFaults}
        </p>
      )}
      <p className="eos-card-id" data-testid="break-it-target">
        <span className="eos-label">{t.searches}: </span>
        <strong lang={texts?.language ?? undefined}>{texts?.title || st.scenario?.id || ''}</strong>
        {st.scenario?.id && (
          <>
            {' '}
            (<code>{st.scenario.id}</code>)
          </>
        )}{' '}
        — {describeProperty(st.property, language)}
        {st.scenario?.id !== onScreenId && (
          <>
            <br />
            <span className="eos-hint" data-testid="break-it-not-on-screen">
              {t.notOnScreen}
            </span>
          </>
        )}
      </p>
      <div className="eos-breakit-form">
        <label>
          {t.property}{' '}
          <select
            value={st.property.id}
            disabled={st.running}
            data-testid="break-it-property"
            onChange={(e) => store.configure({ property: { ...st.property, id: e.target.value as PropertyId } })}
          >
            {PROPERTY_IDS.map((id) => (
              <option key={id} value={id}>
                {t.properties[id]}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          {t.at}{' '}
          <select
            value={st.property.at ?? ''}
            disabled={st.running}
            data-testid="break-it-at"
            onChange={(e) => {
              const { at: _drop, ...rest } = st.property;
              store.configure({ property: e.target.value ? { ...rest, at: e.target.value } : rest });
            }}
          >
            <option value="">{t.everywhere}</option>
            {subjects.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          {t.bound}{' '}
          <select
            value={st.maxFaults}
            disabled={st.running}
            data-testid="break-it-bound"
            onChange={(e) => store.configure({ maxFaults: Number(e.target.value) })}
          >
            {[0, 1, 2, 3].map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <fieldset disabled={st.running}>
          <legend>{t.faults}</legend>
          {FAULT_KINDS.map((k) => (
            <label key={k}>
              <input type="checkbox" checked={st.kinds.includes(k)} onChange={() => toggleKind(k)} /> {t.kinds[k]}{' '}
            </label>
          ))}
        </fieldset>
      </div>
      <p>
        {st.running ? (
          <button type="button" onClick={store.stop} data-testid="break-it-stop">
            {t.stop}
          </button>
        ) : (
          <button type="button" onClick={store.start} disabled={st.kinds.length === 0} data-testid="break-it-start">
            {t.start}
          </button>
        )}
      </p>
      {st.recorded && !st.running && !done && (
        <p data-testid="break-it-recorded">{t.recorded(recordedText(st.recorded, st.maxFaults, t, language))}</p>
      )}
      {(st.running || done) && (
        <div className="break-it-progress" data-testid="break-it-progress" data-running={st.running ? 'true' : 'false'}>
          <progress aria-label={t.tried} value={st.running ? undefined : 1} max={1} />
          <p aria-live="polite">{t.progressLine(st.tried, Math.round(st.perSecond), st.k, st.workers)}</p>
        </div>
      )}
      <h3>{t.found}</h3>
      {st.found.length === 0 ? (
        <p data-testid="break-it-none">
          {st.result && !st.result.counterexample ? noCounterexampleText(st.result, language) : st.stopped ? t.stopped : t.none}
        </p>
      ) : (
        <ol data-testid="break-it-found">
          {st.found.map((f) => (
            <li key={f.link}>
              <p>{f.counterexample.faults.length === 0 ? t.noFault : f.counterexample.faults.map(faultLabel).join('; ')}</p>
              <p className="eos-muted">{brokeText(f.counterexample, language)}</p>
              <button type="button" onClick={() => openFound(f.link)} data-testid="break-it-open">
                {t.openCounterexample}
              </button>
            </li>
          ))}
        </ol>
      )}
      {st.error && <p role="alert">{st.error}</p>}
      {link && <SearchLink link={link} t={t} />}
    </Modal>
  );
}
