/**
 * The config editor's model: which configurations a scenario has, what each field shows, and how
 * the engine's validator messages land on the key they are about.
 */
import { describe, expect, it } from 'vitest';
import { CONSUMER_CONFIG } from '../src/sim/config/consumerConfig';
import { PRODUCER_CONFIG } from '../src/sim/config/producerConfig';
import { findPreset } from '../src/sim/presets';
import type { Scenario } from '../src/sim/scenario/schema';
import { validateScenario } from '../src/sim/scenario/validate';
import { checkDraft, configRows, configSections, formatValue, keyPath, notesByKey, parseConfigInput } from '../src/ui/config/configModel';

const opening = (): Scenario => {
  const p = findPreset('opening-story');
  if (!p) throw new Error('opening-story is missing');
  return p.scenario;
};

const resolved = (s: Scenario) => {
  const v = validateScenario(s);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.resolved;
};

const spec = (name: string) => {
  const k = [...PRODUCER_CONFIG, ...CONSUMER_CONFIG].find((x) => x.name === name);
  if (!k) throw new Error(name);
  return k;
};

describe('config sections', () => {
  it('lists every client, the producer of a consume-transform-produce application, the cluster and every topic', () => {
    const s = opening();
    expect(configSections(s).map((x) => [x.id, x.path])).toEqual([
      ['client:orders-service', 'clients[0].config'],
      ['client:billing', 'clients[1].config'],
      ['cluster', 'cluster'],
      ['topic:orders', 'topics[0].config'],
    ]);
    const eos: Scenario = {
      ...s,
      topics: [...s.topics, { name: 'out' }],
      clients: s.clients.map((c) => (c.type === 'consumer' ? { ...c, processing: { mode: 'exactly-once', outputTopic: 'out' } } : c)),
    };
    const app = configSections(eos).find((x) => x.id === 'app-producer:billing');
    expect(app).toMatchObject({ kind: 'app-producer', path: 'clients[1].processing.producerConfig', keys: PRODUCER_CONFIG });
    // the validator gives the exactly-once producer a transactional.id; the editor shows it in effect
    const rows = configRows(eos, app as NonNullable<typeof app>, resolved(eos), {});
    expect(rows.find((r) => r.spec.name === 'transactional.id')).toMatchObject({ source: 'default', effective: 'billing-txn' });
  });
});

describe('fields', () => {
  it('parses typed text by the key type and leaves junk for the validator to name', () => {
    expect(parseConfigInput(spec('linger.ms'), ' 20 ')).toBe(20);
    expect(parseConfigInput(spec('linger.ms'), 'soon')).toBe('soon');
    expect(parseConfigInput(spec('linger.ms'), '')).toBeUndefined();
    expect(parseConfigInput(spec('acks'), '1')).toBe('1');
    expect(parseConfigInput(spec('enable.idempotence'), false)).toBe(false);
    expect(parseConfigInput(spec('transactional.id'), 'tx-1')).toBe('tx-1');
    expect(formatValue('acks', -1)).toBe('all');
    expect(formatValue('transactional.id', null)).toBe('null');
  });

  it('names keys the way the validator does', () => {
    expect(keyPath('clients[0].config', 'acks')).toBe('clients[0].config.acks');
    expect(keyPath('clients[0].config', 'enable.idempotence')).toBe('clients[0].config["enable.idempotence"]');
  });

  it('shows the draft, the scenario value or the default, and what is in effect', () => {
    const s = opening();
    const section = configSections(s)[0];
    if (!section) throw new Error('no section');
    const rows = configRows(s, section, resolved(s), { 'linger.ms': 50 });
    expect(rows.find((r) => r.spec.name === 'enable.idempotence')).toMatchObject({ shown: true, source: 'scenario', explicit: true });
    expect(rows.find((r) => r.spec.name === 'linger.ms')).toMatchObject({ shown: 50, source: 'draft', effective: '5' });
    expect(rows.find((r) => r.spec.name === 'acks')).toMatchObject({ shown: 'all', source: 'default', effective: 'all' });
  });
});

describe('checking a change', () => {
  it("puts Kafka's ConfigException on the key and errors it causes elsewhere apart", () => {
    const s = opening();
    const orders = configSections(s)[0];
    if (!orders) throw new Error('no section');
    const bad = checkDraft(s, orders, { 'max.in.flight.requests.per.connection': 6 });
    expect(bad.ok).toBe(false);
    expect(bad.errorsByKey['max.in.flight.requests.per.connection']?.map((e) => e.message)).toEqual([
      'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6.',
    ]);
    // in Korean: a sentence, and Kafka's own text quoted after it
    expect(bad.errorsByKey['max.in.flight.requests.per.connection']?.[0]).toMatchObject({
      ko: expect.stringContaining('5 이하여야 합니다'),
      quote:
        'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6.',
    });
    const good = checkDraft(s, orders, { 'max.in.flight.requests.per.connection': 6, 'enable.idempotence': false });
    expect(good.ok).toBe(true);
    expect(good.scenario.clients[0]?.config).toEqual({ 'enable.idempotence': false, 'max.in.flight.requests.per.connection': 6 });

    const txn: Scenario = {
      ...s,
      clients: [
        {
          id: 'app',
          type: 'producer',
          config: { 'transactional.id': 'tx' },
          script: [{ op: 'beginTransaction' }, { op: 'send', topic: 'orders', key: null, value: 'v' }, { op: 'commitTransaction' }],
        },
      ],
    };
    const section = configSections(txn)[0];
    if (!section) throw new Error('no section');
    const cleared = checkDraft(txn, section, { 'transactional.id': undefined });
    expect(cleared.ok).toBe(false);
    expect(cleared.otherErrors.map((e) => e.path)).toEqual(['clients[0].script[0].op', 'clients[0].script[2].op']);
  });

  it("gives Kafka's INFO line to the key it is about", () => {
    const s = opening();
    const orders = configSections(s)[0];
    if (!orders) throw new Error('no section');
    const r = checkDraft(s, orders, { 'enable.idempotence': undefined, acks: '1' });
    expect(r.ok).toBe(true);
    if (!r.resolved) throw new Error('not resolved');
    expect(notesByKey(orders, r.resolved)['enable.idempotence']).toEqual([
      "INFO Idempotence will be disabled because acks is set to 1, not set to 'all'.",
    ]);
    expect(configRows(r.scenario, orders, r.resolved, {}).find((x) => x.spec.name === 'enable.idempotence')?.effective).toBe('false');
  });
});
