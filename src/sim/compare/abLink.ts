/**
 * An A/B comparison as one link: `#ab=1.<base64url(deflate(JSON))>` of scenario A and either a
 * patch of settings (B = A with them changed) or, for a pair of different scenarios (the gallery's
 * problem/defense pairs), scenario B itself, plus the virtual time the scrubber is at. A new fragment
 * key: share links (`#s=1.…`) keep opening as before.
 */

import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { josa } from '../narration/language';
import { fromBase64Url, toBase64Url } from '../scenario/base64url';
import { errorText } from '../scenario/errorText';
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
  /** Why the link cannot be opened, in English (`reason`) and Korean (`ko`). */
  | { ok: false; reason: string; ko: string };

type Failure = Extract<DecodedAb, { ok: false }>;
const failed = (reason: string, ko: string): Failure => ({ ok: false, reason, ko });
/** Validation errors, each with its path, in English and in Korean (a Korean sentence ends with Kafka's own text, which it quotes). */
const errorsOf = (side: string, errors: readonly { path: string; message: string; ko?: string; quote?: string }[]): Failure =>
  failed(
    `${side}: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
    `${side}: ${errors.map((e) => `${e.path}: ${errorText(e, 'ko')}`).join('; ')}`,
  );

const CHANGE_KEYS = ['target', 'setting', 'value'];

/** The pair a link carries, both scenarios validated; null when the fragment is not an A/B link. */
export function decodeAbLink(hash: string): DecodedAb | null {
  if (!hash.startsWith(AB_PREFIX)) return null;
  const bytes = fromBase64Url(hash.slice(AB_PREFIX.length));
  if (!bytes.ok) return failed(`not base64url at ${bytes.position}`, `${bytes.position}번째 문자가 base64url이 아닙니다`);
  let body: { a?: unknown; b?: unknown; changes?: unknown; t?: unknown };
  try {
    body = JSON.parse(strFromU8(inflateSync(bytes.bytes))) as typeof body;
  } catch {
    return failed('the link is damaged', '링크가 손상되었습니다');
  }
  const a = validateScenario(body.a);
  if (!a.ok) return errorsOf('A', a.errors);
  let changes: SettingChange[] | null = null;
  let bInput: unknown = body.b;
  if (bInput === undefined) {
    if (
      !Array.isArray(body.changes) ||
      !body.changes.every((c) => c && typeof c === 'object' && Object.keys(c).every((k) => CHANGE_KEYS.includes(k)))
    )
      return failed('B: neither a scenario nor a list of settings', 'B: 시나리오도 설정 목록도 아닙니다');
    changes = body.changes as SettingChange[];
    const applied = applySettings(a.resolved.scenario, changes);
    if (applied.unknown.length)
      return failed(
        `B: no ${applied.unknown.map((u) => `${u.target} ${u.setting}`).join(', ')} in A`,
        `B: A에 ${josa(applied.unknown.map((u) => `${u.target} ${u.setting}`).join(', '), '이/가')} 없습니다`,
      );
    bInput = applied.scenario;
  }
  const b = validateScenario(bInput);
  if (!b.ok) return errorsOf('B', b.errors);
  const t = typeof body.t === 'number' && Number.isFinite(body.t) && body.t >= 0 ? body.t : 0;
  return { ok: true, a: a.resolved.scenario, b: b.resolved.scenario, changes, t };
}
