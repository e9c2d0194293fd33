/**
 * Worked cases, replication (KRaft): expected outcomes written from Kafka's source (4.0 line) before
 * the scenarios were run.
 */
import { describe, expect, it } from 'vitest';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import type { ControllerContext } from '../../src/sim/controller/controller.machine';
import { describeTransactionAt } from '../../src/sim/tools/describeTransaction';
import type { Fact } from '../../src/sim/trace/facts';
import { run, type WorkedRun } from './helpers';

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

  /*
   * elr-off-two-failures. t-0 on three brokers (broker-0 leads), min.insync.replicas=2, unclean
   * election off, ELR off (eligible.leader.replicas.version 0: the 4.0 default; 4.1 enables it on new
   * clusters — the model has no ELR). p idempotent, acks=all. a0 at 100; broker-2 dies at 1000 (returns
   * at 80000); a1 at 12000; broker-1 pauses at 13000 (no heartbeats, resumes at 40000, the same
   * incarnation); a2 at 25000; broker-0 dies at 30000 (returns at 60000).
   * - broker-2 is fenced broker.session.timeout.ms after its last heartbeat: ISR [0, 1] (≥ min ISR). a1
   *   is committed by broker-0 and broker-1 and acknowledged at 1.
   * - broker-1 is fenced while paused (last heartbeat 12000, fenced at 21000): ISR [0], below min ISR.
   *   a2 is refused NOT_ENOUGH_REPLICAS before any append (Partition.appendRecordsToLeader) and retried
   *   with the backoff; the HW stays 2 (strict min ISR, maybeIncrementLeaderHW).
   * - broker-0's fencing (last heartbeat 28000 → 37000): PartitionChangeBuilder finds no acceptable ISR
   *   member, unclean election is off, and without ELR an empty target ISR is not written: leader none,
   *   leader epoch 1, ISR [broker-0].
   * - broker-1 resumes at 40000 and is unfenced (BrokerHeartbeatManager: a fenced broker heartbeating
   *   without wantFence, caught up); handleBrokerUnfenced runs the election over partitionsWithNoLeader:
   *   broker-1 is not in the ISR → no leader. (With ELR, maybePopulateTargetElr would have put broker-1
   *   in the ELR when the ISR fell to [0] — ELR = the old ISR minus the target ISR while the target is
   *   below min ISR — and broker-0 when it fell to []; electLeader would take the unfenced ELR member
   *   broker-1 here: safe, as strict min ISR let nothing be committed after it left. A broker that
   *   *restarted* instead would be removed from the ELR by handleBrokerUncleanShutdown at its new
   *   incarnation's registration — every new incarnation on this snapshot.)
   * - broker-0's registration at 60000 makes it acceptable: elected cleanly, leader epoch 2, ISR [0].
   *   broker-1, its log equal (0–1, epoch 0; broker-0's epoch 2 starts at 2), is added at its first
   *   fetch (isFollowerInSync: LEO 2 ≥ HW 2 and ≥ the epoch start 2): ISR [0, 1]; a2's next retry is
   *   appended at 2 (epoch 0, sequence 2) and acknowledged. broker-2 rejoins after 80000. Nothing lost.
   */
  it('elr-off-two-failures: without ELR the follower that returns first is not elected; the partition waits for its last ISR member', () => {
    const r = run('elr-off-two-failures.json');
    const isrAt = (t: number) => r.partitionAt('t-0', t).replication?.isr ?? [];
    expect(isrAt(11999)).toEqual(['broker-0', 'broker-1']);
    expect(isrAt(24999)).toEqual(['broker-0']);
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} [${f.isr.join(',')}] ${f.election}`)).toEqual([
      'null@1 [broker-0] null',
      'broker-0@2 [broker-0] clean',
    ]);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'leaderChange'))).toBe(37001);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'leaderChange' && f.leader === 'broker-0'))).toBe(60001);
    for (const t of [45000, 59999])
      expect(r.partitionAt('t-0', t).replication).toMatchObject({ leader: null, leaderEpoch: 1, isr: ['broker-0'] });
    // broker-1 is alive and unfenced (the same incarnation, heartbeating again) while the partition has no leader
    const controller = r.viewAt(45000).actors.get('controller')?.context as ControllerContext | undefined;
    expect(controller?.brokers['broker-1']?.fenced).toBe(false);
    expect(controller?.brokers['broker-0']?.fenced).toBe(true);
    const errors = r.errors('p');
    expect(errors.length).toBeGreaterThanOrEqual(5);
    expect(errors.every((e) => e === 'NOT_ENOUGH_REPLICAS')).toBe(true);
    const expand = r.rpcs('AlterPartition', 'broker-0').map((e) => `${e.sentAt}:${(e.payload as { newIsr: string[] }).newIsr.join(',')}`);
    expect(expand.map((x) => x.split(':')[1])).toEqual(['broker-0,broker-1', 'broker-0,broker-1,broker-2']);
    const acked = r.timeOf(r.stepOf((f) => f.kind === 'sendResult' && f.eventId === 'a2'));
    expect(acked).toBeGreaterThan(Number(expand[0]?.split(':')[0]));
    expect(r.log('t-0')).toEqual(['0 a0 p e0 s0', '1 a1 p e0 s1', '2 a2 p e0 s2']);
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.offset}:${f.error ?? 'ok'}`)).toEqual(['a0@0:ok', 'a1@1:ok', 'a2@2:ok']);
    expect(r.facts('truncated')).toEqual([]);
    expect(r.layer('loss')?.status).toBe('once');
  });

  /*
   * The same with broker-0 never returning. broker-1 (unfenced at 40000) and broker-2 (registered at
   * 80000) are alive, each with a0 and a1, but neither is in the ISR [broker-0]: no election, ever
   * (unclean election off; with ELR, broker-1 would lead from 40000 and a2 be written once broker-2
   * joined it in the ISR). a2 is retried (metadata: LEADER_NOT_AVAILABLE, the batch stays in the
   * accumulator) until delivery.timeout.ms (120000) after its creation: TimeoutException at 145000.
   */
  it('elr-off-two-failures, the leader never returns: the partition stays offline with two live replicas; a2 expires', () => {
    const r = run('elr-off-two-failures.json', (s) => ({
      ...s,
      faults: s.faults?.map((f) => (f.type === 'crash' && f.target === 'broker-0' ? { type: 'crash', target: 'broker-0', at: 30000 } : f)),
    }));
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} [${f.isr.join(',')}] ${f.election}`)).toEqual([
      'null@1 [broker-0] null',
    ]);
    expect(r.partition('t-0').replication).toMatchObject({ leader: null, isr: ['broker-0'] });
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.offset ?? '-'}:${f.error ?? 'ok'}`)).toEqual([
      'a0@0:ok',
      'a1@1:ok',
      'a2@-:TimeoutException',
    ]);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'sendResult' && f.eventId === 'a2'))).toBe(145000);
    expect(
      r
        .facts('clientError')
        .filter((f) => f.error === 'TimeoutException')
        .map((f) => f.during),
    ).toEqual(['Expiring 1 record(s) for t-0:120000 ms has passed since batch creation']);
  });
});

describe('worked cases: replication (a truncation in two steps)', () => {
  /*
   * diverging-epoch-unknown-to-follower. t-0 on three brokers (broker-0 leads), unclean election on;
   * three producers (acks=1, no idempotence, each sending once, so each asks for metadata when it
   * sends). a0 at 100 reaches all three. broker-1 dies at 500 (returns at 40000), broker-0 at 10500
   * (never returns), broker-2 at 21000 (returns at 60000), broker-1 again at 46000 (returns at 80000).
   * x1 is sent at 20000, z3 at 45000.
   * - Fencing is last heartbeat + 9000: broker-1 leaves the ISR at 9000 ([0, 2]); broker-0's fencing
   *   (19000) elects broker-2 cleanly (epoch 1, ISR [2]); x1 at 1 in epoch 1. broker-2's fencing
   *   (29000): no live ISR member, no acceptable replica → leader none (epoch 2). broker-1's
   *   registration (40000) elects it uncleanly (epoch 3, ISR [1]): its log is a0 only, its epoch cache
   *   {0@0, 3@1}; z3 at 1 in epoch 3. Its fencing (53000): none (epoch 4). broker-2's registration
   *   (60000) elects it uncleanly (epoch 5): its cache {0@0, 1@1, 5@2}, its log a0, x1.
   * - broker-1 returns as broker-2's follower: Fetch(fetchOffset 2, lastFetchedEpoch 3). broker-2's
   *   LeaderEpochFileCache.endOffsetFor(3): not the latest; floor entry epoch 1, higher entry epoch 5
   *   at 2 → (1, 2); Partition.readRecords: epoch 1 < 3 → DivergingEpoch(1, 2).
   * - AbstractFetcherThread.getOffsetTruncationState: broker-1's own endOffsetForEpoch(1) is (0, 1) —
   *   it never had epoch 1 — so "the follower does not know about the epoch that leader replied with":
   *   it truncates to min(1, LEO 2) = 1 (cutting z3, acknowledged with acks=1) with truncationCompleted
   *   false, and fetches again from 1 with its latest epoch now 0: endOffsetFor(0) = (0, 1), neither
   *   older nor below the fetch offset — no divergence; x1 is copied. One DivergingEpoch, one
   *   truncation.
   */
  it('diverging-epoch-unknown-to-follower: the follower cuts to the end of its last epoch below the one the leader named, then fetches again', () => {
    const r = run('diverging-epoch-unknown-to-follower.json');
    const changes = r.trace.steps.flatMap((st) =>
      (st.facts as Fact[]).flatMap((f) =>
        f.kind === 'leaderChange' ? [`${st.t}:${f.leader}@${f.leaderEpoch} [${f.isr.join(',')}] ${f.election}`] : [],
      ),
    );
    expect(changes).toEqual([
      '19001:broker-2@1 [broker-2] clean',
      '29001:null@2 [broker-2] null',
      '40001:broker-1@3 [broker-1] unclean',
      '53001:null@4 [broker-1] null',
      '60001:broker-2@5 [broker-2] unclean',
    ]);
    const fetches = r
      .rpcs('Fetch', 'broker-1', 'broker-2')
      .filter((e) => e.sentAt >= 80000)
      .map((e) => e.payload as { fetchOffset: number; lastFetchedEpoch: number })
      .map((f) => `${f.fetchOffset}/e${f.lastFetchedEpoch}`);
    expect(fetches.slice(0, 2)).toEqual(['2/e3', '1/e0']);
    const diverging = r
      .rpcs('FetchResponse', 'broker-2', 'broker-1')
      .map((e) => (e.payload as { divergingEpoch: { epoch: number; endOffset: number } | null }).divergingEpoch)
      .filter((d) => d !== null);
    expect(diverging).toEqual([{ epoch: 1, endOffset: 2 }]);
    expect(r.facts('truncated').map((f) => `${f.broker} ${f.fromOffset}-${f.toOffset} ${f.eventIds.join(',')}`)).toEqual([
      'broker-1 1-2 z3',
    ]);
    const end = r.viewAt(r.timeOf(r.trace.steps.length - 1)).actors.get('broker-1')?.context as BrokerContext | undefined;
    expect(end?.partitions['t-0']?.epochs).toEqual([
      { epoch: 0, startOffset: 0 },
      { epoch: 1, startOffset: 1 },
    ]);
    expect(r.log('t-0')).toEqual(['0 a0 -1 e-1 s-1', '1 x1 -1 e-1 s-1']);
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.offset}:${f.error ?? 'ok'}`)).toEqual(['a0@0:ok', 'x1@1:ok', 'z3@1:ok']);
    expect(r.layer('loss')?.status).toBe('lost');
  });
});

/** The transaction index of one broker's copy of a partition at the end: `pid first-last lso`. */
const abortedOn = (r: WorkedRun, broker: string, key: string): string[] => {
  const ctx = r.viewAt(r.timeOf(r.trace.steps.length - 1)).actors.get(broker)?.context as BrokerContext | undefined;
  const log = ctx?.partitions[key];
  if (!log) throw new Error(`${broker} holds no ${key}`);
  return log.abortedTxns.toArray().map((a) => `${r.pidName(a.producerId)} ${a.firstOffset}-${a.lastOffset} lso ${a.lastStableOffset}`);
};
interface FetchAnswer {
  lastStableOffset: number;
  highWatermark: number;
  batches: unknown[];
  abortedTransactions: { producerId: number; firstOffset: number }[];
}
const answersTo = (r: WorkedRun, consumer: string, broker: string) =>
  r
    .rpcs('FetchResponse', broker, consumer)
    .map((e) => ({ at: e.sentAt, ...((e.payload as { partitions: FetchAnswer[] }).partitions[0] as FetchAnswer) }));

describe('worked cases: read_committed across a leader change', () => {
  /*
   * rc-open-txn-leader-change. t-0 on broker-0 (leader) and broker-1 (of three brokers). tx
   * (transactional) writes k0 at ~100 and keeps the transaction open until 20000; q (idempotent)
   * writes p1 at 500; rc reads read_committed from the earliest offset. broker-0 dies at 2000 and
   * returns at 40000.
   * - Both records are replicated (HW 2); broker-0's LSO is 0 (ProducerStateManager.firstUnstableOffset:
   *   tx's transaction from 0).
   * - broker-1 appended k0 as a follower: UnifiedLog.appendAsFollower → analyzeAndValidateProducerState
   *   runs the same ProducerAppendInfo.append, so its producer state has tx's ongoing transaction from
   *   offset 0 (ongoingTxns). Its HW as a follower is the leader's from its last fetch answer, 2.
   * - broker-1 is elected (clean) at broker-0's fencing. Its LSO = min(firstUnstableOffset 0, HW 2) = 0
   *   (UnifiedLog.lastStableOffset): rc, which found its start with ListOffsets(EARLIEST) on broker-1
   *   (0), is answered nothing — not p1, a plain record below the HW — and long-polls
   *   (DelayedFetch: fetch offset at the bound, fetch.max.wait.ms).
   * - commitTransaction at 20000: the coordinator writes the COMMIT marker (epoch 1, transaction
   *   version 2) on broker-1 at 2 with requiredAcks −1; the ISR is [broker-1] (min.insync.replicas 1),
   *   so the HW moves to 3 at once and completeTxn / onHighWatermarkUpdated move the LSO to 3; the held
   *   Fetch completes (tryComplete on the HW change) and rc gets k0 and p1.
   * - broker-0 returns: its epoch 0 ends at 2 on broker-1, its LEO: nothing truncated; it copies the
   *   marker.
   */
  it('rc-open-txn-leader-change: the new leader’s LSO, from the follower-built producer state, holds read_committed until the commit marker', () => {
    const r = run('rc-open-txn-leader-change.json');
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} ${f.election}`)).toEqual(['broker-1@1 clean']);
    expect(r.partitionAt('t-0', 15000)).toMatchObject({ highWatermark: 2, lastStableOffset: 0, logEndOffset: 2 });
    const before = answersTo(r, 'rc.consumer', 'broker-1').filter((a) => a.at < 20000);
    expect(before.length).toBeGreaterThan(5);
    expect(before.every((a) => a.lastStableOffset === 0 && a.highWatermark === 2 && a.batches.length === 0)).toBe(true);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'delivered'))).toBeGreaterThan(20000);
    expect(r.log('t-0')).toEqual(['0 k0 tx e0 s0 T', '1 p1 q e0 s0', '2 COMMIT tx e1 s-1 T']);
    expect(r.rpcs('WriteTxnMarkersResponse', 'broker-1').map((e) => JSON.stringify(e.payload))[0]).toContain('"error":"NONE"');
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0', 'p1@1']);
    expect(r.facts('truncated')).toEqual([]);
    expect(r.layer('loss')?.status).toBe('once');
  });

  /*
   * The same with abortTransaction at 20000. The ABORT marker is written on broker-1 at 2: completeTxn
   * enters (tx, first 0, last 2) in its transaction index with lastStableOffset 3 (no other open
   * transaction: the marker's offset + 1). rc's held Fetch is answered with k0, p1 and the marker
   * and AbortedTransactions [(tx, 0)] (LocalLog.addAbortedTransactions: lastOffset ≥ fetch offset 0,
   * firstOffset < the read's end); CompletedFetch.nextFetchedRecord skips k0 (tx in the aborted set when
   * its batch comes) and the marker: rc gets p1 only. broker-0, following, appends the marker with
   * appendAsFollower, which updates its transaction index the same way (UnifiedLog.append →
   * segment.updateTxnIndex for every origin).
   */
  it('rc-open-txn-leader-change, aborted: the new leader’s answer carries the aborted transaction; the returning replica indexes it as a follower', () => {
    const r = run('rc-open-txn-leader-change.json', (s) => ({
      ...s,
      clients: s.clients.map((c) =>
        c.id === 'tx' && c.type === 'producer'
          ? { ...c, script: c.script?.map((op) => (op.op === 'commitTransaction' ? { ...op, op: 'abortTransaction' as const } : op)) }
          : c,
      ),
    }));
    expect(r.log('t-0')).toEqual(['0 k0 tx e0 s0 T', '1 p1 q e0 s0', '2 ABORT tx e1 s-1 T']);
    const withData = answersTo(r, 'rc.consumer', 'broker-1').filter((a) => a.batches.length > 0);
    expect(withData.map((a) => a.abortedTransactions.map((x) => `${r.pidName(x.producerId)}@${x.firstOffset}`))).toEqual([['tx@0']]);
    expect(withData[0]?.lastStableOffset).toBe(3);
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['p1@1']);
    expect(abortedOn(r, 'broker-1', 't-0')).toEqual(['tx 0-2 lso 3']);
    expect(abortedOn(r, 'broker-0', 't-0')).toEqual(['tx 0-2 lso 3']);
    expect(r.facts('truncated')).toEqual([]);
  });
});

describe('worked cases: read_committed across an unclean leader change', () => {
  /*
   * unclean-commit-marker-without-data. t-0 and t-1 on broker-0 (leader) and broker-1 (of three
   * brokers), unclean election on. tx (transactional, transaction version 2) commits w0 on t-1 at 100
   * (replicated), so that the coordinator and tx know both brokers; broker-1 dies at 500 (returns at
   * 30500); tx opens a transaction at 12000 and writes k0 to t-0, q writes p1 (plain) at 12500, both
   * on broker-0 alone (ISR [0]); broker-0 dies at 14000 (returns at 60000); tx commits at 35000.
   * - On broker-0, t-0's LSO stays 0 (tx's transaction from 0), so rc gets neither k0 nor p1.
   * - broker-0's fencing (21001) leaves t-0 and t-1 leaderless; broker-1's registration (30501)
   *   elects it uncleanly, leader epoch 2: t-0 is empty there, and its producer state knows nothing
   *   of tx's open transaction.
   * - commitTransaction: EndTxn answered at the PrepareCommit write (epoch 2), then WriteTxnMarkers to
   *   t-0's leader, broker-1: ProducerAppendInfo.appendEndTxnMarker finds no entry (epoch check
   *   passes: the marker's 2 ≥ none) and no open transaction — no CompletedTxn, nothing in the
   *   transaction index — and appends the COMMIT marker at 0. The coordinator completes the commit
   *   (CompleteCommit): a committed transaction with no data left anywhere; k0 and p1, acknowledged,
   *   are lost. rc's fetch passes over the marker (a control batch) and returns nothing of t-0.
   * - broker-0 returns: DivergingEpoch(0, 0) → it truncates k0 and p1 and copies the marker.
   */
  it('unclean-commit-marker-without-data: the commit is written and completed on a leader without the transaction’s data; read_committed reads nothing', () => {
    const r = run('unclean-commit-marker-without-data.json');
    expect(r.partitionAt('t-0', 13500)).toMatchObject({ logEndOffset: 2, highWatermark: 2, lastStableOffset: 0 });
    expect(
      r
        .facts('leaderChange')
        .filter((f) => f.partition === 0)
        .map((f) => `${f.leader}@${f.leaderEpoch} ${f.election}`),
    ).toEqual(['null@1 null', 'broker-1@2 unclean']);
    expect(r.rpcs('WriteTxnMarkersResponse', 'broker-1').map((e) => JSON.stringify(e.payload))[0]).toContain('"error":"NONE"');
    expect(r.txnStates('tx-1').slice(-2)).toEqual(['Ongoing→PrepareCommit@2', 'PrepareCommit→CompleteCommit@2']);
    expect(r.log('t-0')).toEqual(['0 COMMIT tx e2 s-1 T']);
    expect(r.log('t-1')).toEqual(['0 w0 tx e0 s0 T', '1 COMMIT tx e1 s-1 T']);
    expect(abortedOn(r, 'broker-1', 't-0')).toEqual([]);
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.topic}-${f.partition}:${f.offset}`)).toEqual([
      'w0@t-1:0',
      'k0@t-0:0',
      'p1@t-0:1',
    ]);
    expect(r.received('rc').map((x) => `${x.key}@${x.topic}-${x.partition}:${x.offset}`)).toEqual(['w0@t-1:0']);
    expect(
      r.facts('truncated').map((f) => `${f.broker} ${f.topic}-${f.partition} ${f.fromOffset}-${f.toOffset} ${f.eventIds.join(',')}`),
    ).toEqual(['broker-0 t-0 0-2 k0,p1']);
    expect(r.layer('loss')?.status).toBe('lost');
  });
});
