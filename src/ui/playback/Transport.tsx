/**
 * The playback bar's buttons: to the start, back, play/pause, forward, to the end, and — where the
 * run's notable steps are known — the previous and the next one. Presentational: the workspace's bar
 * (PlaybackBar, over the in-process store) and the page's first stage (src/shell/, over the engine
 * worker's answers) say where the run is and what each button does.
 */
import type { Strings } from '../words';
import { Icon } from './icons';

/** What the buttons drive: the workspace's store and the first stage's have these in common. */
export interface PlaybackState {
  readonly step: number;
  readonly playing: boolean;
  setPlaying(playing: boolean): void;
  seek(step: number): void;
  stepBack(): void;
  stepForward(): void;
}

/** The buttons' actions over a store: each stops playback first, but play, which from the end starts over. */
export function playbackActions(state: () => PlaybackState, total: () => number) {
  const stopped = () => {
    const s = state();
    s.setPlaying(false);
    return state();
  };
  return {
    seekTo: (position: number | null) => {
      if (position !== null) stopped().seek(position);
    },
    stepBack: () => stopped().stepBack(),
    stepForward: () => stopped().stepForward(),
    togglePlay: () => {
      const s = state();
      if (s.playing) return s.setPlaying(false);
      if (s.step >= total()) s.seek(0);
      s.setPlaying(true);
    },
  };
}

export interface TransportProps {
  readonly t: Strings;
  readonly step: number;
  readonly total: number;
  readonly playing: boolean;
  /** Stops playback and goes to a position (null: there is none, the button is disabled). */
  readonly seekTo: (position: number | null) => void;
  readonly stepBack: () => void;
  readonly stepForward: () => void;
  readonly togglePlay: () => void;
  /** The previous and next notable steps, where the run's are known (the workspace's). */
  readonly notable?: { readonly prev: number | null; readonly next: number | null };
  /** Whether the buttons announce keyboard shortcuts (the workspace has them; the first stage not yet). */
  readonly shortcuts: boolean;
}

export function Transport({ t, step, total, playing, seekTo, stepBack, stepForward, togglePlay, notable, shortcuts }: TransportProps) {
  const key = (k: string): string | undefined => (shortcuts ? k : undefined);
  return (
    <div className="transport">
      <button type="button" onClick={() => seekTo(0)} disabled={step === 0} aria-label={t.toStart} aria-keyshortcuts={key('Home')}>
        <Icon name="start" />
      </button>
      {notable && (
        <button
          type="button"
          onClick={() => seekTo(notable.prev)}
          disabled={notable.prev === null}
          aria-label={t.previousNotable}
          aria-keyshortcuts={key('Shift+ArrowLeft')}
        >
          <Icon name="previousNotable" />
        </button>
      )}
      <button type="button" onClick={stepBack} disabled={step === 0} aria-label={t.stepBack} aria-keyshortcuts={key('ArrowLeft')}>
        <Icon name="back" />
      </button>
      <button
        type="button"
        className="play"
        onClick={togglePlay}
        disabled={total === 0}
        aria-label={playing ? t.pause : t.play}
        aria-keyshortcuts={key('Space')}
      >
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <button type="button" onClick={stepForward} disabled={step >= total} aria-label={t.stepForward} aria-keyshortcuts={key('ArrowRight')}>
        <Icon name="forward" />
      </button>
      {notable && (
        <button
          type="button"
          onClick={() => seekTo(notable.next)}
          disabled={notable.next === null}
          aria-label={t.nextNotable}
          aria-keyshortcuts={key('Shift+ArrowRight')}
        >
          <Icon name="nextNotable" />
        </button>
      )}
      <button type="button" onClick={() => seekTo(total)} disabled={step >= total} aria-label={t.toEnd} aria-keyshortcuts={key('End')}>
        <Icon name="end" />
      </button>
    </div>
  );
}
