/**
 * A Fetch's currentLeaderEpoch (Partition.getLocalLog → checkCurrentLeaderEpoch, before the leader
 * check, for consumers and followers alike): below the broker's epoch of the partition →
 * FENCED_LEADER_EPOCH, above it → UNKNOWN_LEADER_EPOCH, equal or absent → on to the leader check.
 */
import { describe, expect, it } from 'vitest';
import { brokerMachine } from '../../src/sim/broker/broker.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { checkCurrentLeaderEpoch } from '../../src/sim/replication/followerFetch';
import { bootedBroker, drive, inputOf } from '../machines/harness';
import { rpc } from './brokerRequests';

describe('checkCurrentLeaderEpoch', () => {
  it('older is fenced, newer unknown, equal or absent passes', () => {
    expect(checkCurrentLeaderEpoch(2, 1)).toBe('FENCED_LEADER_EPOCH');
    expect(checkCurrentLeaderEpoch(2, 3)).toBe('UNKNOWN_LEADER_EPOCH');
    expect(checkCurrentLeaderEpoch(2, 2)).toBe('NONE');
    expect(checkCurrentLeaderEpoch(2, undefined)).toBe('NONE');
  });
});

const scenario = { version: 1, seed: 1, cluster: { brokers: 3 }, topics: [{ name: 't', replicationFactor: 3 }], clients: [] };
const consumerFetch = (currentLeaderEpoch: number | undefined) =>
  rpc('Fetch', 'c.consumer', {
    isolationLevel: 'read_uncommitted',
    maxWaitMs: 500,
    minBytes: 1,
    partitions: [
      { topic: 't', partition: 0, fetchOffset: 0, maxRecords: 10, ...(currentLeaderEpoch === undefined ? {} : { currentLeaderEpoch }) },
    ],
  });
/** The errors of the FetchResponses sent: a consumer's per partition, a follower's as it is. */
const fetchErrors = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'send' && e.rpc === 'FetchResponse'
      ? ((e.payload.partitions as { error: string }[] | undefined) ?? [e.payload as { error: string }]).map((p) => p.error)
      : [],
  );
const change = (leader: string, leaderEpoch: number) =>
  rpc('PartitionChange', 'controller', {
    topic: 't',
    partition: 0,
    leader,
    leaderEpoch,
    partitionEpoch: leaderEpoch,
    replicas: ['broker-0', 'broker-1', 'broker-2'],
    isr: ['broker-0', 'broker-1', 'broker-2'],
    election: 'clean',
  });

/** broker `id` of the cluster, with the controller's record of t-0 at leader `leader`, epoch `epoch`. */
function broker(id: string, leader = 'broker-0', epoch = 0) {
  const m = bootedBroker(scenario, id);
  if (epoch > 0) m.send(change(leader, epoch), 1);
  return m;
}

describe("the broker checks a Fetch's currentLeaderEpoch before it checks leadership", () => {
  it('the leader at epoch 1: a consumer at epoch 0 is fenced, one at epoch 2 gets UNKNOWN_LEADER_EPOCH, epoch 1 is held', () => {
    const m = broker('broker-0', 'broker-0', 1);
    expect(fetchErrors(m.send(consumerFetch(0), 10))).toEqual(['FENCED_LEADER_EPOCH']);
    expect(fetchErrors(m.send(consumerFetch(2), 11))).toEqual(['UNKNOWN_LEADER_EPOCH']);
    // the right epoch, nothing to read yet: the fetch is held (fetch.max.wait.ms)
    expect(fetchErrors(m.send(consumerFetch(1), 12))).toEqual([]);
  });

  it('a follower at epoch 1: a consumer still at epoch 0 gets FENCED_LEADER_EPOCH, not NOT_LEADER_OR_FOLLOWER', () => {
    const m = broker('broker-0', 'broker-1', 1);
    expect(fetchErrors(m.send(consumerFetch(0), 10))).toEqual(['FENCED_LEADER_EPOCH']);
    expect(fetchErrors(m.send(consumerFetch(1), 11))).toEqual(['NOT_LEADER_OR_FOLLOWER']);
    expect(fetchErrors(m.send(consumerFetch(2), 12))).toEqual(['UNKNOWN_LEADER_EPOCH']);
  });

  it("KIP-951: a consumer's Fetch refused NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH names the leader this broker knows", () => {
    const m = broker('broker-0', 'broker-1', 1);
    const leaders = (fx: readonly Effect[]) =>
      fx.flatMap((e) =>
        e.type === 'send' && e.rpc === 'FetchResponse'
          ? (e.payload.partitions as { currentLeader?: unknown }[]).map((p) => p.currentLeader)
          : [],
      );
    expect(leaders(m.send(consumerFetch(0), 10))).toEqual([{ leaderId: 'broker-1', leaderEpoch: 1 }]);
    expect(leaders(m.send(consumerFetch(1), 11))).toEqual([{ leaderId: 'broker-1', leaderEpoch: 1 }]);
    // UNKNOWN_LEADER_EPOCH carries none: the consumer is ahead of this broker
    expect(leaders(m.send(consumerFetch(2), 12))).toEqual([undefined]);
  });

  it("a follower's Fetch reaching a broker that no longer leads: FENCED_LEADER_EPOCH for an older epoch", () => {
    const m = broker('broker-0', 'broker-1', 1);
    const replicaFetch = (currentLeaderEpoch: number) =>
      rpc('Fetch', 'broker-2', {
        topic: 't',
        partition: 0,
        replicaId: 'broker-2',
        brokerEpoch: 0,
        fetchOffset: 0,
        lastFetchedEpoch: -1,
        currentLeaderEpoch,
        maxWaitMs: 0,
        maxRecords: 500,
      });
    expect(fetchErrors(m.send(replicaFetch(0), 10))).toEqual(['FENCED_LEADER_EPOCH']);
    expect(fetchErrors(m.send(replicaFetch(1), 11))).toEqual(['NOT_LEADER_OR_FOLLOWER']);
  });

  it('a one-replica partition ignores the field (no epoch to check)', () => {
    const m = drive(brokerMachine, inputOf({ version: 1, seed: 1, topics: [{ name: 't' }], clients: [] }, 'broker-0'));
    expect(fetchErrors(m.send({ ...consumerFetch(5), payload: { ...consumerFetch(5).payload, maxWaitMs: 0 } }, 10))).toEqual(['NONE']);
  });
});
