/**
 * A short address for a shipped scenario: `#preset=<id>`, optionally `&step=<n>` (as the embed's
 * `?preset=<id>&step=<n>`). Docs and posts can link a preset by a readable name; such a link follows
 * the preset as EOS Lab changes it, where a share link (`#s=1.…`) pins the exact scenario.
 */
import { findPreset, type LinkError, type Scenario, unknownPresetHint, validateScenario } from '../sim';
import { type AskedLanguage, askedLanguage, LANGUAGE_PARAM } from './linkLanguage';

export const PRESET_FRAGMENT = '#preset=';

export interface PresetFragment {
  readonly id: string;
  /** The step to land on, or null (none given). A step that is not a whole number ≥ 0 is clamped (stepOf). */
  readonly step: number | null;
  /** The step as written when it was not a whole number ≥ 0 (`-3`, `2.5`, `abc`): the page says what it did with it. */
  readonly badStep?: string;
  /** The language a `lang` parameter asked for (linkLanguage.ts), when one was given. */
  readonly lang?: AskedLanguage;
}

/** Longest step text a note repeats (the rest is cut with an ellipsis): the address is anyone's to write. */
const SHOWN_STEP_CHARS = 16;

/**
 * A step parameter's value → the step it opens: a whole number ≥ 0 as itself; any other number clamped
 * to one (below 0 → 0, a fraction → the whole step before it); text that is no number → 0. `badStep`
 * holds what was written when it was not already a step.
 */
export function stepOf(value: string): { step: number; badStep?: string } {
  if (/^\d{1,9}$/.test(value)) return { step: Number(value) };
  const n = Number(value);
  const step = value.trim() !== '' && Number.isFinite(n) ? Math.min(999_999_999, Math.max(0, Math.floor(n))) : 0;
  const shown = [...value];
  return { step, badStep: shown.length > SHOWN_STEP_CHARS ? `${shown.slice(0, SHOWN_STEP_CHARS).join('')}…` : value };
}

/** `#preset=<id>[&step=<n>]` → its id and step; null for any other fragment. */
export function parsePresetFragment(hash: string): PresetFragment | null {
  if (!hash.startsWith(PRESET_FRAGMENT)) return null;
  const [rawId = '', ...params] = hash.slice(PRESET_FRAGMENT.length).split('&');
  let id: string;
  try {
    id = decodeURIComponent(rawId).trim();
  } catch {
    id = rawId;
  }
  let step: number | null = null;
  let badStep: string | undefined;
  let lang: AskedLanguage | null = null;
  for (const p of params) {
    const [name, raw = ''] = p.split('=');
    if (name !== 'step' && name !== LANGUAGE_PARAM) continue;
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      value = raw;
    }
    if (name === LANGUAGE_PARAM) lang = askedLanguage(value);
    else ({ step, badStep } = stepOf(value));
  }
  return { id, step, ...(badStep === undefined ? {} : { badStep }), ...(lang === null ? {} : { lang }) };
}

/**
 * The page opened with the embed's query form, `?preset=<id>[&step=<n>]`, and no fragment: the
 * address it stands for — the same path, the query without those two, and `#preset=<id>[&step=<n>]`
 * — or null when the query names no preset (or a fragment is there: the fragment wins).
 */
export function presetAddressFromQuery(pathname: string, search: string, hash: string): string | null {
  if (hash !== '' && hash !== '#') return null;
  const query = new URLSearchParams(search);
  const id = query.get('preset');
  if (id === null || id.trim() === '') return null;
  const step = query.get('step');
  query.delete('preset');
  query.delete('step');
  const rest = query.toString();
  // a step that is no step of a run goes along as written: the fragment's reader clamps it and says so
  const fragment =
    presetFragmentOf(id.trim(), step !== null && /^\d{1,9}$/.test(step) ? Number(step) : null) +
    (step !== null && !/^\d{1,9}$/.test(step) ? `&step=${encodeURIComponent(step)}` : '');
  return `${pathname}${rest ? `?${rest}` : ''}${fragment}`;
}

/** The fragment that opens preset `id` (at `step`, when given). */
export function presetFragmentOf(id: string, step: number | null = null, language: 'en' | 'ko' | null = null): string {
  return `${PRESET_FRAGMENT}${encodeURIComponent(id)}${step === null ? '' : `&step=${step}`}${language === null ? '' : `&${LANGUAGE_PARAM}=${language}`}`;
}

/** The shipped scenario a fragment names, or the error to show (in English and Korean). */
export function resolvePresetFragment(f: PresetFragment): { ok: true; scenario: Scenario } | { ok: false; error: LinkError } {
  const preset = findPreset(f.id);
  if (preset) return { ok: true, scenario: preset.scenario };
  const { shown, examples } = unknownPresetHint(f.id);
  return {
    ok: false,
    error: {
      kind: 'invalid',
      message: `No shipped scenario is called "${shown}". The ids are listed under Scenarios (for example ${examples}).`,
      ko: `"${shown}"(이)라는 기본 제공 시나리오는 없습니다. 시나리오 목록에서 id를 확인하세요(예: ${examples}).`,
    },
  };
}

/**
 * The id of the shipped scenario `scenario` is, unchanged, or null (an edited or imported one). The
 * store holds a scenario as validation resolved it, so the preset is compared in that form too.
 */
export function presetIdOf(scenario: Scenario | null): string | null {
  if (!scenario) return null;
  const candidate = typeof scenario.id === 'string' ? findPreset(scenario.id) : undefined;
  if (!candidate) return null;
  if (candidate.scenario === scenario) return candidate.id;
  const text = JSON.stringify(scenario);
  if (JSON.stringify(candidate.scenario) === text) return candidate.id;
  const v = validateScenario(candidate.scenario);
  return v.ok && JSON.stringify(v.resolved.scenario) === text ? candidate.id : null;
}
