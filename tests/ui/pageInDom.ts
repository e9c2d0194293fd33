/**
 * The page mounted in happy-dom for one test file: a fresh root per test, torn down after it with
 * the lazily loaded panels settled and the language back to English. Call `pageInDom()` at the top
 * of a `// @vitest-environment happy-dom` file; it registers the hooks and returns the handles.
 */
import { act, createElement, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { simStore } from '../../src/store/simStore';
import { App } from '../../src/ui/App';
import { loadNarrator } from '../../src/ui/useNarrator';
import { loadPresetTextsKo } from '../../src/ui/usePresetTexts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface PageInDom {
  /** The element the page is rendered into (this test's). */
  readonly host: HTMLElement;
  /** Renders the whole page, or another element in its place. */
  render(node?: ReactNode): void;
  /** Lets timers, lazy imports and the run's slices go on for a moment. */
  settle(ms?: number): Promise<void>;
}

export function pageInDom(): PageInDom {
  let root: Root;
  let host: HTMLElement;
  // The page loads narration and several panels lazily. Load them before the tests so that no import
  // is still pending when the DOM environment is torn down (Vitest reports such a late import as an error).
  beforeAll(async () => {
    await Promise.all([
      loadNarrator(),
      loadPresetTextsKo(),
      import('../../src/ui/checklist/ChecklistPanel'),
      import('../../src/ui/config'),
      import('../../src/ui/inject'),
      import('../../src/ui/layout/BelowTimeline'),
      import('../../src/ui/playback/HelpDialog'),
    ]);
  });
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(async () => {
    // let the lazily loaded panels resolve inside act() before the page goes away
    await act(() => new Promise((r) => setTimeout(r, 20)));
    act(() => root.unmount());
    host.remove();
    act(() => simStore.getState().setLanguage('en'));
  });
  return {
    get host() {
      return host;
    },
    render: (node = createElement(App)) => act(() => root.render(node)),
    settle: (ms = 20) => act(() => new Promise<void>((r) => setTimeout(r, ms))),
  };
}
