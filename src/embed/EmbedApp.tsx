/**
 * The embed's page: minimal chrome around one run — its title, the timeline, playback and the
 * verdict so far — plus a link to open the same run in the full app.
 */

import { memo } from 'react';
import { LanguageNotSupportedNote } from '../share/LanguageNote';
import { PathErrors } from '../share/PathErrors';
import { useShare } from '../share/shareState';
import { shareText } from '../share/strings';
import { DEFAULT_PRESET_ID, errorText } from '../sim';
import { groupDigits } from '../sim/views';
import type { Language } from '../store/simStore';
import { BudgetNoticeView } from '../ui/layout/BudgetNoticeView';
import { useStages } from '../ui/layout/stages';
import { Icon } from '../ui/playback/icons';
import { embedStore, useEmbed } from './embedStore';
import { OpenInApp } from './OpenInApp';
import { openSource } from './open';
import { WorkerTimeline } from './WorkerTimeline';

type Word =
  | 'play'
  | 'pause'
  | 'back'
  | 'backTitle'
  | 'step'
  | 'stepTitle'
  | 'open'
  | 'verdict'
  | 'scrub'
  | 'start'
  | 'playback'
  | 'timeline'
  | 'narration'
  | 'running';

const WORDS: Record<Language, Record<Word, string>> = {
  en: {
    play: 'Play',
    pause: 'Pause',
    back: 'Back',
    backTitle: 'Back one step of the run',
    // what it does, not a bare "Step" (step what?): the run's next step
    step: 'Next step',
    stepTitle: 'Forward one step of the run',
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
    play: '재생',
    pause: '일시 정지',
    back: '이전',
    backTitle: '실행을 한 단계 뒤로',
    step: '다음 단계',
    stepTitle: '실행을 한 단계 앞으로',
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

const Playback = memo(function Playback() {
  const step = useEmbed((s) => s.step);
  const total = useEmbed((s) => s.steps);
  const playing = useEmbed((s) => s.playing);
  const time = useEmbed((s) => s.panels?.time ?? 0);
  const w = WORDS[useEmbed((s) => s.language)];
  const store = embedStore.getState();
  return (
    <nav className="eos-embed-playback" aria-label={w.playback}>
      <button type="button" onClick={() => store.stepBack()} disabled={step === 0} title={w.backTitle} data-testid="embed-back">
        <Icon name="back" inline /> {w.back}
      </button>
      <button
        type="button"
        data-testid="embed-play"
        onClick={() => {
          if (!playing && step >= total) store.seek(0);
          embedStore.getState().setPlaying(!playing);
        }}
      >
        <Icon name={playing ? 'pause' : 'play'} inline /> {playing ? w.pause : w.play}
      </button>
      {/* named by its words ("Next step"; the icon is hidden from a screen reader), its title says more */}
      <button type="button" onClick={() => store.stepForward()} disabled={step >= total} title={w.stepTitle} data-testid="embed-next-step">
        {w.step} <Icon name="play" inline />
      </button>
      <input
        type="range"
        min={0}
        max={total}
        value={step}
        aria-label={w.scrub}
        onChange={(e) => embedStore.getState().seek(Number(e.currentTarget.value))}
      />
      <span data-testid="embed-step" data-step={step} data-steps={total} aria-live="off">
        {step} / {total} · {groupDigits(time)} ms
      </span>
    </nav>
  );
});

/**
 * What the step on screen did and why: the app's own narration, computed in the engine's worker,
 * with the run's end sentence at its end.
 */
const StepNarration = memo(function StepNarration() {
  const panels = useEmbed((s) => s.panels);
  const playing = useEmbed((s) => s.playing);
  const w = WORDS[useEmbed((s) => s.language)];
  return (
    <section className="eos-embed-last" aria-label={w.narration} data-testid="embed-narration">
      <p className="eos-embed-meta">{panels?.meta ?? ''}</p>
      <p aria-live={playing ? 'off' : 'polite'} data-testid="embed-narration-text">
        {panels ? panels.narration : w.start}
      </p>
      {panels?.end && <p className="eos-embed-end">{panels.end}</p>}
    </section>
  );
});

const Verdict = memo(function Verdict() {
  const sentences = useEmbed((s) => s.panels?.verdict) ?? [];
  const w = WORDS[useEmbed((s) => s.language)];
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
});

/** One line per partition, in words: what the timeline shows, for screen readers and tests. */
const LogsInWords = memo(function LogsInWords() {
  const logs = useEmbed((s) => s.panels?.logs) ?? [];
  const ko = useEmbed((s) => s.language) === 'ko';
  return (
    <ul className="eos-embed-logs" data-testid="embed-logs">
      {logs.map((p) => (
        <li key={p.key} data-records={p.records}>
          {p.key}: {ko ? `레코드 ${p.records}개` : `${p.records} records`} · HW {p.highWatermark} · LSO {p.lastStableOffset} · LEO{' '}
          {p.logEndOffset}
        </li>
      ))}
    </ul>
  );
});

const EmbedError = memo(function EmbedError() {
  const error = useShare((s) => s.linkError);
  const language = useEmbed((s) => s.language);
  const t = shareText(language);
  if (!error) return null;
  return (
    <section role="alert" className="eos-link-error" data-testid="link-error" data-kind={error.kind}>
      <h2>{t.linkErrorTitle}</h2>
      <p data-testid="link-error-message">{errorText(error, language)}</p>
      {error.details && <PathErrors details={error.details} language={language} />}
      <button type="button" onClick={() => openSource(embedStore, DEFAULT_PRESET_ID)}>
        {t.openDefault}
      </button>
    </section>
  );
});

const EmbedBudget = memo(function EmbedBudget() {
  const budget = useEmbed((s) => s.budget);
  const language = useEmbed((s) => s.language);
  return <BudgetNoticeView budget={budget} language={language} openDefault={() => openSource(embedStore, DEFAULT_PRESET_ID)} />;
});

/** While a run computes in the worker: its progress (its own component, so the panels do not render again). */
const RunProgress = memo(function RunProgress({ label }: { readonly label: string }) {
  const status = useEmbed((s) => s.status);
  const progress = useEmbed((s) => s.progress);
  return status === 'running' ? <progress max={1} value={0} aria-label={label} data-progress={progress} /> : null;
});

/**
 * The run's panels. With staging on (src/embed/main.tsx) the timeline renders a stage after the
 * others, as the page's workspace does (layout/stages.ts): its render (both canvases' controllers, the
 * lanes' gutter, the axis) and the layout of its DOM, most of the embed's, made the landing's two
 * longest tasks. Its box is aria-busy until then, so the bridge posts the frame's height once, with
 * the timeline in it.
 */
function RunPanels({ question, heading }: { readonly question: string | undefined; readonly heading: string }) {
  const timelineShown = useStages(2) === 2;
  return (
    <>
      {question && <p className="eos-embed-question">{question}</p>}
      <Playback />
      <StepNarration />
      {/* the explanation first: the verdict stays inside the iframe snippet's default height */}
      <Verdict />
      {/* the timeline's panels are h3s: this keeps the headings in order (h1, h2, h3) */}
      <h2 className="visually-hidden">{heading}</h2>
      <div className="eos-embed-timeline" aria-busy={timelineShown ? undefined : true}>
        {timelineShown && <WorkerTimeline store={embedStore} />}
      </div>
      <LogsInWords />
    </>
  );
}

// the panels are memo'd: each renders on its own subscriptions (EmbedApp itself follows no step)
export function EmbedApp() {
  const scenario = useEmbed((s) => s.scenario);
  const run = useEmbed((s) => s.run);
  const hasPanels = useEmbed((s) => s.panels !== null);
  const language: Language = useEmbed((s) => s.language);
  const status = useEmbed((s) => s.status);
  const linkError = useShare((s) => s.linkError !== null);
  // loading until a run lands or the frame says why none can (the bridge posts no height while busy)
  const busy = !linkError && (status === 'idle' || status === 'running');
  const w = WORDS[language];
  const texts = run?.texts[language];
  return (
    <main className="eos-embed" data-testid="embed" lang={language} aria-busy={busy}>
      <header className="eos-embed-head">
        {/* a link that cannot be opened replaces the run: its title and panels are not shown under the error */}
        <h1>{linkError ? 'EOS Lab' : (texts?.title ?? scenario?.id ?? 'EOS Lab')}</h1>
        {!linkError && <OpenInApp label={w.open} />}
      </header>
      <EmbedError />
      <LanguageNotSupportedNote language={language} />
      <EmbedBudget />
      <RunProgress label={w.running} />
      {scenario && run && hasPanels && !linkError && <RunPanels question={texts?.question} heading={w.timeline} />}
    </main>
  );
}
