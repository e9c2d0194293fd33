/**
 * The page's entry, all of the JavaScript before the first paint: index.html paints a light
 * skeleton by itself, and this module loads the app (src/page.tsx: the store, the engine and the
 * panels) as chunks of their own, which replace the skeleton when they have run.
 */
import('./page').catch(() => {
  const note = document.getElementById('boot-note');
  if (note) note.textContent = 'EOS Lab could not load its scripts. Reload the page to try again.';
});
