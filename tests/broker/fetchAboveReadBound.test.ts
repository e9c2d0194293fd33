/**
 * A consumer's fetch above what its isolation level may read is answered at once, not held.
 *
 * Kafka: ReplicaManager.fetchMessages holds a fetch that found nothing in a DelayedFetch and runs its
 * `tryComplete` at once (`tryCompleteElseWatch`). LocalLog.read gives a read above its bound (the HW,
 * or the LSO for read_committed) its own start offset, so `tryComplete` meets
 * `fetchOffset.messageOffset > endOffset.messageOffset` — case F — and completes the fetch, empty;
 * only a fetch at exactly the bound waits for data up to fetch.max.wait.ms. The consumer then fetches
 * again straight away. On the old model every empty fetch was held for fetch.max.wait.ms.
 * The model answers case F after 1 ms, its clock's resolution (consumerFetch.ts, fetchHoldMs).
 */
import { describe, expect, it } from 'vitest';
import { fetchHoldMs, isAboveReadBound } from '../../src/sim/broker/consumerFetch';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import type { FetchResult } from '../../src/sim/log/partitionLog';
import { narrate } from '../../src/sim/narration/narrate';
import type { FetchRequest } from '../../src/sim/protocol/messages';
import { runScenario } from '../../src/sim/run';

const result = (highWatermark: number, lastStableOffset: number): FetchResult => ({
  highWatermark,
  lastStableOffset,
  logStartOffset: 0,
  batches: [],
  abortedTransactions: [],
  error: null,
});
const fetch = (fetchOffset: number, isolationLevel: 'read_committed' | 'read_uncommitted'): FetchRequest => ({
  isolationLevel,
  maxWaitMs: 500,
  minBytes: 1,
  partitions: [{ topic: 'events', partition: 0, fetchOffset, maxRecords: 500 }],
});

describe('how long a fetch that finds nothing is held (DelayedFetch.tryComplete)', () => {
  it.each([
    ['read_committed at the LSO, below the HW', 0, 'read_committed', 500],
    ['read_committed above the LSO', 3, 'read_committed', 1],
    ['read_uncommitted at the HW', 3, 'read_uncommitted', 500],
    ['read_uncommitted above the HW (a new leader whose HW lags)', 4, 'read_uncommitted', 1],
  ] as const)('%s', (_what, offset, isolation, heldMs) => {
    // HW 3, LSO 0: a transaction open at offset 0, plain records at 1 and 2
    const completion = isAboveReadBound(result(3, 0), offset, isolation) ? 'caseF' : 'wait';
    expect(fetchHoldMs(completion, fetch(offset, isolation))).toBe(heldMs);
  });
});

/**
 * An open transaction pins the LSO at 0; plain records follow at 1 and 2; an operator resets the
 * group to the latest offset (the HW, 3) before a read_committed consumer starts there: its position
 * is above the LSO until the transaction commits at 8 s.
 */
const aboveTheLso = {
  version: 1,
  seed: 23,
  topics: [{ name: 'events', partitions: 1 }],
  clients: [
    {
      id: 'batch-job',
      type: 'producer',
      config: { 'transactional.id': 'batch-job-1' },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'events', key: 'job', value: 'step-1', headers: { event_id: 'evt-job-1' } },
        { op: 'flush' },
        { op: 'commitTransaction', at: 8000 },
      ],
    },
    {
      id: 'clicks',
      type: 'producer',
      script: [
        { op: 'send', topic: 'events', key: 'click', value: 'c-1', headers: { event_id: 'evt-click-1' }, at: 100 },
        { op: 'send', topic: 'events', key: 'click', value: 'c-2', headers: { event_id: 'evt-click-2' }, delayMs: 100 },
        { op: 'flush' },
      ],
    },
    {
      id: 'reader',
      type: 'consumer',
      config: { 'group.id': 'reader', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
      topics: ['events'],
      processing: { mode: 'at-least-once' },
      startAt: 2000,
    },
  ],
  faults: [{ type: 'resetOffsets', at: 1000, group: 'reader', topic: 'events', partition: 0, to: 'latest' }],
};

describe('a read_committed consumer positioned above the LSO', () => {
  const trace = runScenario(aboveTheLso);
  const envelopes: EnvelopeRecord[] = [];
  for (let i = 0; i < trace.envelopes.length; i++) envelopes.push(trace.envelopes.at(i) as EnvelopeRecord);
  const readerFetches = envelopes.filter((e) => e.rpc === 'Fetch' && e.from === 'reader.consumer');
  const answers = envelopes.filter((e) => e.rpc === 'FetchResponse' && e.to === 'reader.consumer');
  const deliveredAt = (e: EnvelopeRecord) => (e.deliveredStep === null ? null : (trace.stepAt(e.deliveredStep)?.t ?? null));

  it('is answered within a millisecond, empty, each time, while the LSO is below its position', () => {
    const above = answers.filter((a) => {
      const p = (a.payload.partitions as { lastStableOffset: number; batches: unknown[]; error: string }[])[0] as {
        lastStableOffset: number;
        batches: unknown[];
        error: string;
      };
      const q = (envelopes[a.inReplyTo as number]?.payload.partitions as { fetchOffset: number }[])[0] as { fetchOffset: number };
      return p.error === 'NONE' && p.batches.length === 0 && q.fetchOffset > p.lastStableOffset;
    });
    expect(above.length).toBeGreaterThan(500);
    for (const a of above) {
      const request = envelopes[a.inReplyTo as number] as EnvelopeRecord;
      expect(a.sentAt - (deliveredAt(request) as number)).toBeLessThanOrEqual(1);
    }
  });

  it('fetches again at the round trip, not every fetch.max.wait.ms, until the commit', () => {
    const between = readerFetches.filter((f) => f.sentAt >= 5000 && f.sentAt < 8000);
    // 3 s at a 1 ms link: a fetch every ~3 ms (two hops and the 1 ms answer); held fetches made 6
    expect(between.length).toBeGreaterThan(900);
  });

  it('is narrated as an answer at once, not as fetch.max.wait.ms passing', () => {
    let step = -1;
    for (let i = 0; step < 0; i++) {
      const s = trace.stepAt(i);
      if (!s) break;
      if (s.label === 'fetchWaitExpired' && s.t > 5000) step = i;
    }
    expect(narrate(trace, step, 'en')).toContain('above the LSO (0) it may read: broker-0 answers it at once, empty');
    expect(narrate(trace, step, 'ko')).toContain('LSO(0)보다 큰 offset 3을 요청하므로 broker-0이 곧바로 빈 응답을 보냅니다');
  });

  it('reads the committed record as soon as the commit marker moves the LSO past its position', () => {
    const delivered = answers.find((a) => (a.payload.partitions as { batches: unknown[] }[]).some((p) => p.batches.length > 0));
    expect(delivered).toBeDefined();
    expect((delivered as EnvelopeRecord).sentAt).toBeGreaterThanOrEqual(8000);
    expect((delivered as EnvelopeRecord).sentAt).toBeLessThan(8010);
    expect(trace.stopReason).toBe('quiescent');
  });
});
