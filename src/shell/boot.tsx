/**
 * The page's first stage (src/main.tsx loads it with React's DOM renderer, before any engine chunk):
 * opens the run the URL asks for in the embed's engine worker and renders it (Shell.tsx) in the page's
 * React root. `shown` resolves once the run, or the message saying why none is, is on screen; main.tsx
 * then loads the workspace, which takes over through the ShellHandoff.
 */
import { type ReactNode, StrictMode, startTransition, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { openSource } from '../embed/open';
import { startPlayer } from '../embed/player';
import { fragmentLanguage } from '../share/linkLanguage';
import { pastedLink } from '../share/pastedLink';
import { shareStore } from '../share/shareState';
import { DEFAULT_PRESET_ID } from '../sim/views';
import type { Language } from '../store/simStore';
import { browserLanguages, preferredLanguage } from '../ui/preferredLanguage';
import type { ShellHandoff } from './handoff';
import { Shell } from './Shell';
import { releaseShellEngine, shellStore } from './shellStore';
// the page's styles after the panels' own, in the order the workspace's graph had them (styles.css last)
import '../share/share.css';
import '../ui/styles.css';

/**
 * Nothing to show after this long (a long run in the worker, or a worker slow to start): the workspace
 * loads anyway, so that its progress line, with Cancel, takes over (the first stage has no Cancel).
 */
const LONG_RUN_MS = 3000;

/**
 * A link opened with what a sentence or a message put around it — the full stop after it, a closing
 * bracket or quote (share/pastedLink.ts): those characters are no part of a link, so the address
 * loses them before either stage reads it, instead of the link being called damaged.
 */
export function cleanAddress(win: Pick<Window, 'location' | 'history'>): void {
  const hash = win.location.hash;
  const cleaned = pastedLink(hash);
  if (cleaned !== hash && cleaned.startsWith('#')) win.history.replaceState(win.history.state, '', cleaned);
}

/** Fragments that open a view of their own over the default scenario (hashSync.ts, urlViews.ts). */
const OVER_DEFAULT = ['#gallery', '#dump=', '#ab='];

/** What the URL asks the first stage to run: a share link, a preset's address, or the default scenario. */
export function shellSource(search: string, address: string): { text: string; language: Language | null; overridesLink?: boolean } {
  // the query's `?lang=` where the fragment names none (a share link's own language still wins when it opens)
  const queryLanguage = langParam(search.slice(1));
  // `#lang=ko` alone (the default scenario) or after a share link (`#s=1.…&lang=ko`, which it wins over)
  const { hash, lang } = fragmentLanguage(address);
  const asked = lang && 'language' in lang ? lang.language : null;
  if (lang && hash === '') return { text: DEFAULT_PRESET_ID, language: asked ?? queryLanguage };
  const overDefault = OVER_DEFAULT.some((p) => hash === p || (p.endsWith('=') && hash.startsWith(p)));
  // `#gallery&lang=ko`: the default scenario under the gallery, in that language
  if (asked && overDefault) return { text: DEFAULT_PRESET_ID, language: asked };
  if (asked) return { text: hash, language: asked, overridesLink: true };
  if ((hash === '' || hash === '#') && /[?&]preset=/.test(search)) return { text: search, language: queryLanguage };
  if (hash === '' || hash === '#' || overDefault) return { text: DEFAULT_PRESET_ID, language: queryLanguage };
  return { text: hash, language: (hash.startsWith('#preset=') ? langParam(hash.slice(1)) : null) ?? queryLanguage };
}

function langParam(query: string): Language | null {
  const lang = new URLSearchParams(query).get('lang');
  return lang === 'en' || lang === 'ko' ? lang : null;
}

let setApp: ((app: ReactNode) => void) | null = null;
let committed: (() => void) | null = null;

function Committed() {
  useEffect(() => {
    committed?.();
    committed = null;
  }, []);
  return null;
}

function Boot() {
  const [app, set] = useState<ReactNode>(null);
  setApp = set;
  if (app === null) return <Shell />;
  return (
    <>
      {app}
      <Committed />
    </>
  );
}

/**
 * Renders the first stage and opens the URL's run; `shown` resolves once it (or why not) is on
 * screen, or after LONG_RUN_MS without either.
 */
export function startShell(): { shown: Promise<void>; handoff: ShellHandoff } {
  cleanAddress(window);
  const { search, hash } = window.location;
  const asked = shellSource(search, hash);
  shellStore.getState().setLanguage(asked.language ?? preferredLanguage(browserLanguages()));
  const stopPlayer = startPlayer(shellStore);
  void openSource(shellStore, asked.text).then(() => {
    if (asked.overridesLink && asked.language) shellStore.getState().setLanguage(asked.language);
  });
  const root = document.getElementById('root');
  if (root)
    createRoot(root).render(
      <StrictMode>
        <Boot />
      </StrictMode>,
    );
  const done = () => {
    const s = shellStore.getState();
    return s.status === 'ready' || s.status === 'error' || shareStore.getState().linkError !== null;
  };
  const shown = new Promise<void>((resolve) => {
    if (done()) return resolve();
    const stops = [shellStore.subscribe(() => done() && finish()), shareStore.subscribe(() => done() && finish())];
    const long = setTimeout(finish, LONG_RUN_MS);
    function finish() {
      for (const stop of stops) stop();
      clearTimeout(long);
      resolve();
    }
  });
  const handoff: ShellHandoff = {
    pending: () => !done(),
    language: () => shellStore.getState().language,
    stop() {
      const s = shellStore.getState();
      s.setPlaying(false);
      stopPlayer();
      return {
        runShown: s.run !== null && s.status === 'ready' && shareStore.getState().linkError === null,
        step: s.step,
        playing: s.playing,
        speed: s.speed,
        skipIdle: s.skipIdle,
        selection: s.selection,
        language: s.language,
      };
    },
    replaceWith(app) {
      return new Promise((resolve) => {
        committed = resolve;
        startTransition(() => setApp?.(app));
      });
    },
    release: releaseShellEngine,
  };
  return { shown, handoff };
}
