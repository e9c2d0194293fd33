/**
 * A share link or a preset id → the scenario and view it opens, or a typed error; never throws. The
 * page resolves on its thread (src/share/source.ts), the embed in the engine's worker (a `resolve`
 * ask), so the link decoder and the presets stay out of the embed's main bundle.
 */
import { decodeLink, findPreset, looksLikeLink, unknownPresetHint } from '../../sim';
import type { ResolvedLink } from './protocol';

/**
 * Which address of a shipped scenario an error suggests: the page's `#preset=<id>`, or the embed's
 * `embed.html?preset=<id>` (the embed's own form; it reads the page's `#preset=<id>` too).
 */
export type PresetAddressForm = 'page' | 'embed';

const PRESET_ADDRESS: Record<PresetAddressForm, string> = { page: '#preset=<id>', embed: 'embed.html?preset=<id>' };

/** Text shaped like a preset's id (letters, digits, "-" and "_", no "/", ":", "#" or "="): nothing else it can be. */
const PRESET_ID_LIKE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function resolveLink(text: string, form: PresetAddressForm = 'page'): ResolvedLink {
  const t = text.trim();
  if (looksLikeLink(t)) {
    const d = decodeLink(t);
    if (!d.ok) return d;
    return d.migratedFrom === undefined
      ? { ok: true, scenario: d.scenario, view: d.view }
      : { ok: true, scenario: d.scenario, view: d.view, migratedFrom: d.migratedFrom };
  }
  const named = presetNamed(t);
  const preset = findPreset(named?.id ?? t);
  if (preset) return { ok: true, scenario: preset.scenario, view: named?.step === undefined ? {} : { step: named.step } };
  const { shown, examples } = unknownPresetHint(named?.id ?? t);
  const address = PRESET_ADDRESS[form];
  // a preset's address, or a word that can only be meant as a preset's id (the embed's ?preset=nope):
  // say plainly that no shipped scenario has that name, as the page's #preset= does
  if (named !== null || PRESET_ID_LIKE.test(t))
    return {
      ok: false,
      error: {
        kind: 'invalid',
        message: `No shipped scenario is called "${shown}". The ids are listed under Scenarios (for example ${examples}); ${address} opens one.`,
        ko: `"${shown}"(이)라는 기본 제공 시나리오는 없습니다. 시나리오 목록에서 id를 확인하세요(예: ${examples}). ${address} 형식으로 열 수 있습니다.`,
      },
    };
  return {
    ok: false,
    error: {
      kind: 'invalid',
      message: `"${shown}" is neither an EOS Lab share link (it would contain "#s=") nor a shipped scenario's id or address (such as ${examples}, or ${address}).`,
      ko: `"${shown}"은(는) EOS Lab 공유 링크("#s="가 들어 있어야 합니다)도 기본 제공 시나리오의 id나 주소(예: ${examples}, 또는 ${address})도 아닙니다.`,
    },
  };
}

/**
 * A shipped scenario named by an address: the page's `#preset=<id>[&step=<n>]`, or the embed's
 * `?preset=<id>[&step=<n>]`, alone or in a whole URL (what a gallery card or a docs page links).
 * Null for anything else (a bare id is looked up as it is).
 */
function presetNamed(text: string): { id: string; step?: number } | null {
  const hash = text.indexOf('#preset=');
  const params =
    hash >= 0
      ? new URLSearchParams(text.slice(hash + 1))
      : /^[^#]*\?/.test(text)
        ? new URLSearchParams(text.slice(text.indexOf('?') + 1).split('#')[0])
        : null;
  const id = params?.get('preset')?.trim();
  if (!params || !id) return null;
  const step = params.get('step');
  return step !== null && /^\d{1,9}$/.test(step) ? { id, step: Number(step) } : { id };
}
