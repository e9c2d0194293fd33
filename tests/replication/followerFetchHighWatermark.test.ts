/**
 * Partition.fetchRecords reads for a follower first (readRecords takes the HW as it is), then moves
 * the follower's fetch state, which may move the HW: the answer carries the HW from before its own
 * fetch moved it, and the follower learns that move with its next answer.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { onProduce } from '../../src/sim/broker/produceRequest';
import { onAlterPartitionAnswer, onReplicaFetch, onReplicaFetchExpired } from '../../src/sim/broker/replication';
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
const requestFrom = (replica: string) => ({ from: replica, envelopeId: 9, rpc: 'Fetch', correlationId: 1 }) as never;

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

/**
 * Partition.updateFollowerFetchState runs maybeIncrementLeaderHW only `if (prevFollowerEndOffset !=
 * replica.stateSnapshot.logEndOffset)`: a fetch that moves no follower's LEO does not look at the HW,
 * even when time alone would now let it move (a follower outside the ISR stops holding it back
 * replica.lag.time.max.ms after it was last caught up). On the old code every fetch did.
 */
describe('a fetch that moves no LEO leaves the HW alone', () => {
  it('broker-2 (out of the ISR, caught up at 5 ms) holds the HW at 0; past replica.lag.time.max.ms a fetch that moves nothing does not raise it', () => {
    // broker-2 fetches at 0 while the log is empty: caught up at 5 ms; the leader proposes it to the
    // ISR, and the controller refuses (INELIGIBLE_REPLICA): it stays out, but counts while caught up
    const proposal = new Out();
    let b = onReplicaFetch(
      leader(),
      requestFrom('broker-2'),
      { ...fetchAt(0), replicaId: 'broker-2', maxWaitMs: 0 },
      5,
      proposal,
    ) as Leader;
    const alter = proposal.effects.find((e: Effect) => e.type === 'send' && e.rpc === 'AlterPartition') as unknown as {
      payload: { correlationId: number };
    };
    expect(alter).toBeDefined();
    b = onAlterPartitionAnswer(
      b,
      {
        correlationId: alter.payload.correlationId,
        error: 'INELIGIBLE_REPLICA',
        leaderEpoch: 0,
        partitionEpoch: 0,
        isr: ['broker-0', 'broker-1'],
      },
      6,
      new Out(),
    ) as Leader;
    b = onProduce(b, produce(0), new Out()) as Leader;
    b = onProduce(b, produce(1), new Out()) as Leader;
    // broker-1 reaches offset 2; broker-2, still counted (last caught up 5 ms ago), holds the HW at 0
    b = onReplicaFetch(b, request, { ...fetchAt(2), maxWaitMs: 0 }, 30, new Out()) as Leader;
    expect(b.partitions['t-0']?.highWatermark).toBe(0);
    // 30,006 ms: broker-2 is past replica.lag.time.max.ms, but this fetch of broker-1 moves no LEO
    b = onReplicaFetch(b, request, { ...fetchAt(2), maxWaitMs: 0 }, 30006, new Out()) as Leader;
    expect(b.partitions['t-0']?.highWatermark).toBe(0);
  });
});
