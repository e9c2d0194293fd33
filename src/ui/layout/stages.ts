/**
 * The workspace's first render in stages (issue 13: no long task when a run lands). React renders
 * and commits a tree in one task, and the browser then styles, lays out and paints all of it: with
 * every panel at once that was the longest task of a preset load. With staging on, a new workspace
 * renders its first stage (the playback bar) alone; each later stage renders after the one before
 * has painted (the next frame, then a task of its own). Not in a transition: a
 * transition's render starts over whenever a more urgent update comes, and playback updates every
 * frame — pressing Play as a run lands held the later stages back for 1.2–2.9 s (×4 CPU throttling),
 * against 0.3–1.3 s as plain updates. The chunks of the panels a later stage loads are fetched then,
 * after the run is on screen.
 *
 * Off by default, so a test's page renders every panel at once; src/page.tsx turns it on, and
 * src/embed/main.tsx for the embed's run (EmbedApp: its timeline a stage after the rest).
 */
import { useEffect, useState } from 'react';

/**
 * `first`: the stage a new workspace starts at (1). The page's workspace, taking over from its first
 * stage (src/page.tsx `takeOver`), starts at 2 — the playback bar and the timeline in one render — so
 * the run the first stage showed never leaves the screen.
 */
export const workspaceStaging = { enabled: false, first: 1 };

/** The longest a stage waits for a frame before it renders anyway (a document whose frames are throttled). */
export const STAGE_WAIT_MS = 100;

/** How many of `count` stages a newly mounted component shows now (all of them with staging off). */
export function useStages(count: number): number {
  const [stage, setStage] = useState(() => (workspaceStaging.enabled ? Math.min(count, workspaceStaging.first) : count));
  useEffect(() => {
    if (stage >= count) return;
    let done = false;
    const next = () => {
      if (done) return;
      done = true;
      setStage((s) => Math.min(count, s + 1));
    };
    // after this stage has painted: the next frame, then a task of its own. A tab in the background
    // gets no frames: there, a task of its own; an embed's frame off screen, whose frames Chromium
    // throttles, goes on STAGE_WAIT_MS later without one
    const hidden = document.visibilityState === 'hidden';
    const frame = hidden ? 0 : requestAnimationFrame(() => setTimeout(next, 0));
    const timer = setTimeout(next, hidden ? 0 : STAGE_WAIT_MS);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [stage, count]);
  return stage;
}
