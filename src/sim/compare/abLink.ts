/**
 * An A/B comparison as one link: `#ab=1.<base64url(deflate(JSON))>` of scenario A and either a
 * patch of settings (B = A with them changed) or, for a pair of different scenarios (the gallery's
 * problem/defense pairs), scenario B itself, plus the virtual time the scrubber is at. A new fragment
 * key: share links (`#s=1.…`) keep opening as before.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { fromBase64Url, toBase64Url } from '../scenario/base64url';
import type { Scenario } from '../scenario/schema';
import { validateScenario } from '../scenario/validate';
import { applySettings, type SettingChange } from './settings';

export const AB_PREFIX = '#ab=1.';

export interface AbPair {
  readonly a: Scenario;
  /** B as settings changed from A … */
  readonly changes?: readonly SettingChange[];
  /** … or B as a scenario of its own. */
  readonly b?: Scenario;
  /** Virtual time of the scrubber, ms. */
  readonly t?: number;
}

export function encodeAbLink(pair: AbPair): string {
  const body = { a: pair.a, ...(pair.b ? { b: pair.b } : { changes: pair.changes ?? [] }), ...(pair.t ? { t: pair.t } : {}) };
  return AB_PREFIX + toBase64Url(deflateSync(strToU8(JSON.stringify(body)), { level: 9 }));
}

export type DecodedAb =
  | { ok: true; a: Scenario; b: Scenario; changes: readonly SettingChange[] | null; t: number }
  | { ok: false; reason: string };

const CHANGE_KEYS = ['target', 'setting', 'value'];

/** The pair a link carries, both scenarios validated; null when the fragment is not an A/B link. */
export function decodeAbLink(hash: string): DecodedAb | null {
  if (!hash.startsWith(AB_PREFIX)) return null;
  const bytes = fromBase64Url(hash.slice(AB_PREFIX.length));
  if (!bytes.ok) return { ok: false, reason: `not base64url at ${bytes.position}` };
  let body: { a?: unknown; b?: unknown; changes?: unknown; t?: unknown };
  try {
    body = JSON.parse(strFromU8(inflateSync(bytes.bytes))) as typeof body;
  } catch {
    return { ok: false, reason: 'the link is damaged' };
  }
  const a = validateScenario(body.a);
  if (!a.ok) return { ok: false, reason: `A: ${a.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}` };
  let changes: SettingChange[] | null = null;
  let bInput: unknown = body.b;
  if (bInput === undefined) {
    if (
      !Array.isArray(body.changes) ||
      !body.changes.every((c) => c && typeof c === 'object' && Object.keys(c).every((k) => CHANGE_KEYS.includes(k)))
    )
      return { ok: false, reason: 'B: neither a scenario nor a list of settings' };
    changes = body.changes as SettingChange[];
    const applied = applySettings(a.resolved.scenario, changes);
    if (applied.unknown.length)
      return { ok: false, reason: `B: no ${applied.unknown.map((u) => `${u.target} ${u.setting}`).join(', ')} in A` };
    bInput = applied.scenario;
  }
  const b = validateScenario(bInput);
  if (!b.ok) return { ok: false, reason: `B: ${b.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}` };
  const t = typeof body.t === 'number' && Number.isFinite(body.t) && body.t >= 0 ? body.t : 0;
  return { ok: true, a: a.resolved.scenario, b: b.resolved.scenario, changes, t };
}
