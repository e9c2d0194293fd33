/**
 * EndTxn is answered once PrepareCommit / PrepareAbort is written, never after CompleteX.
 * Kafka: TransactionCoordinator.endTransaction's `sendTxnMarkersCallback` — "we can respond to the
 * client immediately and continue to write the txn markers if the log append was successful":
 * `responseCallback(Errors.NONE, …)` then `txnMarkerChannelManager.addTxnMarkersToSend`. Under protocol
 * v2 an abort of no partitions (Empty, or CompleteX with the current epoch) has no markers, so
 * `maybeWriteTxnCompletion` writes CompleteAbort right after the answer; a failure of that write is
 * retried by the coordinator (txnLogAppendRetryQueue), never seen by the client. On the old model the
 * answer followed CompleteAbort: with a replicated __transaction_state it waited for that second
 * write, and a failure of it became the client's COORDINATOR_NOT_AVAILABLE and ~78 EndTxn retries.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, type Trace } from '../../src/sim/run';
import { slowTxnStateScenario } from '../replication/hostBroker';

/**
 * A v2 producer on three brokers (__transaction_state on all three, min ISR 2, followers 400 ms slow)
 * that aborts before its batch leaves (linger.ms 1000). Its InitProducerId goes retry.backoff.ms
 * (100 ms) after its FindCoordinator is answered (Sender: the request is a retry), so the times below
 * are 100 ms later than before that rule.
 */
const emptyAbort = (extraFaults: object[] = [], producerConfig: object = {}) =>
  slowTxnStateScenario(
    { 'linger.ms': 1000, ...producerConfig },
    [
      { op: 'beginTransaction' },
      { op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e1' } },
      { op: 'abortTransaction' },
    ],
    extraFaults,
  );

/** Each EndTxn answer the producer got (time, error), and when the coordinator wrote PrepareAbort and CompleteAbort. */
function endTxnOf(trace: Trace): { answers: string[]; prepared: number; completed: number } {
  const answers: string[] = [];
  let prepared = -1;
  let completed = -1;
  for (let i = 0; ; i++) {
    const s = trace.steps.at(i);
    if (!s) break;
    if (s.label === 'EndTxnResponse' && s.envelope !== null)
      answers.push(`${s.t} ${(trace.envelopes.at(s.envelope)?.payload as { error: string }).error}`);
    for (const f of s.facts as { kind: string; to?: string }[]) {
      if (f.kind !== 'txnState') continue;
      if (f.to === 'PrepareAbort' && prepared < 0) prepared = s.t;
      if (f.to === 'CompleteAbort' && completed < 0) completed = s.t;
    }
  }
  return { answers, prepared, completed };
}

describe('protocol v2: an abort of no partitions on a replicated __transaction_state', () => {
  it('is answered when PrepareAbort is written, before CompleteAbort', () => {
    const { answers, prepared, completed } = endTxnOf(runScenario(emptyAbort()));
    expect(prepared).toBe(2211);
    expect(completed).toBeGreaterThan(2900);
    expect(answers).toEqual(['2212 NONE']);
  });

  it('a CompleteAbort write that times out is the coordinator’s to retry: the client got NONE, once', () => {
    // both followers down from 2300 for 8 s, transaction.timeout.ms 3000: the CompleteAbort append times out
    const crashes = [
      { type: 'crash', target: 'broker-1', at: 2300, durationMs: 8000 },
      { type: 'crash', target: 'broker-2', at: 2300, durationMs: 8000 },
    ];
    const { answers, completed } = endTxnOf(runScenario(emptyAbort(crashes, { 'transaction.timeout.ms': 3000 })));
    expect(answers).toEqual(['2212 NONE']);
    expect(completed).toBeGreaterThan(10000);
  });
});
