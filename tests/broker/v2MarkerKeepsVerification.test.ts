/**
 * Transaction protocol v2: the previous transaction's marker reaches a partition while the leader
 * verifies the producer's next transaction there (KAFKA-18575, "Transaction Version 2 doesn't
 * correctly handle race condition with completing and new transaction"). The next transaction's
 * produce carries the bumped epoch the marker also carries; the leader created its verification
 * entry (UnifiedLog.maybeStartTransactionVerification) before the marker came, and the coordinator
 * — by then in CompleteCommit — adds the partition and answers NONE. Kafka 4.0 (KAFKA-18654, which
 * reverted 18575's early CONCURRENT_TRANSACTIONS answer) keeps the verification entry through a
 * marker of its own epoch when the verification is a v2 one (UnifiedLog.updateProducers:
 * `isV2NextTransactionStarted`), so the produce's guard still verifies and the batch is appended.
 *
 * On the old code the marker cleared the entry, and the verified produce was refused
 * INVALID_TXN_STATE ("Record was not part of an ongoing transaction"): the producer failed fatally
 * and e2 was lost.
 */
import { describe, expect, it } from 'vitest';
import { appendMarker, appendProducerBatch, createPartitionLog, startTransactionVerification } from '../../src/sim/log/partitionLog';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { backToBackTransactions } from '../fixtures/backToBackTransactions';

/** One producer commits e1 and at once writes e2 in its next transaction; e1's markers come 20 ms late, e2's verification 60 ms late. */
const scenario = backToBackTransactions('v2-marker-during-verification', [
  { type: 'delay', rpc: 'WriteTxnMarkers', nth: 1, delayMs: 20 },
  { type: 'delay', rpc: 'AddPartitionsToTxn', nth: 2, delayMs: 60 },
]);

describe("protocol v2: the previous transaction's marker during the next one's verification", () => {
  it('leaves the verification in place: the verified batch is appended and both transactions commit', () => {
    const trace = runScenario(scenario);
    expect(trace.stopReason).toBe('quiescent');
    const facts: Fact[] = [];
    for (let i = 0; ; i++) {
      const s = trace.steps.at(i);
      if (!s) break;
      facts.push(...(s.facts as Fact[]));
    }
    expect(facts.filter((f) => f.kind === 'rejected' || f.kind === 'clientError')).toEqual([]);
    const verdict = summarize(trace).verdict.layers.map((l) => `${l.layer}:${l.status}`);
    expect(verdict).toEqual(['log:once', 'loss:once']);
  });

  it('on the log: a v2 entry survives a marker of its epoch, not a marker of another epoch; a v1 entry never survives one', () => {
    const commit = (epoch: number) => ({ producerId: 7, producerEpoch: epoch, controlType: 'COMMIT' as const, coordinatorEpoch: 0 });
    const batch = (epoch: number) => ({
      producerId: 7,
      producerEpoch: epoch,
      baseSequence: 0,
      isTransactional: true,
      records: [{ key: 'k', value: 'v', headers: {}, timestamp: 1 }],
    });
    const open = appendProducerBatch(createPartitionLog('payments', 0), batch(0), 1).log;
    // the next transaction's verification (epoch 1) starts before the first one's marker (epoch 1 under v2)
    const v2 = startTransactionVerification(open, 7, 0, 1, 2, true);
    const afterMarker = appendMarker(v2.log, commit(1), 3).log;
    expect(afterMarker.verificationStates.get(7)?.guard).toBe(v2.guard);
    const appended = appendProducerBatch(afterMarker, batch(1), 4, { verificationEnabled: true, verificationGuard: v2.guard });
    expect(appended.outcome.kind).toBe('appended');
    expect(appended.log.verificationStates.has(7)).toBe(false);
    // a marker with another epoch (a fencing's bump past it) ends the v2 verification
    expect(appendMarker(v2.log, commit(2), 3).log.verificationStates.has(7)).toBe(false);
    // a protocol v1 verification ends at any marker
    const v1 = startTransactionVerification(open, 7, 0, 1, 2);
    expect(appendMarker(v1.log, commit(1), 3).log.verificationStates.has(7)).toBe(false);
  });
});
