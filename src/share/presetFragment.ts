/**
 * A short address for a shipped scenario: `#preset=<id>`, optionally `&step=<n>` (as the embed's
 * `?preset=<id>&step=<n>`). Docs and posts can link a preset by a readable name; such a link follows
 * the preset as EOS Lab changes it, where a share link (`#s=1.…`) pins the exact scenario.
 */
import { findPreset, type LinkError, type Scenario, unknownPresetHint, validateScenario } from '../sim';

export const PRESET_FRAGMENT = '#preset=';

export interface PresetFragment {
  readonly id: string;
  /** The step to land on, or null (a step that is not a whole number ≥ 0 is ignored). */
  readonly step: number | null;
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
  for (const p of params) {
    const [name, value = ''] = p.split('=');
    if (name === 'step' && /^\d{1,9}$/.test(value)) step = Number(value);
  }
  return { id, step };
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
  const fragment = presetFragmentOf(id.trim(), step !== null && /^\d{1,9}$/.test(step) ? Number(step) : null);
  return `${pathname}${rest ? `?${rest}` : ''}${fragment}`;
}

/** The fragment that opens preset `id` (at `step`, when given). */
export function presetFragmentOf(id: string, step: number | null = null): string {
  return `${PRESET_FRAGMENT}${encodeURIComponent(id)}${step === null ? '' : `&step=${step}`}`;
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
