/**
 * What the first stage (src/shell/boot.tsx) hands the workspace (src/page.tsx) when it takes over:
 * where the person is in the run, and the page's one React root. Types only.
 */
import type { ReactNode } from 'react';
import type { Language, Selection } from '../store/simStore';

/** Where the person is in the run the first stage shows. */
export interface ShellPosition {
  /** False when the first stage shows no run (a link error, a budget notice, a run under way). */
  readonly runShown: boolean;
  readonly step: number;
  readonly playing: boolean;
  readonly speed: number;
  readonly skipIdle: boolean;
  readonly selection: Selection | null;
  readonly language: Language;
}

export interface ShellHandoff {
  /** True while the first stage shows neither a run nor why none can be shown (a long run, a worker slow to start). */
  pending(): boolean;
  /** The language the first stage opened in (the link's, else the browser's). */
  language(): Language;
  /** Stops the first stage's playback and says where it stopped. */
  stop(): ShellPosition;
  /** Renders `app` in place of the first stage (a transition: the first stage stays until it commits). */
  replaceWith(app: ReactNode): Promise<void>;
  /** Stops the first stage's worker. */
  release(): void;
}
