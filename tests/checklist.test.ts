/**
 * The readiness checklist: each question answered from the scenario and its run as of a step, with
 * the preset that truly shows a failure (never the scenario's own; none when none is shipped), and
 * every preset's answers as audited test data (checklistExpected.ts).
 */
import { describe, expect, it } from 'vitest';
import { type ChecklistId, type ChecklistItem, evaluateChecklist } from '../src/sim/checks/checklist';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { EXPECTED_CHECKLIST } from './checklistExpected';

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
          // at the end of the run nothing is pending
          expect(i.status, `${p.id} ${i.id}`).not.toBe('pending');
          // a failure points exactly one way: another shipped preset, this one, or what a preset would show
          if (i.status === 'fail') {
            expect([i.preset !== null, i.showsHere, i.wouldShow !== null].filter(Boolean).length, `${p.id} ${i.id}`).toBe(1);
            if (i.preset !== null) {
              expect(findPreset(i.preset), i.preset).toBeDefined();
              expect(i.preset, `${p.id} ${i.id} links to itself`).not.toBe(p.id);
            }
          } else expect([i.preset, i.showsHere, i.wouldShow]).toEqual([null, false, null]);
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

  it('idempotence off fails the first question: lost-ack-no-idempotence is its own example, another scenario links to it', () => {
    const own = check(findPreset('lost-ack-no-idempotence')?.scenario, 'guarantee');
    expect([own.status, own.preset, own.showsHere]).toEqual(['fail', null, true]);
    expect(own.reason).toContain('enable.idempotence=false: a batch retried after a lost ack is written twice');
    const other = check(scenario([producer({ config: { 'enable.idempotence': false } })]), 'guarantee');
    expect([other.status, other.preset, other.showsHere]).toEqual(['fail', 'lost-ack-no-idempotence', false]);
  });

  it('acks=0 is a risk of loss, not of a batch written twice', () => {
    const item = check(findPreset('acks-0-loss')?.scenario, 'guarantee');
    expect(item.status).toBe('fail');
    expect(item.reason).not.toContain('written twice');
    expect(item.reason).toContain('acks=0');
    expect(item.reason).toContain('lost without anyone knowing');
    expect(item.showsHere).toBe(true);
    const elsewhere = check(scenario([producer({ config: { acks: '0' } })]), 'guarantee');
    expect(elsewhere.preset).toBe('acks-0-loss');
    // retries=0 without acks=0: a failed send, not a duplicate; no shipped preset shows it
    const noRetries = check(scenario([producer({ config: { retries: 0 } })]), 'guarantee');
    expect(noRetries.status).toBe('fail');
    expect(noRetries.reason).toContain('retries=0');
    expect(noRetries.reason).not.toContain('written twice');
    expect([noRetries.preset, noRetries.showsHere]).toEqual([null, false]);
    expect(noRetries.wouldShow).toContain('No shipped scenario shows it yet');
  });

  it('Kafka Streams with at_least_once fails the first question and offsets-in-transaction (no longer "not applicable")', () => {
    const item = check(findPreset('streams-alos-crash-duplicate')?.scenario, 'guarantee');
    expect(item.status).toBe('fail');
    expect(item.reason).toContain('processing.guarantee=at_least_once');
    expect(item.reason).not.toContain('idempotent producer (');
    expect(item.showsHere).toBe(true);
    const offsets = check(findPreset('streams-alos-crash-duplicate')?.scenario, 'offsets-in-transaction');
    expect([offsets.status, offsets.showsHere]).toEqual(['fail', true]);
    expect(offsets.reason).toContain('commitSync() after the output is written, outside any transaction');
    // the same application switched to exactly_once_v2 passes both
    const eos = JSON.parse(JSON.stringify(findPreset('streams-alos-crash-duplicate')?.scenario));
    eos.clients[1].config['processing.guarantee'] = 'exactly_once_v2';
    expect(check(eos, 'guarantee').status).toBe('pass');
    expect(check(eos, 'offsets-in-transaction').status).toBe('pass');
  });

  it('a replacement taking over a transactional.id passes (zombie-fencing); two instances started together fail', () => {
    const t = runScenario(findPreset('zombie-fencing')?.scenario);
    const items = Object.fromEntries(evaluateChecklist(t).map((i) => [i.id, i]));
    expect(items['transactional-id']?.status).toBe('pass');
    expect(items['transactional-id']?.reason).toContain('instance-b takes over order-processor-0 from instance-a');
    expect(items.observed?.status).toBe('fail');
    expect(items.observed?.showsHere).toBe(true);
    const txn = (id: string) =>
      producer({
        id,
        config: { 'transactional.id': 'shared' },
        script: [
          { op: 'beginTransaction' },
          { op: 'send', topic: 'in', key: 'k', value: 'v', headers: { event_id: id } },
          { op: 'commitTransaction' },
        ],
      });
    const together = check(scenario([txn('a'), txn('b')]), 'transactional-id');
    expect([together.status, together.preset]).toEqual(['fail', 'zombie-fencing']);
    expect(together.reason).toContain('a, b start together with the same transactional.id shared');
  });

  it('a transaction timeout is named; the preset that shows it is transaction-timeout itself', () => {
    const item = check(findPreset('transaction-timeout')?.scenario, 'observed');
    expect(item.status).toBe('fail');
    expect(item.reason).toContain('transaction.timeout.ms');
    expect([item.preset, item.showsHere]).toEqual([null, true]);
    // an abort after a crash points to the preset that shows what an abort hides from readers
    expect(check(findPreset('ctp-exactly-once-crash')?.scenario, 'observed').preset).toBe('abort-hidden-from-read-committed');
  });

  it('committing the last processed offset fails; committing the next passes', () => {
    const bad = check(scenario([producer(), consumer({ mode: 'commit-last-processed' })]), 'next-offset');
    expect(bad.status).toBe('fail');
    expect(bad.preset).toBe('commit-last-instead-of-next');
    expect(check(scenario([producer(), consumer({ mode: 'at-least-once' })]), 'next-offset').status).toBe('pass');
    // committing before processing: the offset is past records not processed yet
    const early = check(scenario([producer(), consumer({ mode: 'at-most-once' })]), 'next-offset');
    expect([early.status, early.preset]).toEqual(['fail', 'at-most-once-consumer-crash']);
    expect(early.reason).toContain('before processing');
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
    // enable.auto.commit=true in an exactly-once application: eos-auto-commit-rebalance shows the input it loses
    const eosAuto = check(
      scenario([producer(), consumer({ mode: 'exactly-once', outputTopic: 'out' }, { 'enable.auto.commit': true })]),
      'offsets-in-transaction',
    );
    expect(eosAuto.status).toBe('fail');
    expect(eosAuto.reason).toContain('enable.auto.commit=true');
    expect(eosAuto.reason).toContain('onJoinPrepare');
    expect([eosAuto.preset, eosAuto.showsHere, eosAuto.wouldShow]).toEqual(['eos-auto-commit-rebalance', false, null]);
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
    // neither app-resend nor upstream-duplicate-event-id shows a missing or a re-minted id: nothing is linked
    const missing = check(scenario([producer({ script: [{ op: 'send', topic: 'in', key: 'k', value: 'v' }] })]), 'event-id');
    expect([missing.status, missing.preset, missing.showsHere]).toEqual(['fail', null, false]);
    expect(missing.wouldShow).toContain('No shipped scenario shows it yet');
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
    // the preset whose business retry mints a new UUID, not a stable-id case
    expect([renamed.preset, renamed.wouldShow]).toEqual(['retry-mints-new-event-id', null]);
    const minted = check(findPreset('retry-mints-new-event-id')?.scenario, 'event-id');
    expect([minted.status, minted.showsHere]).toEqual(['fail', true]);
    // a compacted topic holding distinct events under one key: compaction erases them
    const events = check(findPreset('compaction-erases-events')?.scenario, 'event-id');
    expect([events.status, events.showsHere]).toEqual(['fail', true]);
    expect(events.reason).toContain('key customer-42 is sent distinct events (pay-1, pay-2, pay-3)');
    expect(check(findPreset('compaction-is-not-dedup')?.scenario, 'event-id').status).toBe('not-applicable');
    // a compacted topic holds states, not events
    const state = check(
      scenario([producer({ script: [{ op: 'send', topic: 'in', key: 'k', value: 'v' }] })], {
        topics: [{ name: 'in', partitions: 1, config: { 'cleanup.policy': 'compact' } }],
      }),
      'event-id',
    );
    expect(state.status).toBe('not-applicable');
    expect(state.reason).toContain('compacted');
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
    // a counter: INCR counts a redelivery again, SET of the absolute value does not
    const incr = check(withSink('database', 'increment'), 'side-effects');
    expect([incr.status, incr.preset]).toEqual(['fail', 'counter-set-vs-incr']);
    expect(check(withSink('database', 'set'), 'side-effects').status).toBe('pass');
    expect(check(withSink('database', 'set'), 'dedup-memory').reason).toContain('takes SET of an absolute value');
    // how long ids are remembered is part of the answer; a duplicate after that is a failure
    const kept = (retentionMs: number) =>
      scenario([producer(), consumer({ mode: 'at-least-once', sink: 'sink' })], {
        sinks: [{ id: 'sink', type: 'database', mode: 'inbox', retentionMs }],
      });
    expect(check(kept(300000), 'dedup-memory').reason).toContain('for 300000 ms (retentionMs)');
    const late = check(findPreset('late-duplicate-after-expiry')?.scenario, 'dedup-memory');
    expect([late.status, late.showsHere]).toEqual(['fail', true]);
    expect(late.reason).toContain('remembers processed ids for only 300000 ms: evt-1 took effect twice in ledger-db');
    expect(check(withSink('database', 'insert'), 'dedup-memory').status).toBe('fail');
    expect(check(scenario([producer()]), 'side-effects').status).toBe('not-applicable');
  });

  it('speaks Korean', () => {
    const item = check(scenario([producer(), consumer({ mode: 'commit-last-processed' })]), 'next-offset', 'ko');
    expect(item.question).toBe('offset 값은 마지막으로 처리한 레코드가 아니라 다음에 처리할 위치인가?');
    expect(item.reason).toBe('app은 다음 위치 대신 마지막으로 처리한 offset을 커밋합니다. 재시작하면 그 레코드를 다시 처리합니다.');
  });
  it('db-sink-duplicate never offers to open itself', () => {
    for (const i of evaluateChecklist(runScenario(findPreset('db-sink-duplicate')?.scenario))) {
      expect(i.preset, i.id).not.toBe('db-sink-duplicate');
      if (i.id === 'side-effects' || i.id === 'dedup-memory') expect([i.status, i.showsHere]).toEqual(['fail', true]);
    }
  });

  it('an application that keeps offsets but no event_id fails when an event comes in two records', () => {
    const item = check(findPreset('upstream-duplicate-event-id')?.scenario, 'dedup-memory');
    expect(item.status).toBe('fail');
    expect(item.reason).toContain('counter remembers offsets, not event_ids: evt-42 came in two records');
    expect(item.showsHere).toBe(true);
    // one event through a repartition topic is two stages, not two records of the same event
    expect(check(findPreset('streams-eos-repartition')?.scenario, 'dedup-memory').status).toBe('pass');
  });
});

describe('the checklist as of a step', () => {
  const RUN_ITEMS: readonly ChecklistId[] = ['observed', 'event-id', 'dedup-memory'];

  it('at step 0 nothing that depends on the run has failed yet, and what rests on configuration is already final', () => {
    for (const p of PRESETS) {
      const t = runScenario(p.scenario);
      const end = new Map(evaluateChecklist(t).map((i) => [i.id, i]));
      for (const i of evaluateChecklist(t, 'en', 0)) {
        if (i.basis === 'configuration') {
          expect(RUN_ITEMS, `${p.id} ${i.id}`).not.toContain(i.id);
          expect([i.status, i.reason], `${p.id} ${i.id}`).toEqual([end.get(i.id)?.status, end.get(i.id)?.reason]);
          continue;
        }
        expect(RUN_ITEMS).toContain(i.id);
        expect(i.reason, `${p.id} ${i.id}`).toMatch(/^As of step 0: /);
        // a forgetful consumer writing to a sink is exposed by its configuration alone
        if (i.status === 'fail')
          expect([p.id, i.id, i.reason]).toEqual([p.id, 'dedup-memory', expect.stringContaining('a redelivered event is processed again')]);
        else expect(i.status, `${p.id} ${i.id}`).toBe('pending');
      }
    }
  });

  it('transaction-timeout: observed is pending at step 0, fails from the abort on, and says which step it speaks for', () => {
    const t = runScenario(findPreset('transaction-timeout')?.scenario);
    const at = (step: number, language: 'en' | 'ko' = 'en') =>
      evaluateChecklist(t, language, step).find((i) => i.id === 'observed') as ChecklistItem;
    expect(at(0).status).toBe('pending');
    expect(at(0).reason).toBe(
      'As of step 0: No transaction aborted, no producer was fenced and no commit failed — the counters to alert on stayed at zero.',
    );
    expect(at(0, 'ko').reason).toMatch(/^0단계까지: /);
    const abort = t.steps.findIndex((s) =>
      s.facts.some((f) => (f as { kind: string; to?: string }).kind === 'txnState' && (f as { to?: string }).to === 'CompleteAbort'),
    );
    expect(abort).toBeGreaterThan(0);
    expect(at(abort).status).toBe('pending');
    expect(at(abort + 1).status).toBe('fail');
    expect(at(abort + 1).reason).toMatch(new RegExp(`^As of step ${abort + 1}: 1 aborted transaction`));
    expect(at(t.steps.length).reason).not.toMatch(/^As of step/);
  });
});

describe('every preset answers as audited (checklistExpected.ts)', () => {
  for (const p of PRESETS)
    it(p.id, () => {
      const expected = EXPECTED_CHECKLIST[p.id];
      expect(expected, `${p.id} has no expected checklist`).toBeDefined();
      const t = runScenario(p.scenario);
      for (const language of ['en', 'ko'] as const) {
        const got = Object.fromEntries(
          evaluateChecklist(t, language).map((i) => [
            i.id,
            i.status !== 'fail' ? i.status : i.showsHere ? 'fail: shown here' : i.preset ? `fail: ${i.preset}` : 'fail: no preset yet',
          ]),
        );
        expect(got, language).toEqual(expected);
      }
    });
  it('covers exactly the shipped presets', () => {
    expect(Object.keys(EXPECTED_CHECKLIST).sort()).toEqual(PRESETS.map((p) => p.id).sort());
  });
});
