/**
 * Worked cases, kafka-transactions.sh abort while the partition has no leader. Expected outcomes
 * written from Kafka's source (trunk of October 2024, the 4.0 line) before the scenarios were run:
 * TransactionsCommand.AbortTransactionCommand (buildAbortSpec: Admin.describeProducers, then
 * Admin.abortTransaction), AdminApiDriver (onResponse, clearInflightRequest: a lookup is retried
 * without backoff), PartitionLeaderStrategy.handlePartitionError (LEADER_NOT_AVAILABLE: "Will
 * retry"), KafkaAdminClient (default.api.timeout.ms 60000, timeoutPendingCalls).
 */
import { describe, expect, it } from 'vitest';
import type { Fact } from '../../src/sim/trace/facts';
import { run, type WorkedRun } from './helpers';

const timeOfFirst = (r: WorkedRun, match: (f: Fact) => boolean) => r.timeOf(r.stepOf(match));

describe('worked cases: an operator’s abort while the partition has no leader', () => {
  /*
   * operator-abort-no-leader. t-0 on broker-0 (leader) and broker-1, min.insync.replicas 1; p's
   * transaction writes k0 at offset 0 (replicated) and stays open (transaction.timeout.ms 900 s).
   * broker-0 and broker-1 die at 1000 and come back at 16000; at 12000 the operator runs
   * `kafka-transactions.sh abort --topic t --partition 0 --start-offset 0`.
   * - ~9001: the controller fences both (broker.session.timeout.ms): broker-1 is elected, then fenced
   *   too, and t-0 is left without a leader (leader −1, ISR [broker-1]).
   * - 12000: describeProducers' leader lookup (PartitionLeaderStrategy) asks broker-2, whose metadata
   *   gives t-0 no leader (LEADER_NOT_AVAILABLE): "Will retry"; AdminApiDriver clears the lookup
   *   without backoff and asks again, and again, until a leader is known — within the call's
   *   deadline, 12000 + default.api.timeout.ms (60000).
   * - ~16001: broker-1 (its ISR member) registers and is elected (epoch 3). The next lookup finds it;
   *   DescribeProducers answers p's open transaction at 0 (broker-1's log holds k0); the spec
   *   (epoch 0, coordinator epoch 0) → WriteTxnMarkers ABORT on broker-1: ABORT at offset 1. The tool
   *   prints nothing and exits 0.
   * - **Changed** (2026-12-07): the model's tool failed at once ("the partition has no leader", a text
   *   of its own — and here, worse, the admin client's timeout naming broker-0, read from broker-2's
   *   stale leader list instead of its controller records). Now it looks again every 100 ms (Kafka: at
   *   every Metadata answer) until default.api.timeout.ms: the abort lands on the first look after
   *   the election.
   */
  it('operator-abort-no-leader: the tool retries its lookup and aborts on the leader elected 4 s later', () => {
    const r = run('operator-abort-no-leader.json');
    expect(r.facts('leaderChange').map((f) => `${f.leader}@${f.leaderEpoch}`)).toEqual(['broker-1@1', 'null@2', 'broker-1@3']);
    const elected = timeOfFirst(r, (f) => f.kind === 'leaderChange' && f.leaderEpoch === 3);
    expect(elected).toBe(16001);
    const aborts = r.facts('operatorAbort');
    expect(aborts).toMatchObject([
      { broker: 'broker-1', spec: { producerEpoch: 0, coordinatorEpoch: 0 }, markerOffset: 1, failure: null, printed: null },
    ]);
    const at = timeOfFirst(r, (f) => f.kind === 'operatorAbort');
    expect(at).toBeGreaterThanOrEqual(elected);
    expect(at).toBeLessThanOrEqual(elected + 100);
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T', '1 ABORT p e0 s-1 T']);
  });

  /*
   * operator-abort-no-leader-timeout: the same, but both brokers stay away 80 s (back at 81000).
   * - The lookups go on answering LEADER_NOT_AVAILABLE until the deadline, 12000 + 60000 = 72000;
   *   the lookup call created then is expired before a node is chosen
   *   (KafkaAdminClient.timeoutPendingCalls: "Timed out waiting for a node assignment. Call:
   *   describeProducers(api=METADATA)"), and TransactionsCommand.printErrorAndExit prints "Failed to
   *   validate producer state for partition t-0: …". Nothing is written; the transaction stays open
   *   (LSO 0) when broker-1 is elected at ~81001.
   */
  it('operator-abort-no-leader-timeout: no leader for the tool’s 60 s, it prints the admin client’s timeout and writes nothing', () => {
    const r = run('operator-abort-no-leader-timeout.json');
    const aborts = r.facts('operatorAbort');
    expect(aborts).toEqual([
      expect.objectContaining({
        broker: 'broker-2',
        spec: null,
        markerOffset: null,
        failure: 'no-leader',
        printed:
          'Failed to validate producer state for partition t-0: Timed out waiting for a node assignment. Call: describeProducers(api=METADATA). Enable debug logging for additional detail.',
      }),
    ]);
    expect(timeOfFirst(r, (f) => f.kind === 'operatorAbort')).toBe(72000);
    expect(r.log('t-0')).toEqual(['0 k0 p e0 s0 T']);
    expect(r.partition('t-0')).toMatchObject({ lastStableOffset: 0 });
  });
});
