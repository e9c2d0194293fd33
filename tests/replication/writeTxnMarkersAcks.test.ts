/**
 * WriteTxnMarkers on a replicated partition (KafkaApis.handleWriteTxnMarkersRequest appends with
 * requiredAcks = -1): the leader answers only when its HW passes the marker, refuses the append with
 * NOT_ENOUGH_REPLICAS when the ISR is below min.insync.replicas, and ends a waiting marker with
 * REQUEST_TIMED_OUT or NOT_LEADER_OR_FOLLOWER. A broker on its own, driven by hand.
 */
import { describe, expect, it } from 'vitest';
import { brokerMachine } from '../../src/sim/broker/broker.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { bootedBroker, drive, inputOf } from '../machines/harness';
import { rpc } from './brokerRequests';

const scenario = {
  version: 1,
  seed: 1,
  cluster: { brokers: 3, 'min.insync.replicas': 2 },
  topics: [{ name: 't', replicationFactor: 3 }],
  clients: [],
};
const markers = () =>
  rpc('WriteTxnMarkers', 'txn-coordinator', {
    markers: [
      {
        producerId: 7,
        producerEpoch: 0,
        coordinatorEpoch: 0,
        result: 'COMMIT',
        partitions: [{ topic: 't', partition: 0 }],
        transactionalId: 'tx',
      },
    ],
  });
const replicaFetch = (replicaId: string, fetchOffset: number) =>
  rpc('Fetch', replicaId, {
    topic: 't',
    partition: 0,
    replicaId,
    brokerEpoch: 0,
    fetchOffset,
    lastFetchedEpoch: fetchOffset === 0 ? -1 : 0,
    currentLeaderEpoch: 0,
    maxWaitMs: 0,
    maxRecords: 500,
  });
const markerAnswers = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'send' && e.rpc === 'WriteTxnMarkersResponse'
      ? (e.payload as { markers: { partitions: { error: string }[] }[] }).markers.flatMap((m) => m.partitions.map((p) => p.error))
      : [],
  );
const highWatermark = (m: ReturnType<typeof drive>) =>
  m.context<{ partitions: Record<string, { highWatermark: number; logEndOffset: number }> }>().partitions['t-0'];

const leader = () => bootedBroker(scenario, 'broker-0');

describe('WriteTxnMarkers waits for the ISR on a replicated partition (requiredAcks = -1)', () => {
  it('the marker is in the leader log at once, but the answer comes only when the followers have it below the HW', () => {
    const m = leader();
    const fx = m.send(markers(), 10);
    expect(markerAnswers(fx)).toEqual([]);
    expect(highWatermark(m)).toMatchObject({ logEndOffset: 1, highWatermark: 0 });
    expect(fx).toContainEqual(expect.objectContaining({ type: 'timer', name: 'markersTimeout', delay: 30000 }));
    // the followers read the marker, then report offset 1 on their next fetch
    expect(markerAnswers(m.send(replicaFetch('broker-1', 0), 20))).toEqual([]);
    expect(markerAnswers(m.send(replicaFetch('broker-2', 0), 21))).toEqual([]);
    expect(markerAnswers(m.send(replicaFetch('broker-1', 1), 30))).toEqual([]);
    const done = m.send(replicaFetch('broker-2', 1), 31);
    expect(highWatermark(m)?.highWatermark).toBe(1);
    expect(markerAnswers(done)).toEqual(['NONE']);
    expect(done).toContainEqual({ type: 'cancel', key: 'markers:0' });
  });

  it('nobody fetches: the answer is REQUEST_TIMED_OUT at the timeout; the marker stays in the log', () => {
    const m = leader();
    const fx = m.send(markers(), 10);
    const timer = fx.find((e) => e.type === 'timer' && e.name === 'markersTimeout') as { data: Record<string, unknown> };
    expect(markerAnswers(m.send({ type: 'markersTimeout', data: timer.data }, 30010))).toEqual(['REQUEST_TIMED_OUT']);
    expect(highWatermark(m)?.logEndOffset).toBe(1);
  });

  it('the ISR below min.insync.replicas: NOT_ENOUGH_REPLICAS and nothing appended', () => {
    const m = leader();
    m.send(
      rpc('PartitionChange', 'controller', {
        topic: 't',
        partition: 0,
        leader: 'broker-0',
        leaderEpoch: 0,
        partitionEpoch: 1,
        replicas: ['broker-0', 'broker-1', 'broker-2'],
        isr: ['broker-0'],
        election: null,
      }),
      5,
    );
    expect(markerAnswers(m.send(markers(), 10))).toEqual(['NOT_ENOUGH_REPLICAS']);
    expect(highWatermark(m)?.logEndOffset).toBe(0);
  });

  it('leadership moves while the marker waits: NOT_LEADER_OR_FOLLOWER', () => {
    const m = leader();
    m.send(markers(), 10);
    const fx = m.send(
      rpc('PartitionChange', 'controller', {
        topic: 't',
        partition: 0,
        leader: 'broker-1',
        leaderEpoch: 1,
        partitionEpoch: 1,
        replicas: ['broker-0', 'broker-1', 'broker-2'],
        isr: ['broker-1', 'broker-2'],
        election: 'clean',
      }),
      20,
    );
    expect(markerAnswers(fx)).toEqual(['NOT_LEADER_OR_FOLLOWER']);
  });

  it('a one-replica partition is answered right after the append, as before', () => {
    const m = drive(brokerMachine, inputOf({ version: 1, seed: 1, topics: [{ name: 't' }], clients: [] }, 'broker-0'));
    expect(markerAnswers(m.send(markers(), 10))).toEqual(['NONE']);
  });
});
