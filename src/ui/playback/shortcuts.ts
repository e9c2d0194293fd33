/**
 * The keyboard shortcuts, in one table: the help dialog lists them and the key handler runs them.
 */
import { simStore } from '../../store/simStore';
import { chooseLanguage } from '../chooseLanguage';
import type { Strings } from '../i18n';
import { allTargets, type JumpKind, type JumpTargets, nextPosition, previousPosition } from './jumps';

export interface Shortcut {
  readonly keys: readonly string[];
  readonly describe: (t: Strings, language: 'en' | 'ko') => string;
  /** Does this shortcut handle the key event? */
  readonly matches: (e: KeyboardEvent) => boolean;
  readonly run: (targets: JumpTargets, openHelp: () => void) => void;
}

export const SPEEDS: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128, 512, 2000];

function jump(targets: readonly number[], direction: 1 | -1): void {
  const s = simStore.getState();
  const to = direction === 1 ? nextPosition(targets, s.step) : previousPosition(targets, s.step);
  if (to !== null) {
    s.setPlaying(false);
    s.seek(to);
  }
}

function changeSpeed(direction: 1 | -1): void {
  const s = simStore.getState();
  const i = SPEEDS.findIndex((v) => v >= s.speed);
  const at = i < 0 ? SPEEDS.length - 1 : i;
  s.setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at + direction))] as number);
}

const key =
  (k: string, shift = false) =>
  (e: KeyboardEvent) =>
    e.key === k && e.shiftKey === shift && !e.ctrlKey && !e.metaKey && !e.altKey;
const letter = (k: string, shift: boolean) => (e: KeyboardEvent) =>
  e.key.toLowerCase() === k && e.shiftKey === shift && !e.ctrlKey && !e.metaKey && !e.altKey;

const jumpShortcut = (kind: JumpKind, k: string): Shortcut[] => [
  {
    keys: [k.toUpperCase()],
    describe: (t, l) => (l === 'ko' ? `다음 ${t[kind]}` : `Next ${t[kind]}`),
    matches: letter(k, false),
    run: (targets) => jump(targets[kind], 1),
  },
  {
    keys: ['Shift', k.toUpperCase()],
    describe: (t, l) => (l === 'ko' ? `이전 ${t[kind]}` : `Previous ${t[kind]}`),
    matches: letter(k, true),
    run: (targets) => jump(targets[kind], -1),
  },
];

export const SHORTCUTS: readonly Shortcut[] = [
  {
    keys: ['Space'],
    describe: (t) => `${t.play} / ${t.pause}`,
    matches: (e) => e.key === ' ' && !e.ctrlKey && !e.metaKey && !e.altKey,
    run: () => {
      const s = simStore.getState();
      s.setPlaying(!s.playing);
    },
  },
  {
    keys: ['→'],
    describe: (t) => t.stepForward,
    matches: key('ArrowRight'),
    run: () => {
      simStore.getState().setPlaying(false);
      simStore.getState().stepForward();
    },
  },
  {
    keys: ['←'],
    describe: (t) => t.stepBack,
    matches: key('ArrowLeft'),
    run: () => {
      simStore.getState().setPlaying(false);
      simStore.getState().stepBack();
    },
  },
  {
    keys: ['Shift', '→'],
    describe: (t) => t.nextNotable,
    matches: key('ArrowRight', true),
    run: (targets) => jump(allTargets(targets), 1),
  },
  {
    keys: ['Shift', '←'],
    describe: (t) => t.previousNotable,
    matches: key('ArrowLeft', true),
    run: (targets) => jump(allTargets(targets), -1),
  },
  {
    keys: ['Home'],
    describe: (t) => t.toStart,
    matches: key('Home'),
    run: () => {
      simStore.getState().setPlaying(false);
      simStore.getState().seek(0);
    },
  },
  {
    keys: ['End'],
    describe: (t) => t.toEnd,
    matches: key('End'),
    run: () => {
      const s = simStore.getState();
      s.setPlaying(false);
      s.seek(s.trace?.steps.length ?? 0);
    },
  },
  ...jumpShortcut('fault', 'f'),
  ...jumpShortcut('error', 'e'),
  ...jumpShortcut('marker', 'm'),
  {
    keys: ['+'],
    describe: (_t, l) => (l === 'ko' ? '더 빠르게' : 'Faster'),
    matches: (e) => (e.key === '+' || e.key === '=') && !e.ctrlKey && !e.metaKey,
    run: () => changeSpeed(1),
  },
  {
    keys: ['−'],
    describe: (_t, l) => (l === 'ko' ? '더 느리게' : 'Slower'),
    matches: (e) => e.key === '-' && !e.ctrlKey && !e.metaKey,
    run: () => changeSpeed(-1),
  },
  {
    keys: ['B'],
    describe: (_t, l) => (l === 'ko' ? '백그라운드 단계 숨김 켜고 끄기' : 'Hide background steps, on or off'),
    matches: letter('b', false),
    run: () => {
      const s = simStore.getState();
      s.setSkipIdle(!s.skipIdle);
    },
  },
  {
    keys: ['L'],
    describe: (_t, l) => (l === 'ko' ? '언어 바꾸기 (English / 한국어)' : 'Switch language (English / 한국어)'),
    matches: letter('l', false),
    run: () => {
      chooseLanguage(simStore.getState().language === 'en' ? 'ko' : 'en');
    },
  },
  { keys: ['?'], describe: (t) => t.help, matches: (e) => e.key === '?', run: (_t, openHelp) => openHelp() },
];
