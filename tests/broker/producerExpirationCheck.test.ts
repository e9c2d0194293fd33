/**
 * The broker's PeriodicProducerExpirationCheck (UnifiedLog schedules it every
 * producer.id.expiration.check.interval.ms from when the log is opened; ProducerStateManager.
 * removeExpiredProducers drops producers idle for producer.id.expiration.ms with no transaction
 * open). The model arms, per log, the first run that can find something; tested here through runs.
 */
import { describe, expect, it } from 'vitest';
import { checkRunAtOrAfter } from '../../src/sim/broker/producerExpirationCheck';
import { findingText } from '../../src/sim/checks/verdictText';
import { narrate } from '../../src/sim/narration/narrate';
import { findPreset } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { runPreset, runWith } from '../presets/helpers';

const expiries = (r: ReturnType<typeof runPreset>) =>
  r.trace.steps
    .map((s) => ({ t: s.t, facts: s.facts }))
    .flatMap(({ t, facts }) => facts.filter((f) => f.kind === 'producerStateExpired').map((f) => ({ t, f })));

const preset = (): Scenario => structuredClone(findPreset('producer-state-expired')?.scenario as Scenario);

describe('the producer expiration check', () => {
  it('runs at the log-open time plus whole intervals, the first at or after the deadline', () => {
    expect(checkRunAtOrAfter(0, 5000, 10002)).toBe(15000);
    expect(checkRunAtOrAfter(0, 5000, 10000)).toBe(10000);
    expect(checkRunAtOrAfter(1500, 5000, 10002)).toBe(11500);
    // never the open instant itself: the first run is one interval after it
    expect(checkRunAtOrAfter(0, 5000, 0)).toBe(5000);
  });

  it('producer-state-expired: broker-0 drops producerId 1000 at 15 s, and the retry at 30 s is appended again', () => {
    const r = runPreset('producer-state-expired');
    const e = expiries(r);
    const dropped = {
      kind: 'producerStateExpired',
      broker: 'broker-0',
      topic: 'orders',
      partition: 0,
      producers: [{ producerId: 1000, producerEpoch: 0, lastTimestamp: 2 }],
      expirationMs: 10000,
    };
    // the retried batch keeps its CreateTime (2 ms): the entry it rebuilt is expired at the next run after it
    expect(e.map(({ t, f }) => ({ t, ...f }))).toEqual([
      { t: 15000, ...dropped },
      { t: 35000, ...dropped },
    ]);
    const appends = r.facts('append').filter((f) => f.topic === 'orders');
    expect(appends.map((a) => [a.baseOffset, a.producerId, a.producerEpoch, a.baseSequence])).toEqual([
      [0, 1000, 0, 0],
      [1, 1000, 0, 0],
    ]);
  });

  it('with Kafka’s defaults (a day) the same lost ack is recognised and nothing expires', () => {
    const s = preset();
    delete (s as { cluster?: unknown }).cluster;
    const r = runWith(s);
    expect(expiries(r)).toEqual([]);
    expect(r.facts('append').filter((f) => f.topic === 'orders')).toHaveLength(1);
  });

  it('an expiration of at least delivery.timeout.ms keeps the producer through its retry', () => {
    const s = preset();
    s.cluster = { 'producer.id.expiration.ms': 120000, 'producer.id.expiration.check.interval.ms': 5000 };
    const r = runWith(s);
    expect(r.facts('append').filter((f) => f.topic === 'orders')).toHaveLength(1);
    // it does expire later, once idle for 120 s (if the run lasts that long) — never before
    expect(expiries(r).every(({ t }) => t >= 120002)).toBe(true);
  });

  it('a restart opens the logs again: the runs count from the restart', () => {
    const s = preset();
    s.faults = [...(s.faults ?? []), { type: 'crash', target: 'broker-0', at: 1000, durationMs: 500 }];
    const r = runWith(s);
    // lastTimestamp 2 + 10 s = 10,002 ms: the first run of a log opened at 1,500 ms after it is 11,500 ms
    expect(expiries(r).map(({ t }) => t)).toEqual([11500]);
  });

  it('a producer with a transaction open is kept past the expiration; it expires counting from its marker', () => {
    const s: Scenario = {
      version: 1,
      seed: 5,
      cluster: { 'producer.id.expiration.ms': 10000, 'producer.id.expiration.check.interval.ms': 1000 },
      topics: [{ name: 'payments', partitions: 1 }],
      clients: [
        {
          id: 'payment-service',
          type: 'producer',
          config: { 'transactional.id': 'payment-service-1' },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'payments', key: 'pay-1', value: 'v' },
            { op: 'sleep', ms: 20000 },
            { op: 'commitTransaction' },
            // keeps the run going past the marker's expiration
            { op: 'sleep', ms: 15000 },
          ],
        },
      ],
    } as Scenario;
    const r = runWith(s);
    const markerAt =
      r.trace.steps.find((st) => (st.facts as Fact[]).some((f) => f.kind === 'append' && f.topic === 'payments' && f.control === 'COMMIT'))
        ?.t ?? -1;
    expect(markerAt).toBeGreaterThan(20000);
    const e = expiries(r);
    // nothing expired while the transaction was open (20 s), then one expiry after the marker
    expect(e).toHaveLength(1);
    const at = e[0]?.t ?? -1;
    expect(at).toBeGreaterThanOrEqual(markerAt + 10000);
    expect(at).toBeLessThan(markerAt + 11000);
  });

  it('narrates the expiry and the retry it lets through, in English and Korean', () => {
    const r = runPreset('producer-state-expired');
    const i = r.trace.steps.findIndex((s) => s.facts.some((f) => f.kind === 'producerStateExpired'));
    expect(narrate(r.trace, i, 'en')).toContain('producer.id.expiration.ms (10,000 ms)');
    expect(narrate(r.trace, i, 'ko')).toContain('producerId 1000 (epoch 0)을 지웠습니다');
    const retry = r.trace.steps.findIndex((s) => (s.facts as Fact[]).some((f) => f.kind === 'append' && f.baseOffset === 1));
    expect(narrate(r.trace, retry, 'en')).toContain("broker-0's expiration check had dropped producerId 1000's state");
    expect(narrate(r.trace, retry, 'ko')).toContain('만료 검사로 orders-0에서 producerId 1000의 상태를 지웠고');
  });

  it('a run that finds the producer written again since drops nothing, says so, and arms the next run', () => {
    // sends at 0 ms and 8 s: the run armed for the first (10,002 ms → 15 s) finds the entry refreshed
    const s = {
      version: 1,
      seed: 3,
      cluster: { 'producer.id.expiration.ms': 10000, 'producer.id.expiration.check.interval.ms': 5000 },
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        {
          id: 'p',
          type: 'producer',
          script: [
            { op: 'send', topic: 'orders', key: 'a', value: 'v' },
            { op: 'sleep', ms: 8000 },
            { op: 'send', topic: 'orders', key: 'b', value: 'v' },
            { op: 'sleep', ms: 14000 },
          ],
        },
      ],
    } as Scenario;
    const r = runWith(s);
    const checks = r.trace.steps.map((st, i) => ({ st, i })).filter(({ st }) => st.label === 'producerExpirationCheck');
    expect(checks.map(({ st }) => [st.t, st.facts.length])).toEqual([
      [15000, 0],
      [20000, 1],
    ]);
    const noop = checks[0]?.i ?? -1;
    expect(narrate(r.trace, noop, 'en')).toContain('finds no producer of orders-0 idle for producer.id.expiration.ms (10,000 ms)');
    expect(narrate(r.trace, noop, 'ko')).toContain('orders-0에는 producer.id.expiration.ms(10,000 ms) 동안 쉰 프로듀서가 없습니다');
  });

  it('the verdict says why idempotence did not recognise the retry', () => {
    const r = runPreset('producer-state-expired');
    const log = summarize(r.trace).verdict.layers.find((l) => l.layer === 'log');
    if (!log) throw new Error('no log finding');
    const en = findingText(log, 'en');
    expect(en).toContain("broker-0 had dropped producerId 1000's state before the retry arrived (producer.id.expiration.ms 10,000 ms");
    expect(en).not.toContain('without idempotence');
    expect(findingText(log, 'ko')).toContain('producerId 1000의 상태를 지웠습니다');
  });
});
