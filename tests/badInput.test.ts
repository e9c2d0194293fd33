/**
 * Bad input to the scenario validator and the link decoder, said plainly: a byte order mark is fine;
 * __proto__, constructor and prototype are refused where they stand (not silently dropped); an array
 * is not a scenario; numbers out of range, JSON syntax errors and unknown fields get sentences that
 * name where and what was expected, in English and Korean.
 */
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { checkConfigValue } from '../src/sim/config/configSpec';
import { PRODUCER_CONFIG } from '../src/sim/config/producerConfig';
import { findPreset } from '../src/sim/presets';
import { toBase64Url } from '../src/sim/scenario/base64url';
import { decodeLink } from '../src/sim/scenario/link';
import { LINK_DICTIONARY_V1 } from '../src/sim/scenario/linkDictionary';
import type { Scenario } from '../src/sim/scenario/schema';
import { parseScenarioJson, type ScenarioError, type Validation, validateScenario } from '../src/sim/scenario/validate';

const story = (): Scenario => structuredClone(findPreset('opening-story')?.scenario as Scenario);
const text = () => JSON.stringify(story());
const errors = (v: Validation): ScenarioError[] => (v.ok ? [] : v.errors);
const pack = (json: string) => `#s=1.${toBase64Url(deflateSync(strToU8(json), { level: 9, dictionary: strToU8(LINK_DICTIONARY_V1) }))}`;
const VIEW = { step: 0, selection: null, language: 'en' };

describe('a byte order mark', () => {
  it('before scenario JSON is accepted', () => {
    const v = parseScenarioJson(`\uFEFF${text()}`);
    expect(errors(v)).toEqual([]);
    expect(v.ok && v.resolved.scenario.id).toBe('opening-story');
  });
  it('in the middle of the text is a syntax error at its line and column', () => {
    expect(errors(parseScenarioJson(`{"version":1,\n\uFEFF"seed":1}`))).toEqual([
      expect.objectContaining({ path: '(scenario)', line: 2, column: 1, message: expect.stringContaining('U+FEFF (a byte order mark)') }),
    ]);
  });
});

describe('__proto__, constructor and prototype', () => {
  const cases: [where: string, json: string, path: string][] = [
    ['at the top', text().replace('{', '{"__proto__":{"polluted":true},'), '["__proto__"]'],
    ['at the top', text().replace('{', '{"constructor":1,'), '["constructor"]'],
    ['as a config key', text().replace('"config":{', '"config":{"__proto__":"x",'), 'clients[0].config["__proto__"]'],
    ['as a header name', text().replace('"headers":{', '"headers":{"prototype":"x",'), 'clients[0].script[0].headers["prototype"]'],
    ['in a topic', text().replace('"topics":[{', '"topics":[{"constructor":{},'), 'topics[0]["constructor"]'],
  ];
  for (const [where, json, path] of cases)
    it(`are refused ${where}, naming the path (${path})`, () => {
      expect(json).not.toBe(text());
      const e = errors(parseScenarioJson(json));
      expect(e.map((x) => x.path)).toEqual([path]);
      expect(e[0]?.message).toMatch(/cannot be used as a field name or a key/);
      expect(e[0]?.ko).toMatch(/필드 이름이나 키로 쓸 수 없는 이름입니다/);
    });

  it('are refused in a share link, in the document and its view too', () => {
    const doc = JSON.stringify({ scenario: story(), view: VIEW });
    for (const [json, path] of [
      [doc.replace('{', '{"__proto__":{"x":1},'), '["__proto__"]'],
      [doc.replace('"view":{', '"view":{"constructor":1,'), 'view["constructor"]'],
      [doc.replace('"headers":{', '"headers":{"__proto__":"x",'), 'scenario.clients[0].script[0].headers["__proto__"]'],
    ] as const) {
      const d = decodeLink(pack(json));
      expect(d.ok).toBe(false);
      if (!d.ok) expect(d.error.details?.map((x) => x.path)).toContain(path);
    }
  });
});

describe('a scenario that is not an object', () => {
  it('an array is said to be an array, not "unknown field 0"', () => {
    const e = errors(parseScenarioJson(`[${text()}]`));
    expect(e).toEqual([
      {
        path: '(scenario)',
        message: 'a scenario is a JSON object { "version": 1, … }, not an array [ … ]: put one scenario in the file, not a list of them',
        ko: '시나리오는 JSON 객체 { "version": 1, … }여야 합니다. 받은 것: 배열 [ … ]. 파일에는 시나리오 목록이 아니라 시나리오 하나를 넣으세요',
      },
    ]);
  });
  it('text, a number, null', () => {
    expect(errors(validateScenario('x'))[0]?.message).toBe('a scenario is a JSON object { "version": 1, … }, not "x"');
    expect(errors(validateScenario(7))[0]?.message).toBe('a scenario is a JSON object { "version": 1, … }, not 7');
    expect(errors(validateScenario(null))[0]?.message).toBe('a scenario is a JSON object { "version": 1, … }, not null');
  });
  it('in a link, the scenario inside is said to be an array', () => {
    const d = decodeLink(pack(JSON.stringify({ scenario: [story()], view: VIEW })));
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error.details?.[0]).toMatchObject({ path: 'scenario', message: expect.stringContaining('not an array') });
  });
});

describe('numbers out of range are sentences', () => {
  it('the seed', () => {
    expect(errors(validateScenario({ ...story(), seed: 9007199254740992 }))).toEqual([
      {
        path: 'seed',
        message: '9007199254740992 is too large; the largest allowed value is 4294967295',
        ko: '9007199254740992: 너무 큽니다. 허용되는 가장 큰 값은 4294967295입니다',
      },
    ]);
    expect(errors(validateScenario({ ...story(), seed: -1 }))[0]?.message).toBe('-1 is too small; the smallest allowed value is 0');
    expect(errors(validateScenario({ ...story(), seed: 1.5 }))[0]?.message).toBe(
      '1.5 is not a whole number; a whole number is expected here',
    );
  });
  it('a time, a partition count, a link view step', () => {
    const s = story();
    expect(errors(validateScenario({ ...s, topics: [{ name: 'orders', partitions: 100 }] }))[0]).toMatchObject({
      path: 'topics[0].partitions',
      message: '100 is too large; the largest allowed value is 64',
    });
    expect(errors(validateScenario({ ...s, run: { maxTimeMs: 1e12 } }))[0]?.message).toBe(
      '1000000000000 is too large; the largest allowed value is 86400000 ms (a day)',
    );
    const d = decodeLink(pack(JSON.stringify({ scenario: s, view: { ...VIEW, step: 1e10 } })));
    expect(d.ok).toBe(false);
    if (!d.ok)
      expect(d.error.details).toEqual([
        expect.objectContaining({
          path: 'view.step',
          message: expect.stringMatching(/^10000000000 is too large; the largest allowed value is \d+$/),
        }),
      ]);
  });
  it('a config value beyond what its type holds (linger.ms is a LONG in Kafka; an INT is 32 bits)', () => {
    const withConfig = (config: Record<string, number>) => {
      const s = story();
      const c = s.clients[0];
      if (c?.type === 'producer') c.config = { ...c.config, ...config };
      return errors(validateScenario(s));
    };
    expect(withConfig({ 'linger.ms': 9007199254740992 })).toEqual([
      {
        path: 'clients[0].config["linger.ms"]',
        message:
          'linger.ms=9007199254740992 is more than this simulator holds exactly (at most 9007199254740991 either way, JavaScript’s largest exact whole number; Kafka’s LONG goes to 9223372036854775807). This is the simulator’s limit, not Kafka’s.',
        ko: '이 시뮬레이터는 linger.ms에 절댓값 9007199254740991 이하의 정수만 정확히 담습니다(자바스크립트 숫자의 한계). 이 제한은 Kafka가 아니라 이 시뮬레이터의 것입니다.',
      },
    ]);
    expect(withConfig({ 'linger.ms': 4294967296 })).toEqual([]);
    // checkConfigValue itself: ConfigDef's INT and LONG ranges when the key sets none
    const spec = (name: string) => {
      const k = PRODUCER_CONFIG.find((x) => x.name === name);
      if (!k) throw new Error(name);
      return k;
    };
    expect(spec('linger.ms').type).toBe('long');
    expect(spec('batch.size').type).toBe('int');
    expect(checkConfigValue(spec('batch.size'), 2147483647)).toBeNull();
    expect(checkConfigValue(spec('linger.ms'), Number.MAX_SAFE_INTEGER)).toBeNull();
    // ConfigDef.Range.ensureValid and ConfigDef.parseType (clients/.../common/config/ConfigDef.java)
    expect(checkConfigValue(spec('linger.ms'), -1)).toBe(
      'ConfigException: Invalid value -1 for configuration linger.ms: Value must be at least 0',
    );
    expect(checkConfigValue(spec('linger.ms'), 'soon')).toBe(
      'ConfigException: Invalid value soon for configuration linger.ms: Not a number of type LONG',
    );
    expect(withConfig({ 'batch.size': 2147483648 })[0]?.message).toBe(
      'ConfigException: Invalid value 2147483648 for configuration batch.size: Expected value to be a 32-bit integer, but it was a java.lang.Long',
    );
  });
});

describe('every error names where and what was expected', () => {
  it('JSON syntax: line and column, what was expected, what was found', () => {
    const e = errors(parseScenarioJson('{\n  "version": 1,\n  "seed": 1,\n  "topics": [,]\n}'));
    expect(e).toEqual([
      {
        path: '(scenario)',
        line: 4,
        column: 14,
        message:
          'not valid JSON at line 4, column 14: expected a value (an object, a list, text in double quotes, a number, true, false or null) or "]", found \',\'',
        ko: '올바른 JSON이 아닙니다(4행 14열). 와야 할 것: 값(객체, 목록, 큰따옴표로 감싼 텍스트, 숫자, true, false, null 중 하나)이나 "]". 실제로 있는 것: \',\'.',
      },
    ]);
    expect(errors(parseScenarioJson(text().slice(0, 40)))[0]?.message).toMatch(
      /^not valid JSON at line 1, column 41: expected .*found the end of the text/,
    );
    expect(errors(parseScenarioJson('{"version": 1}}'))[0]?.message).toMatch(/line 1, column 15: expected the end of the text/);
  });
  it('an unknown field lists the fields allowed there', () => {
    const s = { ...story(), titel: 'x' };
    expect(errors(validateScenario(s))[0]?.message).toBe(
      'unknown field "titel": the fields allowed here are version, id, title, question, expected, expectedVerdict, description, foundBy, seed, cluster, network, topics, clients, sinks, faults, run (see docs/scenario-format.md)',
    );
    const c = story();
    (c.clients[1] as Record<string, unknown>).topic = 'orders';
    expect(errors(validateScenario(c))[0]).toMatchObject({
      path: 'clients[1].topic',
      message:
        'unknown field "topic": the fields allowed here are id, type, config, topics, processing, startAt (see docs/scenario-format.md)',
      ko: expect.stringContaining('여기에 쓸 수 있는 필드는 id, type, config, topics, processing, startAt입니다'),
    });
  });
  it('a missing field says what it must hold', () => {
    const { seed: _, ...noSeed } = story();
    expect(errors(validateScenario(noSeed))).toEqual([
      {
        path: 'seed',
        message: 'missing: "seed" is required (a whole number from 0 to 4294967295)',
        ko: expect.stringContaining('"seed" 필드가 필요합니다'),
      },
    ]);
  });
  it('a wrong type names the type expected and the value found', () => {
    const s = story();
    const p = s.clients[0];
    if (p?.type === 'producer') (p.script[0] as Record<string, unknown>).key = 5;
    expect(errors(validateScenario(s))[0]).toEqual({
      path: 'clients[0].script[0].key',
      message: 'expected text (at most 200 characters) or null, not 5',
      ko: '와야 할 것: 텍스트(최대 200자) 또는 null (받은 값: 5)',
    });
    expect(errors(validateScenario({ ...story(), cluster: { brokers: {} } }))[0]?.message).toBe(
      'expected text, a number, true/false or null, not an object',
    );
  });
  it("the validator's meaning checks speak Korean too", () => {
    const s = story();
    s.topics = [{ name: 'other' }];
    const e = errors(validateScenario(s));
    expect(e.length).toBeGreaterThan(0);
    for (const x of e) expect(x.ko, x.message).toBeTruthy();
    expect(e[0]?.ko).toContain('topics에 정의돼 있지 않습니다');
  });
});
