/**
 * Canvas colours come from CSS variables (timeline.css maps them onto the app's theme variables),
 * so light and dark themes need no code here. Read once per theme change, not per frame.
 */
export interface Palette {
  readonly bg: string;
  readonly fg: string;
  readonly muted: string;
  readonly grid: string;
  readonly plain: string;
  readonly committed: string;
  readonly open: string;
  readonly aborted: string;
  readonly leo: string;
  readonly hw: string;
  readonly lso: string;
  readonly position: string;
  readonly groupOffset: string;
  readonly arrow: string;
  readonly background: string;
  readonly fault: string;
  readonly focus: string;
  readonly selection: string;
  readonly hover: string;
  readonly now: string;
  readonly font: string;
}

const VARS: Record<Exclude<keyof Palette, 'font'>, [string, string]> = {
  bg: ['--tl-bg', '#ffffff'],
  fg: ['--tl-fg', '#1b1f24'],
  muted: ['--tl-muted', '#5b6570'],
  grid: ['--tl-grid', '#d5dbe1'],
  plain: ['--tl-plain', '#8fb3d9'],
  committed: ['--tl-committed', '#5aa469'],
  open: ['--tl-open', '#e6c15a'],
  aborted: ['--tl-aborted', '#d1605e'],
  leo: ['--tl-leo', '#5b6570'],
  hw: ['--tl-hw', '#1b1f24'],
  lso: ['--tl-lso', '#7a4bd1'],
  position: ['--tl-position', '#1f6fd1'],
  groupOffset: ['--tl-group-offset', '#b4531f'],
  arrow: ['--tl-arrow', '#3b4550'],
  background: ['--tl-background-arrow', '#a3adb8'],
  fault: ['--tl-fault', '#c62f2c'],
  focus: ['--tl-focus', '#1f6fd1'],
  selection: ['--tl-selection', '#e0218a'],
  hover: ['--tl-hover', '#1b1f24'],
  now: ['--tl-now', '#7a4bd1'],
};

export function readPalette(el: Element): Palette {
  const cs = getComputedStyle(el);
  const out: Record<string, string> = {};
  for (const [k, [name, fallback]] of Object.entries(VARS)) out[k] = cs.getPropertyValue(name).trim() || fallback;
  out.font = cs.fontFamily || 'system-ui, sans-serif';
  return out as unknown as Palette;
}

/** Calls `onChange` when the page's theme may have changed (colour scheme or theme attributes). */
export function watchTheme(onChange: () => void): () => void {
  const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
  mq?.addEventListener('change', onChange);
  const mo = new MutationObserver(onChange);
  const opts = { attributes: true, attributeFilter: ['class', 'style', 'data-theme'] };
  mo.observe(document.documentElement, opts);
  if (document.body) mo.observe(document.body, opts);
  return () => {
    mq?.removeEventListener('change', onChange);
    mo.disconnect();
  };
}

/** prefers-reduced-motion, live. */
export function reducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}
