/**
 * The page's entry, all of the JavaScript before the first paint: index.html paints a light
 * skeleton by itself, and this module loads the app (src/page.tsx: the store, the engine and the
 * panels) as chunks of their own, which replace the skeleton when they have run.
 *
 * The chunks are evaluated in six tasks — the shipped presets (object literals: ~230 KB of JSON),
 * the clients' machines with XState (scenario/clientActors: the producer's, the consumer's and the
 * Streams thread's createMachine), the other actors' machines (scenario/build), the rest of the
 * engine, React's DOM renderer, then the page — each
 * after a turn of the event loop: a dynamic import evaluates all its modules in one task, and the
 * three together took ~70–100 ms, a long task that held the first input. Every actor's machine in
 * one task (scenario/build alone) was 15–20 ms of CPU, one of the boot's longest once React DOM
 * loaded in a few ms (2026-12-05).
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

import('./sim/presets')
  .then(nextTask)
  .then(() => import('./sim/scenario/clientActors'))
  .then(nextTask)
  .then(() => import('./sim/scenario/build'))
  .then(nextTask)
  .then(() => import('./sim'))
  .then(nextTask)
  .then(() => import('react-dom/client'))
  .then(nextTask)
  .then(() => import('./page'))
  .catch(() => {
    const note = document.getElementById('boot-note');
    if (note) note.textContent = 'EOS Lab could not load its scripts. Reload the page to try again.';
  });
