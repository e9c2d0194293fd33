/**
 * Share links: a whole scenario (configuration, behaviour, injected faults, seed) and the view
 * (step, selection, language) in a URL fragment, `#s=1.<payload>`, where the payload is the JSON of
 * `{ scenario, view }` compressed with deflate-raw (fflate, synchronous and byte-identical in Node
 * and every browser; a frozen preset dictionary, linkDictionary.ts, makes it a third shorter) and
 * written in base64url. Links carry inputs, never the computed trace: opening
 * one replays the run.
 *
 * Decoding never throws. Anything wrong — a link cut off in a chat, a changed character, a link from
 * a newer EOS Lab, a huge or hostile payload, a scenario that no longer validates — comes back as a
 * typed error with a sentence a person can act on. Older link formats are migrated forward
 * (linkMigrations.ts) and then validated like a scenario made today.
 */
import { deflateSync, Inflate, strToU8 } from 'fflate';
import * as v from 'valibot';
import { josa } from '../narration/language';
import { type LinkSearch, LinkSearchSchema } from '../search/searchLink';
import { fromBase64Url, toBase64Url } from './base64url';
import { describeIssue } from './issues';
import { parseJsonText } from './jsonText';
import { LINK_DICTIONARY_V1 } from './linkDictionary';
import { LINK_MIGRATIONS, type LinkMigration, migrateLinkData, oldestReadableVersion } from './linkMigrations';
import { joinPath, reservedKeyErrors } from './reservedKeys';
import { LIMITS, type Scenario } from './schema';
import { type ScenarioError, validateScenario } from './validate';

/** The link format this build writes. */
export const LINK_VERSION = 1;
/** What every link's fragment starts with, before the version. */
export const LINK_KEY = 's=';

export const LINK_LIMITS = {
  /** A longer fragment is refused before any work is done. */
  maxFragmentChars: 100_000,
  /** Decompression stops past this many bytes (a deflate bomb expands ~1000×). */
  maxInflatedBytes: 1_000_000,
  /** Shipped presets must fit: chat tools and mail clients cut longer links. */
  targetChars: 2_000,
} as const;

export type LinkLanguage = 'en' | 'ko';

export type LinkSelection =
  | { readonly kind: 'record'; readonly topic: string; readonly partition: number; readonly offset: number }
  | { readonly kind: 'envelope'; readonly id: number }
  | { readonly kind: 'actor'; readonly id: string }
  | { readonly kind: 'step'; readonly index: number };

export interface LinkView {
  /** Steps taken: 0 is the start of the run. */
  readonly step: number;
  readonly selection: LinkSelection | null;
  readonly language: LinkLanguage;
  /**
   * Whether playback passes over background steps (heartbeats, idle fetches). Absent means yes;
   * a link says `false` only when the person turned it off, so older links stay as they were.
   */
  readonly skipIdle?: boolean;
  /** A Break it search to open with the run: its settings and, once it finished, its answer. */
  readonly search?: LinkSearch;
}

export const DEFAULT_LINK_VIEW: LinkView = { step: 0, selection: null, language: 'en' };

export type LinkErrorKind = 'corrupt' | 'unknown-version' | 'too-large' | 'invalid';

export interface LinkError {
  readonly kind: LinkErrorKind;
  /** One or two sentences: what is wrong, and what to do. */
  readonly message: string;
  /** The same in Korean. */
  readonly ko?: string;
  /** For `invalid`: each scenario or view problem with its JSON path. */
  readonly details?: readonly ScenarioError[];
}

export type DecodedLink =
  | { readonly ok: true; readonly scenario: Scenario; readonly view: LinkView; readonly migratedFrom?: number }
  | { readonly ok: false; readonly error: LinkError };

export interface DecodeOptions {
  /** Migrations to apply to older link formats (tests pass their own). */
  readonly migrations?: readonly LinkMigration[];
  /** The format to migrate to and validate as (tests only). */
  readonly currentVersion?: number;
}

const DICTIONARY = strToU8(LINK_DICTIONARY_V1);

const nonNegInt = v.pipe(v.number(), v.integer(), v.minValue(0));
const SelectionSchema = v.variant('kind', [
  v.strictObject({ kind: v.literal('record'), topic: v.pipe(v.string(), v.maxLength(200)), partition: nonNegInt, offset: nonNegInt }),
  v.strictObject({ kind: v.literal('envelope'), id: nonNegInt }),
  v.strictObject({ kind: v.literal('actor'), id: v.pipe(v.string(), v.maxLength(200)) }),
  v.strictObject({ kind: v.literal('step'), index: nonNegInt }),
]);
export const LinkViewSchema = v.strictObject({
  step: v.pipe(nonNegInt, v.maxValue(LIMITS.maxSteps)),
  selection: v.nullable(SelectionSchema),
  language: v.picklist(['en', 'ko']),
  skipIdle: v.optional(v.boolean()),
  search: v.optional(LinkSearchSchema),
});
const DocumentSchema = v.strictObject({ scenario: v.unknown(), view: v.unknown() });

/** A selection the link format can carry, or null (the store may know kinds a link does not). */
export function toLinkSelection(selection: unknown): LinkSelection | null {
  const r = v.safeParse(SelectionSchema, selection);
  return r.success ? r.output : null;
}

/** `#s=1.<payload>` for a scenario and a view. Deterministic: the same input gives the same link. */
export function encodeLink(scenario: Scenario, view: LinkView): string {
  const safeView: LinkView = {
    step: Math.max(0, Math.min(Math.floor(view.step) || 0, LIMITS.maxSteps)),
    selection: toLinkSelection(view.selection),
    language: view.language === 'ko' ? 'ko' : 'en',
    ...(view.skipIdle === false ? { skipIdle: false } : {}),
    ...(view.search && v.is(LinkSearchSchema, view.search) ? { search: view.search } : {}),
  };
  const json = JSON.stringify({ scenario, view: safeView });
  return `#${LINK_KEY}${LINK_VERSION}.${toBase64Url(deflateSync(strToU8(json), { level: 9, dictionary: DICTIONARY }))}`;
}

/** True when the text looks like a share link (with or without '#', or a whole URL), valid or not. */
export function looksLikeLink(text: string): boolean {
  return fragmentOf(text).startsWith(LINK_KEY);
}

/** The part of a URL, fragment or bare link that carries `s=…`. */
function fragmentOf(text: string): string {
  const t = text.trim();
  const hash = t.indexOf('#');
  return hash >= 0 ? t.slice(hash + 1) : t;
}

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

interface Words {
  readonly en: string;
  readonly ko: string;
}

const fail = (kind: LinkErrorKind, words: Words, details?: readonly ScenarioError[]): DecodedLink => ({
  ok: false,
  error: details ? { kind, message: words.en, ko: words.ko, details } : { kind, message: words.en, ko: words.ko },
});

const COPY_AGAIN: Words = {
  en: 'It was probably cut off or changed when it was copied: copy the whole link again, or open the default scenario.',
  ko: '복사하다가 잘렸거나 바뀐 것 같습니다. 링크 전체를 다시 복사하거나 기본 시나리오를 여세요.',
};
const damaged = (en: string, ko: string): Words => ({ en: `${en} ${COPY_AGAIN.en}`, ko: `${ko} ${COPY_AGAIN.ko}` });

/** A scenario error's path inside the link document ("scenario.clients[0]…"). */
function inScenario(path: string): string {
  if (path === '(scenario)') return 'scenario';
  return path.startsWith('[') ? `scenario${path}` : `scenario.${path}`;
}

/** Inflates at most `cap` bytes; reports 'too-large' past it and 'corrupt' for bad deflate data. */
function inflateCapped(
  bytes: Uint8Array,
  cap: number,
  dictionary: Uint8Array | undefined,
): { ok: true; bytes: Uint8Array } | { ok: false; kind: 'corrupt' | 'too-large'; reason: string } {
  const parts: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const inflater = new Inflate(dictionary ? { dictionary } : {}, (chunk) => {
    total += chunk.length;
    if (total > cap) over = true;
    else parts.push(chunk);
  });
  // small input slices bound the output of each push (at most ~1032× a slice) so a bomb stops early
  const SLICE = 1024;
  try {
    for (let i = 0; i < bytes.length && !over; i += SLICE) {
      const end = Math.min(i + SLICE, bytes.length);
      inflater.push(bytes.subarray(i, end), end === bytes.length);
    }
    if (bytes.length === 0) inflater.push(bytes, true);
  } catch (e) {
    if (over) return { ok: false, kind: 'too-large', reason: '' };
    return { ok: false, kind: 'corrupt', reason: (e as Error).message || 'invalid deflate data' };
  }
  if (over) return { ok: false, kind: 'too-large', reason: '' };
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { ok: true, bytes: out };
}

/** Reads a share link (`#s=1.…`, `s=1.…` or a whole URL). Never throws. */
export function decodeLink(input: string, options: DecodeOptions = {}): DecodedLink {
  const migrations = options.migrations ?? LINK_MIGRATIONS;
  const current = options.currentVersion ?? LINK_VERSION;
  if (typeof input !== 'string')
    return fail('corrupt', { en: 'This is not an EOS Lab link: a link is text.', ko: 'EOS Lab 링크가 아닙니다. 링크는 텍스트입니다.' });
  if (input.length > LINK_LIMITS.maxFragmentChars)
    return fail('too-large', {
      en: `This link is ${thousands(input.length)} characters long; EOS Lab opens links of at most ${thousands(LINK_LIMITS.maxFragmentChars)}. Share a scenario this big as a JSON file (Export → Scenario JSON) instead.`,
      ko: `이 링크는 ${thousands(input.length)}자입니다. EOS Lab은 최대 ${thousands(LINK_LIMITS.maxFragmentChars)}자의 링크까지 엽니다. 이렇게 큰 시나리오는 JSON 파일(내보내기 → 시나리오 JSON)로 공유하세요.`,
    });
  const fragment = fragmentOf(input);
  if (!fragment.startsWith(LINK_KEY))
    return fail(
      'corrupt',
      damaged(
        `This is not an EOS Lab scenario link: the part after "#" should start with "${LINK_KEY}".`,
        `EOS Lab 시나리오 링크가 아닙니다. "#" 뒤는 "${LINK_KEY}"로 시작해야 합니다.`,
      ),
    );
  const body = fragment.slice(LINK_KEY.length);
  const dot = body.indexOf('.');
  const versionText = dot >= 0 ? body.slice(0, dot) : body;
  if (!/^\d{1,6}$/.test(versionText))
    return fail(
      'corrupt',
      damaged(
        `This link is damaged: it should start with "${LINK_KEY}<version>." (for example "${LINK_KEY}${LINK_VERSION}.").`,
        `링크가 손상됐습니다. "${LINK_KEY}<버전>."으로 시작해야 합니다(예: "${LINK_KEY}${LINK_VERSION}.").`,
      ),
    );
  const version = Number(versionText);
  if (version > current)
    return fail('unknown-version', {
      en: `This link was made by a newer version of EOS Lab (link format ${version}; this page reads format ${current} and older). Open it with the EOS Lab that made it, or ask for the scenario as a JSON file.`,
      ko: `더 새로운 버전의 EOS Lab에서 만든 링크입니다(링크 형식 ${version}, 이 페이지는 형식 ${current} 이하만 읽음). 링크를 만든 EOS Lab으로 열거나 시나리오를 JSON 파일로 받으세요.`,
    });
  const oldest = oldestReadableVersion(current, migrations);
  if (version < oldest)
    return fail('unknown-version', {
      en: `This link uses link format ${version}, which this version of EOS Lab cannot read (it reads formats ${oldest} to ${current}). Ask for the scenario as a JSON file, or open it with an older EOS Lab.`,
      ko: `이 링크는 링크 형식 ${josa(String(version), '을/를')} 씁니다. 이 버전의 EOS Lab은 형식 ${oldest}부터 ${current}까지만 읽습니다. 시나리오를 JSON 파일로 받거나 이전 버전의 EOS Lab으로 여세요.`,
    });
  if (dot < 0 || dot === body.length - 1)
    return fail(
      'corrupt',
      damaged(
        `This link is damaged: it has no scenario data after "${LINK_KEY}${versionText}.".`,
        `링크가 손상됐습니다. "${LINK_KEY}${versionText}." 뒤에 시나리오 데이터가 없습니다.`,
      ),
    );

  const decoded = fromBase64Url(body.slice(dot + 1));
  if (!decoded.ok)
    return fail(
      'corrupt',
      damaged(
        `This link is damaged: ${decoded.reason} (at position ${decoded.position} of its data).`,
        `링크가 손상됐습니다. 데이터의 ${decoded.position}번째 위치에서 읽을 수 없습니다(${decoded.reason}).`,
      ),
    );
  const dictionary = version === current ? DICTIONARY : migrations.find((m) => m.from === version)?.dictionary;
  const inflated = inflateCapped(
    decoded.bytes,
    LINK_LIMITS.maxInflatedBytes,
    typeof dictionary === 'string' ? strToU8(dictionary) : dictionary,
  );
  if (!inflated.ok) {
    if (inflated.kind === 'too-large')
      return fail('too-large', {
        en: `This link unpacks to more than ${thousands(LINK_LIMITS.maxInflatedBytes)} bytes; EOS Lab refuses it to protect your browser. Share a scenario this big as a JSON file instead.`,
        ko: `이 링크는 풀면 ${thousands(LINK_LIMITS.maxInflatedBytes)}바이트를 넘습니다. 브라우저를 보호하려고 열지 않습니다. 이렇게 큰 시나리오는 JSON 파일로 공유하세요.`,
      });
    return fail(
      'corrupt',
      damaged(
        `This link is damaged: its data does not decompress (${inflated.reason}).`,
        `링크가 손상됐습니다. 데이터의 압축을 풀 수 없습니다(${inflated.reason}).`,
      ),
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated.bytes);
  } catch {
    return fail(
      'corrupt',
      damaged('This link is damaged: its data is not UTF-8 text.', '링크가 손상됐습니다. 데이터가 UTF-8 텍스트가 아닙니다.'),
    );
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    return fail(
      'corrupt',
      damaged(`This link is damaged: its data is ${parsed.problem.en}.`, `링크가 손상됐습니다. 데이터가 ${parsed.problem.ko}`),
    );
  let data = parsed.value;

  let migratedFrom: number | undefined;
  if (version < current) {
    const m = migrateLinkData(data, version, current, migrations);
    if (!m.ok)
      return fail('invalid', {
        en: `This link comes from an older EOS Lab and could not be brought up to date: ${m.message}.`,
        ko: `이전 버전의 EOS Lab에서 만든 링크인데 최신 형식으로 바꾸지 못했습니다: ${m.message}.`,
      });
    data = m.data;
    migratedFrom = version;
  }

  const notADocument: Words = {
    en: 'This link opens, but it does not hold a scenario and a view: it was not made by EOS Lab, or was edited by hand.',
    ko: '링크는 열리지만 시나리오와 보기 정보가 들어 있지 않습니다. EOS Lab이 만든 링크가 아니거나 손으로 고친 링크입니다.',
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('invalid', notADocument);
  const details: ScenarioError[] = [];
  // __proto__, constructor and prototype in the document or its view would be dropped without a word
  const reserved = reservedKeyErrors({ ...data, scenario: undefined });
  for (const r of reserved) details.push({ path: r.path, message: r.en, ko: r.ko });
  const doc = v.safeParse(DocumentSchema, data);
  if (!doc.success && !reserved.length) return fail('invalid', notADocument);
  const view = doc.success ? v.safeParse(LinkViewSchema, doc.output.view) : null;
  if (view && !view.success)
    for (const issue of view.issues.slice(0, 10)) {
      const words = describeIssue(issue, LinkViewSchema, doc.success ? doc.output.view : undefined);
      let path = 'view';
      for (const p of issue.path ?? []) path = joinPath(path, p.key as string | number);
      details.push({ path, message: words.en, ko: words.ko });
    }
  const scenario = validateScenario(doc.success ? doc.output.scenario : (data as { scenario?: unknown }).scenario);
  if (!scenario.ok) details.push(...scenario.errors.map((e) => ({ ...e, path: inScenario(e.path) })));
  if (details.length || !scenario.ok || !view?.success)
    return fail(
      'invalid',
      {
        en: `This link opens, but what it holds cannot run (${details.length === 1 ? 'one problem' : `${details.length} problems`}, listed below). It may come from an EOS Lab with other rules, or have been edited by hand.`,
        ko: `링크는 열리지만 안에 든 것을 실행할 수 없습니다(아래 문제 ${details.length}개). 규칙이 다른 EOS Lab에서 만들었거나 손으로 고친 링크일 수 있습니다.`,
      },
      details,
    );
  return migratedFrom === undefined
    ? { ok: true, scenario: scenario.resolved.scenario, view: view.output }
    : { ok: true, scenario: scenario.resolved.scenario, view: view.output, migratedFrom };
}
