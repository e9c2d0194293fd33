/**
 * The preset transactional-id-expired: what its words say is what the run shows — the commit
 * completed at 11 ms, the expiration run at 6000 writing the tombstone at __transaction_state offset
 * 4, the Produce of evt-2 refused INVALID_PRODUCER_ID_MAPPING at epoch 1 — and the producer made
 * fatal so is not told it was fenced (its refusals and its application's stop name the error), in
 * English and Korean, while a fenced producer keeps its words.
 */
import { describe, expect, it } from 'vitest';
import { type ChecklistItem, evaluateChecklist } from '../../src/sim/checks/checklist';
import { findingText } from '../../src/sim/checks/verdictText';
import { narrate } from '../../src/sim/narration/narrate';
import { findPreset } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { fatalReason } from '../../src/sim/producer/fatalReason';
import { runScenario, type Trace } from '../../src/sim/run';
import { isTaskMigrated } from '../../src/sim/streams/migration';
import { summarize } from '../../src/sim/trace/summary';
import { runWith } from './helpers';

type AnyFact = { kind: string } & Record<string, unknown>;
const factsOf = (trace: Trace, kind: string) =>
  trace.steps.flatMap((s) => (s.facts as readonly AnyFact[]).filter((f) => f.kind === kind).map((f) => ({ t: s.t, i: s.i, f })));

const preset = findPreset('transactional-id-expired');
if (!preset) throw new Error('transactional-id-expired');
const trace = runScenario(preset.scenario);

describe('transactional-id-expired', () => {
  it('runs protocol 2 with an expiration of 5 s checked every second', () => {
    expect(preset.scenario.cluster).toMatchObject({
      'transaction.version': 2,
      'transactional.id.expiration.ms': 5000,
      'transaction.remove.expired.transaction.cleanup.interval.ms': 1000,
    });
  });

  it('its words are the run’s: CompleteCommit at 11 ms, forgotten at 6000 with a tombstone at offset 4, evt-2 refused at epoch 1', () => {
    const states = factsOf(trace, 'txnState').map(({ t, f }) => `${f.to}@${t}`);
    expect(states).toContain('CompleteCommit@11');
    expect(states).toContain('Dead@6000');
    const txnLog = summarize(trace).partitions.find((p) => p.topic === '__transaction_state' && p.records.length > 0);
    const tombstone = txnLog?.records.find((r) => r.value === null);
    expect(tombstone).toMatchObject({ offset: 4, key: 'orders-tx', timestamp: 6000 });
    const refused = factsOf(trace, 'clientError').find(({ f }) => f.error === 'INVALID_PRODUCER_ID_MAPPING');
    expect(refused?.t).toBeGreaterThanOrEqual(8000);
    expect(String(refused?.f.during)).toBe('Produce to orders-0');
    const produce = trace.envelopes.filter((e) => e.rpc === 'Produce').at(-1);
    expect((produce?.payload.partitions as { batch: { producerId: number; producerEpoch: number } }[])[0]?.batch).toMatchObject({
      producerId: 1000,
      producerEpoch: 1,
    });
    for (const words of ['11 ms', 'offset 4', 'producerId 1000, epoch 1', 'INVALID_PRODUCER_ID_MAPPING', 'evt-2 is lost'])
      expect(preset.expected).toContain(words);
    expect(PRESET_TEXT_KO['transactional-id-expired']?.expected).toContain('11 ms');
  });

  it('the producer’s refusals and its application’s stop name INVALID_PRODUCER_ID_MAPPING, not fencing, in English and Korean', () => {
    const refusal = factsOf(trace, 'clientError').find(({ f }) => f.error === 'KafkaException');
    const stop = factsOf(trace, 'note').find(({ f }) => String(f.text).endsWith(' stops'));
    expect(String(refusal?.f.during)).toContain('INVALID_PRODUCER_ID_MAPPING: its producer id is no longer known to the coordinator');
    expect(String(stop?.f.text)).toContain("this instance's producer can only be closed, and it stops");
    for (const step of [refusal?.i ?? -1, stop?.i ?? -1]) {
      expect(narrate(trace, step, 'en')).not.toMatch(/fenced/);
      const ko = narrate(trace, step, 'ko');
      expect(ko).not.toMatch(/펜싱|fenced|can only be closed|no longer known/);
      expect(ko).toContain('INVALID_PRODUCER_ID_MAPPING');
    }
    expect(narrate(trace, stop?.i ?? -1, 'ko')).toContain('닫을 수밖에 없으므로');
  });

  it('the verdict says why evt-2 was lost: an expired transactional.id, fatal for the producer, not a fence (en, ko)', () => {
    const log = runWith(preset.scenario).summary.verdict.layers.find((l) => l.layer === 'log' && l.subject === 'orders');
    if (!log) throw new Error('no log finding for orders');
    expect(findingText(log, 'en')).toContain(
      "evt-2 sent by orders-service, failed with INVALID_PRODUCER_ID_MAPPING: the transaction coordinator no longer knew orders-service's producer id (its transactional.id had expired) — a fatal error for the producer, not a fence",
    );
    const ko = findingText(log, 'ko');
    expect(ko).toContain(
      'INVALID_PRODUCER_ID_MAPPING으로 실패했습니다. 트랜잭션 코디네이터가 orders-service의 producerId를 더 이상 몰랐습니다',
    );
    expect(ko).toContain('펜싱이 아니라');
  });

  it('the checklist’s observed item fails, shown here: the commit failed with a fatal error the application saw, and evt-2 is lost', () => {
    // the item asks whether transaction timeouts, aborts, producer fencing and commit failures are
    // observed — each fails it, for each needs a metric and an alert. Here nothing was aborted (the
    // coordinator had forgotten the id: no transaction to abort) and nothing fenced, yet
    // commitTransaction() failed — INVALID_PRODUCER_ID_MAPPING made the producer fatal — and evt-2,
    // which the preset’s words call lost, went missing: unnoticed, unless it is alerted on
    const item = (language: 'en' | 'ko', step?: number) =>
      evaluateChecklist(trace, language, step).find((i) => i.id === 'observed') as ChecklistItem;
    const en = item('en');
    expect([en.status, en.showsHere, en.preset]).toEqual(['fail', true, null]);
    expect(en.reason).toBe(
      '0 aborted transaction(s), 0 fenced producer(s), 1 producer(s) in a fatal error state though not fenced (INVALID_PRODUCER_ID_MAPPING: every call after it fails, commitTransaction() too, and the producer can only be closed) and 0 commit failure(s): each needs a metric and an alert, or the output they hold back goes missing unnoticed.',
    );
    expect(item('ko').reason).toContain('펜싱되지 않았지만 치명적 오류 상태가 된 프로듀서 1건(INVALID_PRODUCER_ID_MAPPING:');
    for (const words of ['commitTransaction() fails', 'evt-2 is lost']) expect(preset.expected).toContain(words);
    // before the Produce is refused nothing has failed yet: the item is still pending
    const refused = factsOf(trace, 'clientError').find(({ f }) => f.error === 'INVALID_PRODUCER_ID_MAPPING')?.i ?? -1;
    expect(item('en', refused).status).toBe('pending');
    expect(item('en', refused + 1).status).toBe('fail');
  });

  it('a fenced producer keeps its words; Streams still reads either refusal as a migrated task', () => {
    expect(fatalReason('PRODUCER_FENCED')).toBe('The producer is in a fatal error state (fenced) and must be closed');
    expect(fatalReason('INVALID_PRODUCER_ID_MAPPING')).toContain('(INVALID_PRODUCER_ID_MAPPING: ');
    expect(isTaskMigrated(fatalReason('PRODUCER_FENCED'))).toBe(true);
    expect(isTaskMigrated(fatalReason('INVALID_PRODUCER_ID_MAPPING'))).toBe(true);
    expect(isTaskMigrated(fatalReason('INVALID_TXN_STATE'))).toBe(false);
  });

  it('the end of the 8 s sleep is told once, not as a second beginTransaction()', () => {
    const at8010 = trace.steps.filter((s) => s.t === 8010 && s.actor === 'orders-service.app' && s.label === 'runNext');
    expect(at8010.slice(0, 2).map((s) => narrate(trace, s.i, 'en'))).toEqual([
      'The orders-service application moves to its next scripted operation.',
      'The orders-service application runs its next scripted operation: beginTransaction().',
    ]);
  });
});
