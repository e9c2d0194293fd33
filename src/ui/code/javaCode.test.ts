/**
 * The code beside a preset is the code a reader would write, and its Kafka client calls are the
 * ones the run's narration names: the articles' transactional loop, the Streams one-liner, the
 * business retry, SET against INCR.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, PRESETS, runScenario } from '../../sim';
import { narrate } from '../../sim/narration';
import { javaCode } from './javaCode';

const codeOf = (id: string, client: string, language: 'en' | 'ko' = 'en') => {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  const c = javaCode(preset.scenario, language).find((x) => x.client === client);
  if (!c) throw new Error(`no client ${client}`);
  return c.code;
};
const narration = (id: string) => {
  const trace = runScenario(findPreset(id)!.scenario);
  return trace.steps.map((_, i) => narrate(trace, i, 'en')).join('\n');
};
/** Indices of each call in the code, to check their order. */
const order = (code: string, calls: readonly string[]) => calls.map((c) => code.indexOf(c));

describe('javaCode', () => {
  it('ctp-exactly-once-crash: the transactional loop, in the order the articles write it, with the names the narration uses', () => {
    const code = codeOf('ctp-exactly-once-crash', 'enricher');
    const calls = [
      'producer.initTransactions()',
      'consumer.poll(',
      'producer.beginTransaction()',
      'producer.send(',
      'producer.sendOffsetsToTransaction(nextOffsets(records), consumer.groupMetadata())',
      'producer.commitTransaction()',
    ];
    const at = order(code, calls);
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(code).toContain('props.put("enable.auto.commit", "false");');
    expect(code).toContain('producerProps.put("transactional.id", "enricher-0");');
    expect(code).not.toContain('consumer.commitSync');
    const said = narration('ctp-exactly-once-crash');
    for (const name of ['initTransactions', 'sendOffsetsToTransaction', 'commitTransaction']) expect(said).toContain(name);
  });

  it('the Streams applications: processing.guarantee as StreamsConfig constants, at_least_once called out when unset', () => {
    expect(codeOf('streams-eos-crash-restore', 'counter')).toContain(
      'props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);',
    );
    const alos = codeOf(
      'streams-alos-crash-duplicate',
      javaCode(findPreset('streams-alos-crash-duplicate')!.scenario, 'en').find((c) => c.kind === 'streams')!.client,
    );
    expect(alos).toMatch(/StreamsConfig\.AT_LEAST_ONCE|at_least_once unless you set it/);
    expect(alos).not.toContain('EXACTLY_ONCE_V2');
  });

  it('retry-mints-new-event-id: the second send() builds the event again with UUID.randomUUID() as its event_id', () => {
    const code = codeOf('retry-mints-new-event-id', 'checkout');
    const sends = code.split('\n').filter((l) => l.startsWith('producer.send('));
    expect(sends).toHaveLength(2);
    expect(sends[0]).toContain('new RecordHeader("event_id", "evt-789".getBytes(UTF_8))');
    expect(sends[1]).toContain('new RecordHeader("event_id", UUID.randomUUID().toString().getBytes(UTF_8))');
  });

  it('business-id-is-not-transactional-id: the business transaction_id is a header, transactional.id a producer config', () => {
    const code = codeOf('business-id-is-not-transactional-id', 'payments-a');
    expect(code).toContain('props.put("transactional.id", "payment-tx");');
    expect(code).toContain('new RecordHeader("transaction_id", "payment-123".getBytes(UTF_8))');
  });

  it('counter-set-vs-incr: SET key value beside INCR key', () => {
    const scenario = findPreset('counter-set-vs-incr')!.scenario;
    const all = javaCode(scenario, 'en')
      .map((c) => c.code)
      .join('\n');
    expect(all).toContain('redis.set(record.key(), record.value());');
    expect(all).toContain('redis.incr(record.key());');
  });

  it('comments follow the language; the Java is the same in both', () => {
    const en = codeOf('ctp-exactly-once-crash', 'enricher', 'en');
    const ko = codeOf('ctp-exactly-once-crash', 'enricher', 'ko');
    expect(ko).toContain('// 트랜잭션을 수행하는 것은 컨슈머가 아니라 프로듀서');
    const javaOnly = (s: string) => s.replace(/\s*\/\/.*$/gm, '');
    expect(javaOnly(ko)).toBe(javaOnly(en));
  });

  it('every preset: one block per client, every producer and consumer constructed, no "{i}" left outside a string', () => {
    for (const p of PRESETS) {
      const code = javaCode(p.scenario, 'en');
      expect(code.map((c) => c.client)).toEqual(p.scenario.clients.map((c) => c.id));
      for (const c of code) {
        expect(c.code).toMatch(c.kind === 'streams' ? /new KafkaStreams\(/ : /new Kafka(Producer|Consumer)<>\(props/);
        expect(c.code).not.toMatch(/[^"]\{i\}/);
      }
    }
  });
});
