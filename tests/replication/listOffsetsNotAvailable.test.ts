/**
 * ListOffsets(latest) on a new leader whose high watermark has not yet reached the start of its
 * leader epoch (Partition.fetchOffsetForTimestamp: "epochStart > localLog.highWatermark") is
 * OFFSET_NOT_AVAILABLE, which the consumer retries (OffsetFetcherUtils: "retrying"). Before, the
 * model answered the lagging HW, and a consumer with auto.offset.reset=latest read a record that was
 * already in the log before it joined.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

// orders (3 replicas): broker-0, the leader, crashes 2 ms after appending e4 at 6 s, before the HW
// reached it; broker-1 is elected; broker-2 dies at 12.1 s but stays in the ISR until it is fenced,
// so broker-1's HW stays below its epoch's start; "late" joins at 15.5 s with auto.offset.reset=latest
const scenario = {
  version: 1,
  seed: 1,
  cluster: { brokers: 3 },
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [
    {
      id: 'p',
      type: 'producer',
      config: { acks: 'all', 'linger.ms': 0 },
      script: [
        { op: 'send', at: 1000, topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
        { op: 'send', at: 6000, topic: 'orders', key: 'k', value: 'd', headers: { event_id: 'e4' } },
      ],
    },
    {
      id: 'late',
      type: 'consumer',
      startAt: 15500,
      config: { 'group.id': 'late', 'auto.offset.reset': 'latest' },
      topics: ['orders'],
      processing: { mode: 'at-least-once' },
    },
  ],
  faults: [
    { type: 'crash', target: 'broker-0', at: 6002, durationMs: 60000 },
    { type: 'crash', target: 'broker-2', at: 12100, durationMs: 60000 },
  ],
};

describe('latest offset from a new leader whose HW is behind its epoch start', () => {
  const trace = runScenario(scenario);

  it('the broker answers OFFSET_NOT_AVAILABLE, and the consumer asks again', () => {
    const answers = trace.envelopes.filter(
      (e) =>
        e.rpc === 'ListOffsetsResponse' &&
        (e.payload as { partitions: { error: string }[] }).partitions.some((p) => p.error === 'OFFSET_NOT_AVAILABLE'),
    );
    expect(answers.length).toBeGreaterThan(0);
    const asked = trace.envelopes.filter((e) => e.rpc === 'ListOffsets' && e.from === 'late.consumer');
    expect(asked.length).toBeGreaterThan(answers.length);
  });

  it('"late" starts at the end once the HW is known, so it receives nothing written before it joined', () => {
    const delivered = trace.steps.flatMap((s) => (s.facts as Fact[]).filter((f) => f.kind === 'delivered' && f.consumer === 'late'));
    expect(delivered).toEqual([]);
  });
});
