/**
 * A share link or a preset id → the scenario and view it opens, or a typed error; never throws. The
 * page resolves on its thread (src/share/source.ts), the embed in the engine's worker (a `resolve`
 * ask), so the link decoder and the presets stay out of the embed's main bundle.
 */
import { decodeLink, findPreset, looksLikeLink, unknownPresetHint } from '../../sim';
import type { ResolvedLink } from './protocol';

export function resolveLink(text: string): ResolvedLink {
  const t = text.trim();
  if (looksLikeLink(t)) {
    const d = decodeLink(t);
    if (!d.ok) return d;
    return d.migratedFrom === undefined
      ? { ok: true, scenario: d.scenario, view: d.view }
      : { ok: true, scenario: d.scenario, view: d.view, migratedFrom: d.migratedFrom };
  }
  const preset = findPreset(t);
  if (preset) return { ok: true, scenario: preset.scenario, view: {} };
  const { shown, examples } = unknownPresetHint(t);
  return {
    ok: false,
    error: {
      kind: 'invalid',
      message: `"${shown}" is neither an EOS Lab share link (it would contain "#s=") nor the id of a shipped scenario (such as ${examples}).`,
      ko: `"${shown}"은(는) EOS Lab 공유 링크("#s="가 들어 있어야 합니다)도 기본 제공 시나리오의 id(예: ${examples})도 아닙니다.`,
    },
  };
}
