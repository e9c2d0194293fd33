/**
 * The config editor's model for a Kafka Streams application: its section, its keys with Kafka's
 * defaults, what a change to processing.guarantee does (and Kafka's ConfigException for a removed
 * value), and its documentation in both languages.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, runScenario, STREAMS_CONFIG } from '../../sim';
import { configDoc } from './configDoc';
import { checkDraft, configRows, configSections, effectiveConfig } from './configModel';
import { CONFIG_STRINGS } from './strings';

const preset = findPreset('streams-alos-crash-duplicate');
if (!preset) throw new Error('no preset');
const scenario = preset.scenario;

describe('the config editor: a Kafka Streams section', () => {
  const section = configSections(scenario).find((x) => x.kind === 'streams');

  it('lists the Streams application with StreamsConfig keys, after the clients', () => {
    expect(section).toMatchObject({ id: 'client:counter', name: 'counter', path: 'clients[1].config' });
    expect(section?.keys).toBe(STREAMS_CONFIG);
    expect(CONFIG_STRINGS.en.section('streams', 'counter')).toBe('counter (Kafka Streams)');
    expect(CONFIG_STRINGS.ko.section('streams', 'counter')).toBe('counter (Kafka Streams)');
  });

  it("shows processing.guarantee as set by the scenario, Kafka's default at_least_once, and what is in effect", () => {
    if (!section) throw new Error('no streams section');
    const trace = runScenario(scenario);
    const rows = configRows(scenario, section, trace.resolved, {});
    const guarantee = rows.find((r) => r.spec.name === 'processing.guarantee');
    expect(guarantee).toMatchObject({ shown: 'at_least_once', source: 'scenario', effective: 'at_least_once' });
    expect(guarantee?.spec.default).toBe('at_least_once');
    expect(rows.find((r) => r.spec.name === 'commit.interval.ms')?.effective).toBe('30000');
  });

  it('switches to exactly_once_v2 (the commit interval follows: 100 ms), and the run changes', () => {
    if (!section) throw new Error('no streams section');
    const check = checkDraft(scenario, section, { 'processing.guarantee': 'exactly_once_v2' });
    expect(check.ok).toBe(true);
    if (!check.resolved) throw new Error('not resolved');
    expect(effectiveConfig(section, check.resolved)).toMatchObject({
      'processing.guarantee': 'exactly_once_v2',
      'commit.interval.ms': 100,
    });
    const before = runScenario(scenario);
    const after = runScenario(check.scenario);
    expect(after.traceHash).not.toBe(before.traceHash);
  });

  it("refuses exactly_once (removed in Kafka 4.0) with ConfigDef's message", () => {
    if (!section) throw new Error('no streams section');
    for (const value of ['exactly_once', 'exactly_once_beta']) {
      const check = checkDraft(scenario, section, { 'processing.guarantee': value });
      expect(check.ok).toBe(false);
      // StreamsConfig: in(AT_LEAST_ONCE, EXACTLY_ONCE_V2); ConfigDef.ValidString.ensureValid's text
      expect(check.errorsByKey['processing.guarantee']?.map((e) => e.message)).toEqual([
        `ConfigException: Invalid value ${value} for configuration processing.guarantee: String must be one of: at_least_once, exactly_once_v2`,
      ]);
    }
  });

  it('documents every Streams key in English and Korean, saying that at_least_once is the default', () => {
    if (!section) throw new Error('no streams section');
    const guarantee = STREAMS_CONFIG.find((k) => k.name === 'processing.guarantee');
    if (!guarantee) throw new Error('no key');
    expect(configDoc('streams', guarantee, 'en')).toContain('at_least_once is the default');
    expect(configDoc('streams', guarantee, 'ko')).toContain('기본값은 at_least_once입니다');
    for (const k of STREAMS_CONFIG) expect(configDoc('streams', k, 'ko')).not.toBe(k.doc);
  });

  it("warns in transactional.id's docs that it is not a business id", () => {
    const producer = configSections(findPreset('zombie-fencing')?.scenario ?? scenario).find((x) => x.kind === 'producer');
    const key = producer?.keys.find((k) => k.name === 'transactional.id');
    if (!key) throw new Error('no transactional.id');
    expect(configDoc('producer', key, 'en')).toContain('Not a business id');
    expect(configDoc('producer', key, 'ko')).toContain('비즈니스 ID가 아닙니다');
  });
});
