/**
 * Replicated partition rows as the engine will hand them to the page (src/sim/trace/replicationView):
 * orders-0 with three replicas after a failover. broker-1 leads at leader epoch 4 with offsets 0–6;
 * broker-2 follows in the ISR one record behind; broker-0 (the old leader) crashed, is out of the ISR,
 * and had truncated offsets 5–6 (written under epoch 3) to follow epoch 4. The offline variant has
 * lost every ISR member: no leader.
 */
import type { PartitionRow, RecordRow, ReplicationRow } from '../../src/sim/views';

export function record(offset: number, value = `v${offset}`): RecordRow {
  return {
    offset,
    control: null,
    key: `k${offset}`,
    value,
    headers: { event_id: `e${offset}` },
    producerId: 7,
    producerEpoch: 0,
    sequence: offset,
    transactional: false,
    txnOutcome: null,
    baseOffset: offset,
    timestamp: 100 + offset,
    origin: null,
  };
}

export const failedOver: ReplicationRow = {
  leader: 'broker-1',
  leaderEpoch: 4,
  isr: ['broker-1', 'broker-2'],
  effectiveMinIsr: 2,
  uncleanLeaderElection: false,
  replicas: [
    { broker: 'broker-0', role: 'follower', online: false, inIsr: false, logEndOffset: 5, highWatermark: 4 },
    { broker: 'broker-1', role: 'leader', online: true, inIsr: true, logEndOffset: 7, highWatermark: 6 },
    { broker: 'broker-2', role: 'follower', online: true, inIsr: true, logEndOffset: 6, highWatermark: 6 },
  ],
  truncations: [
    {
      broker: 'broker-0',
      fromOffset: 5,
      toOffset: 7,
      leaderEpoch: 4,
      at: 4200,
      step: 310,
      highWatermark: 5,
      cause: 'leader-change',
      records: [record(5, 'lost-a'), record(6, 'lost-b')],
    },
  ],
};

export const offline: ReplicationRow = {
  leader: null,
  leaderEpoch: 5,
  isr: [],
  effectiveMinIsr: 2,
  uncleanLeaderElection: false,
  replicas: failedOver.replicas.map((r) => ({ ...r, role: 'follower', online: false, inIsr: false })),
  truncations: failedOver.truncations,
};

export function partitionRow(replication: ReplicationRow | null, topic = 'orders', partition = 0): PartitionRow {
  const records = [0, 1, 2, 3, 4, 5, 6].map((o) => record(o));
  return {
    topic,
    partition,
    leader: replication?.leader ?? 'broker-1',
    internal: false,
    logStartOffset: 0,
    highWatermark: 6,
    lastStableOffset: 6,
    logEndOffset: 7,
    records,
    replication,
  };
}
