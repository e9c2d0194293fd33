/**
 * The client's metadata rules (src/sim/cluster/clientMetadata.ts), each against Kafka's Metadata.java
 * and NetworkClient's DefaultMetadataUpdater: epochs never go back, the KIP-951 hint, the update
 * flag, the backoff and metadata.max.age.ms, leastLoadedNode.
 */
import { describe, expect, it } from 'vitest';
import {
  applyCurrentLeader,
  applyMetadataResponse,
  type ClientMetadataState,
  failedUpdate,
  INITIAL_CLIENT_METADATA,
  isInvalidMetadataError,
  leaderCanMove,
  leaderEpochOf,
  leastLoadedNode,
  metadataSent,
  nextMetadataStep,
  refreshBackoff,
  requestUpdate,
  timeToNextUpdate,
} from '../src/sim/cluster/clientMetadata';
import { backoffOver, connecting, disconnected, NO_CONNECTION_STATES, ready } from '../src/sim/cluster/connectionStates';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import type { MetadataResponse, PartitionMetadata } from '../src/sim/protocol/replicationMessages';

const CONFIG = { 'retry.backoff.ms': 100, 'retry.backoff.max.ms': 1000, 'metadata.max.age.ms': 300000 };

const META: ClusterMetadata = {
  brokers: ['broker-0', 'broker-1', 'broker-2'],
  topics: { orders: { name: 'orders', partitions: 2, leaders: ['broker-0', 'broker-1'], leaderEpochs: [3, 0] } },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 1,
  consumerOffsetsPartitions: 1,
};

const part = (
  partition: number,
  leader: string | null,
  leaderEpoch: number,
  error: PartitionMetadata['error'] = 'NONE',
): PartitionMetadata => ({
  partition,
  error,
  leader,
  leaderEpoch,
  replicas: ['broker-0', 'broker-1', 'broker-2'],
  isr: leader === null ? [] : [leader],
});

const answer = (...partitions: PartitionMetadata[]): MetadataResponse => ({
  brokers: ['broker-0', 'broker-1', 'broker-2'],
  topics: [{ name: 'orders', partitions }],
});

describe('applyMetadataResponse (Metadata.update → updateLatestMetadata)', () => {
  it('takes a newer leader and epoch, and clears the requested update', () => {
    const s = requestUpdate(INITIAL_CLIENT_METADATA);
    const r = applyMetadataResponse(META, s, answer(part(0, 'broker-2', 4)), 500);
    expect(r.meta.topics.orders?.leaders).toEqual(['broker-2', 'broker-1']);
    expect(r.meta.topics.orders?.leaderEpochs).toEqual([4, 0]);
    expect(r.changed).toEqual([{ topic: 'orders', partition: 0 }]);
    expect(r.state.updateRequested).toBe(false);
    expect(r.state.lastSuccessfulRefreshMs).toBe(500);
    expect(r.state.equivalentResponses).toBe(0);
  });

  it('never goes back to an older leader epoch (a broker that has not seen the election yet)', () => {
    const r = applyMetadataResponse(META, INITIAL_CLIENT_METADATA, answer(part(0, 'broker-1', 2)), 500);
    expect(r.meta.topics.orders?.leaders[0]).toBe('broker-0');
    expect(r.meta.topics.orders?.leaderEpochs?.[0]).toBe(3);
    expect(r.changed).toEqual([]);
  });

  it('an offline partition (LEADER_NOT_AVAILABLE, leader null) has no leader and asks for another update', () => {
    const r = applyMetadataResponse(META, requestUpdate(INITIAL_CLIENT_METADATA), answer(part(1, null, 1, 'LEADER_NOT_AVAILABLE')), 500);
    expect(r.meta.topics.orders?.leaders[1]).toBeNull();
    expect(r.meta.topics.orders?.leaderEpochs?.[1]).toBe(1);
    expect(r.state.updateRequested).toBe(true);
  });

  it('an answer without an epoch change counts as equivalent (KIP-580 backoff); one with a newer epoch resets it', () => {
    let s: ClientMetadataState = { ...INITIAL_CLIENT_METADATA, equivalentResponses: 2 };
    s = applyMetadataResponse(META, s, answer(part(0, 'broker-0', 3)), 100).state;
    expect(s.equivalentResponses).toBe(3);
    s = applyMetadataResponse(META, s, answer(part(0, 'broker-1', 5)), 200).state;
    expect(s.equivalentResponses).toBe(0);
  });

  it('a topic without epochs takes any epoch; the first answer gives it leader epochs', () => {
    const plain: ClusterMetadata = { ...META, topics: { orders: { name: 'orders', partitions: 2, leaders: ['broker-0', 'broker-1'] } } };
    expect(leaderCanMove(plain, 'orders')).toBe(false);
    expect(leaderEpochOf(plain, 'orders', 0)).toBe(0);
    const r = applyMetadataResponse(plain, INITIAL_CLIENT_METADATA, answer(part(0, 'broker-0', 0)), 10);
    expect(r.meta.topics.orders?.leaderEpochs).toEqual([0, 0]);
    expect(leaderCanMove(r.meta, 'orders')).toBe(true);
  });

  it('an answer without brokers is a failed update (NetworkClient.handleSuccessfulResponse)', () => {
    const s = metadataSent(requestUpdate(INITIAL_CLIENT_METADATA), 7);
    const r = applyMetadataResponse(META, s, { brokers: [], topics: [] }, 300);
    expect(r.meta).toBe(META);
    expect(r.state).toMatchObject({ inFlight: null, attempts: 1, lastRefreshMs: 300, updateRequested: true });
  });

  it('the brokers of the answer replace the known ones (fenced brokers are not listed)', () => {
    const r = applyMetadataResponse(META, INITIAL_CLIENT_METADATA, { brokers: ['broker-1'], topics: [] }, 1);
    expect(r.meta.brokers).toEqual(['broker-1']);
  });
});

describe('applyCurrentLeader (Metadata.updatePartitionLeadership, KIP-951)', () => {
  const tp = { topic: 'orders', partition: 0 };
  it('takes a hint with a newer epoch at once', () => {
    const r = applyCurrentLeader(META, tp, { leaderId: 'broker-2', leaderEpoch: 4 });
    expect(r.updated).toBe(true);
    expect(r.meta.topics.orders?.leaders[0]).toBe('broker-2');
    expect(r.meta.topics.orders?.leaderEpochs?.[0]).toBe(4);
  });
  it('ignores a hint whose epoch is not newer', () => {
    expect(applyCurrentLeader(META, tp, { leaderId: 'broker-2', leaderEpoch: 3 }).updated).toBe(false);
    expect(applyCurrentLeader(META, tp, { leaderId: 'broker-2', leaderEpoch: 2 }).meta).toBe(META);
  });
  it('ignores a hint without a leader (offline) or without one at all', () => {
    expect(applyCurrentLeader(META, tp, { leaderId: null, leaderEpoch: 9 }).updated).toBe(false);
    expect(applyCurrentLeader(META, tp, undefined).updated).toBe(false);
    expect(applyCurrentLeader(META, { topic: 'other', partition: 0 }, { leaderId: 'broker-2', leaderEpoch: 9 }).updated).toBe(false);
  });
});

describe('when the next Metadata request goes (timeToNextUpdate, DefaultMetadataUpdater.maybeUpdate)', () => {
  it('nothing is due until an update is asked for or metadata.max.age.ms passes', () => {
    expect(timeToNextUpdate(INITIAL_CLIENT_METADATA, CONFIG, 1000)).toBe(299000);
    expect(timeToNextUpdate(requestUpdate(INITIAL_CLIENT_METADATA), CONFIG, 1000)).toBe(0);
    expect(timeToNextUpdate(INITIAL_CLIENT_METADATA, CONFIG, 300000)).toBe(0);
  });

  it('without aging (no replicated topic) nothing is due until asked', () => {
    expect(nextMetadataStep(INITIAL_CLIENT_METADATA, META, NO_CONNECTION_STATES, CONFIG, 900000, false)).toEqual({ kind: 'idle' });
    expect(nextMetadataStep(requestUpdate(INITIAL_CLIENT_METADATA), META, NO_CONNECTION_STATES, CONFIG, 5, false)).toEqual({
      kind: 'send',
      broker: 'broker-0',
    });
  });

  it('failed requests back off retry.backoff.ms doubling up to retry.backoff.max.ms', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => refreshBackoff(CONFIG, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
    let s = requestUpdate(INITIAL_CLIENT_METADATA);
    s = failedUpdate(metadataSent(s, 1), 1000);
    expect(nextMetadataStep(s, META, NO_CONNECTION_STATES, CONFIG, 1000, true)).toEqual({ kind: 'wait', ms: 100 });
    s = failedUpdate(metadataSent(s, 2), 1100);
    expect(timeToNextUpdate(s, CONFIG, 1100)).toBe(200);
    for (let i = 0; i < 4; i++) s = failedUpdate(s, 2000);
    expect(timeToNextUpdate(s, CONFIG, 2000)).toBe(1000);
  });

  it('answers that change nothing back off too, even while an update is asked for', () => {
    const s = requestUpdate({ ...INITIAL_CLIENT_METADATA, lastRefreshMs: 5000, lastSuccessfulRefreshMs: 5000, equivalentResponses: 3 });
    expect(timeToNextUpdate(s, CONFIG, 5000)).toBe(400);
    // the periodic refresh after metadata.max.age.ms starts that count over
    expect(timeToNextUpdate(s, CONFIG, 305000)).toBe(0);
  });

  it('one request at a time (inProgress)', () => {
    const s = metadataSent(requestUpdate(INITIAL_CLIENT_METADATA), 4);
    expect(nextMetadataStep(s, META, NO_CONNECTION_STATES, CONFIG, 10, true)).toEqual({ kind: 'idle' });
  });

  it('an answer resets the failed attempts', () => {
    const s = failedUpdate(failedUpdate(requestUpdate(INITIAL_CLIENT_METADATA), 10), 20);
    const r = applyMetadataResponse(META, s, answer(part(0, 'broker-2', 6)), 30);
    expect(r.state.attempts).toBe(0);
    expect(timeToNextUpdate(requestUpdate(r.state), CONFIG, 30)).toBe(0);
  });
});

describe('leastLoadedNode (modelled, by the connection states: NetworkClient.leastLoadedNode)', () => {
  const RECONNECT = { 'reconnect.backoff.ms': 50, 'reconnect.backoff.max.ms': 1000 };
  it('a READY broker first; then one being connected to; then the one whose last attempt is oldest; none in its backoff', () => {
    let c = disconnected(NO_CONNECTION_STATES, 'broker-0', 100, RECONNECT);
    expect(leastLoadedNode(META, c)).toBe('broker-1');
    c = disconnected(disconnected(c, 'broker-2', 50, RECONNECT), 'broker-1', 200, RECONNECT);
    // every broker inside its reconnect backoff: no node (DefaultMetadataUpdater waits)
    expect(leastLoadedNode(META, c)).toBeNull();
    c = backoffOver(backoffOver(c, 'broker-1'), 'broker-2');
    // broker-2's last attempt (50) is older than broker-1's (200)
    expect(leastLoadedNode(META, c)).toBe('broker-2');
    c = connecting(c, 'broker-1', 300);
    expect(leastLoadedNode(META, c)).toBe('broker-1');
    c = ready(c, 'broker-2');
    expect(leastLoadedNode(META, c)).toBe('broker-2');
    c = ready(c, 'broker-0');
    expect(leastLoadedNode(META, c)).toBe('broker-0');
    expect(leastLoadedNode({ ...META, brokers: [] }, c)).toBeNull();
  });

  it("with every broker in its backoff, no Metadata request goes out (the backoff's end wakes the client)", () => {
    let c = NO_CONNECTION_STATES;
    for (const b of META.brokers) c = disconnected(c, b, 10, RECONNECT);
    expect(nextMetadataStep(requestUpdate(INITIAL_CLIENT_METADATA), META, c, CONFIG, 20, true)).toEqual({ kind: 'idle' });
  });
});

it('the InvalidMetadataException family', () => {
  for (const e of ['NOT_LEADER_OR_FOLLOWER', 'LEADER_NOT_AVAILABLE', 'FENCED_LEADER_EPOCH', 'UNKNOWN_TOPIC_OR_PARTITION'])
    expect(isInvalidMetadataError(e)).toBe(true);
  for (const e of ['NOT_ENOUGH_REPLICAS', 'REQUEST_TIMED_OUT', 'NONE']) expect(isInvalidMetadataError(e)).toBe(false);
});
