/**
 * The page around the timeline: playback and narration on top; the actors on the left; the timeline
 * in the centre; the verdict, the selection's details (with failure injection), the readiness
 * checklist and the config editor on the right. At phone width the panels stack (read-only there).
 */
import { lazy, Suspense } from 'react';
import { simStore } from '../../store/simStore';
import { ActorsPanel } from '../actors/ActorsPanel';
import { CodePanel } from '../code/CodePanel';
import { DetailsPanel } from '../details/DetailsPanel';
import { useStrings } from '../i18n';
import { EosNotes } from '../notes/EosNotes';
import type { JumpTargets } from '../playback/jumps';
import { PlaybackBar } from '../playback/PlaybackBar';
import { Timeline } from '../timeline/Timeline';
import { useSim } from '../useSim';
import { VerdictPanel } from '../verdict/VerdictPanel';

// below the fold and only for editing: loaded after the first paint, to keep the initial JavaScript small
const ChecklistPanel = lazy(() => import('../checklist/ChecklistPanel').then((m) => ({ default: m.ChecklistPanel })));
const ConfigEditor = lazy(() => import('../config').then((m) => ({ default: m.ConfigEditor })));

import { ModelNotes } from './ModelNotes';
import { Narration } from './Narration';

export function Workspace({ targets }: { readonly targets: JumpTargets }) {
  const t = useStrings();
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const step = useSim((s) => s.step);
  const selection = useSim((s) => s.selection);
  const language = useSim((s) => s.language);
  if (!trace || !view) return null;
  return (
    <>
      <PlaybackBar targets={targets} />
      <Narration />
      <div className="workspace">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a column that scrolls on its own must take keyboard focus to be scrolled (axe: scrollable-region-focusable) */}
        <aside className="column actors-column" aria-label={t.actors} tabIndex={0}>
          <ActorsPanel />
        </aside>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: as above */}
        <main className="column timeline-column" tabIndex={0}>
          <Timeline
            trace={trace}
            view={view}
            step={step}
            selection={selection}
            onSelect={(s) => simStore.getState().select(s)}
            language={language}
          />
          <CodePanel scenario={trace.scenario} language={language} />
          <ModelNotes trace={trace} />
          <EosNotes language={language} />
        </main>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: as above */}
        <aside className="column side-column" aria-label={`${t.verdict}, ${t.details}, ${t.checklist}`} tabIndex={0}>
          <VerdictPanel />
          <DetailsPanel />
          <Suspense fallback={<p className="muted">…</p>}>
            <ChecklistPanel />
          </Suspense>
          {/* [ui-inject] the config editor: Kafka's keys per client; a change re-runs the scenario */}
          <section aria-label="Configuration" className="config config-slot">
            <Suspense fallback={<p className="muted">…</p>}>
              <ConfigEditor />
            </Suspense>
          </section>
        </aside>
      </div>
    </>
  );
}
