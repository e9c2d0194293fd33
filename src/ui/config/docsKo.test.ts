/**
 * The Korean documentation lines: one for every key of every spec table in src/sim/config (found by
 * reading the folder, so a new table or key cannot be missed), none for a key no table has, each in
 * Korean with every Kafka name and number of the English; and the editor's choice between them.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONSUMER_CONFIG, type ConfigKey, PRODUCER_CONFIG } from '../../sim';
import { configDoc, simulationNote } from './configDoc';
import { type ConfigTable, DOCS_KO, SIMULATION_NOTES_KO } from './docsKo';

const CONFIG_DIR = fileURLToPath(new URL('../../sim/config/', import.meta.url));

const isSpecTable = (v: unknown): v is readonly ConfigKey[] =>
  Array.isArray(v) && v.length > 0 && v.every((k) => typeof k?.name === 'string' && typeof k?.doc === 'string');

/** Every `*Config.ts` spec file's keys, by table name (producerConfig.ts → producer). */
async function specTables(): Promise<Map<string, readonly ConfigKey[]>> {
  const out = new Map<string, readonly ConfigKey[]>();
  for (const file of readdirSync(CONFIG_DIR).sort()) {
    const table = /^(\w+)Config\.ts$/.exec(file)?.[1];
    if (!table) continue;
    const module: Record<string, unknown> = await import(`${CONFIG_DIR}${file}`);
    out.set(table, Object.values(module).filter(isSpecTable).flat());
  }
  return out;
}

const TABLES = await specTables();
const koTable = (table: string): Readonly<Record<string, string>> => DOCS_KO[table as ConfigTable] ?? {};

// Kafka's names and numbers: method calls (poll()), snake_case names (read_committed,
// __transaction_state, exactly_once_v2), dotted config keys (not the sentence's full stop after
// them), camelCase and RPC names (producerId, InitProducerId, EndTxn, KIP), error codes, numbers
const KAFKA_TOKEN = /\w+\(\)|_*[a-z]+(?:_[a-z0-9]+)+|[a-z]+(?:\.[a-z]+)+|[a-z]+[A-Z][A-Za-z]*|[A-Z][A-Za-z]*[A-Z][A-Za-z]*|[A-Z_]{4,}|\d+/g;
const kafkaTokens = (text: string) => [...new Set(text.match(KAFKA_TOKEN) ?? [])];

describe('Korean config docs', () => {
  it('finds the spec tables', () => {
    expect([...TABLES.keys()]).toEqual(['cluster', 'consumer', 'producer', 'streams', 'topic']);
    expect(TABLES.get('producer')).toEqual(PRODUCER_CONFIG);
  });

  it('exist for every key of every spec table', () => {
    const missing = [...TABLES].flatMap(([table, keys]) => keys.filter((k) => !koTable(table)[k.name]).map((k) => `${table}:${k.name}`));
    expect(missing).toEqual([]);
  });

  it('are only for keys a spec table has', () => {
    const orphans = Object.entries(DOCS_KO).flatMap(([table, docs]) =>
      Object.keys(docs)
        .filter((key) => !TABLES.get(table)?.some((k) => k.name === key))
        .map((key) => `${table}:${key}`),
    );
    expect(orphans).toEqual([]);
  });

  it('are Korean, and keep every Kafka name and number of the English', () => {
    for (const [table, keys] of TABLES)
      for (const spec of keys) {
        const ko = koTable(table)[spec.name] ?? '';
        const where = `${table}:${spec.name}`;
        expect(ko, where).toMatch(/[가-힣]/);
        const koTokens = new Set(kafkaTokens(ko));
        expect(
          kafkaTokens(spec.doc).filter((t) => !koTokens.has(t)),
          where,
        ).toEqual([]);
      }
  });

  it('reads Kafka names without the punctuation around them', () => {
    expect(kafkaTokens('Largest transaction.timeout.ms a producer may ask for (KIP-890, poll()).')).toEqual([
      'transaction.timeout.ms',
      'KIP',
      '890',
      'poll()',
    ]);
    expect(kafkaTokens('__consumer_offsets는 producerId와 InitProducerId, exactly_once_v2에서.')).toEqual([
      '__consumer_offsets',
      'producerId',
      'InitProducerId',
      'exactly_once_v2',
    ]);
  });
});

describe('configDoc', () => {
  const spec = (keys: readonly ConfigKey[], name: string) => keys.find((k) => k.name === name) as ConfigKey;
  const producerTimeout = spec(PRODUCER_CONFIG, 'request.timeout.ms');
  const consumerTimeout = spec(CONSUMER_CONFIG, 'request.timeout.ms');

  it("gives the engine's English doc in English", () => {
    expect(configDoc('producer', producerTimeout, 'en')).toBe(producerTimeout.doc);
  });

  it("gives a key's Korean doc for its own table, also for the producer inside an application", () => {
    expect(configDoc('producer', producerTimeout, 'ko')).toBe(DOCS_KO.producer['request.timeout.ms']);
    expect(configDoc('app-producer', producerTimeout, 'ko')).toBe(DOCS_KO.producer['request.timeout.ms']);
    expect(configDoc('consumer', consumerTimeout, 'ko')).toBe(DOCS_KO.consumer['request.timeout.ms']);
    expect(DOCS_KO.producer['request.timeout.ms']).not.toBe(DOCS_KO.consumer['request.timeout.ms']);
  });

  it('falls back to the English doc for a key without a Korean one', () => {
    const unknown: ConfigKey = { name: 'compression.type', type: 'string', default: 'none', doc: 'Compression codec.' };
    expect(configDoc('producer', unknown, 'ko')).toBe('Compression codec.');
  });
});

describe("the simulator's notes", () => {
  const notes = [...TABLES.values()].flat().flatMap((k) => (k.simulation === undefined ? [] : [k]));

  it('have a Korean version for every note a spec carries, keeping its Kafka names and numbers', () => {
    expect(notes.length).toBeGreaterThan(0);
    for (const k of notes) {
      const ko = SIMULATION_NOTES_KO[k.simulation as string];
      expect(ko, `${k.name}: ${k.simulation}`).toBeDefined();
      expect(ko).toMatch(/[가-힣]/);
      for (const token of kafkaTokens(k.simulation as string)) expect(ko, `${k.name}: ${token}`).toContain(token);
    }
  });

  it('has no Korean note that no spec carries', () => {
    const used = new Set(notes.map((k) => k.simulation));
    expect(Object.keys(SIMULATION_NOTES_KO).filter((n) => !used.has(n))).toEqual([]);
  });

  it("are shown in the reader's language", () => {
    const acks = PRODUCER_CONFIG.find((k) => k.name === 'acks') as ConfigKey;
    expect(simulationNote(acks, 'en')).toBe(acks.simulation);
    expect(simulationNote(acks, 'ko')).toBe(SIMULATION_NOTES_KO[acks.simulation as string]);
    expect(simulationNote(PRODUCER_CONFIG.find((k) => k.simulation === undefined) as ConfigKey, 'ko')).toBeUndefined();
  });
});
