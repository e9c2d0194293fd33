/**
 * A transactional commit on a topic with three replicas: the COMMIT marker is appended with
 * requiredAcks = -1 (KafkaApis.handleWriteTxnMarkersRequest), so the leader answers WriteTxnMarkers
 * only when its HW passes the marker, and the coordinator writes CompleteCommit only after that —
 * when every ISR follower holds the marker.
 */
import { describe, expect, it } from 'vitest';
import { stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';

const scenario: Scenario = {
  version: 1,
  seed: 3,
  cluster: { brokers: 3, 'min.insync.replicas': 2 },
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [
    {
      id: 'orders-service',
      type: 'producer',
      config: { 'transactional.id': 'orders-service-1' },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e1' } },
        { op: 'commitTransaction' },
      ],
    },
  ],
} as Scenario;

type Logs = Record<string, { highWatermark: number; logEndOffset: number }>;

describe('a transaction committed on an RF=3 partition', () => {
  const r = runWith(scenario);
  const stepOf = (pred: (f: { kind: string } & Record<string, unknown>) => boolean) =>
    r.trace.steps.findIndex((s) => (s.facts as ({ kind: string } & Record<string, unknown>)[]).some(pred));
  // the state once step `step` has run
  const logAt = (step: number, broker: string) =>
    (stateAt(r.trace, step + 1).actors.get(broker)?.context as { partitions: Logs }).partitions['orders-0'];

  it('CompleteCommit is written only after every replica holds the marker and the leader HW is past it', () => {
    const markerStep = stepOf((f) => f.kind === 'append' && f.control === 'COMMIT' && f.topic === 'orders');
    const completeStep = stepOf((f) => f.kind === 'txnState' && f.to === 'CompleteCommit');
    expect(markerStep).toBeGreaterThan(0);
    expect(completeStep).toBeGreaterThan(markerStep);
    // the marker is offset 1: when it is appended the HW is still below it
    expect(logAt(markerStep, 'broker-0')).toMatchObject({ logEndOffset: 2 });
    expect(logAt(markerStep, 'broker-0')?.highWatermark).toBeLessThan(2);
    // when the coordinator completes, the marker is replicated and committed
    expect(logAt(completeStep, 'broker-0')?.highWatermark).toBe(2);
    expect(logAt(completeStep, 'broker-1')?.logEndOffset).toBe(2);
    expect(logAt(completeStep, 'broker-2')?.logEndOffset).toBe(2);
  });

  it('the commit ends normally: the record once, read_committed can see it', () => {
    expect(r.data('orders-0').map((x) => x.value)).toEqual(['v']);
    expect(r.errors('orders-service')).toEqual([]);
    expect(r.partition('orders-0').highWatermark).toBe(2);
  });
});
