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
});
