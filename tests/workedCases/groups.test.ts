/**
 * Worked cases, consumer groups and transactions: expected outcomes written from Kafka's source
 * (4.0 line) before the scenarios were run.
 */
import { describe, expect, it } from 'vitest';
import { parseToolCommand, runToolCommand, splitCommandLine } from '../../src/sim/tools/toolCommand';
import type { Fact } from '../../src/sim/trace/facts';
import { run } from './helpers';

describe('worked cases: groups', () => {
  /*
   * c1 (consume-transform-produce, protocol 2, transaction.timeout.ms=10000, session.timeout.ms=6000)
   * commits k0, k1 with offset 2, then dies right after sendOffsetsToTransaction(offset 3) for k2.
   * c2 joins the group at 5000.
   * - The classic coordinator keeps c1 until its session expires (GroupMetadataManager heartbeat
   *   expiry, ~3020 + 6000), then completes the rebalance with c2 alone (generation 2).
   * - c2's OffsetFetch is sent with requireStable=true (ConsumerCoordinator: new
   *   OffsetFetchRequest.Builder(groupId, true, …)); OffsetMetadataManager.fetchOffsets answers
   *   UNSTABLE_OFFSET_COMMIT while c1's TxnOffsetCommit is pending; the client retries with
   *   retryBackoff.backoff(attempts): 100, 200, 400, 800, then 1000 ms.
   * - c1's transaction started at ~3023; the coordinator's abort check runs every 10000 ms
   *   (TransactionCoordinator.startup, transaction.abort.timed.out.transaction.cleanup.interval.ms),
   *   and timedOutTransactions needs txnStartTimestamp + 10000 < now: the run at 20000 aborts it
   *   (prepareFenceProducerEpoch, then endTransaction(ABORT, isFromClient = false)). The ABORT
   *   marker on out-0 carries epoch 2: the 4.0.1+ rule (KAFKA-19367) the model follows, see
   *   kafka-behaviour.md §5 — the October 2024 snapshot's code bumps again in prepareAbortOrCommit
   *   under transaction.version 2 and would write epoch 3.
   * - The abort drops the pending offset (the ABORT marker on __consumer_offsets): c2's next fetch
   *   returns 2, and c2 processes k2 again in its own transaction: out-0 holds k2 twice, the first
   *   aborted; read_committed readers see each once.
   */
  it('rebalance-unstable-offsets: the new owner waits on UNSTABLE_OFFSET_COMMIT until the dead member’s transaction times out', () => {
    const r = run('rebalance-unstable-offsets.json');
    expect(r.log('out-0')).toEqual([
      '0 k0 c1 e0 s0 T',
      '1 k1 c1 e0 s1 T',
      '2 COMMIT c1 e1 s-1 T',
      '3 k2 c1 e1 s0 T',
      '4 ABORT c1 e2 s-1 T',
      '5 k2 c2 e0 s0 T',
      '6 COMMIT c2 e1 s-1 T',
    ]);
    const rebalances = r.facts('rebalance');
    expect(rebalances.map((f) => [f.generationId, f.members.length])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    const gen2 = r.timeOf(r.stepOf((f) => f.kind === 'rebalance' && f.generationId === 2));
    expect(gen2).toBeGreaterThanOrEqual(9000);
    expect(gen2).toBeLessThan(9100);
    const unstable = r.trace.steps
      .filter((s) => (s.facts as Fact[]).some((f) => f.kind === 'clientError' && f.client === 'c2'))
      .map((s) => s.t);
    expect(new Set(r.errors('c2'))).toEqual(new Set(['UNSTABLE_OFFSET_COMMIT']));
    // the backoff: 100, 200, 400, 800, then 1000 ms between attempts (plus the round trip)
    const gaps = unstable.slice(1).map((t, i) => t - (unstable[i] ?? 0));
    expect(gaps.slice(0, 5)).toEqual([102, 202, 402, 802, 1002]);
    expect(unstable.at(-1)).toBeLessThan(20000);
    expect(r.txnStates('c1-txn').slice(-3)).toEqual([
      'Ongoing→PrepareEpochFence@2',
      'PrepareEpochFence→PrepareAbort@2',
      'PrepareAbort→CompleteAbort@2',
    ]);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'txnState' && f.to === 'PrepareAbort'))).toBe(20000);
    expect(r.received('c2').map((x) => x.offset)).toEqual([2]);
    expect(r.timeOf(r.stepOf((f) => f.kind === 'delivered' && f.consumer === 'c2'))).toBeGreaterThan(20000);
    expect(r.facts('offsetsCommitted').map((f) => `${f.generationId}:${f.offsets.map((o) => o.offset).join(',')}`)).toEqual(['1:2', '2:3']);
  });

  /*
   * The same run seen by an operator at 15000, while c1's transaction (and its offset 3) is pending
   * and c2 waits on UNSTABLE_OFFSET_COMMIT.
   * - kafka-consumer-groups.sh --describe: ConsumerGroupCommand reads the committed offsets with
   *   Admin.listConsumerGroupOffsets, whose ListConsumerGroupOffsetsOptions.requireStable is false —
   *   the materialised 2, not the pending 3 — and LOG-END-OFFSET with listOffsets(OffsetSpec.latest())
   *   at READ_UNCOMMITTED: the HW, 3. LAG 1; the member is c2.
   * - kafka-transactions.sh list: c1-txn Ongoing, c2-txn Empty (ListTransactions).
   * - find-hanging --topic out: c1's transaction on out-0 is open for ~12 s, under the default
   *   --max-transaction-timeout (15 minutes): no row; prettyPrintTable still prints the header.
   */
  it('rebalance-unstable-offsets, the operator’s view: describe shows the materialised offset, list the open transaction', () => {
    const r = run('rebalance-unstable-offsets.json');
    const tool = (line: string) => {
      const c = parseToolCommand(splitCommandLine(line));
      if (!c.ok) throw new Error(line);
      return runToolCommand(c.command, r.viewAt(15000), r.trace.scenario)
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/));
    };
    const describe = tool('kafka-consumer-groups.sh --describe --group g');
    expect(describe[1]?.slice(0, 6)).toEqual(['g', 'in', '0', '2', '3', '1']);
    expect(describe[1]?.at(-1)).toBe('c2.consumer');
    expect(
      tool('kafka-transactions.sh list')
        .slice(1)
        .map((row) => [row[0], row[3]]),
    ).toEqual([
      ['c1-txn', 'Ongoing'],
      ['c2-txn', 'Empty'],
    ]);
    expect(tool('kafka-transactions.sh find-hanging --topic out')).toEqual([
      ['Topic', 'Partition', 'ProducerId', 'ProducerEpoch', 'CoordinatorEpoch', 'StartOffset', 'LastTimestamp', 'Duration(min)'],
    ]);
  });
});
