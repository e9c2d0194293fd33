/**
 * A share link or a preset id → the scenario and view it opens, or a typed error; never throws. The
 * page resolves on its thread (src/share/source.ts), the embed in the engine's worker (a `resolve`
 * ask), so the link decoder and the presets stay out of the embed's main bundle.
 */
import { decodeLink, findPreset, looksLikeLink, PRESETS } from '../../sim';
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
  const shown = t.length > 40 ? `${t.slice(0, 40)}…` : t;
  return {
    ok: false,
    error: {
      kind: 'invalid',
      message: `"${shown}" is neither an EOS Lab share link (it would contain "#s=") nor the id of a shipped scenario (such as ${PRESETS.slice(
        0,
        3,
      )
        .map((p) => p.id)
        .join(', ')}).`,
    },
  };
}
