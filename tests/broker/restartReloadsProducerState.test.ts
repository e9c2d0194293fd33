/**
 * A restarted broker recovers each log's active segment from the snapshot at its base and the batches
 * after it, writes a snapshot at the log end and loads that one (LogLoader.recoverLog → recoverSegment;
 * LogLoader.load → UnifiedLog.rebuildProducerState → ProducerStateManager.truncateAndReload,
 * loadFromSnapshot filtering isProducerExpired): every producer idle for producer.id.expiration.ms
 * is left out, wherever its batches are. Through whole runs: the lost ack of
 * `producer-state-expired`, with no expiration check before the retry, and a broker restart between.
 */
import { describe, expect, it } from 'vitest';
import { findingText } from '../../src/sim/checks/verdictText';
import { narrate } from '../../src/sim/narration/narrate';
import { findPreset } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { runWith } from '../presets/helpers';

/**
 * orders-service's record (offset 0, CreateTime 2 ms) loses its ack; another producer's record at 3 s
 * rolls a segment (segment.bytes 14, its smallest), so the snapshot at offset 1 holds producerId 1000; broker-0
 * crashes at 12 s and restarts at 12.5 s, when 1000 has been idle over producer.id.expiration.ms
 * (10 s) — but the check (every 10 minutes) has not run. The crash ends the connection, so the
 * producer retries its batch as soon as the broker is back.
 */
function scenario(segmentBytes = 14): Scenario {
  const s = structuredClone(findPreset('producer-state-expired')?.scenario as Scenario);
  s.cluster = { 'producer.id.expiration.ms': 10000, 'producer.id.expiration.check.interval.ms': 600000 };
  s.topics = [{ name: 'orders', partitions: 1, config: { 'segment.bytes': segmentBytes } }];
  s.clients = [
    ...s.clients,
    {
      id: 'audit-service',
      type: 'producer',
      config: { 'enable.idempotence': true },
      script: [
        { op: 'sleep', ms: 3000 },
        { op: 'send', topic: 'orders', key: 'audit-1', value: 'Audit', headers: { event_id: 'evt-audit' } },
      ],
    },
  ] as Scenario['clients'];
  s.faults = [...(s.faults ?? []), { type: 'crash', target: 'broker-0', at: 12000, durationMs: 500 }];
  return s;
}

const loaded = (r: ReturnType<typeof runWith>) =>
  r.trace.steps.flatMap((st) => (st.facts as Fact[]).filter((f) => f.kind === 'producerStateLoaded').map((f) => ({ t: st.t, f })));

const ordersAppends = (r: ReturnType<typeof runWith>) =>
  r
    .facts('append')
    .filter((f) => f.topic === 'orders' && f.control === null)
    .map((a) => [a.baseOffset, a.producerId, a.baseSequence]);

describe("a broker restart reloads its logs' producer state", () => {
  it('leaves out the producer of the snapshot idle for producer.id.expiration.ms: its retry is appended again', () => {
    const r = runWith(scenario());
    expect(loaded(r).map(({ t, f }) => ({ t, ...f }))).toEqual([
      {
        t: 12500,
        kind: 'producerStateLoaded',
        cause: 'restart',
        broker: 'broker-0',
        topic: 'orders',
        partition: 0,
        snapshotOffset: 1,
        replayedFrom: 1,
        dropped: [{ producerId: 1000, producerEpoch: 0, lastTimestamp: 2 }],
        restored: [],
        lastBatchOnly: [],
        expirationMs: 10000,
      },
    ]);
    // no expiration check ran: the restart's reload alone forgot producerId 1000
    expect(r.trace.steps.some((st) => st.facts.some((f) => f.kind === 'producerStateExpired'))).toBe(false);
    expect(ordersAppends(r)).toEqual([
      [0, 1000, 0],
      [1, 1001, 0],
      [2, 1000, 0],
    ]);
    const log = summarize(r.trace).verdict.layers.find((l) => l.layer === 'log' && l.subject === 'orders');
    expect(log?.status).toBe('more-than-once');
  });

  it('the verdict and the narration say why the retry was not recognised, in English and Korean', () => {
    const r = runWith(scenario());
    const i = r.trace.steps.findIndex((st) => st.facts.some((f) => f.kind === 'producerStateLoaded'));
    expect(narrate(r.trace, i, 'en')).toContain('broker-0 restarted and rebuilt the producer state of orders-0 from its log');
    expect(narrate(r.trace, i, 'en')).toContain('It left out producerId 1000');
    expect(narrate(r.trace, i, 'ko')).toContain('프로듀서 상태를 로그에서 다시 만들었습니다');
    const log = summarize(r.trace).verdict.layers.find((l) => l.layer === 'log' && l.subject === 'orders');
    expect(log && findingText(log, 'en')).toContain("broker-0 had dropped producerId 1000's state before the retry arrived");
  });

  it('with no snapshot (no segment rolled) the idle producer is left out all the same: the recovery replays the whole log, then the broker loads the snapshot it wrote at the log end, with the expiration filter', () => {
    const r = runWith(scenario(1073741824));
    expect(loaded(r).map(({ t, f }) => ({ t, ...f }))).toEqual([
      expect.objectContaining({
        t: 12500,
        kind: 'producerStateLoaded',
        snapshotOffset: null,
        replayedFrom: 0,
        dropped: [{ producerId: 1000, producerEpoch: 0, lastTimestamp: 2 }],
        restored: [],
        lastBatchOnly: [],
      }),
    ]);
    expect(ordersAppends(r)).toEqual([
      [0, 1000, 0],
      [1, 1001, 0],
      [2, 1000, 0],
    ]);
    const log = summarize(r.trace).verdict.layers.find((l) => l.layer === 'log' && l.subject === 'orders');
    expect(log?.status).toBe('more-than-once');
  });

  it('a producer an expiration check dropped stays dropped, though the recovery replays its batch', () => {
    const s = scenario(1073741824);
    // a check every 5 s drops 1000 and audit-service's 1001 at 15 s (idle 10 s); the crash at 20 s replays the whole log
    s.cluster = { 'producer.id.expiration.ms': 10000, 'producer.id.expiration.check.interval.ms': 5000 };
    s.faults = [
      { type: 'drop', rpc: 'ProduceResponse', to: 'orders-service', nth: 1 },
      { type: 'crash', target: 'broker-0', at: 20000, durationMs: 500 },
    ] as Scenario['faults'];
    const r = runWith(s);
    // the reload holds what the broker held (nobody): nothing to tell
    expect(loaded(r)).toEqual([]);
    expect(r.trace.steps.some((st) => st.facts.some((f) => f.kind === 'producerStateExpired'))).toBe(true);
  });
});
