/**
 * Worked cases, round 4: the transactional producer's error handling and acks=all edge cases.
 * Expected outcomes written from Kafka's source (trunk of October 2024, the 4.0 line) before the
 * scenarios were run; the classes and methods read are named in each case.
 */
import { describe, expect, it } from 'vitest';
import { describeTransactionAt } from '../../src/sim/tools/describeTransaction';
import type { Fact } from '../../src/sim/trace/facts';
import { run, type WorkedRun } from './helpers';

const isrAt = (r: WorkedRun, t: number) => r.partitionAt('t-0', t).replication?.isr ?? [];
const offsetsAt = (r: WorkedRun, name: string, t: number) => {
  const p = r.partitionAt(name, t);
  return `HW ${p.highWatermark} LSO ${p.lastStableOffset}`;
};
const timeOfFirst = (r: WorkedRun, match: (f: Fact) => boolean) => r.timeOf(r.stepOf(match));
const markerErrors = (r: WorkedRun) =>
  r.rpcs('WriteTxnMarkersResponse').map((e) => {
    const m = (e.payload.markers as { partitions: { error: string }[] }[])[0];
    return m?.partitions[0]?.error;
  });

describe('worked cases: the transactional producer and min.insync.replicas', () => {
  /*
   * txn-markers-under-min-isr (protocol 2). t-0 on broker-0 (leader) and broker-1,
   * min.insync.replicas=2. p writes k0 at 100 (replicated at once, HW 1); broker-1 dies at 1000 and
   * returns at 20000; p calls commitTransaction() at 12000.
   * - The controller fences broker-1 broker.session.timeout.ms after its last heartbeat and takes it
   *   out of the ISR: [broker-0] well before 12000.
   * - TransactionCoordinator.endTransaction (protocol 2): Ongoing → PrepareCommit with epoch 1
   *   (TransactionMetadata.prepareAbortOrCommit, supportsEpochBump); the EndTxn is answered NONE with
   *   epoch 1 once PrepareCommit is written (sendTxnMarkersCallback answers before
   *   addTxnMarkersToSend): commitTransaction() returns at once, no error for p.
   * - KafkaApis.handleWriteTxnMarkersRequest appends the marker with ReplicaManager.appendRecords(
   *   requiredAcks = -1, origin COORDINATOR): Partition.appendRecordsToLeader finds the ISR (1) below
   *   min.insync.replicas (2) → NotEnoughReplicasException, nothing appended; the answer is
   *   NOT_ENOUGH_REPLICAS and TransactionMarkerRequestCompletionHandler re-enqueues the marker
   *   (addTxnMarkersToBrokerQueue) — again and again while the ISR is short (the model waits 100 ms
   *   between retries, kafka-behaviour.md §12; Kafka's send thread retries on its next loop).
   * - The coordinator stays in PrepareCommit; the LSO of t-0 stays at 0, the transaction's first
   *   offset (ProducerStateManager.firstUnstableOffset), the HW at 1.
   * - broker-1 returns with k0, fetches at offset 1 = the HW: Partition.isFollowerInSync →
   *   maybeExpandIsr → ISR [0, 1]. The next marker retry appends COMMIT at 1 (epoch 1); its
   *   DelayedProduce completes when broker-1's fetch moves the HW to 2 → NONE →
   *   completeSendMarkersForTxnId → CompleteCommit@1; LSO 2.
   * - read_uncommitted reads k0 at its first poll (below the HW); read_committed only after the
   *   COMMIT marker is replicated, past 20000.
   */
  it('txn-markers-under-min-isr: commitTransaction() returns, but the COMMIT marker is refused NOT_ENOUGH_REPLICAS until the ISR recovers; the LSO waits', () => {
    const r = run('txn-markers-under-min-isr.json');
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 COMMIT p e1 s-1 T']);
    expect(isrAt(r, 11999)).toEqual(['broker-0']);
    expect(r.errors('p')).toEqual([]);
    expect(r.rpcs('EndTxnResponse').map((e) => `${e.payload.error}@${e.payload.producerEpoch} ${e.sentAt}`)).toEqual(['NONE@1 12001']);
    const errs = markerErrors(r);
    expect(errs.at(-1)).toBe('NONE');
    expect(errs.slice(0, -1).length).toBeGreaterThanOrEqual(70);
    expect(errs.slice(0, -1).every((e) => e === 'NOT_ENOUGH_REPLICAS')).toBe(true);
    expect(r.rpcs('WriteTxnMarkers').every((e) => e.to === 'broker-0')).toBe(true);
    expect(r.rpcs('WriteTxnMarkers')[0]?.sentAt).toBe(12001);
    for (const t of [12500, 15000, 19999]) {
      expect(offsetsAt(r, 't-0', t)).toBe('HW 1 LSO 0');
      const d = describeTransactionAt(r.viewAt(t), 'p-txn');
      expect(d.kind === 'described' && d.description.state).toBe('PrepareCommit');
    }
    const expanded = r.rpcs('AlterPartition', 'broker-0').map((e) => `${e.sentAt}:${(e.payload as { newIsr: string[] }).newIsr.join(',')}`);
    expect(expanded).toEqual(['20003:broker-0,broker-1']);
    const commitAt = timeOfFirst(r, (f) => f.kind === 'append' && f.control === 'COMMIT');
    expect(commitAt).toBeGreaterThan(20003);
    // Kafka retries on the send thread's next loop; the model’s 100 ms retry pause (kafka-behaviour.md §12)
    expect(commitAt).toBeLessThanOrEqual(20003 + 100 + 5);
    expect(r.txnStates('p-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
    expect(timeOfFirst(r, (f) => f.kind === 'txnState' && f.to === 'CompleteCommit')).toBeGreaterThan(commitAt);
    expect(r.partition('t-0')).toMatchObject({ highWatermark: 2, lastStableOffset: 2 });
    // ru’s first poll follows the group’s initial rebalance delay (3000 ms); k0 is below the HW then
    expect(timeOfFirst(r, (f) => f.kind === 'delivered' && f.consumer === 'ru')).toBeLessThan(12000);
    expect(timeOfFirst(r, (f) => f.kind === 'delivered' && f.consumer === 'rc')).toBeGreaterThan(commitAt);
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0']);
    expect(r.received('ru').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0']);
  });

  /*
   * txn-produce-timeout-under-min-isr (protocol 2). Same cluster; p (request.timeout.ms 3000)
   * writes k0 at 100 (offset 0, replicated), then k1 at 2000 in the same transaction, then flushes
   * and commits. broker-1 dies at 1000 and returns at 20000.
   * - k1 (epoch 0, sequence 1) reaches the leader at ~2001 while the ISR is still [0, 1] (the fence
   *   comes at the session timeout): appended at 1 (Partition.appendRecordsToLeader passes the min
   *   ISR check); ReplicaManager.maybeAddDelayedProduce waits for the HW to reach 2.
   *   Partition.maybeIncrementLeaderHW never moves it: broker-1 does not fetch, and once the ISR is
   *   [0] the partition is under min ISR (isUnderMinIsr returns at once). So no
   *   NOT_ENOUGH_REPLICAS_AFTER_APPEND: checkEnoughReplicasReachOffset gives it only when the HW has
   *   passed the batch.
   * - The client's request.timeout.ms fires first (sent at 2000, the broker's DelayedProduce timeout
   *   is the same 3000 from arrival): NetworkClient disconnects; Sender.handleProduceResponse
   *   (wasTimedOut) fails the batch REQUEST_TIMED_OUT — retriable (Sender.canRetry: the
   *   delivery.timeout.ms of 120000 has not passed). The broker's own REQUEST_TIMED_OUT answer
   *   (DelayedProduce.onExpiration) is lost with the connection.
   * - The retry (same epoch and sequence, RecordAccumulator.reenqueue; backoff 100, 200, 400 ms,
   *   no jitter in the model) at 5100 and 8300: the ISR is still [0, 1] at arrival, so the append
   *   path runs: UnifiedLog.analyzeAndValidateProducerState → ProducerStateEntry.findDuplicateBatch
   *   finds 1–1 at offset 1, nothing written, and the DelayedProduce waits again (required offset 2):
   *   REQUEST_TIMED_OUT twice more (5000, 8100, 11300).
   * - From the fence on (ISR [0]), each retry is refused NOT_ENOUGH_REPLICAS before any append (the
   *   min ISR check comes before the log's duplicate check): 11700, then 800 and 1000 ms apart.
   * - broker-1 returns at 20000, rejoins at the HW (1) and fetches k1: HW 2. The next retry is a
   *   duplicate again, whose DelayedProduce is already satisfied → NONE with baseOffset 1. k1 is in
   *   the log once, epoch 0, sequence 1; no epoch bump (the batch succeeded).
   * - commitTransaction() then sends EndTxn (TransactionManager.nextRequest waits while a batch is
   *   incomplete): COMMIT at 2 with epoch 1. The LSO stays 0 until then; read_uncommitted gets k1 only
   *   once the HW passed it (~20000), read_committed both after the marker.
   */
  it('txn-produce-timeout-under-min-isr: REQUEST_TIMED_OUT while the ISR shrinks, NOT_ENOUGH_REPLICAS after, never NOT_ENOUGH_REPLICAS_AFTER_APPEND; the retry is a duplicate', () => {
    const r = run('txn-produce-timeout-under-min-isr.json');
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 k1 p e0 s1 T', '2 COMMIT p e1 s-1 T']);
    expect(r.errors('p')).toEqual([...Array(3).fill('REQUEST_TIMED_OUT'), ...Array(9).fill('NOT_ENOUGH_REPLICAS')]);
    expect(r.errors('p')).not.toContain('NOT_ENOUGH_REPLICAS_AFTER_APPEND');
    expect(r.rpcs('Produce', 'p.producer').map((e) => e.sentAt)).toEqual([
      102, 2000, 5100, 8300, 11700, 12502, 13504, 14506, 15508, 16510, 17512, 18514, 19516, 20518,
    ]);
    const answers = r.rpcs('ProduceResponse', 'broker-0', 'p.producer').map((e) => {
      const p = (e.payload.responses as { error: string; baseOffset: number }[])[0];
      return `${e.fate}:${p?.error}@${p?.baseOffset}`;
    });
    // the broker’s DelayedProduce expiries, lost with the connections the client closed at its own timeout
    expect(answers.slice(1, 4)).toEqual(Array(3).fill('lost:REQUEST_TIMED_OUT@-1'));
    expect(answers.slice(4, -1)).toEqual(Array(9).fill('delivered:NOT_ENOUGH_REPLICAS@-1'));
    expect(answers.at(-1)).toBe('delivered:NONE@1');
    // the two retries that arrived while the ISR was [0, 1], and the last one: duplicates of 1–1 at offset 1
    expect(r.facts('duplicate').map((f) => `${f.baseSequence}-${f.lastSequence}@${f.baseOffset}`)).toEqual(['1-1@1', '1-1@1', '1-1@1']);
    expect(r.facts('rejected').every((f) => f.error === 'NOT_ENOUGH_REPLICAS' && f.producerEpoch === 0 && f.baseSequence === 1)).toBe(true);
    for (const t of [2500, 9500, 19999]) expect(offsetsAt(r, 't-0', t)).toBe('HW 1 LSO 0');
    expect(isrAt(r, 11000)).toEqual(['broker-0']);
    expect(r.rpcs('InitProducerId')).toHaveLength(1);
    expect(r.rpcs('EndTxn').map((e) => `${e.payload.committed}@${e.payload.producerEpoch}:${e.sentAt}`)).toEqual(['true@0:20520']);
    expect(r.txnStates('p-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.offset}:${f.error ?? 'ok'}`)).toEqual(['k0@0:ok', 'k1@1:ok']);
    const ruK1 = timeOfFirst(r, (f) => f.kind === 'delivered' && f.consumer === 'ru' && f.offset === 1);
    expect(ruK1).toBeGreaterThan(20000);
    expect(timeOfFirst(r, (f) => f.kind === 'delivered' && f.consumer === 'rc')).toBeGreaterThan(20520);
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0', 'k1@1']);
    expect(r.received('ru').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0', 'k1@1']);
  });
});

describe('worked cases: the transactional producer’s fatal and retriable errors', () => {
  /*
   * txn-timeout-add-partitions-v1 (protocol 1). p (transaction.timeout.ms 5000) begins at 100,
   * writes k0 to t-0 (its AddPartitionsToTxn at ~102 makes the transaction Ongoing, start ~103),
   * then at 12000 sends k1 to t-1 — a partition not yet in the transaction — and calls
   * commitTransaction().
   * - TransactionCoordinator.abortTimedOutTransactions runs every 10000 ms
   *   (transaction.abort.timed.out.transaction.cleanup.interval.ms): at 10000 the transaction is
   *   past its deadline (~5103): prepareFenceProducerEpoch (epoch 1, PrepareEpochFence) and
   *   endTransaction(ABORT, isFromClient = false): PrepareAbort@1 — protocol 1 does not bump again —
   *   ABORT marker at t-0 offset 1 with epoch 1, CompleteAbort@1.
   * - k1's partition is new: TransactionManager enqueues AddPartitionsToTxn with epoch 0.
   *   handleAddPartitionsToTransaction checks the producer id (same), then the epoch: 0 ≠ 1 →
   *   PRODUCER_FENCED (before any state check).
   * - AddPartitionsToTxnHandler.handleResponse: PRODUCER_FENCED (or INVALID_PRODUCER_EPOCH) →
   *   fatalError(ProducerFencedException) → FATAL_ERROR; transitionToFatalError fails the pending
   *   transition, the commit's EndTxn result: commitTransaction() throws ProducerFencedException; no
   *   EndTxn is sent (Sender.runOnce returns early in FATAL_ERROR). maybeAbortBatches fails k1's
   *   undrained batch with the same error: k1 is never produced.
   * - Compare zombie-late-produce-v1: a Produce to a partition already in the transaction is
   *   INVALID_PRODUCER_EPOCH, abortable; a new partition's AddPartitionsToTxn is fatal.
   * - t-0: k0 (aborted), ABORT@1; LSO 2. t-1 empty. read_committed receives nothing.
   */
  it('txn-timeout-add-partitions-v1: after the coordinator’s timeout abort, a new partition’s AddPartitionsToTxn is PRODUCER_FENCED — fatal, unlike the Produce’s abortable INVALID_PRODUCER_EPOCH', () => {
    const r = run('txn-timeout-add-partitions-v1.json');
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 ABORT p e1 s-1 T']);
    expect(r.log('t-1')).toEqual([]);
    expect(timeOfFirst(r, (f) => f.kind === 'txnState' && f.to === 'PrepareEpochFence')).toBe(10000);
    expect(r.txnStates('p-txn')).toEqual([
      '(new)→Empty@0',
      'Empty→Ongoing@0',
      'Ongoing→PrepareEpochFence@1',
      'PrepareEpochFence→PrepareAbort@1',
      'PrepareAbort→CompleteAbort@1',
    ]);
    const adds = r.rpcs('AddPartitionsToTxn', 'p.producer').map((e) => {
      const parts = (e.payload.partitions as { partition: number }[]).map((x) => x.partition).join(',');
      return `t-${parts}@${e.payload.producerEpoch}`;
    });
    expect(adds).toEqual(['t-0@0', 't-1@0']);
    expect(r.rpcs('AddPartitionsToTxnResponse', 'txn-coordinator', 'p.producer').map((e) => e.payload.error)).toEqual([
      'NONE',
      'PRODUCER_FENCED',
    ]);
    expect(r.facts('clientError').map((f) => `${f.error}:${f.during}:${f.fatal}`)).toEqual(['PRODUCER_FENCED:AddPartitionsToTxn:true']);
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.offset}:${f.error ?? 'ok'}`)).toEqual(['k0@0:ok', 'k1@null:PRODUCER_FENCED']);
    expect(r.rpcs('Produce', 'p.producer')).toHaveLength(1);
    expect(r.rpcs('EndTxn')).toEqual([]);
    const commitNote = r.facts('note').find((f) => f.actor === 'p.app' && f.text.startsWith('commitTransaction failed'));
    expect(commitNote?.text).toContain('PRODUCER_FENCED');
    expect(r.partition('t-0')).toMatchObject({ highWatermark: 2, lastStableOffset: 2 });
    expect(r.received('rc')).toEqual([]);
  });
});

describe('worked cases: a transaction’s markers and a leader failover', () => {
  /*
   * txn-markers-leader-failover (protocol 2). t-0 on three brokers, broker-0 leads; p writes k0 at
   * 100 (replicated to all, HW 1) and commits at 1000. The WriteTxnMarkers to broker-0 is delayed
   * 500 ms; broker-0 dies at 1200 (back at 31200) before it arrives.
   * - EndTxn answered NONE, epoch 1, at the PrepareCommit write: commitTransaction() returns ~1001.
   * - The marker request is lost with the connection: TransactionMarkerRequestCompletionHandler
   *   (wasDisconnected) re-enqueues it with addTxnMarkersToBrokerQueue, which reads the leader from
   *   the metadata cache — still broker-0 until the controller fences it (broker.session.timeout.ms
   *   9000 after its last heartbeat at 0): every attempt to broker-0 fails, one per reconnect
   *   backoff (the marker channel's NetworkClient: 50 ms, no growth).
   * - At ~9001 the controller elects broker-1 (clean, leader epoch 1, ISR [1, 2]); the record
   *   reaches the coordinator's broker's cache with every broker's (~9002), and the markers
   *   re-enqueued from then on go to broker-1 (the send thread loops at every failed attempt to
   *   broker-0, so at once): COMMIT at offset 1 with epoch 1 (the follower-built producer state has the open
   *   transaction at 0, so the marker closes it); its DelayedProduce completes when broker-2 fetches
   *   it → NONE → CompleteCommit@1.
   * - LSO on t-0 stays 0 (HW 1) while the coordinator is in PrepareCommit; read_committed gets k0
   *   only after ~9003. No error reaches p.
   */
  it('txn-markers-leader-failover: the lost marker is sent again to the new leader once the controller moves the leadership; the LSO waits for it', () => {
    const r = run('txn-markers-leader-failover.json');
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 COMMIT p e1 s-1 T']);
    expect(r.errors('p')).toEqual([]);
    expect(r.rpcs('EndTxnResponse').map((e) => `${e.payload.error}@${e.payload.producerEpoch} ${e.sentAt}`)).toEqual(['NONE@1 1001']);
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} ${f.election} ${f.isr.join(',')}`)).toEqual([
      'broker-1@1 clean broker-1,broker-2',
    ]);
    expect(timeOfFirst(r, (f) => f.kind === 'leaderChange')).toBe(9001);
    const sends = r.rpcs('WriteTxnMarkers');
    const toOld = sends.filter((e) => e.to === 'broker-0');
    expect(toOld.every((e) => e.fate === 'lost')).toBe(true);
    expect(toOld.map((e) => e.sentAt).slice(0, 3)).toEqual([1001, 1251, 1303]);
    expect(toOld.at(-1)?.sentAt).toBeLessThan(9001);
    const toNew = sends.filter((e) => e.to === 'broker-1');
    // Changed (2026-12-07): 9003, after a Metadata lookup; now told by broker-1 as it applies the record
    expect(toNew.map((e) => `${e.sentAt}:${e.fate}`)).toEqual(['9002:delivered']);
    expect(r.rpcs('Metadata', 'txn-coordinator')).toEqual([]);
    expect(markerErrors(r)).toEqual(['NONE']);
    for (const t of [1100, 5000, 9000]) {
      expect(offsetsAt(r, 't-0', t)).toBe('HW 1 LSO 0');
      const d = describeTransactionAt(r.viewAt(t), 'p-txn');
      expect(d.kind === 'described' && d.description.state).toBe('PrepareCommit');
    }
    expect(r.txnStates('p-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
    expect(timeOfFirst(r, (f) => f.kind === 'txnState' && f.to === 'CompleteCommit')).toBe(9006);
    expect(r.partition('t-0')).toMatchObject({ highWatermark: 2, lastStableOffset: 2, leader: 'broker-1' });
    expect(timeOfFirst(r, (f) => f.kind === 'delivered' && f.consumer === 'rc')).toBeGreaterThan(9003);
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0']);
    expect(r.facts('truncated')).toEqual([]);
  });
});

describe('worked cases: a COMMIT marker that waits out request.timeout.ms', () => {
  /*
   * txn-marker-timed-out-twice (protocol 2). t-0 on broker-0 (leader) and broker-1,
   * min.insync.replicas=2. p writes k0 at 100 (replicated, HW 1) and commits at 1500; broker-1 dies
   * at 1000 and returns at 40000 — the commit comes after its death but before the controller fences
   * it (ISR still [0, 1]).
   * - EndTxn answered NONE, epoch 1, at the PrepareCommit write (1501).
   * - The marker's append (requiredAcks -1) passes Partition.appendRecordsToLeader's min ISR check:
   *   COMMIT at offset 1 (epoch 1). Its DelayedProduce waits for the HW to reach 2, which never comes
   *   while broker-1 is away (maybeIncrementLeaderHW: no fetch from it, then isUnderMinIsr). The
   *   marker is in the log, not committed: the transaction is completed in the producer state but
   *   unreplicated (ProducerStateManager.unreplicatedTxns), so the LSO stays at 0 (firstUnstableOffset).
   * - The marker channel's NetworkClient times the request out at request.timeout.ms (30000, the
   *   broker's: TransactionMarkerChannelManager.apply) one millisecond before the broker's
   *   DelayedProduce, whose timeout is the same 30000 from the request's arrival, expires
   *   (REQUEST_TIMED_OUT, lost with the connection): TransactionMarkerRequestCompletionHandler
   *   (wasDisconnected) re-enqueues the marker; after the channel's 50 ms reconnect backoff it goes
   *   again, and from now on the ISR is [0]: NOT_ENOUGH_REPLICAS before the append, retried (the
   *   model: every 100 ms, kafka-behaviour.md §12).
   * - broker-1 returns, rejoins at the HW (1), fetches the first COMMIT: HW 2, the LSO 2 (the
   *   unreplicated transaction is gone, ProducerStateManager.onHighWatermarkUpdated); read_committed
   *   now gets k0.
   * - The next marker retry is appended as a second COMMIT at 2 (epoch 1):
   *   ProducerAppendInfo.appendEndTxnMarker checks the epoch (1 ≥ 1) and, with no ongoing
   *   transaction, emits no CompletedTxn — a harmless marker. Its DelayedProduce completes at HW 3 →
   *   NONE → CompleteCommit@1. Readers skip both control batches.
   */
  it('txn-marker-timed-out-twice: the first marker stays in the log unreplicated; its retry after the ISR recovers appends a second COMMIT', () => {
    const r = run('txn-marker-timed-out-twice.json');
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 COMMIT p e1 s-1 T', '2 COMMIT p e1 s-1 T']);
    expect(r.errors('p')).toEqual([]);
    expect(r.rpcs('EndTxnResponse').map((e) => `${e.payload.error}@${e.payload.producerEpoch} ${e.sentAt}`)).toEqual(['NONE@1 1501']);
    expect(isrAt(r, 1501)).toEqual(['broker-0', 'broker-1']);
    expect(timeOfFirst(r, (f) => f.kind === 'append' && f.control === 'COMMIT')).toBe(1502);
    for (const t of [1503, 20000, 39999]) expect(offsetsAt(r, 't-0', t)).toBe('HW 1 LSO 0');
    expect(r.partitionAt('t-0', 1503).logEndOffset).toBe(2);
    const sends = r.rpcs('WriteTxnMarkers').map((e) => e.sentAt);
    expect(sends.slice(0, 2)).toEqual([1501, 31551]);
    const answers = r.rpcs('WriteTxnMarkersResponse').map((e) => {
      const m = (e.payload.markers as { partitions: { error: string }[] }[])[0];
      return `${e.fate}:${m?.partitions[0]?.error}`;
    });
    expect(answers[0]).toBe('lost:REQUEST_TIMED_OUT');
    expect(r.rpcs('WriteTxnMarkersResponse')[0]?.sentAt).toBe(31502);
    expect(answers.slice(1, -1).every((a) => a === 'delivered:NOT_ENOUGH_REPLICAS')).toBe(true);
    expect(answers.slice(1, -1).length).toBeGreaterThanOrEqual(80);
    expect(answers.at(-1)).toBe('delivered:NONE');
    expect(r.rpcs('AlterPartition', 'broker-0').map((e) => e.sentAt)).toEqual([40003]);
    expect(offsetsAt(r, 't-0', 40010)).toBe('HW 2 LSO 2');
    expect(timeOfFirst(r, (f) => f.kind === 'append' && f.control === 'COMMIT' && f.baseOffset === 2)).toBe(40018);
    expect(r.txnStates('p-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
    expect(timeOfFirst(r, (f) => f.kind === 'txnState' && f.to === 'CompleteCommit')).toBe(40021);
    const rcAt = timeOfFirst(r, (f) => f.kind === 'delivered' && f.consumer === 'rc');
    expect(rcAt).toBeGreaterThan(40003);
    expect(rcAt).toBeLessThan(40018);
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0']);
    expect(r.received('ru').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0']);
    expect(r.partition('t-0')).toMatchObject({ highWatermark: 3, lastStableOffset: 3 });
  });
});

describe('worked cases: NOT_LEADER_OR_FOLLOWER inside a transaction', () => {
  /*
   * txn-produce-not-leader (protocol 2). t-0 on three brokers, broker-0 leads; p writes k0 at 100
   * (replicated to all) and sends k1 at 1000, then flushes and commits. An operator stops broker-0 at
   * 999 (controlled shutdown, back 20 s after it stopped).
   * - The controller moves the leadership at once (handleBrokerInControlledShutdown): broker-1,
   *   leader epoch 1, ISR [1, 2], effective at ~1000.
   * - k1's Produce (epoch 0, sequence 1) still goes to broker-0 (the producer's metadata is stale):
   *   ReplicaManager finds it no longer leads → NOT_LEADER_OR_FOLLOWER, with the new leader in the
   *   answer (KIP-951, currentLeader). Retriable (InvalidMetadataException): Sender.completeBatch
   *   updates the partition's leadership from the answer (metadata.updatePartitionLeadership) and
   *   re-enqueues the batch; RecordAccumulator.shouldBackoff skips the backoff because the leader
   *   changed (hasLeaderChangedForTheOngoingRetry): the retry goes at once to broker-1. Not an
   *   abortable error: the transaction continues.
   * - broker-1's producer state was built as a follower (appendAsFollower): p, epoch 0, last sequence
   *   0, ongoing transaction from 0. UnifiedLog.maybeStartTransactionVerification sees the ongoing
   *   transaction → no verification (no AddPartitionsToTxn from broker-1); ProducerAppendInfo
   *   accepts sequence 1 → offset 1.
   * - The commit: PrepareCommit@1, the marker to t-0's leader: COMMIT at 2 (epoch 1) on broker-1,
   *   CompleteCommit@1. read_committed gets k0 and k1 once.
   * - The coordinator's marker goes straight to broker-1: addTxnMarkersToBrokerQueue reads the leader
   *   from its broker's metadata cache (getPartitionLeaderEndpoint), which the controller's record
   *   reached at the move (~1001), long before the commit. **Changed** (2026-12-07): the model's
   *   one-replica txn-coordinator process had no such cache — its first marker went to broker-0,
   *   was refused NOT_LEADER_OR_FOLLOWER, and a Metadata request found broker-1; now broker-1 tells
   *   it as it applies the record (broker/txnStateHost.ts coordinatorLeaderUpdates).
   */
  it('txn-produce-not-leader: NOT_LEADER_OR_FOLLOWER is retried at once on the new leader, whose follower-built state continues the sequence; no abortable error', () => {
    const r = run('txn-produce-not-leader.json');
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 k1 p e0 s1 T', '2 COMMIT p e1 s-1 T']);
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch} ${f.election} ${f.isr.join(',')}`)).toEqual([
      'broker-1@1 clean broker-1,broker-2',
    ]);
    expect(timeOfFirst(r, (f) => f.kind === 'leaderChange')).toBe(1000);
    expect(r.errors('p')).toEqual(['NOT_LEADER_OR_FOLLOWER']);
    expect(r.facts('clientError').map((f) => `${f.error}:${f.fatal}`)).toEqual(['NOT_LEADER_OR_FOLLOWER:false']);
    const produces = r.rpcs('Produce', 'p.producer').map((e) => `${e.to}@${e.sentAt}`);
    expect(produces).toEqual(['broker-0@102', 'broker-0@1000', 'broker-1@1002']);
    const refused = r.rpcs('ProduceResponse', 'broker-0', 'p.producer')[1]?.payload.responses as {
      error: string;
      currentLeader?: { leaderId: string; leaderEpoch: number };
    }[];
    expect(refused[0]?.error).toBe('NOT_LEADER_OR_FOLLOWER');
    expect(refused[0]?.currentLeader).toMatchObject({ leaderId: 'broker-1', leaderEpoch: 1 });
    // broker-1 did not ask the coordinator: its producer state holds the ongoing transaction
    expect(r.rpcs('AddPartitionsToTxn').map((e) => `${e.from}@${e.sentAt}`)).toEqual(['broker-0@103']);
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.offset}:${f.error ?? 'ok'}`)).toEqual(['k0@0:ok', 'k1@1:ok']);
    expect(r.rpcs('EndTxn').map((e) => `${e.payload.committed}@${e.payload.producerEpoch}`)).toEqual(['true@0']);
    expect(r.rpcs('WriteTxnMarkers').map((e) => e.to)).toEqual(['broker-1']);
    expect(markerErrors(r)).toEqual(['NONE']);
    expect(r.rpcs('Metadata', 'txn-coordinator')).toEqual([]);
    expect(r.txnStates('p-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
    // PrepareCommit at 1007; the COMMIT lands at 1008 on broker-1 and completes at 1011 (Changed: 100 ms later, after the refusal)
    expect(offsetsAt(r, 't-0', 1007)).toBe('HW 2 LSO 0');
    expect(timeOfFirst(r, (f) => f.kind === 'txnState' && f.to === 'CompleteCommit')).toBe(1011);
    expect(r.partition('t-0')).toMatchObject({ highWatermark: 3, lastStableOffset: 3, leader: 'broker-1' });
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0', 'k1@1']);
  });
});

describe('worked cases: the leader’s verification before the min ISR check', () => {
  /*
   * txn-verified-then-not-enough-replicas (protocol 2). t-0 on broker-0 (leader) and broker-1,
   * min.insync.replicas=2; broker-1 dies at 500 (fenced, ISR [0], long before 10000) and returns at
   * 15000. p begins at 10000, sends k0, flushes and commits.
   * - The Produce (epoch 0, sequence 0) reaches the leader: ReplicaManager
   *   .maybeStartTransactionVerificationForPartitions → UnifiedLog.maybeStartTransactionVerification:
   *   no ongoing transaction for p in the producer state → a VerificationGuard, so the leader sends
   *   AddPartitionsToTxn (protocol 2: verifyOnly false, it adds the partition) to the coordinator:
   *   handleAddPartitionsToTransaction → Empty → Ongoing with t-0, NONE.
   * - Only then is the batch appended: Partition.appendRecordsToLeader → ISR 1 < 2 →
   *   NOT_ENOUGH_REPLICAS, nothing written. The coordinator holds an Ongoing transaction with
   *   nothing in the log (its transaction.timeout.ms runs from here); the LSO is not touched.
   * - Retries (backoff 100, 200, 400, 800, then 1000 ms): the producer state still has no ongoing
   *   transaction, so every retry is verified again — one AddPartitionsToTxn per Produce, each
   *   answered NONE at once (Ongoing and the partition already in it: no state change) — then
   *   refused NOT_ENOUGH_REPLICAS again.
   * - broker-1 returns, rejoins (AlterPartition ~15003); the next retry after that is verified
   *   again, appended at 0, and answered once broker-1's fetch moves the HW. The commit follows:
   *   PrepareCommit@1, COMMIT at 1. No abortable error: NOT_ENOUGH_REPLICAS is retriable.
   */
  it('txn-verified-then-not-enough-replicas: the partition joins the transaction at the coordinator before the leader refuses the batch; every retry is verified again', () => {
    const r = run('txn-verified-then-not-enough-replicas.json');
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 COMMIT p e1 s-1 T']);
    expect(r.errors('p')).toEqual(Array(8).fill('NOT_ENOUGH_REPLICAS'));
    const produces = r.rpcs('Produce', 'p.producer').map((e) => e.sentAt);
    expect(produces).toEqual([10002, 10106, 10310, 10714, 11518, 12522, 13526, 14530, 15534]);
    const verifications = r.rpcs('AddPartitionsToTxn', 'broker-0');
    expect(verifications.map((e) => e.sentAt)).toEqual(produces.map((t) => t + 1));
    expect(verifications.every((e) => JSON.stringify(e.payload).includes('"verifyOnly":false'))).toBe(true);
    const verified = r
      .rpcs('AddPartitionsToTxnResponse', 'txn-coordinator', 'broker-0')
      .map((e) => JSON.stringify(e.payload.resultsByTransaction));
    expect(verified.every((p) => p.includes('"error":"NONE"') && !p.includes('FENCED'))).toBe(true);
    // Ongoing from the first verification, 5.5 s before anything is in the log
    expect(r.txnStates('p-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
    expect(timeOfFirst(r, (f) => f.kind === 'txnState' && f.to === 'Ongoing')).toBe(10004);
    for (const t of [10500, 14000]) {
      expect(r.partitionAt('t-0', t)).toMatchObject({ logEndOffset: 0, highWatermark: 0, lastStableOffset: 0 });
      const d = describeTransactionAt(r.viewAt(t), 'p-txn');
      expect(d.kind === 'described' && d.description.state).toBe('Ongoing');
    }
    expect(r.rpcs('AlterPartition', 'broker-0').map((e) => e.sentAt)).toEqual([15003]);
    // appended when the last verification’s answer reaches the leader
    const lastVerified = r.rpcs('AddPartitionsToTxnResponse', 'txn-coordinator', 'broker-0').at(-1)?.deliverAt;
    expect(timeOfFirst(r, (f) => f.kind === 'append' && f.control === null)).toBe(lastVerified);
    expect(r.facts('sendResult').map((f) => `${f.eventId}@${f.offset}:${f.error ?? 'ok'}`)).toEqual(['k0@0:ok']);
    expect(r.rpcs('InitProducerId')).toHaveLength(1);
    expect(r.received('rc').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0']);
    expect(r.received('ru').map((x) => `${x.key}@${x.offset}`)).toEqual(['k0@0']);
  });
});
