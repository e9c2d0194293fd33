import { ShareBar } from '../share/ShareBar';
import { simStore } from '../store/simStore';
import { ConfigEditor } from './config';
import { InjectPanel } from './inject';
import { Timeline } from './timeline/Timeline';
import { useSim } from './useSim';

export function App() {
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const step = useSim((s) => s.step);
  const errors = useSim((s) => s.errors);
  const scenario = useSim((s) => s.scenario);
  const selection = useSim((s) => s.selection);
  const total = trace?.steps.length ?? 0;
  const last = trace && step > 0 ? trace.steps[step - 1] : undefined;
  return (
    <main className="app">
      <header>
        <h1>EOS Lab</h1>
        <p className="tagline">Exactly once — of what, inside which boundary?</p>
        {/* [share-embed] Scenarios, Share, Embed, Export/Import and the bad-link message (src/share/ShareBar.tsx) */}
        <ShareBar />
      </header>
      {errors && (
        <section role="alert" className="errors">
          <h2>This scenario cannot run</h2>
          <ul>
            {errors.map((e) => (
              <li key={`${e.path}:${e.message}`}>
                <code>{e.path}</code>: {e.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      {scenario && trace && (
        <>
          <section className="scenario">
            <h2>{scenario.title}</h2>
            <p>{scenario.question}</p>
          </section>
          <nav className="playback" aria-label="Playback">
            <button type="button" onClick={() => simStore.getState().stepBack()} disabled={step === 0}>
              ◀ Back
            </button>
            <button type="button" onClick={() => simStore.getState().stepForward()} disabled={step >= total}>
              Step ▶
            </button>
            <span className="step-counter" data-testid="step-counter">
              step {step} / {total} · {view?.time ?? 0} ms
            </span>
            <span className="trace-hash" data-testid="trace-hash" data-trace-hash={trace.traceHash}>
              traceHash {trace.traceHash}
            </span>
          </nav>
          <p className="last-step" data-testid="last-step">
            {last ? `${last.t} ms · ${last.actor}: ${last.label} (${last.before} → ${last.after})` : 'Start of the run.'}
          </p>
          {view && <Timeline trace={trace} view={view} step={step} selection={selection} onSelect={(s) => simStore.getState().select(s)} />}
          {/* ui-inject: failure injection and the config editor; the layout places them in its details panel */}
          <section aria-label="Inject a failure" className="inject">
            <InjectPanel />
          </section>
          <section aria-label="Configuration" className="config">
            <ConfigEditor />
          </section>
        </>
      )}
    </main>
  );
}
