/**
 * Worked cases, exactly-once consume-transform-produce (KIP-447) and the read_committed consumer:
 * expected outcomes written from Kafka's source (trunk of October 2024, the 4.0 line) before the
 * scenarios were run; the classes and methods read are named in each case.
 */
import { describe, expect, it } from 'vitest';
import type { Fact } from '../../src/sim/trace/facts';
import { run, type WorkedRun } from './helpers';

const generations = (r: WorkedRun) => r.facts('rebalance').map((f) => `${f.generationId}:${[...f.members].sort().join(',')}`);
const timeOfGeneration = (r: WorkedRun, generationId: number) =>
  r.timeOf(r.stepOf((f) => f.kind === 'rebalance' && f.generationId === generationId));
const errorTimes = (r: WorkedRun, client: string, error: string) =>
  r.trace.steps
    .filter((s) => (s.facts as Fact[]).some((f) => f.kind === 'clientError' && f.client === client && f.error === error))
    .map((s) => s.t);

describe('worked cases: consume-transform-produce', () => {
  /*
   * ctp-zombie-commits-pending-offsets: rebalance-unstable-offsets with c1 paused for 10 s (a long GC
   * pause) instead of dying, right after sendOffsetsToTransaction(in-0 → 3) for k2 (~3020); c1's
   * session.timeout.ms 6000, transaction.timeout.ms 10000; c2 joins at 5000.
   * - c1's TxnOffsetCommit was validated when it arrived (OffsetMetadataManager
   *   .validateTransactionalOffsetCommit → ClassicGroup.validateOffsetCommit: member known,
   *   generation 1 current): the offset is pending (pendingTransactionalOffsets, openTransactionsByGroup).
   * - The classic coordinator removes c1 when its session expires (~3020 + 6000) and completes
   *   generation 2 {c2}. c2's OffsetFetch (requireStable, ConsumerCoordinator) is answered
   *   UNSTABLE_OFFSET_COMMIT (OffsetMetadataManager.fetchOffsets: hasPendingTransactionalOffsets),
   *   retried with backoff 100, 200, 400, 800, 1000 ms.
   * - c1 resumes at ~13020 and calls commitTransaction(): EndTxn is checked against the transactional
   *   id's epoch only (TransactionCoordinator.handleEndTransaction), never against the group, and the
   *   transaction is 10 s old — the abort check at 10000 found it younger than its timeout
   *   (timedOutTransactions: txnStartTimestamp + 10000 < now), the next runs at 20000 — so it commits:
   *   PrepareCommit@1 (protocol 2 bump), COMMIT markers at epoch 1 on out-0 and __consumer_offsets.
   *   OffsetMetadataManager.replayEndTransactionMarker(COMMIT) materialises the pending offset 3 with
   *   no membership check: the removed member's offsets stand.
   * - c2's next OffsetFetch returns 3: it processes nothing. out-0 holds k0, k1, k2 once each, no
   *   ABORT; the zombie's output and offsets were atomic, which is all KIP-447 needs — the fence is at
   *   TxnOffsetCommit, and this one came before the removal.
   * - c1's heartbeat after the pause is UNKNOWN_MEMBER_ID; its next poll() joins as a new member:
   *   generation 3 with both (c2 told by REBALANCE_IN_PROGRESS), and the fetched offset is 3 for
   *   whoever owns in-0.
   */
  it('ctp-zombie-commits-pending-offsets: the removed member’s open transaction still commits its pending offsets; the new owner waits, then starts after them', () => {
    const r = run('ctp-zombie-commits-pending-offsets.json');
    expect(r.log('out-0')).toEqual([
      '0 k0 c1 e0 s0 T',
      '1 k1 c1 e0 s1 T',
      '2 COMMIT c1 e1 s-1 T',
      '3 k2 c1 e1 s0 T',
      '4 COMMIT c1 e2 s-1 T',
    ]);
    expect(generations(r)).toEqual(['1:c1-0', '2:c2-1', '3:c1-2,c2-1']);
    const gen2 = timeOfGeneration(r, 2);
    expect(gen2).toBeGreaterThanOrEqual(9000);
    expect(gen2).toBeLessThan(9100);
    expect(r.txnStates('c1-txn')).toEqual([
      '(new)→Empty@0',
      'Empty→Ongoing@0',
      'Ongoing→PrepareCommit@1',
      'PrepareCommit→CompleteCommit@1',
      'CompleteCommit→Ongoing@1',
      'Ongoing→PrepareCommit@2',
      'PrepareCommit→CompleteCommit@2',
    ]);
    const commit = r.timeOf(
      r.stepOf((f) => f.kind === 'txnState' && f.transactionalId === 'c1-txn' && f.to === 'PrepareCommit' && f.producerEpoch === 2),
    );
    expect(commit).toBeGreaterThanOrEqual(13000);
    expect(commit).toBeLessThan(13100);
    const unstable = errorTimes(r, 'c2', 'UNSTABLE_OFFSET_COMMIT');
    expect(unstable.length).toBeGreaterThanOrEqual(5);
    expect(unstable[0]).toBeGreaterThan(gen2);
    expect(unstable.at(-1)).toBeLessThan(commit + 1100);
    // the fact names the group's generation when the offset took effect (OffsetCommitValue carries none): 2, c1 being gone
    expect(r.facts('offsetsCommitted').map((f) => `${f.generationId}:${f.offsets.map((o) => o.offset).join(',')}`)).toEqual(['1:2', '2:3']);
    const materialised = r.timeOf(r.stepOf((f) => f.kind === 'offsetsCommitted' && f.offsets.some((o) => o.offset === 3)));
    expect(materialised).toBeGreaterThan(commit);
    expect(r.errors('c1')).toContain('UNKNOWN_MEMBER_ID');
    expect(r.errors('c1')).not.toContain('CommitFailedException');
    expect(new Set(r.errors('c2'))).toEqual(new Set(['UNSTABLE_OFFSET_COMMIT', 'REBALANCE_IN_PROGRESS']));
    expect(r.received('c2')).toEqual([]);
    expect(r.facts('processed').map((f) => `${f.app}:${f.key}`)).toEqual(['c1:k0', 'c1:k1', 'c1:k2']);
  });
  /*
   * ctp-fenced-txn-offset-commit: c1 (exactly-once, transactional.id c1-txn, protocol 2) processes k0
   * at ~3010 and calls sendOffsetsToTransaction; its TxnOffsetCommit is delayed 3 s. At 4000 a new
   * instance `fencer` with the same transactional.id calls initTransactions(), then writes f to out
   * and commits.
   * - Protocol 2 (Kafka 4.0.0's client: sendOffsetsToTransaction sends no AddOffsetsToTxn, the
   *   TxnOffsetCommit alone — kafka-behaviour.md, simplifications list item 8): c1-txn is Ongoing with
   *   out-0 (added by the leader's verification of k0's Produce). handleInitProducerId on Ongoing:
   *   prepareFenceProducerEpoch (1), abort by the coordinator (ABORT at epoch 1 on out-0, the 4.0.1+
   *   rule of §5), CONCURRENT_TRANSACTIONS to fencer, whose retry bumps to 2; f at epoch 2, its
   *   COMMIT at 3.
   * - The TxnOffsetCommit (epoch 0) reaches the group coordinator at ~6016 (c1's JoinGroup goes from
   *   its first poll(), after initTransactions()' InitProducerId round trip of ~2 ms): CoordinatorRuntime
   *   .scheduleTransactionalWriteOperation verifies first (CoordinatorPartitionWriter
   *   .maybeStartTransactionVerification → AddPartitionsToTxn, verifyOnly false for TxnOffsetCommit
   *   v5): TransactionCoordinator.handleAddPartitionsToTransaction, epoch 0 ≠ 2 → PRODUCER_FENCED,
   *   which AddPartitionsToTxnManager turns into INVALID_PRODUCER_EPOCH ("Producers expect to handle
   *   INVALID_PRODUCER_EPOCH in this scenario"); handleOperationException passes it on:
   *   TxnOffsetCommitResponse INVALID_PRODUCER_EPOCH. The group is never checked, no offset is pending.
   * - TxnOffsetCommitHandler.handleResponse: INVALID_PRODUCER_EPOCH or PRODUCER_FENCED →
   *   fatalError(Errors.PRODUCER_FENCED.exception()) — fatal, not the abortable CommitFailedException
   *   of a stale member. Every later call throws ProducerFencedException (maybeFailWithError); the
   *   instance can only close.
   * - Group g never has a committed offset; out-0 holds k0 aborted and f committed: a read_committed
   *   reader gets f only.
   * Protocol 1 (transaction.version 1): AddOffsetsToTxn goes first (not delayed) and adds the
   * __consumer_offsets partition, so the fence's abort writes ABORT there too; the fence gives the
   * same epochs (1 for the markers, 2 for fencer) but the COMMIT keeps epoch 2 (no bump). The late
   * TxnOffsetCommit (v4, verifyOnly: handleVerifyPartitionsInTransaction → PRODUCER_FENCED →
   * INVALID_PRODUCER_EPOCH; even unverified, the append at epoch 0 after the epoch-1 marker would fail
   * ProducerAppendInfo.checkProducerEpoch with the same error): the same fatal fence for c1.
   * Written first with k0 at out-0 offset 0 as under protocol 2; the run put nothing of c1's there,
   * and the model is right (re-read Sender.maybeSendAndPollTransactionalRequest): under protocol 1
   * send() queues AddPartitionsToTxn(out-0), and k0's batch waits for its answer; by then the
   * application has called sendOffsetsToTransaction, so the next loop sends the queued
   * AddOffsetsToTxn ("as long as there are outstanding transactional requests, we simply wait for them
   * to return" — no sendProducerData while one is in flight), and its answer queues the TxnOffsetCommit,
   * sent at once: k0 is held behind the delayed TxnOffsetCommit. Its answer makes the producer fatal,
   * and Sender.runOnce's hasFatalError branch fails the undrained batch (maybeAbortBatches): k0 is
   * never written, its send() fails with lastError, Errors.PRODUCER_FENCED.exception() (the model
   * names the error code). The fence's ABORT lands on an
   * out-0 holding no data of the transaction.
   */
  it('ctp-fenced-txn-offset-commit: a TxnOffsetCommit from a fenced epoch is INVALID_PRODUCER_EPOCH, fatal for the producer (PRODUCER_FENCED)', () => {
    const r = run('ctp-fenced-txn-offset-commit.json');
    expect(r.log('out-0')).toEqual(['0 k0 c1 e0 s0 T', '1 ABORT c1 e1 s-1 T', '2 f c1 e2 s0 T', '3 COMMIT c1 e3 s-1 T']);
    expect(r.txnStates('c1-txn')).toEqual([
      '(new)→Empty@0',
      'Empty→Ongoing@0',
      'Ongoing→PrepareEpochFence@1',
      'PrepareEpochFence→PrepareAbort@1',
      'PrepareAbort→CompleteAbort@1',
      'CompleteAbort→Empty@2',
      'Empty→Ongoing@2',
      'Ongoing→PrepareCommit@3',
      'PrepareCommit→CompleteCommit@3',
    ]);
    expect(r.rpcs('AddOffsetsToTxn')).toEqual([]);
    const commit = r.rpcs('TxnOffsetCommit', 'c1.producer');
    expect(commit.map((e) => `${e.payload.producerEpoch}@${e.deliverAt}`)).toEqual(['0@6018']);
    const verify = r.rpcs('AddPartitionsToTxnResponse', 'txn-coordinator', 'group-coordinator').map((e) => JSON.stringify(e.payload));
    expect(verify.length).toBe(1);
    expect(verify[0]).toContain('PRODUCER_FENCED');
    expect(r.rpcs('TxnOffsetCommitResponse').map((e) => e.payload.error)).toEqual(['INVALID_PRODUCER_EPOCH']);
    const fatal = r.facts('clientError').filter((f) => f.client === 'c1' && f.fatal);
    expect(fatal.map((f) => `${f.error} ${f.during}`)).toEqual(['PRODUCER_FENCED TxnOffsetCommit']);
    expect(r.errors('c1')).not.toContain('CommitFailedException');
    expect(r.errors('fencer')).toEqual(['CONCURRENT_TRANSACTIONS']);
    expect(r.facts('offsetsCommitted').filter((f) => f.groupId === 'g')).toEqual([]);
    expect(r.received('rc').map((x) => x.key)).toEqual(['f']);
  });

  it('ctp-fenced-txn-offset-commit, protocol 1: AddOffsetsToTxn first, the same fatal fence on the late TxnOffsetCommit', () => {
    const r = run('ctp-fenced-txn-offset-commit.json', (sc) => ({ ...sc, cluster: { ...sc.cluster, 'transaction.version': 1 } }));
    expect(r.log('out-0')).toEqual(['0 ABORT c1 e1 s-1 T', '1 f c1 e2 s0 T', '2 COMMIT c1 e2 s-1 T']);
    expect(r.rpcs('Produce', 'c1.producer')).toEqual([]);
    expect(
      r
        .facts('sendResult')
        .filter((f) => f.client === 'c1')
        .map((f) => `${f.offset}:${f.error}`),
    ).toEqual(['null:PRODUCER_FENCED']);
    expect(r.rpcs('AddOffsetsToTxnResponse').map((e) => e.payload.error)).toEqual(['NONE']);
    // the fence's abort reaches the __consumer_offsets partition AddOffsetsToTxn added
    const offsetsMarkers = (x: WorkedRun) =>
      x
        .facts('append')
        .filter((f) => f.topic === '__consumer_offsets' && f.control)
        .map((f) => `${f.control}@${f.producerEpoch}`);
    expect(offsetsMarkers(r)).toEqual(['ABORT@1']);
    expect(r.rpcs('TxnOffsetCommitResponse').map((e) => e.payload.error)).toEqual(['INVALID_PRODUCER_EPOCH']);
    const fatal = r.facts('clientError').filter((f) => f.client === 'c1' && f.fatal);
    expect(fatal.map((f) => `${f.error} ${f.during}`)).toEqual(['PRODUCER_FENCED TxnOffsetCommit']);
    expect(r.txnStates('c1-txn').slice(-2)).toEqual(['Ongoing→PrepareCommit@2', 'PrepareCommit→CompleteCommit@2']);
    expect(r.facts('offsetsCommitted').filter((f) => f.groupId === 'g')).toEqual([]);
    expect(r.received('rc').map((x) => x.key)).toEqual(['f']);
  });
  /*
   * ctp-restart-before-last-marker: two brokers; in-0 on broker-0, out-0 on broker-0, out-1 on
   * broker-1. src writes a and d to in-0 (one batch); c1 (exactly-once, max.poll.records 2,
   * session.timeout.ms 6000, protocol 2) processes both in one transaction: a → out-0, d → out-1 (the
   * murmur2 partitions of the keys), TxnOffsetCommit(in-0 → 2), commitTransaction(). The
   * WriteTxnMarkers to broker-1 is delayed 8 s; c1 crashes right after commitTransaction() returned
   * and restarts 500 ms later.
   * - EndTxn is answered once PrepareCommit is written (TransactionCoordinator.endTransaction,
   *   protocol 2: epoch 1); TransactionMarkerChannelManager sends one WriteTxnMarkers per broker —
   *   broker-0 (out-0) and the group coordinator's (__consumer_offsets) at once, broker-1 8 s late.
   * - The group coordinator's marker materialises in-0 → 2 at once
   *   (OffsetMetadataManager.replayEndTransactionMarker): the group's offset is committed while d's
   *   output is not yet readable — out-1's LSO stays 0 (HW 1) until its own marker.
   * - The restarted instance's initTransactions(): handleInitProducerId in PrepareCommit →
   *   CONCURRENT_TRANSACTIONS, retried every retry.backoff.ms, until CompleteCommit (after broker-1's
   *   marker, ~8 s after the commit); then prepareIncrementProducerEpoch: epoch 2.
   * - Its consumer sends nothing before the application's first poll() (ClassicKafkaConsumer.subscribe
   *   only asks for metadata; JoinGroup goes from poll() → updateAssignmentMetadataIfNeeded →
   *   ConsumerCoordinator.poll → ensureCoordinatorReady, ensureActiveGroup), which comes after
   *   initTransactions() returns (~8071). By then c1-0 is gone: its session expired at ~6000
   *   (expireClassicGroupMemberHeartbeat) and the rebalance it started completed with no member —
   *   ClassicGroup.initNextGeneration: generation 2, EMPTY. The restarted member's JoinGroup (~8072; MEMBER_ID_REQUIRED, again ~8074)
   *   forms generation 3 alone; OffsetFetch (requireStable) returns 2 without
   *   UNSTABLE_OFFSET_COMMIT — nothing of the group is pending since the __consumer_offsets marker —
   *   so a and d are processed once each. (Written first as "generation 2 at once": the empty
   *   generation of the expiry was missed.)
   * - rc (read_committed) gets out-0@0 at once and out-1@0 only after the delayed marker; its
   *   position on each ends at 2, past the marker.
   */
  it('ctp-restart-before-last-marker: the offsets are committed before the last output marker; the restart waits for CompleteCommit and does not reprocess', () => {
    const r = run('ctp-restart-before-last-marker.json');
    expect(r.log('out-0')).toEqual(['0 a c1 e0 s0 T', '1 COMMIT c1 e1 s-1 T']);
    expect(r.log('out-1')).toEqual(['0 d c1 e0 s0 T', '1 COMMIT c1 e1 s-1 T']);
    expect(r.txnStates('c1-txn')).toEqual([
      '(new)→Empty@0',
      'Empty→Ongoing@0',
      'Ongoing→PrepareCommit@1',
      'PrepareCommit→CompleteCommit@1',
      'CompleteCommit→Empty@2',
    ]);
    const prepared = r.timeOf(r.stepOf((f) => f.kind === 'txnState' && f.to === 'PrepareCommit'));
    const materialised = r.timeOf(r.stepOf((f) => f.kind === 'offsetsCommitted' && f.groupId === 'g'));
    const out1Marker = r.timeOf(r.stepOf((f) => f.kind === 'append' && f.topic === 'out' && f.partition === 1 && f.control === 'COMMIT'));
    expect(materialised - prepared).toBeLessThan(10);
    expect(out1Marker - prepared).toBeGreaterThanOrEqual(8000);
    expect(
      r
        .facts('offsetsCommitted')
        .filter((f) => f.groupId === 'g')
        .map((f) => f.offsets.map((o) => o.offset).join(',')),
    ).toEqual(['2']);
    expect(r.partitionAt('out-1', prepared + 4000)).toMatchObject({ highWatermark: 1, lastStableOffset: 0 });
    expect(r.partitionAt('out-0', prepared + 4000)).toMatchObject({ highWatermark: 2, lastStableOffset: 2 });
    const busy = errorTimes(r, 'c1', 'CONCURRENT_TRANSACTIONS');
    expect(busy.length).toBeGreaterThanOrEqual(20);
    expect(busy[0]).toBeGreaterThan(prepared + 400);
    expect(busy.at(-1)).toBeLessThanOrEqual(out1Marker + 5);
    expect(new Set(r.errors('c1'))).toEqual(new Set(['CONCURRENT_TRANSACTIONS']));
    const granted = r.facts('producerId').filter((f) => f.client === 'c1');
    expect(granted.map((f) => f.producerEpoch)).toEqual([0, 2]);
    // the model names members <client>-<n>, n counting the group's new members
    expect(generations(r).filter((g) => !g.includes('rc-'))).toEqual(['1:c1-0', '2:', '3:c1-1']);
    // the restarted member joins from its first poll(), after initTransactions() returned
    const initAnswers = r.rpcs('InitProducerIdResponse').filter((e) => e.to.split('.')[0] === 'c1');
    // each instance's first JoinGroup (no member id; MEMBER_ID_REQUIRED answers it, and the next carries the id)
    const joins = r.rpcs('JoinGroup').filter((e) => e.from.split('.')[0] === 'c1' && e.payload.memberId === '');
    expect(joins.length).toBe(2);
    expect(joins[1]?.sentAt).toBeGreaterThanOrEqual(initAnswers.at(-1)?.deliverAt as number);
    expect(joins[1]?.sentAt).toBeGreaterThan(out1Marker);
    expect(joins[1]?.sentAt).toBe(8074);
    const fetched = r.rpcs('OffsetFetchResponse').filter((e) => e.to.split('.')[0] === 'c1');
    expect(fetched.length).toBe(2);
    expect(JSON.stringify(fetched[1]?.payload)).toContain('"offset":2');
    expect(
      r
        .facts('processed')
        .filter((f) => f.app === 'c1')
        .map((f) => f.key),
    ).toEqual(['a', 'd']);
    const rcAt = (partition: number) =>
      r.timeOf(r.stepOf((f) => f.kind === 'delivered' && f.consumer === 'rc' && f.partition === partition));
    expect(r.received('rc').map((x) => `${x.partition}@${x.offset}`)).toEqual(['0@0', '1@0']);
    expect(rcAt(0)).toBeLessThan(prepared + 1000);
    expect(rcAt(1)).toBeGreaterThan(out1Marker);
    // past each COMMIT marker (CompletedFetch: a control batch moves nextFetchOffset to its nextOffset)
    const rc = r.summary.consumers.find((c) => c.id === 'rc');
    expect([rc?.positions['out-0'], rc?.positions['out-1']]).toEqual([2, 2]);
  });
  /*
   * ctp-zombie-resumes-after-timeout-abort: the same member paused for 20 s, past its
   * transaction.timeout.ms (10000), right after sendOffsetsToTransaction(in-0 → 3) for k2.
   * - As in rebalance-unstable-offsets (where c1 dies): generation 2 {c2} at ~9000; c2 waits on
   *   UNSTABLE_OFFSET_COMMIT; the abort check at 20000 finds the transaction (started ~3023) expired
   *   (TransactionStateManager.timedOutTransactions) → prepareFenceProducerEpoch, then
   *   endTransaction(ABORT, isFromClient = false). The transaction runs at epoch 1 (the first
   *   commit's protocol 2 bump); the fence makes 2 and the ABORT on out-0 carries 2 (the 4.0.1+ rule
   *   the model follows, kafka-behaviour.md §5; as in rebalance-unstable-offsets). The ABORT on
   *   __consumer_offsets drops the pending 3 (replayEndTransactionMarker(ABORT)); c2's next fetch
   *   returns 2, it processes k2 and commits it in its own transaction.
   * - c1 resumes at ~23020 and calls commitTransaction(): EndTxn(COMMIT) at epoch 1. The stored
   *   epoch is 2 and the state CompleteAbort: endTxnEpochBumped (stored = request's + 1, no pending
   *   fence) makes the request a retry (isValidEpoch under transactions V2), and CompleteAbort with
   *   COMMIT is logInvalidStateTransitionAndReturnError → INVALID_TXN_STATE. EndTxnHandler:
   *   fatalError — the producer can only be closed (the application stops). Nothing is written for it.
   * - out-0: c1's k2 aborted, c2's committed; read_committed readers see each input's output once.
   */
  it('ctp-zombie-resumes-after-timeout-abort: the member’s commit after the coordinator aborted its transaction is INVALID_TXN_STATE, fatal; the new owner’s output stands', () => {
    const r = run('ctp-zombie-resumes-after-timeout-abort.json');
    expect(r.log('out-0')).toEqual([
      '0 k0 c1 e0 s0 T',
      '1 k1 c1 e0 s1 T',
      '2 COMMIT c1 e1 s-1 T',
      '3 k2 c1 e1 s0 T',
      '4 ABORT c1 e2 s-1 T',
      '5 k2 c2 e0 s0 T',
      '6 COMMIT c2 e1 s-1 T',
    ]);
    expect(generations(r).slice(0, 2)).toEqual(['1:c1-0', '2:c2-1']);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'txnState' && f.transactionalId === 'c1-txn' && f.to === 'PrepareEpochFence'))).toBe(20000);
    const ends = r.rpcs('EndTxn', 'c1.producer');
    const last = ends.at(-1);
    expect(last?.payload).toMatchObject({ committed: true, producerEpoch: 1 });
    expect(last?.sentAt).toBeGreaterThan(23000);
    expect(r.rpcs('EndTxnResponse').find((e) => e.inReplyTo === last?.id)?.payload).toMatchObject({ error: 'INVALID_TXN_STATE' });
    const fatal = r.facts('clientError').filter((f) => f.client === 'c1' && f.fatal);
    expect(fatal.map((f) => `${f.error} ${f.during}`)).toEqual(['INVALID_TXN_STATE EndTxn(COMMIT)']);
    expect(r.txnStates('c1-txn').slice(-3)).toEqual([
      'Ongoing→PrepareEpochFence@2',
      'PrepareEpochFence→PrepareAbort@2',
      'PrepareAbort→CompleteAbort@2',
    ]);
    expect(r.facts('offsetsCommitted').map((f) => `${f.generationId}:${f.offsets.map((o) => o.offset).join(',')}`)).toEqual(['1:2', '2:3']);
    const c2Commit = r.timeOf(r.stepOf((f) => f.kind === 'offsetsCommitted' && f.offsets.some((o) => o.offset === 3)));
    expect(c2Commit).toBeGreaterThan(20000);
    expect(c2Commit).toBeLessThan(last?.sentAt ?? 0);
    expect(
      r
        .facts('processed')
        .filter((f) => f.key === 'k2')
        .map((f) => f.app),
    ).toEqual(['c1', 'c2']);
  });
});

describe('worked cases: the read_committed consumer', () => {
  /*
   * rc-aborted-between-plain: one partition t-0. tx (transactional, protocol 2) opens a transaction
   * and writes t0, t1 (one batch) at ~100; plain (idempotent, not transactional) writes n0–n2 (one
   * batch) at ~300; tx writes t2 at ~600 and aborts at 1000; plain writes n3 at ~1500. rc
   * (read_committed) and ru (read_uncommitted) both have max.poll.records=1, earliest, and join at
   * once (group.initial.rebalance.delay.ms 0).
   * - Offsets in arrival order: t0 0, t1 1, n0–n2 2–4, t2 5, ABORT 6 (epoch 1: the protocol 2 bump in
   *   prepareAbortOrCommit), n3 7.
   * - LSO (ProducerStateManager.firstUnstableOffset; UnifiedLog: LSO = min(first unstable, HW)): 0 while
   *   tx's transaction is open — n0–n2, not transactional, wait behind it — then, the ABORT written, 7
   *   (= HW); at the end 8.
   * - rc's fetches return nothing below the LSO (the fetch's upper bound for READ_COMMITTED, LocalLog
   *   .read maxOffsetMetadata): its first record comes after the abort. The answer from 0 carries
   *   AbortedTransaction(tx, firstOffset 0); CompletedFetch.nextFetchedRecord:
   *   consumeAbortedTransactionsUpTo adds tx at batch 0–1 (skipped, isBatchAborted), batch 2–4 is not
   *   transactional (returned), batch 5 is tx's again (still in abortedProducerIds: skipped), the
   *   ABORT control batch 6 removes tx and is skipped; n3 (7) comes with a later fetch.
   * - max.poll.records=1: CompletedFetch.fetchRecords returns one record per poll(), so n0, n1, n2
   *   come from the same fetched batch in three polls; AbstractFetch.fetchablePartitions excludes a
   *   partition with buffered data, so rc sends no Fetch while n1 and n2 wait in the buffer.
   * - ru reads every data record: 0–5 and 7 (the ABORT only skipped as control).
   * - rc's position ends at 8 (the control batch's nextOffset, then n3's offset + 1), committed.
   */
  it('rc-aborted-between-plain: plain records wait behind the open transaction, then come one per poll; the aborted batches on both sides of them are skipped', () => {
    const r = run('rc-aborted-between-plain.json');
    expect(r.log('t-0')).toEqual([
      '0 t0 tx e0 s0 T',
      '1 t1 tx e0 s1 T',
      '2 n0 plain e0 s0',
      '3 n1 plain e0 s1',
      '4 n2 plain e0 s2',
      '5 t2 tx e0 s2 T',
      '6 ABORT tx e1 s-1 T',
      '7 n3 plain e0 s3',
    ]);
    expect(r.partitionAt('t-0', 800)).toMatchObject({ highWatermark: 6, lastStableOffset: 0 });
    expect(r.partitionAt('t-0', 1200)).toMatchObject({ highWatermark: 7, lastStableOffset: 7 });
    expect(r.partition('t-0')).toMatchObject({ highWatermark: 8, lastStableOffset: 8 });
    const aborted = r.timeOf(r.stepOf((f) => f.kind === 'append' && f.control === 'ABORT'));
    expect(aborted).toBeGreaterThanOrEqual(1000);
    const delivered = r
      .facts('delivered')
      .filter((f) => f.consumer === 'rc')
      .map((f) => f.offset);
    expect(delivered).toEqual([2, 3, 4, 7]);
    const deliveredAt = (offset: number) => r.timeOf(r.stepOf((f) => f.kind === 'delivered' && f.consumer === 'rc' && f.offset === offset));
    expect(deliveredAt(2)).toBeGreaterThan(aborted);
    expect(deliveredAt(3)).toBeGreaterThan(deliveredAt(2));
    expect(deliveredAt(4)).toBeGreaterThan(deliveredAt(3));
    const rcFetches = r
      .rpcs('Fetch')
      .filter((e) => e.from.split('.')[0] === 'rc' && e.sentAt > deliveredAt(2) && e.sentAt < deliveredAt(4));
    expect(rcFetches).toEqual([]);
    expect(
      r
        .facts('skipped')
        .filter((f) => f.consumer === 'rc')
        .map((f) => `${f.baseOffset}-${f.lastOffset}:${f.reason}`),
    ).toEqual(['0-1:aborted', '5-5:aborted', '6-6:control']);
    expect(r.received('ru').map((x) => x.offset)).toEqual([0, 1, 2, 3, 4, 5, 7]);
    expect(
      r
        .facts('skipped')
        .filter((f) => f.consumer === 'ru')
        .map((f) => `${f.baseOffset}-${f.lastOffset}:${f.reason}`),
    ).toEqual(['6-6:control']);
    expect(r.summary.consumers.find((c) => c.id === 'rc')?.positions['t-0']).toBe(8);
    expect(
      r
        .facts('offsetsCommitted')
        .filter((f) => f.groupId === 'rc')
        .at(-1)?.offsets[0]?.offset,
    ).toBe(8);
  });
});
