/**
 * More than 10,000 hostile inputs to the share-link decoder — random text, random base64url data,
 * compressed random bytes, every truncation of every preset's link, every single-character change
 * of a link, wrong versions, oversized links, deflate bombs, compressed documents with a wrong type
 * at every path, deep nesting, prototype-pollution keys, a byte order mark, arrays, huge numbers and
 * control characters — each ends in a typed error (a kind and a sentence in English and Korean, with
 * path-qualified details for an invalid scenario) or a scenario that validates and a view. Never an
 * exception; a hang would fail the test by its timeout.
 */
import fc from 'fast-check';
import { deflateSync, strToU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { toBase64Url } from '../../src/sim/scenario/base64url';
import { type DecodedLink, decodeLink, encodeLink, LINK_LIMITS, type LinkView } from '../../src/sim/scenario/link';
import { LINK_DICTIONARY_V1 } from '../../src/sim/scenario/linkDictionary';
import { validateScenario } from '../../src/sim/scenario/validate';
import {
  bomTexts,
  controlCharacterMutations,
  deepText,
  hugeNumberMutations,
  notAnObjectTexts,
  pollutionTexts,
  truncations,
  wrongTypeMutations,
} from './mutations';
import { RICH_SCENARIO } from './samples';

const VIEW: LinkView = { step: 3, selection: { kind: 'record', topic: 'orders', partition: 0, offset: 100 }, language: 'ko' };
const KINDS = new Set(['corrupt', 'unknown-version', 'too-large', 'invalid']);
let inputs = 0;
const outcomes = new Map<string, number>();

/** Packs any text as link data, the way encodeLink does. */
function packText(text: string, dictionary = true): string {
  return `#s=1.${toBase64Url(deflateSync(strToU8(text), { level: 9, ...(dictionary ? { dictionary: strToU8(LINK_DICTIONARY_V1) } : {}) }))}`;
}
const pack = (doc: unknown) => packText(JSON.stringify(doc));

/** What went wrong with one input, or null when it decoded to a typed error or a valid scenario and view. */
function judge(input: string): string | null {
  inputs += 1;
  let d: DecodedLink;
  try {
    d = decodeLink(input);
  } catch (e) {
    return `threw ${(e as Error).name}: ${(e as Error).message}`;
  }
  if (d.ok) {
    outcomes.set('ok', (outcomes.get('ok') ?? 0) + 1);
    if (!validateScenario(d.scenario).ok) return 'decoded a scenario that does not validate';
    if (!Number.isInteger(d.view.step) || d.view.step < 0) return `decoded a bad view ${JSON.stringify(d.view)}`;
    return null;
  }
  const e = d.error;
  outcomes.set(e.kind, (outcomes.get(e.kind) ?? 0) + 1);
  if (!KINDS.has(e.kind)) return `unknown error kind ${e.kind}`;
  if (typeof e.message !== 'string' || e.message.length < 10) return `no sentence: ${JSON.stringify(e)}`;
  if (typeof e.ko !== 'string' || e.ko.length < 10) return `no Korean sentence: ${JSON.stringify(e)}`;
  for (const x of e.details ?? [])
    if (typeof x.path !== 'string' || typeof x.message !== 'string') return `untyped detail ${JSON.stringify(x)}`;
  return null;
}

function problems(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const x of list) {
    const p = judge(x);
    if (p) out.push(`${p} — input ${x.slice(0, 200)}`);
  }
  return out;
}

const links = PRESETS.map((p) => encodeLink(p.scenario, VIEW));
const rich = encodeLink(RICH_SCENARIO, VIEW);
const protoKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');
const cleanProto = protoKeys();

describe('the share-link decoder under hostile input', () => {
  it('round-trips the starting links', () => {
    for (const [i, link] of [rich, ...links].entries()) {
      const d = decodeLink(link);
      expect(d.ok, `link ${i}`).toBe(true);
    }
  });

  it('random text, with and without a link prefix', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => judge(s) === null && judge(`#s=1.${s}`) === null),
      { numRuns: 1500, seed: 11 },
    );
  });

  it('random base64url data', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{0,400}$/), (s) => judge(`#s=1.${s}`) === null),
      { numRuns: 1500, seed: 12 },
    );
  });

  it('compressed random bytes and random JSON', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, dict) => {
        const link = `#s=1.${toBase64Url(deflateSync(bytes, dict ? { dictionary: strToU8(LINK_DICTIONARY_V1) } : {}))}`;
        return judge(link) === null;
      }),
      { numRuns: 800, seed: 13 },
    );
    fc.assert(
      fc.property(fc.json({ maxDepth: 5 }), (text) => judge(packText(text)) === null),
      { numRuns: 800, seed: 14 },
    );
  });

  it('every truncation of every preset link', () => {
    const list = [rich, ...links].flatMap((l, i) => truncations(l, i < 3 ? 1 : 2));
    expect(list.length).toBeGreaterThan(3000);
    expect(problems(list)).toEqual([]);
  });

  it('every single-character change of a link', () => {
    const alphabet = 'AZaz09-_.=#%';
    const list: string[] = [];
    for (let i = 0; i < rich.length; i++) list.push(rich.slice(0, i) + (alphabet[i % alphabet.length] as string) + rich.slice(i + 1));
    expect(problems(list)).toEqual([]);
  });

  it('wrong versions and prefixes', () => {
    const data = rich.slice(rich.indexOf('.') + 1);
    const list = ['0', '2', '999999', '1000000', '-1', '1e3', '01', '1.5', '', ' 1', 'x'].flatMap((ver) => [
      `#s=${ver}.${data}`,
      `s=${ver}.${data}`,
      `https://example.org/eos/#s=${ver}.${data}`,
    ]);
    list.push('', '#', '#s', '#s=', '#s=1', '#s=1.', '#x=1.abc', 's=1.==', '#s=1.%00');
    expect(problems(list)).toEqual([]);
    expect(decodeLink(`#s=2.${data}`)).toMatchObject({ ok: false, error: { kind: 'unknown-version' } });
  });

  it('oversized links and deflate bombs', () => {
    const huge = `#s=1.${'A'.repeat(LINK_LIMITS.maxFragmentChars + 1)}`;
    const tenMb = `#s=1.${'A'.repeat(10 * 1024 * 1024)}`;
    const bomb = packText(' '.repeat(50 * 1024 * 1024));
    const nested = packText(deepText(400000, 'array'));
    expect(bomb.length).toBeLessThan(LINK_LIMITS.maxFragmentChars);
    expect(problems([huge, tenMb, bomb, nested])).toEqual([]);
    expect(decodeLink(bomb)).toMatchObject({ ok: false, error: { kind: 'too-large' } });
    expect(decodeLink(tenMb)).toMatchObject({ ok: false, error: { kind: 'too-large' } });
  });

  it('a wrong type at every path of the document inside a link', () => {
    const list = wrongTypeMutations({ scenario: RICH_SCENARIO, view: VIEW }).map(pack);
    expect(list.length).toBeGreaterThan(3000);
    expect(problems(list)).toEqual([]);
  });

  it('prototype-pollution keys inside the document: refused, naming where', () => {
    const doc = JSON.stringify({ scenario: RICH_SCENARIO, view: VIEW });
    const texts = pollutionTexts(doc).filter((t) => t !== doc);
    const list = texts.map((t) => packText(t));
    expect(problems(list)).toEqual([]);
    for (const link of list) {
      const d = decodeLink(link);
      expect(d.ok).toBe(false);
      if (!d.ok) expect(d.error.details?.some((x) => /\["(__proto__|constructor|prototype)"\]$/.test(x.path))).toBe(true);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(protoKeys()).toBe(cleanProto);
  });

  it('a byte order mark, arrays, huge numbers and control characters inside the document', () => {
    const doc = JSON.stringify({ scenario: RICH_SCENARIO, view: VIEW });
    const bom = bomTexts(doc).map((t) => packText(t));
    expect(problems(bom)).toEqual([]);
    for (const l of bom) expect(decodeLink(l).ok).toBe(true);
    const arrays = notAnObjectTexts(doc).map((t) => packText(t));
    expect(problems(arrays)).toEqual([]);
    const inner = [...notAnObjectTexts(JSON.stringify(RICH_SCENARIO))].map((t) =>
      packText(`{"scenario":${t},"view":${JSON.stringify(VIEW)}}`),
    );
    expect(problems(inner)).toEqual([]);
    const values = [
      ...hugeNumberMutations({ scenario: RICH_SCENARIO, view: VIEW }),
      ...controlCharacterMutations({ scenario: RICH_SCENARIO, view: VIEW }),
    ];
    expect(values.length).toBeGreaterThan(200);
    expect(problems(values.map(pack))).toEqual([]);
  });

  afterAll(() => {
    expect(inputs).toBeGreaterThanOrEqual(10000);
    // the inputs reached every outcome the decoder has
    for (const k of ['ok', 'corrupt', 'unknown-version', 'too-large', 'invalid']) expect(outcomes.get(k) ?? 0, k).toBeGreaterThan(0);
  });
});
