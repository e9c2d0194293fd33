/**
 * The page around the timeline: playback and narration on top; the actors on the left; the timeline
 * in the centre; the verdict, the selection's details (with failure injection) and the readiness
 * checklist on the right; the config editor in a drawer. At phone width the panels stack, and failure
 * injection and the config editor open as bottom sheets.
 *
 * A new workspace renders in stages (stages.ts; on in the page): the playback bar first, then the
 * timeline, then the narration and the actors, then the verdict, the cost and the details, then what
 * is below the fold or only for editing (the checklist, the code and the notes), each stage in a task
 * of its own after the one before has painted.
 */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useSim } from '../../store/useSim';
import { ActorsPanel } from '../actors/ActorsPanel';
import { DetailsPanel } from '../details/DetailsPanel';
import { useStrings } from '../i18n';
import { usePanels } from '../panels';
import type { JumpTargets } from '../playback/jumps';
import { PlaybackBar } from '../playback/PlaybackBar';
import { VerdictPanel } from '../verdict/VerdictPanel';

// below the fold and only for editing: loaded after the first paint, to keep the initial JavaScript small
const ChecklistPanel = lazy(() => import('../checklist/ChecklistPanel').then((m) => ({ default: m.ChecklistPanel })));
// [your-data] what the run cost, computed over the whole trace: after the first paint too
const CostPanel = lazy(() => import('../cost/CostPanel').then((m) => ({ default: m.CostPanel })));
const ConfigSheet = lazy(() => import('../config').then((m) => ({ default: m.ConfigSheet })));
// collapsed panels under the timeline, below the fold: after the first paint too
const BelowTimeline = lazy(() => import('./BelowTimeline').then((m) => ({ default: m.BelowTimeline })));

import { Narration } from './Narration';
import { RunTimeline } from './RunTimeline';
import { useStages } from './stages';

/**
 * The workspace's stages (see the comment at the top). The timeline has one of its own: with the
 * playback bar, its render (both canvases' controllers, the lanes' gutter, the axis) and the layout
 * of its DOM were the two longest tasks of the page's boot once React DOM loaded in a few ms.
 */
const STAGES = { timeline: 2, actors: 3, details: 4, rest: 5 } as const;

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
  const stage = useStages(STAGES.rest);
  // a new workspace's columns start at the top already: scrolling them would only force a layout
  const shownId = useRef(scenarioId);
  useEffect(() => {
    if (shownId.current === scenarioId) return;
    shownId.current = scenarioId;
    for (const el of [side.current, actors.current]) el?.scrollTo?.({ top: 0 });
  }, [scenarioId]);
  if (!trace || !view) return null;
  return (
    <>
      <PlaybackBar targets={targets} />
      {/* the narration box has a fixed height: its place is kept while it loads */}
      {stage >= STAGES.actors ? <Narration /> : <div className="narration" />}
      {/* how many stages are still to render (0: every panel is there; tests wait for it) */}
      <div className="workspace" data-pending-stages={STAGES.rest - stage}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a column that scrolls on its own must take keyboard focus to be scrolled (axe: scrollable-region-focusable) */}
        <aside ref={actors} className="column actors-column" aria-label={t.actors} tabIndex={0}>
          {stage >= STAGES.actors && <ActorsPanel />}
        </aside>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: as above */}
        <main className="column timeline-column" tabIndex={0}>
          {stage >= STAGES.timeline && <RunTimeline trace={trace} view={view} />}
          {stage >= STAGES.rest && (
            <Suspense fallback={null}>
              <BelowTimeline trace={trace} language={language} />
            </Suspense>
          )}
        </main>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: as above */}
        <aside ref={side} className="column side-column" aria-label={`${t.verdict}, ${t.details}, ${t.checklist}`} tabIndex={0}>
          {stage >= STAGES.details && (
            <>
              <VerdictPanel />
              <Suspense fallback={null}>
                <CostPanel />
              </Suspense>
              <DetailsPanel />
            </>
          )}
          {stage >= STAGES.rest && (
            <Suspense fallback={<p className="muted">…</p>}>
              <ChecklistPanel />
            </Suspense>
          )}
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
