/**
 * A MetadataResponse lists the alive brokers only: KafkaApis.handleTopicMetadataRequest takes
 * `metadataCache.getAliveBrokerNodes`, which in KRaftMetadataCache leaves out every broker the
 * controller has fenced (`filterNot(_.fenced())`), as the answering broker's image has it. The
 * partitions' replicas and ISR are not filtered (maybeFilterAliveReplicas filters for v0 only).
 * A client's leastLoadedNode then only ever picks a listed broker (NetworkClient.leastLoadedNode
 * walks `metadataUpdater.fetchNodes()`). On the old code every broker was listed.
 *
 * The run: broker-0 leads `a` (RF 3) and loses its heartbeats from the third on: the controller
 * fences it at 11,001 ms while it is still up, and unfences it when its heartbeats come back.
 */
import { describe, expect, it } from 'vitest';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { metadataResponse } from '../../src/sim/broker/metadataRequest';
import { applyMetadataResponse, INITIAL_CLIENT_METADATA, leastLoadedNode } from '../../src/sim/cluster/clientMetadata';
import { NO_CONNECTION_STATES } from '../../src/sim/cluster/connectionStates';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import { runScenario } from '../../src/sim/run';
import type { EnvelopeRecord } from '../../src/sim/views';
import { fencedWhileUp } from './fencedWhileUp';

const META: ClusterMetadata = {
  brokers: ['broker-0', 'broker-1', 'broker-2'],
  topics: { a: { name: 'a', partitions: 1, leaders: ['broker-1'], leaderEpochs: [1] } },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 1,
  consumerOffsetsPartitions: 1,
};

/** A broker's context as far as Metadata reads it: the static cluster and the controller's fenced brokers. */
const brokerWith = (fencedBrokers: readonly string[]): BrokerContext =>
  ({
    id: 'broker-1',
    meta: META,
    replication: {
      fencedBrokers,
      registrations: {
        'a-0': {
          leader: 'broker-1',
          leaderEpoch: 1,
          replicas: ['broker-0', 'broker-1', 'broker-2'],
          isr: ['broker-1', 'broker-2'],
        },
      },
    },
  }) as unknown as BrokerContext;

describe('MetadataResponse: alive brokers only (KRaftMetadataCache.getAliveBrokerNodes)', () => {
  it('leaves out a fenced broker, and keeps it in the replicas of its partitions', () => {
    const answer = metadataResponse(brokerWith(['broker-0']), { topics: ['a'] });
    expect(answer.brokers).toEqual(['broker-1', 'broker-2']);
    expect(answer.topics[0]?.partitions[0]?.replicas).toEqual(['broker-0', 'broker-1', 'broker-2']);
  });

  it('lists every broker when none is fenced', () => {
    expect(metadataResponse(brokerWith([]), { topics: ['a'] }).brokers).toEqual(['broker-0', 'broker-1', 'broker-2']);
  });

  it("a client's leastLoadedNode never picks a broker its metadata leaves out", () => {
    const answer = metadataResponse(brokerWith(['broker-0']), { topics: ['a'] });
    const { meta } = applyMetadataResponse(META, INITIAL_CLIENT_METADATA, answer, 5);
    expect(meta.brokers).toEqual(['broker-1', 'broker-2']);
    // with broker-0 listed (the old answer), the first broker would have been the fenced one
    expect(leastLoadedNode(META, NO_CONNECTION_STATES)).toBe('broker-0');
    expect(leastLoadedNode(meta, NO_CONNECTION_STATES)).toBe('broker-1');
  });
});

const scenario = fencedWhileUp;

describe('in a run: a broker fenced while up, then back', () => {
  const trace = runScenario(scenario);
  const envelopes = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  const answers = envelopes.filter((e) => e.rpc === 'MetadataResponse');
  const brokersOf = (e: EnvelopeRecord) => (e.payload as { brokers: string[] }).brokers;
  // the controller fences broker-0 (its PartitionChange moves the leadership) and later unfences it
  const fencedAt = envelopes.find((e) => e.rpc === 'PartitionChange' && e.to === 'broker-0')?.sentAt as number;
  const unfencedAt = envelopes.find((e) => e.rpc === 'BrokerHeartbeatResponse' && e.to === 'broker-0' && e.sentAt > fencedAt)
    ?.sentAt as number;

  it('every answer while broker-0 is fenced leaves it out, even broker-0 its own', () => {
    expect(fencedAt).toBe(11001);
    expect(unfencedAt).toBe(20001);
    const meanwhile = answers.filter((e) => e.sentAt > fencedAt && e.sentAt < unfencedAt);
    expect(meanwhile.map((e) => e.from)).toContain('broker-0');
    for (const e of meanwhile) expect(brokersOf(e)).toEqual(['broker-1', 'broker-2']);
  });

  it('once it is unfenced (and its image says so) it is listed again', () => {
    const after = answers.filter((e) => e.sentAt > unfencedAt);
    expect(after.length).toBeGreaterThan(0);
    for (const e of after) expect(brokersOf(e)).toEqual(['broker-0', 'broker-1', 'broker-2']);
  });
});
