/**
 * The leader's handling of one Produce request with several partitions, tested on its functions
 * against Kafka 4.0 (KafkaApis.handleProduceRequest → ReplicaManager.appendRecords, DelayedProduce):
 * each partition is appended and fails on its own; one ProduceResponse answers all of them; with
 * acks=all one DelayedProduce over the request answers once every partition has reached the HW or
 * failed, or at the timeout, the partitions still waiting then reading REQUEST_TIMED_OUT; acks=0 gets
 * no answer.
 */

import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { onProduce } from '../../src/sim/broker/produceRequest';
import { DEFAULT_PRODUCER_EXPIRATION } from '../../src/sim/broker/producerExpirationCheck';
import { initialReplication, onProduceTimeout, onReplicaFetch } from '../../src/sim/broker/replication';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import type { Effect, RpcEvent } from '../../src/sim/kernel/effects';
import { createPartitionLog } from '../../src/sim/log/partitionLog';
import { asReplicatedLog } from '../../src/sim/log/replicaLog';
import type { ProducePartitionResponse, ProduceRequest } from '../../src/sim/protocol/messages';
import { becomeLeader } from '../../src/sim/replication/leaderPartition';

const BROKERS = ['broker-0', 'broker-1'];
const meta: ClusterMetadata = {
  brokers: BROKERS,
  topics: { t: { name: 't', partitions: 3, leaders: ['broker-0', 'broker-0', 'broker-1'], replicas: [BROKERS, BROKERS, BROKERS] } },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 3,
  consumerOffsetsPartitions: 3,
};

/** broker-0 leading t-0 (ISR: itself only, so the HW follows its log) and t-1 (ISR: both brokers); following t-2. */
function broker(): BrokerContext {
  const lead = (partition: number, isr: readonly string[]) =>
    becomeLeader({ topic: 't', partition, leader: 'broker-0', leaderEpoch: 0, partitionEpoch: 0, replicas: BROKERS, isr }, 1, 0, 0);
  const reg = (partition: number, leader: string, isr: readonly string[]) => ({
    topic: 't',
    partition,
    leader,
    leaderEpoch: 0,
    partitionEpoch: 0,
    replicas: BROKERS,
    isr,
    election: null,
  });
  const rep = initialReplication({
    controller: 'controller',
    replicaLagTimeMaxMs: 30000,
    replicaFetchWaitMaxMs: 500,
    heartbeatIntervalMs: 2000,
    minInsyncReplicas: { t: 1 },
  });
  return {
    id: 'broker-0',
    partitions: Object.fromEntries([0, 1, 2].map((p) => [`t-${p}`, asReplicatedLog(createPartitionLog('t', p))])),
    parked: [],
    nextParkId: 0,
    verification: false,
    transactionVersion: 1,
    transactionCoordinator: meta.transactionCoordinator,
    verifying: [],
    verificationQueue: [],
    nextCorrelationId: 0,
    meta,
    producerExpiration: DEFAULT_PRODUCER_EXPIRATION,
    logsOpenedAtMs: 0,
    expiryChecks: {},
    replication: {
      ...rep,
      leading: { 't-0': lead(0, ['broker-0']), 't-1': lead(1, BROKERS) },
      registrations: { 't-0': reg(0, 'broker-0', ['broker-0']), 't-1': reg(1, 'broker-0', BROKERS), 't-2': reg(2, 'broker-1', BROKERS) },
    },
  } as BrokerContext;
}

const batch = (baseSequence: number, value = 'v') => ({
  producerId: 7,
  producerEpoch: 0,
  baseSequence,
  isTransactional: false,
  records: [{ key: 'k', value, headers: {}, timestamp: 0 }],
});

function produce(acks: 0 | 1 | -1, partitions: ProduceRequest['partitions']): RpcEvent<ProduceRequest> {
  return {
    type: 'Produce',
    from: 'p.producer',
    envelopeId: 1,
    inReplyTo: null,
    now: 10,
    payload: { correlationId: 4, acks, transactionalId: null, timeoutMs: 7000, partitions },
  } as unknown as RpcEvent<ProduceRequest>;
}

/** The ProduceResponses sent, each as its partition results. */
const answers = (out: Out): (readonly ProducePartitionResponse[])[] =>
  out.effects.flatMap((e: Effect) =>
    e.type === 'send' && e.rpc === 'ProduceResponse' ? [(e.payload as { responses: readonly ProducePartitionResponse[] }).responses] : [],
  );
const brief = (r: readonly ProducePartitionResponse[]) => r.map((x) => [`${x.topic}-${x.partition}`, x.error, x.baseOffset]);

describe('a Produce request with several partitions: each appended on its own, one answer', () => {
  it('acks=1: one ProduceResponse with a result per partition, in the request order', () => {
    const out = new Out();
    const next = onProduce(
      broker(),
      produce(1, [
        { topic: 't', partition: 1, batch: batch(0, 'a') },
        { topic: 't', partition: 0, batch: batch(0, 'b') },
      ]),
      out,
    );
    expect(answers(out).map(brief)).toEqual([
      [
        ['t-1', 'NONE', 0],
        ['t-0', 'NONE', 0],
      ],
    ]);
    expect(next.partitions['t-0']?.logEndOffset).toBe(1);
    expect(next.partitions['t-1']?.logEndOffset).toBe(1);
  });

  it('a partition it does not lead fails NOT_LEADER_OR_FOLLOWER with a hint, a sequence gap OUT_OF_ORDER_SEQUENCE_NUMBER; the other is appended', () => {
    const first = onProduce(broker(), produce(1, [{ topic: 't', partition: 1, batch: batch(0) }]), new Out());
    const out = new Out();
    const next = onProduce(
      first,
      produce(1, [
        { topic: 't', partition: 0, batch: batch(0) },
        { topic: 't', partition: 1, batch: batch(5) },
        { topic: 't', partition: 2, batch: batch(0) },
      ]),
      out,
    );
    const [answer] = answers(out);
    expect(brief(answer ?? [])).toEqual([
      ['t-0', 'NONE', 0],
      ['t-1', 'OUT_OF_ORDER_SEQUENCE_NUMBER', -1],
      ['t-2', 'NOT_LEADER_OR_FOLLOWER', -1],
    ]);
    expect(answer?.[2]?.currentLeader).toEqual({ leaderId: 'broker-1', leaderEpoch: 0 });
    expect(next.partitions['t-0']?.logEndOffset).toBe(1);
    expect(next.partitions['t-1']?.logEndOffset).toBe(1);
  });

  it('acks=0: both appended, no answer', () => {
    const out = new Out();
    const next = onProduce(
      broker(),
      produce(0, [
        { topic: 't', partition: 0, batch: batch(0) },
        { topic: 't', partition: 1, batch: batch(0) },
      ]),
      out,
    );
    expect(answers(out)).toEqual([]);
    expect([next.partitions['t-0']?.logEndOffset, next.partitions['t-1']?.logEndOffset]).toEqual([1, 1]);
  });
});

describe('acks=all: one DelayedProduce over all the partitions of the request', () => {
  const twoPartitions = () =>
    produce(-1, [
      { topic: 't', partition: 0, batch: batch(0) },
      { topic: 't', partition: 1, batch: batch(0) },
    ]);

  it('waits while one partition is below its HW, though the other is there; answers both once the follower has fetched', () => {
    const out = new Out();
    const held = onProduce(broker(), twoPartitions(), out) as BrokerContext & { replication: NonNullable<BrokerContext['replication']> };
    // t-0's ISR is broker-0 alone: its HW is past the batch at once; t-1 waits for broker-1
    expect(held.partitions['t-0']?.highWatermark).toBe(1);
    expect(answers(out)).toEqual([]);
    expect(held.replication.delayed).toHaveLength(1);
    expect(held.replication.delayed[0]?.waiting.map((w) => w.partition)).toEqual([1]);
    const fetched = new Out();
    const request = { from: 'broker-1', envelopeId: 9, rpc: 'Fetch', correlationId: 1 } as never;
    const f = {
      topic: 't',
      partition: 1,
      replicaId: 'broker-1',
      brokerEpoch: 0,
      fetchOffset: 1,
      lastFetchedEpoch: -1,
      currentLeaderEpoch: 0,
      maxWaitMs: 0,
      maxRecords: 100,
    };
    const done = onReplicaFetch(held, request, f, 20, fetched);
    expect(answers(fetched).map(brief)).toEqual([
      [
        ['t-0', 'NONE', 0],
        ['t-1', 'NONE', 0],
      ],
    ]);
    expect(done.replication.delayed).toEqual([]);
    expect(fetched.effects).toContainEqual({ type: 'cancel', key: `produce:${held.replication.delayed[0]?.id}` });
  });

  it('at the timeout the partition still waiting answers REQUEST_TIMED_OUT, the satisfied one its offset: one answer', () => {
    const out = new Out();
    const held = onProduce(broker(), twoPartitions(), out) as BrokerContext & { replication: NonNullable<BrokerContext['replication']> };
    expect(out.effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'produceTimeout', delay: 7000 }));
    const timeout = new Out();
    const after = onProduceTimeout(held, held.replication.delayed[0]?.id as number, timeout);
    expect(answers(timeout).map(brief)).toEqual([
      [
        ['t-0', 'NONE', 0],
        ['t-1', 'REQUEST_TIMED_OUT', -1],
      ],
    ]);
    expect(after.replication.delayed).toEqual([]);
    // the batch stays in t-1's log
    expect(after.partitions['t-1']?.logEndOffset).toBe(1);
  });

  it('a partition refused at append has its error at once in the one answer; only the appended ones are waited for', () => {
    const out = new Out();
    const held = onProduce(
      broker(),
      produce(-1, [
        { topic: 't', partition: 1, batch: batch(0) },
        { topic: 't', partition: 2, batch: batch(0) },
      ]),
      out,
    ) as BrokerContext & { replication: NonNullable<BrokerContext['replication']> };
    expect(answers(out)).toEqual([]);
    expect(held.replication.delayed[0]?.answer.map((a) => [a.partition, a.error])).toEqual([
      [1, 'REQUEST_TIMED_OUT'],
      [2, 'NOT_LEADER_OR_FOLLOWER'],
    ]);
    const timeout = new Out();
    onProduceTimeout(held, held.replication.delayed[0]?.id as number, timeout);
    expect(answers(timeout).map(brief)).toEqual([
      [
        ['t-1', 'REQUEST_TIMED_OUT', -1],
        ['t-2', 'NOT_LEADER_OR_FOLLOWER', -1],
      ],
    ]);
  });

  it('every partition satisfied at once: answered at once, nothing delayed', () => {
    const out = new Out();
    const next = onProduce(broker(), produce(-1, [{ topic: 't', partition: 0, batch: batch(0) }]), out);
    expect(answers(out).map(brief)).toEqual([[['t-0', 'NONE', 0]]]);
    expect(next.replication?.delayed).toEqual([]);
  });
});
