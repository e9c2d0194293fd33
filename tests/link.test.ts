/**
 * Share links: every preset survives scenario → link → scenario and replays to the same traceHash;
 * every preset's link fits in 2,000 characters; every kind of damaged or hostile link ends in a
 * typed error with a sentence, never an exception; older link formats are migrated forward.
 */
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { toBase64Url } from '../src/sim/scenario/base64url';
import { DEFAULT_LINK_VIEW, decodeLink, encodeLink, LINK_LIMITS, type LinkView, looksLikeLink } from '../src/sim/scenario/link';
import { LINK_DICTIONARY_V1 } from '../src/sim/scenario/linkDictionary';
import { type LinkMigration, LinkMigrationError } from '../src/sim/scenario/linkMigrations';
import { validateScenario } from '../src/sim/scenario/validate';

const view: LinkView = { step: 3, selection: { kind: 'record', topic: 'orders', partition: 0, offset: 100 }, language: 'ko' };

/** Builds a link the way format 1 does, around any JSON text (to make well-formed but wrong payloads). */
function rawLink(json: string, version = 1, dictionary: string | null = LINK_DICTIONARY_V1): string {
  const bytes = deflateSync(strToU8(json), dictionary === null ? { level: 9 } : { level: 9, dictionary: strToU8(dictionary) });
  return `#s=${version}.${toBase64Url(bytes)}`;
}

function expectError(link: string, kind: string): string {
  const d = decodeLink(link);
  expect(d.ok).toBe(false);
  if (d.ok) return '';
  expect(d.error.kind).toBe(kind);
  expect(d.error.message.length).toBeGreaterThan(30);
  return d.error.message;
}

describe('share links: presets', () => {
  it('ships at least one preset to test against', () => {
    expect(PRESETS.length).toBeGreaterThan(0);
  });

  for (const preset of PRESETS) {
    it(`${preset.id}: scenario → link → scenario is identical and replays to the same traceHash`, () => {
      const v = validateScenario(preset.scenario);
      expect(v.ok).toBe(true);
      if (!v.ok) return;
      const link = encodeLink(v.resolved.scenario, view);
      const back = decodeLink(link);
      expect(back.ok).toBe(true);
      if (!back.ok) return;
      expect(back.scenario).toEqual(preset.scenario);
      expect(back.view).toEqual(view);
      expect(back.migratedFrom).toBeUndefined();
      expect(encodeLink(back.scenario, back.view)).toBe(link);
      expect(runScenario(back.scenario).traceHash).toBe(runScenario(preset.scenario).traceHash);
    });

    it(`${preset.id}: its link fits in ${LINK_LIMITS.targetChars} characters`, () => {
      const link = encodeLink(preset.scenario, {
        step: 123456,
        selection: { kind: 'actor', id: 'orders-service.producer' },
        language: 'ko',
      });
      expect(link.length).toBeLessThanOrEqual(LINK_LIMITS.targetChars);
    });
  }

  it('a link made before connections stalled, and its drop, delay and duplicate, still opens and runs', () => {
    // encoded by the build before the network became per-connection (opening-story with three envelope faults)
    const old =
      '#s=1.zZe_CsJADMZfJThVqFJdBEGc3V0d1Ao6aIUqpUPBh_AJfRK_5Nq7nC3WPwhOhfaau0vy_ZK0nIm1hzj10lOCkuoOONOggKoPIeUsa-jE6TAxL8SZRn3-vephmnCU6Ha5UppQts0p3sW0z51NjCMblGNjk1VAQZX2AJ8kfddsFbKcy6yJLH4GUUTLQ4znYOq7dZ4lbF2GnWx32jqgQrTyj92IDdfthcTYhiuACodJMVVRMqVy9Visa4ivMeyAUQyOoLxBn-ZYVII13vQsUs2khVKNY8h-MmOFhPqAL0fhBq3OyFAeLeTYad9myUhJrjXhvd4Ply3QD_5GmyCBSWqx-2cUVf2OOZOsmulFquwPIbz3a3WwdDGTmtntFAve-TvCogF_1us1A_gV9hecC3XsNbU6tsXh6zQ2T94MLTH3riB_D5WLR0hFZeuxRevoGd_tDnd-gMg7';
    const d = decodeLink(old);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.scenario.faults?.map((f) => f.type)).toEqual(['drop', 'delay', 'duplicate']);
    expect(runScenario(d.scenario).stopReason).toBe('quiescent');
  });

  it('a reset fault survives scenario → link → scenario', () => {
    const preset = PRESETS[0]!;
    const scenario = { ...preset.scenario, faults: [{ type: 'reset' as const, rpc: 'Produce', to: 'broker-0', nth: 1 }] };
    const back = decodeLink(encodeLink(scenario, DEFAULT_LINK_VIEW));
    expect(back.ok && back.scenario).toEqual(scenario);
  });

  it('is deterministic and reads the link from a whole URL, a fragment or a bare link', () => {
    const preset = PRESETS[0]!;
    const link = encodeLink(preset.scenario, DEFAULT_LINK_VIEW);
    expect(encodeLink(preset.scenario, DEFAULT_LINK_VIEW)).toBe(link);
    expect(link).toMatch(/^#s=1\.[A-Za-z0-9_-]+$/);
    for (const form of [link, link.slice(1), `https://example.org/docs/eos-lab/index.html${link}`, `  ${link}\n`]) {
      const d = decodeLink(form);
      expect(d.ok, form.slice(0, 60)).toBe(true);
    }
    expect(looksLikeLink(link)).toBe(true);
    expect(looksLikeLink('{"version":1}')).toBe(false);
  });

  it('drops a selection the link format cannot carry rather than writing an unreadable link', () => {
    const preset = PRESETS[0]!;
    const odd = { step: 2, selection: { kind: 'lane', id: 7 }, language: 'en' } as unknown as LinkView;
    const d = decodeLink(encodeLink(preset.scenario, odd));
    expect(d.ok && d.view).toEqual({ step: 2, selection: null, language: 'en' });
  });
});

describe('share links: damaged and hostile input gives typed errors', () => {
  const good = encodeLink(PRESETS[0]!.scenario, view);

  it('truncated link → corrupt', () => {
    for (const cut of [good.length - 1, good.length - 17, Math.floor(good.length / 2), 12]) {
      const message = expectError(good.slice(0, cut), 'corrupt');
      expect(message).toMatch(/copy the whole link again/);
    }
  });

  it('bad base64 → corrupt, naming the character and its position', () => {
    const message = expectError('#s=1.abc%20def', 'corrupt');
    expect(message).toContain('"%"');
    expect(message).toContain('position 3');
    expectError('#s=1.ab=c', 'corrupt');
    expectError('#s=1.a', 'corrupt'); // a length no whole bytes give
  });

  it('no prefix, no version, no data → corrupt', () => {
    expectError('', 'corrupt');
    expectError('#gallery', 'corrupt');
    expectError('#s=', 'corrupt');
    expectError('#s=x.abcd', 'corrupt');
    expectError('#s=1', 'corrupt');
    expectError('#s=1.', 'corrupt');
  });

  it('a newer or unreadable version → unknown-version', () => {
    const newer = expectError(good.replace('#s=1.', '#s=2.'), 'unknown-version');
    expect(newer).toContain('newer version');
    expect(newer).toContain('format 2');
    const older = expectError(good.replace('#s=1.', '#s=0.'), 'unknown-version');
    expect(older).toContain('format 0');
  });

  it('a huge fragment → too-large before any work', () => {
    const message = expectError(`#s=1.${'A'.repeat(LINK_LIMITS.maxFragmentChars)}`, 'too-large');
    expect(message).toContain('100,000');
    expectError(`#s=1.${'A'.repeat(10_000_000)}`, 'too-large');
  });

  it('valid base64 of garbage → corrupt', () => {
    expectError(`#s=1.${toBase64Url(new Uint8Array([255, 0, 17, 99, 3, 200, 14, 1, 2, 3]))}`, 'corrupt');
    expectError(`#s=1.${toBase64Url(strToU8('hello, this is not deflate at all'))}`, 'corrupt');
  });

  it('deflate of something that is not JSON, or not UTF-8 → corrupt', () => {
    expect(expectError(rawLink('{"scenario": '), 'corrupt')).toContain('not valid JSON');
    const notUtf8 = `#s=1.${toBase64Url(deflateSync(new Uint8Array([0xff, 0xfe, 0x80]), { dictionary: strToU8(LINK_DICTIONARY_V1) }))}`;
    expect(expectError(notUtf8, 'corrupt')).toContain('UTF-8');
  });

  it('a deflate bomb → too-large, quickly', () => {
    const bomb = deflateSync(new Uint8Array(20_000_000).fill(32), { level: 9, dictionary: strToU8(LINK_DICTIONARY_V1) });
    const link = `#s=1.${toBase64Url(bomb)}`;
    expect(link.length).toBeLessThan(LINK_LIMITS.maxFragmentChars);
    expect(expectError(link, 'too-large')).toContain('1,000,000 bytes');
  });

  it('well-formed JSON that is not a link document → invalid', () => {
    expectError(rawLink('[1,2,3]'), 'invalid');
    expectError(rawLink('{"scenario":{},"view":{},"extra":1}'), 'invalid');
  });

  it('an invalid scenario or view → invalid, with JSON paths', () => {
    const scenario = { ...PRESETS[0]!.scenario, seed: -4, clients: [{ id: 'p', type: 'producer', config: { acks: 'two' }, script: [] }] };
    const d = decodeLink(rawLink(JSON.stringify({ scenario, view: { step: -1, selection: null, language: 'fr' } })));
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.error.kind).toBe('invalid');
    const paths = (d.error.details ?? []).map((e) => e.path);
    expect(paths).toContain('view.step');
    expect(paths).toContain('view.language');
    expect(paths).toContain('scenario.seed');
    for (const e of d.error.details ?? []) expect(e.message.length).toBeGreaterThan(3);
  });

  it('never throws on mutated links', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const alphabet = 'ABCxyz019-_.=#%s';
    for (let n = 0; n < 500; n++) {
      const chars = good.split('');
      const edits = 1 + Math.floor(rnd() * 4);
      for (let e = 0; e < edits; e++) chars[Math.floor(rnd() * chars.length)] = alphabet[Math.floor(rnd() * alphabet.length)]!;
      const d = decodeLink(chars.join(''));
      if (!d.ok) expect(['corrupt', 'unknown-version', 'too-large', 'invalid']).toContain(d.error.kind);
      else expect(validateScenario(d.scenario).ok).toBe(true);
    }
  });
});

describe('share links: migration of older formats', () => {
  // TEST FIXTURE ONLY: a synthetic link "format 0" that never shipped. It had a flat shape
  // { sc: <scenario>, at: <step>, lang }, no selection, and no preset dictionary. It exists to prove
  // that the migration chain runs before validation and that its failures are typed errors.
  const FORMAT_0_TO_1: LinkMigration = {
    from: 0,
    to: 1,
    summary: 'format 0 (test fixture) stored { sc, at, lang }; format 1 stores { scenario, view }',
    migrate(data) {
      const d = data as { sc?: unknown; at?: unknown; lang?: unknown };
      if (typeof d !== 'object' || d === null || !('sc' in d)) throw new LinkMigrationError('it has no "sc" field');
      return { scenario: d.sc, view: { step: d.at ?? 0, selection: null, language: d.lang === 'ko' ? 'ko' : 'en' } };
    },
  };
  const preset = PRESETS[0]!;

  it('migrates a format-0 link to format 1, validates it, and says it did', () => {
    const old = rawLink(JSON.stringify({ sc: preset.scenario, at: 4, lang: 'ko' }), 0, null);
    const d = decodeLink(old, { migrations: [FORMAT_0_TO_1] });
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.migratedFrom).toBe(0);
    expect(d.scenario).toEqual(preset.scenario);
    expect(d.view).toEqual({ step: 4, selection: null, language: 'ko' });
  });

  it('reports a migration that fails as invalid', () => {
    const old = rawLink(JSON.stringify({ scenario: preset.scenario }), 0, null);
    const d = decodeLink(old, { migrations: [FORMAT_0_TO_1] });
    expect(!d.ok && d.error.kind).toBe('invalid');
    expect(!d.ok && d.error.message).toContain('no "sc" field');
  });

  it('validates what a migration produced like any scenario', () => {
    const old = rawLink(JSON.stringify({ sc: { ...preset.scenario, topics: [] }, at: 1 }), 0, null);
    const d = decodeLink(old, { migrations: [FORMAT_0_TO_1] });
    expect(!d.ok && d.error.kind).toBe('invalid');
    expect(!d.ok && d.error.details?.map((e) => e.path)).toContain('scenario.topics');
  });

  it('without the migration, format 0 is an unknown version', () => {
    const old = rawLink(JSON.stringify({ sc: preset.scenario, at: 4 }), 0, null);
    expect(decodeLink(old).ok).toBe(false);
    expect(!decodeLink(old).ok && (decodeLink(old) as { error: { kind: string } }).error.kind).toBe('unknown-version');
  });
});
