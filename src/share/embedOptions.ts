/**
 * The embed page's options, read from its own URL at load (a fragment the host changes later is
 * followed by src/embed/fragment.ts):
 *
 *   embed.html?preset=<id>&step=<n>&autoplay=1&theme=dark&height=420&speed=8&lang=ko#s=1.<link>
 *
 * The scenario comes from the fragment (a share link, or the page's short address `#preset=<id>`
 * with its `step` and `lang`) or `preset`; without either, the default
 * preset. `step` overrides the link's own step. A `preset` that names no shipped scenario —
 * mistyped, in capitals, malformed — is kept, so the embed says so (as the page does) instead of
 * showing another scenario than the docs page meant; the display options, when unknown or
 * malformed, fall back to their defaults. `lang` (en or ko) opens a preset in that language (a
 * share link's own language wins); any other value is kept, so the embed says it has only those two.
 */
import { type AskedLanguage, askedLanguage, LANGUAGE_PARAM } from './linkLanguage';

export type EmbedTheme = 'light' | 'dark' | 'system';

export interface EmbedOptions {
  /** A share link (`#s=1.…`) when the fragment holds one. */
  readonly link: string | null;
  readonly preset: string | null;
  /** Start step; null = the link's step (or 0). */
  readonly step: number | null;
  readonly autoplay: boolean;
  readonly theme: EmbedTheme;
  /** Fixed height in CSS pixels, or null to report the content height (resize messages). */
  readonly height: number | null;
  /** Playback speed in steps per second. */
  readonly speed: number;
  /** The language `lang` asked for, or null (none given: the reader's browser decides). */
  readonly language: AskedLanguage | null;
}

function intParam(value: string | null, min: number, max: number): number | null {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n < min ? min : n > max ? max : n;
}

function flag(value: string | null): boolean {
  return value !== null && value !== '0' && value.toLowerCase() !== 'false' && value.toLowerCase() !== 'no';
}

export function parseEmbedOptions(search: string, hash: string): EmbedOptions {
  const q = new URLSearchParams(search);
  const preset = q.get('preset');
  const theme = q.get('theme');
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  // the page's short address, `#preset=<id>[&step=<n>][&lang=…]`, pasted after embed.html: the
  // resolver reads its id and step (an unknown id is said, not swapped for the default scenario)
  const presetFragment = fragment.startsWith('preset=');
  const lang = q.get(LANGUAGE_PARAM) ?? (presetFragment ? new URLSearchParams(fragment).get(LANGUAGE_PARAM) : null);
  return {
    link: fragment.startsWith('s=') || presetFragment ? `#${fragment}` : null,
    // (empty: none given; anything else goes to the resolver, whose error quotes it as text)
    preset: preset !== null && preset.trim() !== '' ? preset : null,
    step: intParam(q.get('step'), 0, 3_000_000),
    autoplay: flag(q.get('autoplay')),
    theme: theme === 'light' || theme === 'dark' ? theme : 'system',
    height: intParam(q.get('height'), 120, 4000),
    speed: intParam(q.get('speed'), 1, 200) ?? 8,
    language: askedLanguage(lang),
  };
}

/** The query string the loader and the Embed dialog write for these options (the link goes in the fragment). */
export function embedQuery(options: {
  preset?: string | null;
  step?: number | null;
  autoplay?: boolean;
  theme?: EmbedTheme;
  height?: number | null;
}): string {
  const q = new URLSearchParams();
  if (options.preset) q.set('preset', options.preset);
  if (options.step !== undefined && options.step !== null && options.step > 0) q.set('step', String(options.step));
  if (options.autoplay) q.set('autoplay', '1');
  if (options.theme && options.theme !== 'system') q.set('theme', options.theme);
  if (options.height) q.set('height', String(options.height));
  const s = q.toString();
  return s ? `?${s}` : '';
}
