/**
 * The embed's page: minimal chrome around one run — its title, the timeline, playback and the
 * verdict so far — plus a link to open the same run in the full app.
 */

import { useMemo } from 'react';
import { linkOf, openDefault } from '../share/hashSync';
import { PathErrors } from '../share/PathErrors';
import { useShare } from '../share/shareState';
import { shareText } from '../share/strings';
import { errorText } from '../sim';
import { findingSentence, partitionRows, topicPartitionKey, verdictViewAt } from '../sim/views';
import { type Language, simStore } from '../store/simStore';
import { useSim } from '../store/useSim';
import { BudgetNotice } from '../ui/layout/BudgetNotice';
import { RunTimeline } from '../ui/layout/RunTimeline';
import { useNarrator } from '../ui/useNarrator';
import { useScenarioTexts } from '../ui/usePresetTexts';

type Word = 'play' | 'pause' | 'back' | 'step' | 'open' | 'verdict' | 'scrub' | 'start' | 'playback' | 'timeline' | 'narration' | 'running';

const WORDS: Record<Language, Record<Word, string>> = {
  en: {
    play: '▶ Play',
    pause: '⏸ Pause',
    back: '◀ Back',
    step: 'Step ▶',
    open: 'Open in EOS Lab ↗',
    verdict: 'Verdict so far',
    scrub: 'Position in the run',
    start: 'Start of the run.',
    playback: 'Playback',
    timeline: 'Partition logs and messages',
    narration: 'What just happened',
    running: 'Running the scenario',
  },
  ko: {
    play: '▶ 재생',
    pause: '⏸ 일시정지',
    back: '◀ 이전',
    step: '다음 ▶',
    open: 'EOS Lab에서 열기 ↗',
    verdict: '지금까지의 판정',
    scrub: '실행 위치',
    start: '실행 시작.',
    playback: '재생',
    timeline: '파티션 로그와 메시지',
    narration: '방금 일어난 일',
    running: '시나리오 실행 중',
  },
};

function Playback() {
  const step = useSim((s) => s.step);
  const total = useSim((s) => s.trace?.steps.length ?? 0);
  const playing = useSim((s) => s.playing);
  const time = useSim((s) => s.view?.time ?? 0);
  const w = WORDS[useSim((s) => s.language)];
  const store = simStore.getState();
  return (
    <nav className="eos-embed-playback" aria-label={w.playback}>
      <button type="button" onClick={() => store.stepBack()} disabled={step === 0}>
        {w.back}
      </button>
      <button
        type="button"
        data-testid="embed-play"
        onClick={() => {
          if (!playing && step >= total) store.seek(0);
          simStore.getState().setPlaying(!playing);
        }}
      >
        {playing ? w.pause : w.play}
      </button>
      <button type="button" onClick={() => store.stepForward()} disabled={step >= total}>
        {w.step}
      </button>
      <input
        type="range"
        min={0}
        max={total}
        value={step}
        aria-label={w.scrub}
        onChange={(e) => simStore.getState().seek(Number(e.currentTarget.value))}
      />
      <span data-testid="embed-step" data-step={step} data-steps={total} aria-live="off">
        {step} / {total} · {time} ms
      </span>
    </nav>
  );
}

/**
 * What the step on screen did and why: the app's own narration (src/sim/narration, loaded after the
 * first paint), with the run's end sentence at its end.
 */
function StepNarration() {
  const trace = useSim((s) => s.trace);
  const step = useSim((s) => s.step);
  const scenario = useSim((s) => s.scenario);
  const language = useSim((s) => s.language);
  const playing = useSim((s) => s.playing);
  const w = WORDS[language];
  const narrator = useNarrator();
  const title = useScenarioTexts(scenario, language)?.title;
  const text = useMemo(() => {
    if (!trace || !narrator) return step === 0 ? w.start : '';
    return step === 0
      ? narrator.narrateStart(trace, language, title ?? trace.scenario.id ?? '')
      : narrator.narrate(trace, step - 1, language);
  }, [trace, step, language, narrator, title, w.start]);
  const current = trace && step > 0 ? trace.steps.at(step - 1) : undefined;
  const atEnd = trace !== null && step > 0 && step >= trace.steps.length;
  return (
    <section className="eos-embed-last" aria-label={w.narration} data-testid="embed-narration">
      <p className="eos-embed-meta">{current ? `#${step} · ${current.t.toLocaleString('en')} ms · ${current.actor}` : ''}</p>
      <p aria-live={playing ? 'off' : 'polite'} data-testid="embed-narration-text">
        {text}
      </p>
      {atEnd && trace && narrator && <p className="eos-embed-end">{narrator.narrateEnd(trace, language)}</p>}
    </section>
  );
}

function Verdict() {
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const w = WORDS[useSim((s) => s.language)];
  const language = useSim((s) => s.language);
  // the verdict's sentences in the page's language (findingSentence makes both from the same findings)
  const sentences = useMemo(() => {
    if (!trace || !view) return [];
    const verdict = verdictViewAt(trace, view);
    return verdict.layers.map((f) => findingSentence(f, verdict, language));
  }, [trace, view, language]);
  return (
    <section className="eos-embed-verdict" aria-label={w.verdict} data-testid="embed-verdict">
      <h2>{w.verdict}</h2>
      <ul>
        {sentences.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
    </section>
  );
}

/** One line per partition, in words: what the timeline shows, for screen readers and tests. */
function LogsInWords() {
  const view = useSim((s) => s.view);
  const ko = useSim((s) => s.language) === 'ko';
  const rows = useMemo(() => (view ? partitionRows(view.actors).filter((p) => !p.internal) : []), [view]);
  return (
    <ul className="eos-embed-logs" data-testid="embed-logs">
      {rows.map((p) => (
        <li key={topicPartitionKey(p.topic, p.partition)} data-records={p.records.length}>
          {topicPartitionKey(p.topic, p.partition)}: {ko ? `레코드 ${p.records.length}개` : `${p.records.length} records`} · HW{' '}
          {p.highWatermark} · LSO {p.lastStableOffset} · LEO {p.logEndOffset}
        </li>
      ))}
    </ul>
  );
}

function EmbedError() {
  const error = useShare((s) => s.linkError);
  const language = useSim((s) => s.language);
  const t = shareText(language);
  if (!error) return null;
  return (
    <section role="alert" className="eos-link-error" data-testid="link-error" data-kind={error.kind}>
      <h2>{t.linkErrorTitle}</h2>
      <p data-testid="link-error-message">{errorText(error, language)}</p>
      {error.details && <PathErrors details={error.details} language={language} />}
      <button type="button" onClick={() => openDefault(simStore)}>
        {t.openDefault}
      </button>
    </section>
  );
}

export function EmbedApp() {
  const scenario = useSim((s) => s.scenario);
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const step = useSim((s) => s.step);
  const selection = useSim((s) => s.selection);
  const language = useSim((s) => s.language);
  const status = useSim((s) => s.status);
  const progress = useSim((s) => s.progress);
  const w = WORDS[language];
  const texts = useScenarioTexts(scenario, language);
  const fullApp = useMemo(() => {
    const link = linkOf({ scenario, step, selection, language });
    return link ? `./${link}` : './';
  }, [scenario, step, selection, language]);
  return (
    <main className="eos-embed" data-testid="embed" lang={language}>
      <header className="eos-embed-head">
        <h1>{texts?.title ?? scenario?.id ?? 'EOS Lab'}</h1>
        <a href={fullApp} target="_blank" rel="noopener noreferrer">
          {w.open}
        </a>
      </header>
      <EmbedError />
      <BudgetNotice />
      {status === 'running' && <progress max={1} value={0} aria-label={w.running} data-progress={progress} />}
      {scenario && trace && view && (
        <>
          {texts?.question && <p className="eos-embed-question">{texts.question}</p>}
          <Playback />
          <StepNarration />
          {/* the explanation first: the verdict stays inside the iframe snippet's default height */}
          <Verdict />
          {/* the timeline's panels are h3s: this keeps the headings in order (h1, h2, h3) */}
          <h2 className="visually-hidden">{w.timeline}</h2>
          <div className="eos-embed-timeline">
            <RunTimeline trace={trace} view={view} />
          </div>
          <LogsInWords />
        </>
      )}
    </main>
  );
}
