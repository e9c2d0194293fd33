/**
 * Worked cases, replication (KRaft): expected outcomes written from Kafka's source (4.0 line) before
 * the scenarios were run.
 */
import { describe, expect, it } from 'vitest';
import { describeTransactionAt } from '../../src/sim/tools/describeTransaction';
import { run } from './helpers';

describe('worked cases: replication', () => {
  /*
   * t-0 has 3 replicas (broker-0 leads). r0 is replicated everywhere. From 2000 the followers' fetches
   * are slow; at 3000 `one` (acks=1) sends r1, at 3005 `all` (acks=all, idempotent) sends a1; broker-0
   * dies at 3020 and returns at 23020.
   * - acks=1: ReplicaManager.appendRecords answers once the leader appended (no DelayedProduce):
   *   r1 is acknowledged at offset 1. acks=all: DelayedProduce waits for the HW to pass offset 2
   *   (Partition.checkEnoughReplicasReachOffset), which the slow followers never let happen; the
   *   connection breaks with the broker (NETWORK_EXCEPTION, retriable).
   * - The HW stays at 1 (no follower fetched r1 or a1): neither is readable.
   * - The controller fences broker-0 broker.session.timeout.ms (9000) after its last heartbeat
   *   (2000; broker.heartbeat.interval.ms 2000) — 11000 — and elects broker-1 from the ISR
   *   (PartitionChangeBuilder.electLeader, clean), leader epoch 1, ISR [1, 2].
   * - all's retry lands on broker-1 at offset 1 (a new producer there: sequence 0 accepted) and is
   *   acknowledged when broker-2 has it. r1, acknowledged, is not on broker-1: when broker-0 returns
   *   it truncates to the end offset of epoch 0 on the new leader (OffsetsForLeaderEpoch → 1),
   *   removing r1 and its own copy of a1.
   */
  it('acks-1-vs-all-failover: the acks=1 record acknowledged by the dead leader is lost; the acks=all one is retried and kept', () => {
    const r = run('acks-1-vs-all-failover.json');
    expect(r.partitionAt('t-0', 3015)).toMatchObject({ highWatermark: 1, logEndOffset: 3 });
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.offset}:${f.error ?? 'ok'}`)).toEqual(['r0@0:ok', 'r1@1:ok', 'a1@1:ok']);
    expect(r.errors('all')).toEqual(['NETWORK_EXCEPTION']);
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} [${f.isr.join(',')}] ${f.election}`)).toEqual([
      'broker-1@1 [broker-1,broker-2] clean',
    ]);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'leaderChange'))).toBe(11001);
    expect(r.log('t-0')).toEqual(['0 r0 -1 e-1 s-1', '1 a1 all e0 s0']);
    expect(r.facts('truncated').map((f) => `${f.broker} ${f.fromOffset}-${f.toOffset} ${f.eventIds.join(',')}`)).toEqual([
      'broker-0 1-3 r1,a1',
    ]);
    expect(r.received('reader').map((x) => `${x.key}@${x.offset}`)).toEqual(['r0@0', 'a1@1']);
    expect(r.layer('loss')?.status).toBe('lost');
  });

  /*
   * The preset unclean-election-loses-committed with unclean.leader.election.enable=false: broker-1
   * dies at 1000 and leaves the ISR; e2, e3 are committed with broker-0 alone (min.insync.replicas=1);
   * broker-0 dies at 14000, broker-1 returns at 31000, broker-0 at 54000; e4 is sent at 25000.
   * - When broker-0 is fenced (last heartbeat 12000 + 9000) no ISR member is alive:
   *   PartitionChangeBuilder.electLeader finds none and, unclean election off, does not elect
   *   broker-1 (electAnyLeader only when unclean election is enabled): leader none, leader epoch 1,
   *   ISR stays [broker-0].
   * - broker-1's return changes nothing. broker-0's registration makes it eligible again: leader
   *   epoch 2, clean. e4 (idempotent, sequence 3: broker-0 rebuilt its producer state from its log)
   *   lands at 3, and broker-1 catches up and rejoins the ISR. Nothing is truncated.
   */
  it('unclean-off-waits: the partition stays offline until the last ISR member returns; nothing committed is lost', () => {
    const r = run('unclean-off-waits.json');
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} [${f.isr.join(',')}] ${f.election}`)).toEqual([
      'null@1 [broker-0] null',
      'broker-0@2 [broker-0] clean',
    ]);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'leaderChange'))).toBe(21001);
    expect(r.partition('orders-0').records.map((x) => `${x.offset} ${x.headers.event_id} s${x.sequence}`)).toEqual([
      '0 e1 s0',
      '1 e2 s1',
      '2 e3 s2',
      '3 e4 s3',
    ]);
    expect(r.facts('truncated')).toEqual([]);
    expect(r.partition('orders-0').replication).toMatchObject({ leader: 'broker-0', leaderEpoch: 2, isr: ['broker-0', 'broker-1'] });
    expect(r.layer('loss')?.status).toBe('once');
  });

  /*
   * t-0 has 2 replicas (broker-0 leads). tx writes k (0, replicated at once) and commits at 1000;
   * broker-1's fetches are slow (+1500 ms each way) from 900.
   * - The COMMIT marker goes in at 1 (~1002) through ReplicaManager.appendRecords with
   *   requiredAcks = -1 (KafkaApis.handleWriteTxnMarkersRequest): the WriteTxnMarkers answer waits
   *   for the HW to pass it (DelayedProduce), so the coordinator stays in PrepareCommit.
   * - ProducerStateManager.completeTxn moves the transaction to unreplicatedTxns; firstUnstableOffset
   *   keeps the LSO at its first offset (0) until onHighWatermarkUpdated sees the HW past the marker.
   * - With the HW at 1 and the LSO at 0, read_committed gets nothing — not even k, below the HW.
   * - When broker-1's fetch at offset 2 reaches the leader (~4000) the HW and the LSO move to 2 at once,
   *   the marker is answered (CompleteCommit) and rc receives k.
   */
  it('marker-above-hw: the LSO stays at the transaction’s first offset until the HW passes its COMMIT marker', () => {
    const r = run('marker-above-hw.json');
    expect(r.log('t-0')).toEqual(['0 k tx e0 s0 T', '1 COMMIT tx e1 s-1 T']);
    for (const t of [1500, 3500]) {
      const p = r.partitionAt('t-0', t);
      expect(p).toMatchObject({ logEndOffset: 2, highWatermark: 1, lastStableOffset: 0 });
      expect(p.unreplicatedTxns?.map((x) => [x.firstOffset, x.lastOffset])).toEqual([[0, 1]]);
      const d = describeTransactionAt(r.viewAt(t), 'tx-1');
      expect(d.kind === 'described' && d.description.state).toBe('PrepareCommit');
    }
    const hwStep = r.trace.steps.findIndex((s, i) => s.t > 3500 && r.partitionAt('t-0', r.timeOf(i)).highWatermark === 2);
    const hwAt = r.timeOf(hwStep);
    expect(hwAt).toBeGreaterThan(3500);
    expect(r.partitionAt('t-0', hwAt)).toMatchObject({ highWatermark: 2, lastStableOffset: 2 });
    expect(r.timeOf(r.stepOf((f) => f.kind === 'txnState' && f.to === 'CompleteCommit'))).toBeGreaterThanOrEqual(hwAt);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'delivered'))).toBeGreaterThanOrEqual(hwAt);
    expect(r.received('rc').map((x) => x.offset)).toEqual([0]);
  });

  /*
   * The preset unclean-election-loses-committed (unclean election on) with a read_uncommitted reader
   * (group reader, at-least-once, auto.offset.reset=earliest). It reads e1, then e2 and e3 (committed
   * below broker-0's HW 3 with broker-0 alone in the ISR) — position 3, offsetEpoch 0.
   * - broker-1 is elected uncleanly at 31001 (leader epoch 2); its log holds e1 only, and its epoch
   *   cache ends epoch 0 at offset 1.
   * - KIP-320: the leader epoch change puts the position in AWAIT_VALIDATION
   *   (OffsetFetcherUtils.validatePositionsOnMetadataChange); OffsetsForLeaderEpoch(currentLeaderEpoch
   *   2, leaderEpoch 0) is answered endOffset 1; SubscriptionState.maybeCompleteValidation: 1 < 3 →
   *   "Truncation detected", and with a reset policy the consumer seeks to the divergence, 1.
   * - e4 lands at 1 (the producer's OUT_OF_ORDER_SEQUENCE_NUMBER and epoch bump, as in the preset);
   *   the reader gets it: e1, e2, e3 at 0–2, then e4 at 1. Its group's offset goes 3 → 2.
   * - Commits: the application's commitSync(offsets) carries no leader epoch (the model's documented
   *   simplification: `new OffsetAndMetadata(offset)`), the auto-commit that follows does
   *   (allConsumed: position.offsetEpoch) — 0, then 2.
   */
  it('unclean-reader-truncation: a reader that read the cut records detects the truncation and reads on from the divergence', () => {
    const r = run('unclean-reader-truncation.json');
    expect(r.partition('orders-0').records.map((x) => `${x.offset} ${x.headers.event_id}`)).toEqual(['0 e1', '1 e4']);
    expect(r.received('reader').map((x) => `${x.headers.event_id}@${x.offset}`)).toEqual(['e1@0', 'e2@1', 'e3@2', 'e4@1']);
    const validation = r.rpcs('OffsetsForLeaderEpoch', 'reader.consumer').map((e) => JSON.stringify(e.payload.partitions));
    expect(validation).toEqual(['[{"topic":"orders","partition":0,"currentLeaderEpoch":2,"leaderEpoch":0}]']);
    expect(r.rpcs('OffsetsForLeaderEpochResponse', 'broker-1').map((e) => JSON.stringify(e.payload.partitions))).toEqual([
      '[{"topic":"orders","partition":0,"error":"NONE","leaderEpoch":0,"endOffset":1}]',
    ]);
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} ${f.election}`)).toEqual(['null@1 null', 'broker-1@2 unclean']);
    expect(
      r
        .facts('offsetsCommitted')
        .map((f) =>
          f.offsets.map((o) => `${o.offset}${o.committedLeaderEpoch === undefined ? '' : `@${o.committedLeaderEpoch}`}`).join(','),
        ),
    ).toEqual(['1', '3', '3@0', '2', '2@2']);
  });
});
