/**
 * The page's first stage: the header, the playback bar and the timeline of the run the URL asks for,
 * drawn from the engine worker's answers as the embed draws them (src/embed/embedStore.ts), with no
 * engine code on this thread. The workspace (src/page.tsx: the store with its in-process engine and
 * every other panel) replaces it when its own run of the same scenario is ready (boot.tsx). Its DOM
 * follows the workspace's (the same classes and, where a test or the bench reads them, the same test
 * ids and labels), so the panels appear around a run that keeps its place.
 */
import { memo, useEffect } from 'react';
import { WorkerTimeline } from '../embed/WorkerTimeline';
import { LanguageNotSupportedNote } from '../share/LanguageNote';
import { PathErrors } from '../share/PathErrors';
import { useShare } from '../share/shareState';
import { shareText } from '../share/strings';
import { errorText, groupDigits } from '../sim/views';
import { BudgetNoticeView } from '../ui/layout/BudgetNoticeView';
import { playbackActions, Transport } from '../ui/playback/Transport';
import { strings } from '../ui/words';
import { shellStore, useShell } from './shellStore';

/** What the shell says of the controls that come with the workspace. */
const LOADING = { en: 'Loading the workspace…', ko: '작업 공간을 불러오는 중…' } as const;
/**
 * What the shell says until its run is on screen, as index.html's skeleton said before it: while the
 * engine worker starts (idle) there was only "EOS Lab" on a blank page, for a second or more on a slow
 * phone (and until the workspace took over when the engine's script did not arrive).
 */
const STARTING = { en: 'Loading the simulator…', ko: '시뮬레이터를 불러오는 중…' } as const;

const ShellPlayback = memo(function ShellPlayback() {
  const language = useShell((s) => s.language);
  const t = strings(language);
  const step = useShell((s) => s.step);
  const total = useShell((s) => s.steps);
  const playing = useShell((s) => s.playing);
  const time = useShell((s) => s.panels?.time ?? 0);
  const actions = playbackActions(
    () => shellStore.getState(),
    () => total,
  );
  return (
    <section className="playback" aria-label={t.playback}>
      <Transport t={t} step={step} total={total} playing={playing} {...actions} shortcuts={false} />
      <div className="scrubber">
        <input
          type="range"
          min={0}
          max={total}
          value={step}
          aria-label={t.scrubber}
          onChange={(e) => actions.seekTo(Number(e.currentTarget.value))}
        />
      </div>
      <p className="position">
        <span className="step-counter-box">
          <span className="step-counter" data-testid="step-counter">
            {t.stepOf(step, total)} · {groupDigits(time)} ms
          </span>
        </span>
      </p>
      <p className="muted" data-testid="workspace-loading">
        {LOADING[language]}
      </p>
    </section>
  );
});

/**
 * A link that cannot be opened, as text (the page's LinkErrorPanel says the same once the workspace is
 * in); its buttons, which open another run, wait for the workspace.
 */
const ShellLinkError = memo(function ShellLinkError() {
  const error = useShare((s) => s.linkError);
  const language = useShell((s) => s.language);
  const t = shareText(language);
  if (!error) return null;
  return (
    <section role="alert" className="eos-link-error" data-testid="link-error" data-kind={error.kind}>
      <h2>{t.linkErrorTitle}</h2>
      <p className="eos-link-error-kind">{t.kind[error.kind]}</p>
      <p data-testid="link-error-message">{errorText(error, language)}</p>
      {error.details && error.details.length > 0 && <PathErrors details={error.details} language={language} />}
      {/* the workspace opens another run (and writes its link): until it is in, its buttons say they are coming */}
      <div className="eos-actions">
        <button type="button" className="eos-primary" disabled title={LOADING[language]}>
          {t.openDefault}
        </button>
        <button type="button" disabled title={LOADING[language]}>
          {t.browse}
        </button>
      </div>
    </section>
  );
});

const ShellBudget = memo(function ShellBudget() {
  const budget = useShell((s) => s.budget);
  const language = useShell((s) => s.language);
  // opening another run waits for the workspace, which opens the URL's link again
  return <BudgetNoticeView budget={budget} language={language} openDefault={null} waiting={LOADING[language]} />;
});

const ShellProgress = memo(function ShellProgress() {
  const status = useShell((s) => s.status);
  const progress = useShell((s) => s.progress);
  const language = useShell((s) => s.language);
  if (status !== 'idle' && status !== 'running') return null;
  return (
    <>
      {/* where and as index.html's skeleton said it (public/boot.css), so the words do not move */}
      <p className="boot-note">
        <output data-testid="shell-starting">{STARTING[language]}</output>
      </p>
      {status === 'running' && <progress max={1} value={0} aria-label={LOADING[language]} data-progress={progress} />}
    </>
  );
});

export function Shell() {
  const scenario = useShell((s) => s.scenario);
  const run = useShell((s) => s.run);
  const hasPanels = useShell((s) => s.panels !== null);
  const language = useShell((s) => s.language);
  const status = useShell((s) => s.status);
  const linkError = useShare((s) => s.linkError !== null);
  const t = strings(language);
  const shown = scenario !== null && run !== null && hasPanels && !linkError;
  const texts = run?.texts[language];
  const title = texts?.title ?? scenario?.id ?? '';
  // the language and theme on <html>, as the workspace puts them (useDocumentSettings)
  useEffect(() => {
    document.documentElement.lang = language;
    document.documentElement.dataset.theme = 'system';
  }, [language]);
  return (
    <div className="app" data-status={shown ? 'ready' : status === 'ready' ? 'running' : status} data-stage="shell">
      <header className="app-header">
        <div className="brand">
          <h1>EOS Lab</h1>
          <p className="tagline">{t.tagline}</p>
        </div>
        {shown && (
          <div className="scenario-title">
            <h2 title={title}>{title}</h2>
          </div>
        )}
        {shown && texts?.question && (
          <div className="scenario-more">
            <p className="question">{texts.question}</p>
          </div>
        )}
        <div className="header-alert">
          <LanguageNotSupportedNote language={language} />
          <ShellLinkError />
        </div>
      </header>
      <ShellBudget />
      {shown ? (
        <>
          <ShellPlayback />
          <div className="narration" />
          <div className="workspace">
            <aside className="column actors-column" aria-label={t.actors} />
            <main className="column timeline-column">
              <WorkerTimeline store={shellStore} />
            </main>
            <aside className="column side-column" aria-label={t.verdict} />
          </div>
        </>
      ) : (
        <main className="app-main">{!linkError && <ShellProgress />}</main>
      )}
    </div>
  );
}
