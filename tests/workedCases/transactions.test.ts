/**
 * Worked cases, transactions: the expected outcome of each was written from Kafka's source (4.0 line)
 * before the scenario was run; the classes and methods read are named in each case.
 */
import { describe, expect, it } from 'vitest';
import { describeProducersAt, describeProducersText } from '../../src/sim/tools/describeProducers';
import { describeTransactionAt } from '../../src/sim/tools/describeTransaction';
import { run } from './helpers';

describe('worked cases: transactions', () => {
  /*
   * a and b (protocol 2) write to t-0 in turn: a1 (a), b1 (b), a2 (a); b commits, then a aborts.
   * - Offsets are assigned in arrival order; markers carry the epoch the coordinator bumped in
   *   EndTxn (TransactionMetadata.prepareAbortOrCommit: supportsEpochBump → producerEpoch + 1).
   * - The LSO is the first offset of the earliest open transaction (ProducerStateManager
   *   .firstUnstableOffset over ongoingTxns; UnifiedLog.updateHighWatermarkMetadata → LSO =
   *   min(firstUnstableOffset, HW)): a's transaction opened at 0 holds it at 0 after b's COMMIT.
   * - read_committed from 0: the leader sends AbortedTransaction(a, firstOffset 0) (its ABORT marker
   *   at 4 ≥ the fetch offset: TransactionIndex.collectAbortedTxns); CompletedFetch.nextFetchedRecord
   *   skips a's batches while a is in abortedProducerIds, and every control batch: only b1.
   * - read_uncommitted returns every data record: a1, b1, a2.
   */
  it('interleaved-abort: the earlier open transaction holds the LSO; read_committed returns only the committed record between aborted ones', () => {
    const r = run('interleaved-abort.json');
    expect(r.log('t-0')).toEqual(['0 a1 a e0 s0 T', '1 b1 b e0 s0 T', '2 a2 a e0 s1 T', '3 COMMIT b e1 s-1 T', '4 ABORT a e1 s-1 T']);
    expect(r.partitionAt('t-0', 300)).toMatchObject({ highWatermark: 2, lastStableOffset: 0 });
    // b committed (marker at 3) but a, open since offset 0, still holds the LSO
    expect(r.partitionAt('t-0', 800)).toMatchObject({ highWatermark: 4, lastStableOffset: 0 });
    expect(r.partition('t-0')).toMatchObject({ highWatermark: 5, lastStableOffset: 5 });
    expect(r.received('rc').map((x) => x.offset)).toEqual([1]);
    expect(
      r
        .facts('skipped')
        .filter((s) => s.consumer === 'rc')
        .map((s) => `${s.baseOffset}:${s.reason}`),
    ).toEqual(['0:aborted', '2:aborted', '3:control', '4:control']);
    expect(r.received('ru').map((x) => x.offset)).toEqual([0, 1, 2]);
    // '(new)→Empty' is the model's record of handleInitProducerId creating the id's metadata (Empty)
    expect(r.txnStates('a-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareAbort@1', 'PrepareAbort→CompleteAbort@1']);
    expect(r.txnStates('b-txn')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
  });

  /*
   * One transaction on t-0, t-1, t-2 led by broker-0, broker-1, broker-0; the WriteTxnMarkers to
   * broker-1 arrives 3 s late.
   * - TransactionCoordinator.endTransaction (protocol 2) answers EndTxn once PrepareCommit is
   *   written (sendTxnMarkersCallback: responseCallback(Errors.NONE) before
   *   txnMarkerChannelManager.addTxnMarkersToSend): commitTransaction() returns before any marker.
   * - TransactionMarkerChannelManager sends one WriteTxnMarkers per broker with the partitions it
   *   leads; each partition's LSO moves with its own marker (t-0, t-2 at once; t-1 3 s later).
   * - The coordinator stays in PrepareCommit until every marker is acknowledged
   *   (TxnMarkerQueue / TransactionMarkerRequestCompletionHandler → completeSendMarkersForTxnId →
   *   CompleteCommit).
   */
  it('three-partitions-delayed-marker: each partition becomes readable with its own marker; the coordinator stays in PrepareCommit until the last', () => {
    const r = run('three-partitions-delayed-marker.json');
    for (const name of ['t-0', 't-1', 't-2']) expect(r.log(name)).toEqual([`0 ${`k${name.at(-1)}`} p e0 s0 T`, '1 COMMIT p e1 s-1 T']);
    const markers = r.rpcs('WriteTxnMarkers').map((e) => {
      const m = (e.payload.markers as { result: string; partitions: { topic: string; partition: number }[] }[])[0];
      return `${e.to} ${m?.result} ${m?.partitions.map((x) => x.partition).join(',')} at ${e.deliverAt}`;
    });
    expect(markers).toEqual(['broker-0 COMMIT 0,2 at 502', 'broker-1 COMMIT 1 at 3502']);
    // the client has its answer at once, 3 s before broker-1 writes its marker
    expect(r.rpcs('EndTxnResponse', undefined, 'p.producer').map((e) => [e.payload.error, e.deliverAt])).toEqual([['NONE', 502]]);
    for (const name of ['t-0', 't-2']) expect(r.partitionAt(name, 1500)).toMatchObject({ highWatermark: 2, lastStableOffset: 2 });
    expect(r.partitionAt('t-1', 1500)).toMatchObject({ highWatermark: 1, lastStableOffset: 0 });
    const mid = describeTransactionAt(r.viewAt(1500), 'p-txn');
    expect(mid.kind === 'described' && mid.description.state).toBe('PrepareCommit');
    const complete = r.stepOf((f) => f.kind === 'txnState' && f.to === 'CompleteCommit');
    expect(r.timeOf(complete)).toBeGreaterThanOrEqual(3500);
    expect(r.partition('t-1')).toMatchObject({ highWatermark: 2, lastStableOffset: 2 });
    expect(r.received('rc').map((x) => `t-${x.partition}@${x.offset}`)).toEqual(['t-0@0', 't-2@0', 't-1@0']);
  });

  /*
   * A transaction writes a0, a1, a2 (offsets 0–2) and aborts (ABORT at 3); a plain record x lands at
   * 4. Both groups' offsets are reset to 1 (kafka-consumer-groups --reset-offsets) before their
   * consumers start.
   * - The leader's read_committed answer from offset 1 lists AbortedTransaction(p, firstOffset 0):
   *   TransactionIndex.collectAbortedTxns keeps an aborted transaction with lastOffset (3) ≥ the fetch
   *   offset (1) and firstOffset < the upper bound (LocalLog.collectAbortedTransactions).
   * - CompletedFetch.consumeAbortedTransactionsUpTo(batch.lastOffset) adds p to abortedProducerIds
   *   at the first batch (1): batches 1 and 2 are skipped, the ABORT marker at 3 is a control batch
   *   (skipped, and removes p), x at 4 is returned.
   * - read_uncommitted returns a1, a2 and x.
   */
  it('seek-into-aborted: read_committed starting inside an aborted transaction skips the rest of it', () => {
    const r = run('seek-into-aborted.json');
    expect(r.log('t-0')).toEqual(['0 a0 p e0 s0 T', '1 a1 p e0 s1 T', '2 a2 p e0 s2 T', '3 ABORT p e1 s-1 T', '4 x plain e0 s0']);
    expect(r.received('rc').map((x) => x.offset)).toEqual([4]);
    expect(
      r
        .facts('skipped')
        .filter((s) => s.consumer === 'rc')
        .map((s) => `${s.baseOffset}:${s.reason}`),
    ).toEqual(['1:aborted', '2:aborted', '3:control']);
    expect(r.received('ru').map((x) => x.offset)).toEqual([1, 2, 4]);
    expect(r.summary.consumers.find((c) => c.id === 'rc')?.positions['t-0']).toBe(5);
  });

  /*
   * first commits at 500 (protocol 2); its WriteTxnMarkers is delayed 3 s, so the coordinator holds
   * x in PrepareCommit until 3502. second (same transactional.id) starts at 1000.
   * - TransactionCoordinator.handleInitProducerId: `case PrepareAbort | PrepareCommit =>
   *   Left(Errors.CONCURRENT_TRANSACTIONS)`; the client's InitProducerIdHandler re-enqueues it, and
   *   the Sender waits retry.backoff.ms (100) before each retry: about 25 answers until 3502.
   * - Once CompleteCommit is written, handleInitProducerId → prepareIncrementProducerEpoch: epoch 1
   *   (the commit's bump) + 1 = 2, same producer id; second's transaction writes at epoch 2 and its
   *   commit marker carries 3.
   * - first's data stays committed: the COMMIT marker lands at 1 when the delayed request arrives.
   */
  it('init-during-prepare-commit: CONCURRENT_TRANSACTIONS until the markers are written, then epoch + 1', () => {
    const r = run('init-during-prepare-commit.json');
    expect(r.log('t-0')).toEqual(['0 k1 first e0 s0 T', '1 COMMIT first e1 s-1 T', '2 k2 first e2 s0 T', '3 COMMIT first e3 s-1 T']);
    const errs = r.errors('second');
    expect(new Set(errs)).toEqual(new Set(['CONCURRENT_TRANSACTIONS']));
    expect(errs.length).toBeGreaterThanOrEqual(23);
    expect(errs.length).toBeLessThanOrEqual(26);
    expect(r.txnStates('x')).toEqual([
      '(new)→Empty@0',
      'Empty→Ongoing@0',
      'Ongoing→PrepareCommit@1',
      'PrepareCommit→CompleteCommit@1',
      'CompleteCommit→Empty@2',
      'Empty→Ongoing@2',
      'Ongoing→PrepareCommit@3',
      'PrepareCommit→CompleteCommit@3',
    ]);
    const granted = r.facts('producerId').filter((f) => f.client === 'second');
    expect(granted.map((f) => f.producerEpoch)).toEqual([2]);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'producerId' && f.client === 'second'))).toBeGreaterThan(3502);
  });

  /*
   * zombie (transactional.id x) begins and sends kz at 100; its Produce is delayed 2 s. fresh (same
   * id) starts at 1000, writes kf and commits. Then zombie's Produce arrives.
   * Protocol 1: zombie's AddPartitionsToTxn (from the client) made the transaction Ongoing with t-0,
   * so fresh's InitProducerId finds it open: handleInitProducerId → prepareFenceProducerEpoch
   * (epoch 1) and an abort by the coordinator — an ABORT marker at epoch 1 on t-0, which holds no
   * data yet (markers go to every partition of the transaction) — and answers CONCURRENT_TRANSACTIONS;
   * the retry bumps to epoch 2 (prepareIncrementProducerEpoch). fresh writes kf at epoch 2 and its
   * COMMIT keeps epoch 2 (no bump in protocol 1).
   * Protocol 2: the coordinator never saw zombie's transaction (partitions are added by the leader on
   * Produce), so fresh's InitProducerId bumps at once to 1; kf at 1, COMMIT at 2.
   * Both: zombie's Produce at epoch 0 is refused INVALID_PRODUCER_EPOCH (v1: the leader's
   * ProducerAppendInfo.checkProducerEpoch, the stored epoch being 2; v2: the leader's
   * AddPartitionsToTxn gets PRODUCER_FENCED, which AddPartitionsToTxnManager turns into
   * INVALID_PRODUCER_EPOCH). TransactionManager.maybeTransitionToErrorState makes it abortable;
   * commitTransaction() throws InvalidProducerEpochException itself (maybeFailWithError); the
   * application aborts, and EndTxn at epoch 0 is PRODUCER_FENCED (fatal). Nothing of zombie's is
   * in the log.
   */
  it('zombie-late-produce-v1: the coordinator aborts the zombie’s open transaction with a fenced epoch; its late Produce is refused', () => {
    const r = run('zombie-late-produce-v1.json');
    expect(r.log('t-0')).toEqual(['0 ABORT zombie e1 s-1 T', '1 kf zombie e2 s0 T', '2 COMMIT zombie e2 s-1 T']);
    expect(r.errors('zombie')).toEqual(['INVALID_PRODUCER_EPOCH', 'InvalidProducerEpochException', 'PRODUCER_FENCED']);
    expect(r.errors('fresh')).toEqual(['CONCURRENT_TRANSACTIONS']);
    expect(r.txnStates('x')).toEqual([
      '(new)→Empty@0',
      'Empty→Ongoing@0',
      // Kafka's pending state of prepareFenceProducerEpoch (never written to __transaction_state), a step of its own in the model
      'Ongoing→PrepareEpochFence@1',
      'PrepareEpochFence→PrepareAbort@1',
      'PrepareAbort→CompleteAbort@1',
      'CompleteAbort→Empty@2',
      'Empty→Ongoing@2',
      'Ongoing→PrepareCommit@2',
      'PrepareCommit→CompleteCommit@2',
    ]);
  });

  it('zombie-late-produce-v2: the coordinator never saw the zombie’s transaction; its late Produce is refused at the leader’s verification', () => {
    const r = run('zombie-late-produce-v2.json');
    expect(r.log('t-0')).toEqual(['0 kf zombie e1 s0 T', '1 COMMIT zombie e2 s-1 T']);
    expect(r.errors('zombie')).toEqual(['INVALID_PRODUCER_EPOCH', 'InvalidProducerEpochException', 'PRODUCER_FENCED']);
    expect(r.errors('fresh')).toEqual([]);
    expect(r.txnStates('x')).toEqual([
      '(new)→Empty@0',
      'Empty→Empty@1',
      'Empty→Ongoing@1',
      'Ongoing→PrepareCommit@2',
      'PrepareCommit→CompleteCommit@2',
    ]);
    // the late Produce reached the leader, which asked the coordinator (AddPartitionsToTxn, epoch 0)
    const verify = r.rpcs('AddPartitionsToTxn', 'broker-0').map((e) => JSON.stringify(e.payload));
    expect(verify.some((p) => p.includes('"producerEpoch":0'))).toBe(true);
  });

  /*
   * zombie (protocol 2) writes kz in an open transaction (the leader's AddPartitionsToTxn made it
   * Ongoing); fresh (same id) starts at 1000.
   * - handleInitProducerId on Ongoing: prepareFenceProducerEpoch (PrepareEpochFence, epoch 1), then
   *   endTransaction(ABORT, isFromClient = false, the server's transaction.version 2) →
   *   PrepareAbort → markers → CompleteAbort; fresh gets CONCURRENT_TRANSACTIONS and its retry bumps
   *   the epoch (prepareIncrementProducerEpoch).
   * - Model's documented version choice (kafka-behaviour.md §5, "Final epochs after InitProducerId
   *   meets an Ongoing transaction"): Kafka 4.0.1+ (KAFKA-19367) — markers at old+1 = 1, fresh at 2.
   *   The October 2024 snapshot's code sets the fenced epoch and bumps again in
   *   prepareAbortOrCommit under protocol 2 (markers at 2, fresh at 3); this case asserts the 4.0.1+
   *   outcome the model follows.
   * - fresh writes kf at epoch 2 and commits (COMMIT at 3); zombie's commitTransaction (EndTxn at
   *   epoch 0) is PRODUCER_FENCED.
   */
  it('fence-ongoing-v2: InitProducerId aborts the open transaction with a fenced epoch; the zombie’s commit is PRODUCER_FENCED', () => {
    const r = run('fence-ongoing-v2.json');
    expect(r.log('t-0')).toEqual(['0 kz zombie e0 s0 T', '1 ABORT zombie e1 s-1 T', '2 kf zombie e2 s0 T', '3 COMMIT zombie e3 s-1 T']);
    expect(r.errors('zombie')).toEqual(['PRODUCER_FENCED']);
    expect(r.errors('fresh')).toEqual(['CONCURRENT_TRANSACTIONS']);
    expect(r.txnStates('x')).toEqual([
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
  });

  /*
   * p (protocol 2, transaction.timeout.ms 10000) writes k1 at 100 (the transaction starts at the
   * coordinator at ~104), then sends k2 at 9990 and calls commitTransaction(); k2's Produce is delayed
   * 15 s.
   * - abortTimedOutTransactions runs every 10000 ms: at 10000 the deadline (~10104) has not passed;
   *   at 20000 it has: prepareFenceProducerEpoch (1) and an abort — ABORT at epoch 1 on t-0 (4.0.1+
   *   rule, as above).
   * - The commit waits: TransactionManager.nextRequest does not send EndTxn while a batch is
   *   incomplete. k2 reaches the leader at ~24990; its verification (AddPartitionsToTxn, epoch 0,
   *   verifyOnly false) is PRODUCER_FENCED, which AddPartitionsToTxnManager turns into
   *   INVALID_PRODUCER_EPOCH for the Produce. maybeTransitionToErrorState → abortable;
   *   maybeTerminateRequestWithError fails the pending EndTxn(COMMIT) with it, so commitTransaction()
   *   throws and the application aborts.
   * - EndTxn(ABORT) at epoch 0 meets CompleteAbort at epoch 1: endTxnEpochBumped (stored epoch =
   *   request's + 1) makes it a retry → NONE with epoch 1, nothing written. (Under the snapshot's
   *   double bump the stored epoch would be 2 and the abort PRODUCER_FENCED; the model follows 4.0.1+.)
   * - Nothing of the transaction is readable; k2 is not in the log.
   */
  it('timeout-produce-in-flight-v2: the coordinator aborts at its next check; the late Produce is refused INVALID_PRODUCER_EPOCH and the abort is a retry', () => {
    const r = run('timeout-produce-in-flight-v2.json');
    expect(r.log('t-0')).toEqual(['0 k1 p e0 s0 T', '1 ABORT p e1 s-1 T']);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'txnState' && f.to === 'PrepareEpochFence'))).toBe(20000);
    expect(r.facts('rejected').map((f) => `${f.producerEpoch}:${f.error}`)).toEqual(['0:INVALID_PRODUCER_EPOCH']);
    expect(r.facts('sendResult').map((f) => `${f.offset}:${f.error ?? 'ok'}`)).toEqual(['0:ok', 'null:INVALID_PRODUCER_EPOCH']);
    const verify = r
      .rpcs('AddPartitionsToTxnResponse', 'txn-coordinator', 'broker-0')
      .map((e) => JSON.stringify(e.payload.resultsByTransaction));
    expect(verify.at(-1)).toContain('PRODUCER_FENCED');
    expect(r.rpcs('EndTxn').map((e) => e.payload.committed)).toEqual([false]);
    expect(r.rpcs('EndTxnResponse').map((e) => `${e.payload.error}@${e.payload.producerEpoch}`)).toEqual(['NONE@1']);
    expect(r.txnStates('p-txn').at(-1)).toBe('PrepareAbort→CompleteAbort@1');
    expect(r.received('rc')).toEqual([]);
    expect(r.partition('t-0')).toMatchObject({ highWatermark: 2, lastStableOffset: 2 });
  });
});

describe('worked cases: a transactional producer’s epoch bump (KIP-360)', () => {
  /*
   * Protocol 1; t-0 on broker-0, t-1 on broker-1. p writes k0 (t-0) and k1 (t-1); broker-0's answer is
   * dropped; request.timeout.ms 1000, retry.backoff.ms 1000, delivery.timeout.ms 1500: the retried
   * k0 expires in the accumulator at ~1600 (it was written at offset 0).
   * - Sender.failBatch(TimeoutException) → TransactionManager.handleFailedBatch →
   *   maybeTransitionToErrorState: transactional, canBumpEpoch() (InitProducerId v3+) and not
   *   completing → epochBumpRequired, transitionToAbortableError(TimeoutException).
   * - commitTransaction() → beginCommit → maybeFailWithError: a KafkaException wrapping it; the
   *   application aborts: EndTxn(ABORT) at epoch 0 → ABORT markers at epoch 0 on both partitions
   *   (protocol 1: no bump in prepareAbortOrCommit).
   * - The abort done, epochBumpRequired sends InitProducerId with the current producer id and epoch
   *   (KIP-360): CompleteAbort → prepareIncrementProducerEpoch → epoch 1. Every partition restarts at
   *   sequence 0 with epoch 1 (startSequencesAtBeginning): k2, k3 at epoch 1, sequence 0, committed
   *   with markers at epoch 1.
   */
  it('txn-expiry-epoch-bump-v1: abort, then InitProducerId with the current epoch; both partitions restart at sequence 0', () => {
    const r = run('txn-expiry-epoch-bump-v1.json');
    for (const [name, a, b] of [
      ['t-0', 'k0', 'k2'],
      ['t-1', 'k1', 'k3'],
    ] as const)
      expect(r.log(name)).toEqual([`0 ${a} p e0 s0 T`, '1 ABORT p e0 s-1 T', `2 ${b} p e1 s0 T`, '3 COMMIT p e1 s-1 T']);
    expect(r.errors('p')).toEqual(['REQUEST_TIMED_OUT', 'TimeoutException', 'KafkaException']);
    expect(r.rpcs('InitProducerId').map((e) => `${e.payload.producerId}/${e.payload.producerEpoch}`)).toEqual(['-1/-1', '1000/0']);
    expect(r.rpcs('EndTxn').map((e) => `${e.payload.committed}@${e.payload.producerEpoch}`)).toEqual(['false@0', 'true@1']);
    expect(r.txnStates('p-1')).toEqual([
      '(new)→Empty@0',
      'Empty→Ongoing@0',
      'Ongoing→PrepareAbort@0',
      'PrepareAbort→CompleteAbort@0',
      'CompleteAbort→Empty@1',
      'Empty→Ongoing@1',
      'Ongoing→PrepareCommit@1',
      'PrepareCommit→CompleteCommit@1',
    ]);
  });
});

describe('worked cases: retries and an operator’s abort', () => {
  /*
   * p commits at 500; the connection breaks as the EndTxn answer is sent. The client retries
   * (TxnRequestHandler.onComplete, wasDisconnected → reenqueue) after retry.backoff.ms. Model's
   * documented simplification (kafka-model.md: "With one replica … the coordinator is known"): with
   * an unreplicated __transaction_state no FindCoordinator goes before the retry.
   * Protocol 1: the retry EndTxn(COMMIT, epoch 0) meets CompleteCommit at epoch 0 —
   * TransactionCoordinator.endTransaction: isValidEpoch (v1: equal epochs), `case CompleteCommit`
   * with COMMIT → Left(Errors.NONE), answered with the stored producer id and epoch; nothing
   * written. The next transaction continues the sequence (1) at epoch 0.
   * Protocol 2: CompleteCommit at epoch 1; endTxnEpochBumped (stored = request's + 1) makes it a
   * retry → NONE with epoch 1; the client takes epoch 1, and its next transaction starts at
   * sequence 0 with it (COMMIT at 2).
   */
  it('endtxn-retry-v1: the retried commit is answered NONE, nothing more is written', () => {
    const r = run('endtxn-retry-v1.json');
    expect(r.log('t-0')).toEqual(['0 k1 p e0 s0 T', '1 COMMIT p e0 s-1 T', '2 k2 p e0 s1 T', '3 COMMIT p e0 s-1 T']);
    expect(r.errors('p')).toEqual(['NETWORK_EXCEPTION']);
    expect(r.rpcs('EndTxnResponse').map((e) => `${e.payload.error}@${e.payload.producerEpoch}:${e.fate}`)).toEqual([
      'NONE@0:lost',
      'NONE@0:delivered',
      'NONE@0:delivered',
    ]);
    expect(r.rpcs('EndTxn')[1]?.sentAt).toBe(601);
    expect(r.rpcs('FindCoordinator')).toEqual([]);
    expect(r.txnStates('p-1').filter((s) => s.includes('→Prepare'))).toEqual(['Ongoing→PrepareCommit@0', 'Ongoing→PrepareCommit@0']);
  });

  it('endtxn-retry-v2: the retried commit at the old epoch is recognised (stored epoch = request’s + 1)', () => {
    const r = run('endtxn-retry-v2.json');
    expect(r.log('t-0')).toEqual(['0 k1 p e0 s0 T', '1 COMMIT p e1 s-1 T', '2 k2 p e1 s0 T', '3 COMMIT p e2 s-1 T']);
    expect(r.errors('p')).toEqual(['NETWORK_EXCEPTION']);
    expect(r.rpcs('EndTxn').map((e) => e.payload.producerEpoch)).toEqual([0, 0, 1]);
    expect(r.rpcs('EndTxnResponse').map((e) => `${e.payload.error}@${e.payload.producerEpoch}`)).toEqual(['NONE@1', 'NONE@1', 'NONE@2']);
  });

  /*
   * p's transaction writes k0 (t-0) and k1 (t-1) and stays open until 5000; at 2000 an operator runs
   * kafka-transactions.sh abort --topic t --partition 0 --start-offset 0.
   * - TransactionsCommand.AbortTransactionCommand finds the producer with DescribeProducers
   *   (CurrentTransactionStartOffset 0, LatestCoordinatorEpoch -1) and sends WriteTxnMarkers ABORT
   *   with its epoch (0) and `coordinatorEpoch().orElse(0)`: an ABORT marker at t-0 offset 1, epoch 0.
   *   ProducerStateEntry.update keeps the batch metadata (same epoch): LastSequence stays 0,
   *   LastTimestamp is the marker's, LatestCoordinatorEpoch 0, no open transaction.
   * - The coordinator knows nothing of it: the commit (protocol 2) writes COMMIT at epoch 1 on both
   *   partitions. On t-0 it follows no open transaction (appendEndTxnMarker: no CompletedTxn) — k0
   *   stays aborted in the transaction index. t-1's k1 is committed.
   * - read_committed: k1 only — the transaction is no longer atomic.
   */
  it('operator-abort-then-commit: the operator’s ABORT on one partition stands; the coordinator’s later COMMIT commits only the other', () => {
    const r = run('operator-abort-then-commit.json');
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 ABORT p e0 s-1 T', '2 COMMIT p e1 s-1 T']);
    expect(r.log('t-1')).toEqual(['0 k1 p e0 s0 T', '1 COMMIT p e1 s-1 T']);
    expect(r.partition('t-0').records.map((x) => x.coordinatorEpoch ?? null)).toEqual([null, 0, 0]);
    const before = describeProducersAt(r.viewAt(1000), 't', 0);
    const after = describeProducersAt(r.viewAt(3000), 't', 0);
    expect(describeProducersText(before).split('\n')[1]?.split(/\s+/).slice(0, 6)).toEqual(['1000', '0', '-1', '0', '102', '0']);
    expect(describeProducersText(after).split('\n')[1]?.split(/\s+/).slice(0, 6)).toEqual(['1000', '0', '0', '0', '2000', 'None']);
    expect(r.txnStates('p-1')).toEqual(['(new)→Empty@0', 'Empty→Ongoing@0', 'Ongoing→PrepareCommit@1', 'PrepareCommit→CompleteCommit@1']);
    expect(r.received('rc').map((x) => `t-${x.partition}@${x.offset}`)).toEqual(['t-1@0']);
  });
});

describe('worked cases: the next transaction while the last one’s markers are pending', () => {
  /*
   * p commits at 500 and at once begins the next transaction; the WriteTxnMarkers of the first is
   * delayed 1 s, so the coordinator is in PrepareCommit (completion pending) until ~1502.
   * Protocol 1: commitTransaction() returned at the PrepareCommit write; the next send's
   * AddPartitionsToTxn meets the pending transition → CONCURRENT_TRANSACTIONS
   * (handleAddPartitionsToTransaction), which the client retries after 20 ms while no partition is
   * in the transaction (TransactionManager ADD_PARTITIONS_RETRY_BACKOFF_MS): about 1000 / 22 ≈ 45
   * answers. k2 is drained only once its partition is added — after the COMMIT marker: offsets
   * k1 0, COMMIT 1, k2 2 (sequence 1, same epoch), COMMIT 3.
   * Protocol 2: the client sends k2's Produce at once (epoch 1); the leader's verification meets
   * PrepareCommit → CONCURRENT_TRANSACTIONS, which the broker retries itself every 20 ms for 100 ms
   * (ReplicaManager.maybeRetryOnConcurrentTransactions), then answers it unconverted; the producer
   * retries with its backoff 100, 200, 400 ms (ExponentialBackoff): three answers, then the
   * verification at ~1540 finds CompleteCommit and adds the partition. k2 at 2 (epoch 1, sequence 0),
   * COMMIT at epoch 2 (~1550).
   */
  it('back-to-back-delayed-markers-v1: AddPartitionsToTxn gets CONCURRENT_TRANSACTIONS every ~22 ms until the markers are written', () => {
    const r = run('back-to-back-delayed-markers-v1.json');
    expect(r.log('t-0')).toEqual(['0 k1 p e0 s0 T', '1 COMMIT p e0 s-1 T', '2 k2 p e0 s1 T', '3 COMMIT p e0 s-1 T']);
    const errs = r.errors('p');
    expect(new Set(errs)).toEqual(new Set(['CONCURRENT_TRANSACTIONS']));
    expect(errs.length).toBeGreaterThanOrEqual(43);
    expect(errs.length).toBeLessThanOrEqual(47);
    const adds = r.rpcs('AddPartitionsToTxn', 'p.producer').map((e) => e.sentAt);
    expect(adds.slice(2, 5).map((t, i) => t - (adds[i + 1] ?? 0))).toEqual([22, 22, 22]);
  });

  it('back-to-back-delayed-markers-v2: the leader retries the verification for 100 ms, the producer backs off 100, 200, 400 ms', () => {
    const r = run('back-to-back-delayed-markers-v2.json');
    expect(r.log('t-0')).toEqual(['0 k1 p e0 s0 T', '1 COMMIT p e1 s-1 T', '2 k2 p e1 s0 T', '3 COMMIT p e2 s-1 T']);
    expect(r.errors('p')).toEqual(['CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS']);
    const produces = r.rpcs('Produce', 'p.producer').map((e) => e.sentAt);
    const answers = r.rpcs('ProduceResponse', 'broker-0', 'p.producer').map((e) => e.sentAt);
    expect(produces.slice(2).map((t, i) => t - (answers[i + 1] ?? 0))).toEqual([100, 200, 400].map((b) => expect.closeTo(b, -1)));
    expect(r.timeOf(r.stepOf((f) => f.kind === 'append' && f.control === 'COMMIT' && f.producerEpoch === 2))).toBeGreaterThan(1500);
  });
});
