/**
 * The readiness checklist: each question answered from the scenario and its run, with the preset
 * that shows a failure.
 */
import { describe, expect, it } from 'vitest';
import { CHECKLIST_PRESETS, type ChecklistId, evaluateChecklist } from '../src/sim/checks/checklist';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';

type Json = Record<string, unknown>;

function check(scenario: unknown, id: ChecklistId, language: 'en' | 'ko' = 'en') {
  const item = evaluateChecklist(runScenario(scenario), language).find((i) => i.id === id);
  if (!item) throw new Error(`no item ${id}`);
  return item;
}

const producer = (over: Json = {}) => ({
  id: 'src',
  type: 'producer',
  script: [{ op: 'send', topic: 'in', key: 'k', value: 'v', headers: { event_id: 'e1' } }],
  ...over,
});
const consumer = (processing: Json, config: Json = {}, over: Json = {}) => ({
  id: 'app',
  type: 'consumer',
  config: { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false, ...config },
  topics: ['in'],
  processing,
  ...over,
});
const scenario = (clients: unknown[], extra: Json = {}) => ({
  version: 1,
  seed: 3,
  cluster: { 'transaction.version': 1 },
  topics: [
    { name: 'in', partitions: 1 },
    { name: 'out', partitions: 1 },
  ],
  clients,
  ...extra,
});

describe('readiness checklist', () => {
  it('answers all ten questions, in both languages, for every preset', () => {
    for (const p of PRESETS) {
      const t = runScenario(p.scenario);
      for (const language of ['en', 'ko'] as const) {
        const items = evaluateChecklist(t, language);
        expect(items.map((i) => i.id)).toEqual([
          'guarantee',
          'transactional-id',
          'offsets-in-transaction',
          'next-offset',
          'read-committed',
          'observed',
          'replication',
          'event-id',
          'dedup-memory',
          'side-effects',
        ]);
        for (const i of items) {
          expect(i.question.length).toBeGreaterThan(10);
          expect(i.reason.length, `${p.id} ${i.id}`).toBeGreaterThan(10);
          expect(i.reason).not.toMatch(/undefined|NaN|\[object/);
          expect(i.status === 'fail' ? i.preset : null, `${p.id} ${i.id}`).toBe(i.status === 'fail' ? i.preset : null);
          if (i.status === 'fail') expect(Object.values(CHECKLIST_PRESETS)).toContain(i.preset);
          else expect(i.preset).toBeNull();
        }
      }
    }
  });

  it('opening-story: idempotent producer in use; event_id kept by the resend; the consumer remembers nothing', () => {
    const items = evaluateChecklist(runScenario(findPreset('opening-story')?.scenario));
    const by = Object.fromEntries(items.map((i) => [i.id, i]));
    expect(by.guarantee?.status).toBe('pass');
    expect(by.guarantee?.reason).toContain('idempotent producer (orders-service)');
    expect(by['event-id']?.status).toBe('pass');
    expect(by['event-id']?.reason).toContain('evt-789');
    expect(by['dedup-memory']?.status).toBe('fail');
    expect(by['dedup-memory']?.reason).toBe('billing remembers no processed event_id: evt-789 was processed more than once.');
    expect(by['dedup-memory']?.preset).toBe('db-sink-duplicate');
    expect(by['transactional-id']?.status).toBe('not-applicable');
    expect(by.replication?.status).toBe('not-applicable');
  });

  it('idempotence off fails the first question (lost-ack-no-idempotence)', () => {
    const item = check(findPreset('lost-ack-no-idempotence')?.scenario, 'guarantee');
    expect(item.status).toBe('fail');
    expect(item.preset).toBe('lost-ack-no-idempotence');
    expect(item.reason).toContain('enable.idempotence=false');
  });

  it('two instances sharing a transactional.id fail; zombie fencing observed', () => {
    const t = runScenario(findPreset('zombie-fencing')?.scenario);
    const items = Object.fromEntries(evaluateChecklist(t).map((i) => [i.id, i]));
    expect(items['transactional-id']?.status).toBe('fail');
    expect(items['transactional-id']?.reason).toContain('order-processor-0');
    expect(items['transactional-id']?.preset).toBe('zombie-fencing');
    expect(items.observed?.status).toBe('fail');
    expect(items.observed?.preset).toBe('zombie-fencing');
  });

  it('a transaction timeout is named and linked', () => {
    const item = check(findPreset('transaction-timeout')?.scenario, 'observed');
    expect(item.status).toBe('fail');
    expect(item.reason).toContain('transaction.timeout.ms');
    expect(item.preset).toBe('transaction-timeout');
  });

  it('committing the last processed offset fails; committing the next passes', () => {
    const bad = check(scenario([producer(), consumer({ mode: 'commit-last-processed' })]), 'next-offset');
    expect(bad.status).toBe('fail');
    expect(bad.preset).toBe('commit-last-instead-of-next');
    expect(check(scenario([producer(), consumer({ mode: 'at-least-once' })]), 'next-offset').status).toBe('pass');
  });

  it('auto-commit and consume-produce without transactions fail; exactly-once passes', () => {
    const auto = check(scenario([producer(), consumer({ mode: 'auto-commit' }, { 'enable.auto.commit': true })]), 'offsets-in-transaction');
    expect([auto.status, auto.preset]).toEqual(['fail', 'auto-commit-pitfall']);
    const noTxn = check(
      scenario([producer(), consumer({ mode: 'consume-produce-no-transactions', outputTopic: 'out' })]),
      'offsets-in-transaction',
    );
    expect([noTxn.status, noTxn.preset]).toEqual(['fail', 'ctp-without-transactions-crash']);
    const eos = check(
      scenario([producer(), consumer({ mode: 'exactly-once', outputTopic: 'out' }, { 'isolation.level': 'read_committed' })]),
      'offsets-in-transaction',
    );
    expect(eos.status).toBe('pass');
    expect(eos.reason).toContain('sendOffsetsToTransaction');
    expect(check(scenario([producer(), consumer({ mode: 'at-least-once' })]), 'offsets-in-transaction').status).toBe('not-applicable');
  });

  it('a read_uncommitted reader of transactional output fails; read_committed passes', () => {
    const eosApp = consumer({ mode: 'exactly-once', outputTopic: 'out' }, { 'isolation.level': 'read_committed' });
    const reader = (level: string) =>
      consumer({ mode: 'at-least-once' }, { 'group.id': 'r', 'isolation.level': level }, { id: 'reader', topics: ['out'] });
    const bad = check(scenario([producer(), eosApp, reader('read_uncommitted')]), 'read-committed');
    expect([bad.status, bad.preset]).toEqual(['fail', 'abort-hidden-from-read-committed']);
    expect(bad.reason).toContain('reader reads out with read_uncommitted');
    expect(check(scenario([producer(), eosApp, reader('read_committed')]), 'read-committed').status).toBe('pass');
    expect(check(scenario([producer(), eosApp]), 'read-committed').status).toBe('not-applicable');
  });

  it('event_id: missing or renamed by a retry fails; kept passes', () => {
    const missing = check(scenario([producer({ script: [{ op: 'send', topic: 'in', key: 'k', value: 'v' }] })]), 'event-id');
    expect([missing.status, missing.preset]).toEqual(['fail', 'app-resend']);
    const renamed = check(
      scenario([
        producer({
          script: [
            { op: 'send', topic: 'in', key: 'order-1', value: '{"type":"OrderCreated"}', headers: { event_id: 'uuid-1' } },
            { op: 'send', topic: 'in', key: 'order-1', value: '{"type":"OrderCreated"}', headers: { event_id: 'uuid-2' } },
          ],
        }),
      ]),
      'event-id',
    );
    expect(renamed.status).toBe('fail');
    expect(renamed.reason).toContain('uuid-1, uuid-2');
    expect(check(scenario([producer()]), 'event-id').status).toBe('pass');
    // plain values may repeat under different event_ids: two page views are two events
    const views = check(
      scenario([
        producer({
          script: [
            { op: 'send', topic: 'in', key: 'page-a', value: 'view', headers: { event_id: 'view-1' } },
            { op: 'send', topic: 'in', key: 'page-a', value: 'view', headers: { event_id: 'view-2' } },
          ],
        }),
      ]),
      'event-id',
    );
    expect(views.status).toBe('pass');
  });

  it('side effects: plain INSERT and a plain API call fail; upsert, inbox and idempotency keys pass', () => {
    const withSink = (type: string, mode: string) =>
      scenario([producer(), consumer({ mode: 'at-least-once', sink: 'sink' })], { sinks: [{ id: 'sink', type, mode }] });
    const insert = check(withSink('database', 'insert'), 'side-effects');
    expect([insert.status, insert.preset]).toEqual(['fail', 'db-sink-duplicate']);
    const plain = check(withSink('http-api', 'plain'), 'side-effects');
    expect([plain.status, plain.preset]).toEqual(['fail', 'api-lost-response']);
    for (const [type, mode] of [
      ['database', 'upsert'],
      ['database', 'inbox'],
      ['http-api', 'idempotency-key'],
      ['http-api', 'lookup-before-retry'],
    ] as const) {
      expect(check(withSink(type, mode), 'side-effects').status, mode).toBe('pass');
      expect(check(withSink(type, mode), 'dedup-memory').status, mode).toBe('pass');
    }
    expect(check(withSink('database', 'inbox'), 'dedup-memory').reason).toContain('inbox keeps (event_id, app)');
    expect(check(withSink('database', 'insert'), 'dedup-memory').status).toBe('fail');
    expect(check(scenario([producer()]), 'side-effects').status).toBe('not-applicable');
  });

  it('speaks Korean', () => {
    const item = check(scenario([producer(), consumer({ mode: 'commit-last-processed' })]), 'next-offset', 'ko');
    expect(item.question).toBe('offset 값은 마지막으로 처리한 레코드가 아니라 다음에 처리할 위치인가?');
    expect(item.reason).toBe('app은 다음 위치 대신 마지막으로 처리한 offset을 커밋합니다. 재시작하면 그 레코드를 다시 처리합니다.');
  });
});
