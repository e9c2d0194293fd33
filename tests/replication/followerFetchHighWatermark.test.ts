/**
 * Partition.fetchRecords reads for a follower first (readRecords takes the HW as it is), then moves
 * the follower's fetch state, which may move the HW: the answer carries the HW from before its own
 * fetch moved it, and the follower learns that move with its next answer.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { onProduce } from '../../src/sim/broker/produceRequest';
import { onReplicaFetch, onReplicaFetchExpired } from '../../src/sim/broker/replication';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import type { Effect, RpcEvent } from '../../src/sim/kernel/effects';
import type { ProduceRequest } from '../../src/sim/protocol/messages';
import { BROKERS, hostBroker } from './hostBroker';

const meta: ClusterMetadata = {
  brokers: BROKERS,
  topics: { t: { name: 't', partitions: 1, leaders: ['broker-0'], replicas: [BROKERS] } },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 3,
  consumerOffsetsPartitions: 3,
};

type Leader = BrokerContext & { readonly replication: NonNullable<BrokerContext['replication']> };

/** broker-0 leading t-0 with broker-1 in the ISR (broker-2 out of it). */
const leader = (): Leader => ({ ...hostBroker('t', meta, ['broker-0', 'broker-1']), verification: false }) as Leader;

const produce = (baseSequence: number): RpcEvent<ProduceRequest> =>
  ({
    type: 'Produce',
    from: 'p.producer',
    envelopeId: 1,
    inReplyTo: null,
    now: 10,
    payload: {
      correlationId: baseSequence,
      acks: 1,
      transactionalId: null,
      timeoutMs: 7000,
      partitions: [
        {
          topic: 't',
          partition: 0,
          batch: {
            producerId: 7,
            producerEpoch: 0,
            baseSequence,
            isTransactional: false,
            records: [{ key: 'k', value: 'v', headers: {}, timestamp: 0 }],
          },
        },
      ],
    },
  }) as unknown as RpcEvent<ProduceRequest>;

const fetchAt = (fetchOffset: number) => ({
  topic: 't',
  partition: 0,
  replicaId: 'broker-1',
  brokerEpoch: 0,
  fetchOffset,
  lastFetchedEpoch: -1,
  currentLeaderEpoch: 0,
  maxWaitMs: 500,
  maxRecords: 100,
});

const request = { from: 'broker-1', envelopeId: 9, rpc: 'Fetch', correlationId: 1 } as never;

/** The FetchResponse sent: its HW and the offsets of its records. */
function answer(out: Out): { highWatermark: number; offsets: number[] } {
  const sent = out.effects.find((e: Effect) => e.type === 'send' && e.rpc === 'FetchResponse');
  const payload = (sent as unknown as { payload: { highWatermark: number; batches: { baseOffset: number; lastOffset: number }[] } })
    .payload;
  return { highWatermark: payload.highWatermark, offsets: payload.batches.flatMap((b) => [b.baseOffset, b.lastOffset]) };
}

describe("a follower's Fetch answer carries the HW from before its own fetch moved it", () => {
  it('the fetch at offset 1 moves the HW to 1, and its answer (record 1) still says 0; the next, answered at the end of its wait, says 2', () => {
    let b = onProduce(leader(), produce(0), new Out()) as Leader;
    const first = new Out();
    b = onReplicaFetch(b, request, fetchAt(0), 20, first);
    expect(answer(first)).toEqual({ highWatermark: 0, offsets: [0, 0] });
    b = onProduce(b, produce(1), new Out()) as Leader;
    const second = new Out();
    b = onReplicaFetch(b, request, fetchAt(1), 30, second);
    // the leader's HW moved to 1 with this fetch (broker-1 has record 0) …
    expect(b.partitions['t-0']?.highWatermark).toBe(1);
    // … but the answer was read before the move
    expect(answer(second)).toEqual({ highWatermark: 0, offsets: [1, 1] });
    // the fetch at 2 moves the HW to 2; with nothing to read it waits, and at its expiry the HW is re-read
    const third = new Out();
    b = onReplicaFetch(b, request, fetchAt(2), 40, third);
    expect(b.partitions['t-0']?.highWatermark).toBe(2);
    expect(third.effects.some((e: Effect) => e.type === 'send')).toBe(false);
    const expired = new Out();
    onReplicaFetchExpired(b, b.replication?.replicaParked[0]?.id ?? -1, expired);
    expect(answer(expired)).toEqual({ highWatermark: 2, offsets: [] });
  });
});
