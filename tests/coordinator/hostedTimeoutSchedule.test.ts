/**
 * Where two rules of the hosted transaction coordinator meet: what a request does after its write to
 * a replicated `__transaction_state` is held until the write is acknowledged (txnStateWrites.ts), and
 * the timeout scan runs on the broker's fixed-rate schedule (TransactionCoordinator.startup:
 * `scheduler.schedule("transaction-abort", …, interval, interval)`; abortTimedOutTransactions →
 * TransactionStateManager.timedOutTransactions, which skips a transaction with
 * `pendingTransitionInProgress`). The timeout check armed by the AddPartitionsToTxn that starts a
 * transaction was held with its write and released with its delay counted from the request, so it
 * fired the write's latency after the cleanup run it aimed at (10802 ms instead of 10000 ms here) —
 * and a commit that came in between was written, where Kafka had already aborted the transaction.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { slowTxnStateScenario } from '../replication/hostBroker';

/** A protocol v2 producer on three brokers, __transaction_state's followers 400 ms slow (a write takes about 800 ms). */
const hosted = (script: object[]) => slowTxnStateScenario({ 'transaction.timeout.ms': 5000, 'linger.ms': 0 }, script);

const send = { op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e1' } };

function checksAndStates(trace: Trace) {
  const checks: number[] = [];
  const states: string[] = [];
  for (let i = 0; ; i++) {
    const s = trace.steps.at(i);
    if (!s) break;
    if (s.label === 'txnTimeoutCheck') checks.push(s.t);
    for (const f of s.facts as Fact[]) if (f.kind === 'txnState') states.push(`${s.t} ${f.to}`);
  }
  return { checks, states };
}

describe('the hosted coordinator’s timeout check keeps the cleanup schedule', () => {
  it('a transaction started at 1410 ms (written at 2212 ms) with a 5 s timeout is aborted by the run at 10000 ms', () => {
    const trace = runScenario(hosted([{ op: 'beginTransaction' }, send, { op: 'commitTransaction', at: 10300 }]));
    const { checks, states } = checksAndStates(trace);
    expect(checks[0]).toBe(10000);
    // the commit at 10300 ms finds the fence's abort under way: the transaction is never committed
    expect(states.filter((s) => s.endsWith('PrepareCommit'))).toEqual([]);
    expect(states.some((s) => s.endsWith('CompleteAbort'))).toBe(true);
  });

  it('a transaction that starts at 9500 ms with a 5 s timeout is looked at by the run at 20000 ms, not the write’s latency later', () => {
    // AddPartitionsToTxn written from about 9500 to 10300 ms (the write's acks wait is the transaction's
    // timeout, appendTransactionToLog: so the write ends before the deadline, and the run it aims at is after both)
    const trace = runScenario(hosted([{ op: 'beginTransaction' }, { ...send, at: 9500 }]));
    const { checks } = checksAndStates(trace);
    expect(checks[0]).toBe(20000);
  });
});
