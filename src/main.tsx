/**
 * The page's entry, all of the JavaScript before the first paint: index.html paints a light
 * skeleton by itself, and this module loads the page in two stages.
 *
 * 1. The first stage (src/shell/boot.tsx, with React's DOM renderer): the header, the playback bar and
 *    the timeline of the run the URL asks for, computed in the embed's engine worker, so no engine
 *    code is on this thread until the page is interactive. Only its chunks are modulepreloaded
 *    (vite.config.ts, preloadBootChunks).
 * 2. Once that run (or the message saying why none can be shown) is on screen: the workspace
 *    (src/page.tsx: the store, which runs the same scenario again on this thread, and every panel),
 *    which replaces the first stage when its run is ready, keeping the step, playback and language.
 *
 * The workspace's chunks are evaluated in six tasks — the shipped presets (object literals: ~230 KB
 * of JSON), the clients' machines with XState (scenario/clientActors: the producer's, the consumer's
 * and the Streams thread's createMachine), the other actors' machines (scenario/build), the rest of
 * the engine, then the page — each after a turn of the event loop: a dynamic import evaluates all its
 * modules in one task, and the three together took ~70–100 ms, a long task that held the first input.
 * Every actor's machine in one task (scenario/build alone) was 15–20 ms of CPU (2026-12-05).
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** The workspace's chunks (index.html's `eos-lab-workspace` meta), fetched together when its load starts. */
function preloadWorkspace(): void {
  const list = document.querySelector<HTMLMetaElement>('meta[name="eos-lab-workspace"]')?.content ?? '';
  for (const href of list.split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
}

import('react-dom/client')
  .then(nextTask)
  .then(() => import('./shell/boot'))
  .then(async ({ startShell }) => {
    const { shown, handoff } = startShell();
    await shown;
    // after the frame that shows it (a background tab gets no frames: a task)
    await Promise.race([nextFrame(), new Promise((r) => setTimeout(r, 100))]);
    await nextTask();
    preloadWorkspace();
    await import('./sim/presets');
    await nextTask();
    await import('./sim/scenario/clientActors');
    await nextTask();
    await import('./sim/scenario/build');
    await nextTask();
    await import('./sim');
    await nextTask();
    const { takeOver } = await import('./page');
    takeOver(handoff);
  })
  .catch(() => {
    const note = document.getElementById('boot-note');
    if (note) note.textContent = 'EOS Lab could not load its scripts. Reload the page to try again.';
  });
