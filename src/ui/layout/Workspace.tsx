/**
 * The page around the timeline: playback and narration on top; the actors on the left; the timeline
 * in the centre; the verdict, the selection's details (with failure injection) and the readiness
 * checklist on the right; the config editor in a drawer. At phone width the panels stack, and failure
 * injection and the config editor open as bottom sheets.
 */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useSim } from '../../store/useSim';
import { ActorsPanel } from '../actors/ActorsPanel';
import { CodePanel } from '../code/CodePanel';
import { DetailsPanel } from '../details/DetailsPanel';
import { useStrings } from '../i18n';
import { EosNotes } from '../notes/EosNotes';
import { usePanels } from '../panels';
import type { JumpTargets } from '../playback/jumps';
import { PlaybackBar } from '../playback/PlaybackBar';
import { VerdictPanel } from '../verdict/VerdictPanel';

// below the fold and only for editing: loaded after the first paint, to keep the initial JavaScript small
const ChecklistPanel = lazy(() => import('../checklist/ChecklistPanel').then((m) => ({ default: m.ChecklistPanel })));
// [your-data] what the run cost, computed over the whole trace: after the first paint too
const CostPanel = lazy(() => import('../cost/CostPanel').then((m) => ({ default: m.CostPanel })));
const ConfigSheet = lazy(() => import('../config').then((m) => ({ default: m.ConfigSheet })));

import { ModelNotes } from './ModelNotes';
import { Narration } from './Narration';
import { RunTimeline } from './RunTimeline';

export function Workspace({ targets }: { readonly targets: JumpTargets }) {
  const t = useStrings();
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const language = useSim((s) => s.language);
  const configOpen = usePanels((s) => s.config);
  // opening another scenario starts its columns at the top (a fork keeps its id, and the scroll)
  const scenarioId = useSim((s) => s.scenario?.id);
  const side = useRef<HTMLElement>(null);
  const actors = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the scenario's id changes
  useEffect(() => {
    for (const el of [side.current, actors.current]) el?.scrollTo?.({ top: 0 });
  }, [scenarioId]);
  if (!trace || !view) return null;
  return (
    <>
      <PlaybackBar targets={targets} />
      <Narration />
      <div className="workspace">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a column that scrolls on its own must take keyboard focus to be scrolled (axe: scrollable-region-focusable) */}
        <aside ref={actors} className="column actors-column" aria-label={t.actors} tabIndex={0}>
          <ActorsPanel />
        </aside>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: as above */}
        <main className="column timeline-column" tabIndex={0}>
          <RunTimeline trace={trace} view={view} />
          <CodePanel scenario={trace.scenario} language={language} />
          <ModelNotes trace={trace} />
          <EosNotes language={language} />
        </main>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: as above */}
        <aside ref={side} className="column side-column" aria-label={`${t.verdict}, ${t.details}, ${t.checklist}`} tabIndex={0}>
          <VerdictPanel />
          <Suspense fallback={null}>
            <CostPanel />
          </Suspense>
          <DetailsPanel />
          <Suspense fallback={<p className="muted">…</p>}>
            <ChecklistPanel />
          </Suspense>
        </aside>
      </div>
      {/* the config editor opens in a drawer (header button, or an actor's "Configure"); loaded on first use */}
      {configOpen !== false && (
        <Suspense fallback={null}>
          <ConfigSheet />
        </Suspense>
      )}
    </>
  );
}
