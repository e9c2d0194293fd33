/**
 * More than 10,000 hostile inputs to the scenario validator — random bytes, truncated JSON, wrong
 * versions, huge numbers, deep nesting, 10 MB payloads, a wrong type at every path, other enum
 * values at every enum path, prototype-pollution keys, a byte order mark, arrays and other
 * non-objects for a scenario, control characters in every string — each ends in a typed error (a
 * non-empty list of { path, message }, in Korean too except Kafka's own config messages, never
 * valibot's raw wording) or a valid scenario that the engine can build. Never an exception; a hang
 * would fail the test by its timeout.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildScenario } from '../../src/sim/scenario/build';
import { parseScenarioJson, type Validation, validateScenario } from '../../src/sim/scenario/validate';
import { runFast } from '../../src/sim/trace/fastRun';
import {
  bomTexts,
  controlCharacterMutations,
  deepText,
  deepValue,
  enumSwapMutations,
  hugeNumberMutations,
  hugeNumberTexts,
  notAnObjectTexts,
  pollutionTexts,
  randomBytesText,
  randomJsonText,
  rawControlTexts,
  truncations,
  wrongTypeMutations,
  wrongVersion,
} from './mutations';
import { RICH_SCENARIO, validScenarios } from './samples';

let inputs = 0;
const accepted: unknown[] = [];
const messages = new Set<string>();
const untranslated = new Set<string>();
/** Kafka's configuration messages stay in Kafka's English; everything else is said in Korean too. */
const KAFKA_CONFIG_PATH = /^(cluster|topics\[\d+\]\.config|clients\[\d+\]\.(config|processing\.producerConfig))[.[]/;

/** What went wrong with one input, or null when it ended in a typed error or a buildable valid scenario. */
function judge(run: () => Validation): string | null {
  inputs += 1;
  let v: Validation;
  try {
    v = run();
  } catch (e) {
    return `threw ${(e as Error).name}: ${(e as Error).message}`;
  }
  if (v.ok) {
    try {
      buildScenario(v.resolved);
    } catch (e) {
      return `accepted, but building it threw ${(e as Error).message}`;
    }
    accepted.push(v.resolved.scenario);
    return null;
  }
  if (!Array.isArray(v.errors) || v.errors.length === 0) return 'rejected without errors';
  for (const e of v.errors) {
    if (typeof e.path !== 'string' || typeof e.message !== 'string' || e.message.length === 0) return `untyped error ${JSON.stringify(e)}`;
    messages.add(e.message);
    if (!e.ko && !KAFKA_CONFIG_PATH.test(e.path)) untranslated.add(`${e.path}: ${e.message}`);
  }
  return null;
}

function problems(list: readonly unknown[], run: (x: unknown) => Validation): string[] {
  const out: string[] = [];
  for (const x of list) {
    const p = judge(() => run(x));
    if (p) out.push(`${p} — input ${JSON.stringify(x)?.slice(0, 300)}`);
  }
  return out;
}

const asText = (x: unknown) => parseScenarioJson(x as string);
const asValue = (x: unknown) => validateScenario(x);
const valid = validScenarios();
const validTexts = valid.map((s) => JSON.stringify(s));
const protoKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');
const cleanProto = protoKeys();

describe('the scenario validator under hostile input', () => {
  it('the starting scenarios are valid', () => {
    for (const s of valid) expect(validateScenario(s).ok).toBe(true);
  });

  it('random bytes as JSON text', () => {
    fc.assert(
      fc.property(randomBytesText, (text) => judge(() => parseScenarioJson(text)) === null),
      { numRuns: 2500, seed: 1 },
    );
  });

  it('random JSON documents, as text and as values', () => {
    fc.assert(
      fc.property(
        randomJsonText,
        (text) => judge(() => parseScenarioJson(text)) === null && judge(() => validateScenario(JSON.parse(text))) === null,
      ),
      { numRuns: 1000, seed: 2 },
    );
  });

  it('every truncation of valid scenario JSON', () => {
    const list = validTexts.flatMap((t, i) => truncations(t, i === 0 ? 1 : 7));
    expect(list.length).toBeGreaterThan(2500);
    expect(problems(list, asText)).toEqual([]);
  });

  it('wrong versions', () => {
    fc.assert(
      fc.property(
        wrongVersion(RICH_SCENARIO as unknown as Record<string, unknown>),
        (s) => judge(() => validateScenario(s)) === null && !validateScenario(s).ok,
      ),
      {
        numRuns: 300,
        seed: 3,
      },
    );
  });

  it('huge, negative, fractional and non-finite numbers', () => {
    const list = valid.flatMap((s) => hugeNumberMutations(s));
    expect(problems(list, asValue)).toEqual([]);
    expect(problems(validTexts.flatMap(hugeNumberTexts), asText)).toEqual([]);
  });

  it('deep nesting, as text and as values', () => {
    const depths = [10, 100, 1000, 10000, 100000];
    const texts = depths.flatMap((d) => [deepText(d, 'array'), deepText(d, 'object')]);
    expect(problems(texts, asText)).toEqual([]);
    const values = [10, 100, 1000].map(deepValue);
    expect(problems(values, asValue)).toEqual([]);
    // a valid scenario with a deeply nested value where a config value belongs
    const nested = { ...RICH_SCENARIO, cluster: { brokers: deepValue(1000) } };
    expect(problems([nested], asValue)).toEqual([]);
  });

  it('10 MB payloads', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const texts = [big, `{"version":1,"title":"${big}"}`, JSON.stringify({ ...RICH_SCENARIO, title: big })];
    expect(problems(texts, asText)).toEqual([]);
    const values = [
      { ...RICH_SCENARIO, title: big },
      { ...RICH_SCENARIO, topics: Array.from({ length: 100000 }, (_, i) => ({ name: `t${i}` })) },
      { ...RICH_SCENARIO, clients: Array.from({ length: 10000 }, () => RICH_SCENARIO.clients[0]) },
    ];
    expect(problems(values, asValue)).toEqual([]);
    for (const v of values) expect(validateScenario(v).ok).toBe(false);
  });

  it('a wrong type at every path of a valid scenario', () => {
    const list = valid.slice(0, 3).flatMap(wrongTypeMutations);
    expect(list.length).toBeGreaterThan(3000);
    expect(problems(list, asValue)).toEqual([]);
  });

  it('other enum values at every enum path', () => {
    const list = valid.flatMap(enumSwapMutations);
    expect(problems(list, asValue)).toEqual([]);
  });

  it('prototype-pollution keys everywhere a key can go: refused, naming where', () => {
    const texts = validTexts.flatMap((t) => pollutionTexts(t).filter((x) => x !== t));
    expect(texts.length).toBeGreaterThan(100);
    expect(problems(texts, asText)).toEqual([]);
    for (const t of texts) {
      const v = parseScenarioJson(t);
      expect(v.ok, t.slice(0, 120)).toBe(false);
      if (!v.ok) expect(v.errors.some((e) => /\["(__proto__|constructor|prototype)"\]$/.test(e.path))).toBe(true);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(protoKeys()).toBe(cleanProto);
    // what was accepted carries no polluted prototype either
    for (const t of texts) {
      const v = parseScenarioJson(t);
      if (v.ok) expect(Object.getPrototypeOf(v.resolved.scenario)).toBe(Object.prototype);
    }
  });

  it('a byte order mark before valid JSON is accepted', () => {
    const list = validTexts.flatMap(bomTexts);
    expect(problems(list, asText)).toEqual([]);
    for (const t of list) expect(parseScenarioJson(t).ok).toBe(true);
  });

  it('an array or another non-object as the scenario is said to be one, not "unknown field 0"', () => {
    const list = validTexts.slice(0, 5).flatMap(notAnObjectTexts);
    expect(problems(list, asText)).toEqual([]);
    for (const t of list) {
      const v = parseScenarioJson(t);
      expect(v.ok).toBe(false);
      if (!v.ok)
        expect(v.errors).toEqual([
          expect.objectContaining({ path: '(scenario)', message: expect.stringContaining('a scenario is a JSON object') }),
        ]);
    }
  });

  it('control characters in every string of a valid scenario, and raw ones in its JSON text', () => {
    const list = valid.slice(0, 3).flatMap(controlCharacterMutations);
    expect(list.length).toBeGreaterThan(100);
    expect(problems(list, asValue)).toEqual([]);
    const raw = validTexts.slice(0, 3).flatMap(rawControlTexts);
    expect(problems(raw, asText)).toEqual([]);
    for (const t of raw) {
      const v = parseScenarioJson(t);
      // tab, line feed and carriage return are JSON whitespace only outside strings
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.errors[0]?.message).toMatch(/^not valid JSON at line \d+, column \d+: expected /);
    }
  });

  it('accepted mutations also run (their first 1,000 steps) without an exception', () => {
    const sample = accepted.filter((_, i) => i % Math.max(1, Math.floor(accepted.length / 100)) === 0);
    expect(sample.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const s of sample) {
      try {
        runFast(s, { untilStep: 1000 });
      } catch (e) {
        failures.push(`${(e as Error).message} — ${JSON.stringify(s).slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('every error message says what is wrong (none reads "undefined" or valibot\'s raw wording), in Korean too', () => {
    expect(messages.size).toBeGreaterThan(20);
    expect([...messages].filter((m) => /\bundefined\b/.test(m))).toEqual([]);
    // Kafka's own ConfigException text starts "Invalid value V for configuration K: " (ConfigException.java): that one is meant
    const kafkaText = /^ConfigException: Invalid value [\s\S]* for configuration [\w.]+: /;
    expect(
      [...messages].filter((m) => !kafkaText.test(m) && /Invalid (type|value|key|length)|Expected [<>=(]|but received/.test(m)),
    ).toEqual([]);
    expect([...untranslated]).toEqual([]);
  });

  afterAll(() => {
    // the issue asks for at least 10,000 mutated inputs
    expect(inputs).toBeGreaterThanOrEqual(10000);
  });
});
