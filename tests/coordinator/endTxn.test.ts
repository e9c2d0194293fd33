/**
 * EndTxn on the transaction coordinator, cell by cell against TransactionCoordinator.endTransaction
 * (4.0 line): protocol v1 (endTransactionWithTV1: strict epoch equality, retries of a completed
 * result answered NONE) and protocol v2 (KIP-890: "current" = the stored epoch, "retry" = one below
 * it; every accepted EndTxn bumps the epoch). docs/reference/kafka-behaviour.md §5 has both tables.
 * In PrepareCommit/PrepareAbort the coordinator always has its completion pending (prepareComplete,
 * from the PrepareX write until CompleteX is written), and endTransaction answers a pending
 * transition CONCURRENT_TRANSACTIONS before the state table: the table's INVALID_TXN_STATE cells for
 * PrepareX are never reached.
 */
import { describe, expect, it } from 'vitest';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/transactionCoordinator.machine';
import { transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf } from '../machines/harness';
import { markersAcked, replyOf, txnRequest, txnScenario } from './txnRequests';

type Protocol = 1 | 2;
const request = txnRequest;
const scenario = (protocol: Protocol) => txnScenario(protocol);

const endTxn = (producerEpoch: number, committed: boolean, producerId = 1000) =>
  request('EndTxn', { producerId, producerEpoch, committed });
const reply = (fx: readonly Effect[]) => replyOf<{ error: string; producerEpoch: number }>(fx, 'EndTxnResponse');
const acked = markersAcked;

type Start = 'Empty' | 'Ongoing' | 'PrepareCommit' | 'PrepareAbort' | 'CompleteCommit' | 'CompleteAbort';

/** A coordinator whose transaction `tx` (producer 1000) is in `state`; returns it and the stored epoch. */
function inState(protocol: Protocol, state: Start) {
  const m = drive(transactionCoordinatorMachine, inputOf(scenario(protocol), 'txn-coordinator'));
  let now = 1;
  m.send(request('InitProducerId', { transactionTimeoutMs: 60000, producerId: -1, producerEpoch: -1 }), now++);
  if (state !== 'Empty') {
    m.send(
      request('AddPartitionsToTxn', { producerId: 1000, producerEpoch: 0, partitions: [{ topic: 't', partition: 0 }], verifyOnly: false }),
      now++,
    );
    if (state !== 'Ongoing') {
      const commit = state === 'PrepareCommit' || state === 'CompleteCommit';
      const fx = m.send(endTxn(0, commit), now++);
      if (state.startsWith('Complete')) m.send(acked(fx), now++);
    }
  }
  const txn = () => m.context<TxnCoordinatorContext>().txns.tx;
  expect(txn()?.state).toBe(state);
  return { m, stored: txn()?.producerEpoch as number, txn, now };
}

/** The answer to EndTxn(result) at `epoch` relative to the stored one: "current" (=), "retry" (−1). */
function answer(protocol: Protocol, state: Start, result: 'COMMIT' | 'ABORT', which: 'current' | 'retry') {
  const { m, stored, now } = inState(protocol, state);
  return reply(m.send(endTxn(which === 'current' ? stored : stored - 1, result === 'COMMIT'), now))?.error;
}

describe('EndTxn, protocol v2 (KIP-890), the coordinator table', () => {
  // state, ABORT retry, ABORT current, COMMIT retry, COMMIT current (EB = NONE with an epoch bump)
  const table: [Start, string, string, string, string][] = [
    ['Empty', 'PRODUCER_FENCED', 'EB', 'PRODUCER_FENCED', 'INVALID_TXN_STATE'],
    ['CompleteAbort', 'NONE', 'EB', 'INVALID_TXN_STATE', 'INVALID_TXN_STATE'],
    ['CompleteCommit', 'INVALID_TXN_STATE', 'EB', 'NONE', 'INVALID_TXN_STATE'],
    // PrepareX: the completion is a pending transition, answered before the epoch check and the state
    // table (KAFKA-18464, 4.0.0) — so the current epoch too: a commit then at once an abort retries, not fenced
    ['PrepareCommit', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS'],
    ['PrepareAbort', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS'],
    ['Ongoing', 'PRODUCER_FENCED', 'EB', 'PRODUCER_FENCED', 'EB'],
  ];
  it.each(table)('%s: ABORT retry %s, ABORT current %s, COMMIT retry %s, COMMIT current %s', (state, ar, ac, cr, cc) => {
    const cells: [string, 'COMMIT' | 'ABORT', 'current' | 'retry'][] = [
      [ar, 'ABORT', 'retry'],
      [ac, 'ABORT', 'current'],
      [cr, 'COMMIT', 'retry'],
      [cc, 'COMMIT', 'current'],
    ];
    for (const [expected, result, which] of cells) {
      const { m, stored, now, txn } = inState(2, state);
      const r = reply(m.send(endTxn(which === 'current' ? stored : stored - 1, result === 'COMMIT'), now));
      if (expected === 'EB') {
        expect(r).toMatchObject({ error: 'NONE', producerEpoch: stored + 1 });
        // with partitions the markers go out (PrepareX); an abort with none completes at once (CompleteAbort)
        const states = state === 'Ongoing' ? [`Prepare${result === 'COMMIT' ? 'Commit' : 'Abort'}`] : ['CompleteAbort'];
        expect(states).toContain(txn()?.state);
        expect(txn()?.producerEpoch).toBe(stored + 1);
      } else expect(r?.error, `${state} ${result} ${which}`).toBe(expected);
    }
  });
  it('an abort of no partitions (from Empty or CompleteX) starts its transaction at the request (prepareAbortOrCommit, noPartitionAdded)', () => {
    for (const state of ['Empty', 'CompleteCommit', 'CompleteAbort'] as const) {
      const { m, stored, now, txn } = inState(2, state);
      m.send(endTxn(stored, false), now + 100);
      expect(txn()?.txnStartTimestamp, state).toBe(now + 100);
    }
  });
  it('a stale producer after the coordinator aborted: its abortTransaction() (a retry) is NONE, its commitTransaction() INVALID_TXN_STATE', () => {
    expect(answer(2, 'CompleteAbort', 'ABORT', 'retry')).toBe('NONE');
    expect(answer(2, 'CompleteAbort', 'COMMIT', 'retry')).toBe('INVALID_TXN_STATE');
  });
});

describe('EndTxn, protocol v1 (endTransactionWithTV1)', () => {
  const table: [Start, string, string][] = [
    ['Ongoing', 'NONE', 'NONE'],
    ['CompleteCommit', 'NONE', 'INVALID_TXN_STATE'],
    ['CompleteAbort', 'INVALID_TXN_STATE', 'NONE'],
    // PrepareX: the completion is a pending transition (prepareComplete), answered before the state table is read
    ['PrepareCommit', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS'],
    ['PrepareAbort', 'CONCURRENT_TRANSACTIONS', 'CONCURRENT_TRANSACTIONS'],
    ['Empty', 'INVALID_TXN_STATE', 'INVALID_TXN_STATE'],
  ];
  it.each(table)('%s: COMMIT %s, ABORT %s (no epoch bump)', (state, commit, abort) => {
    expect(answer(1, state, 'COMMIT', 'current')).toBe(commit);
    expect(answer(1, state, 'ABORT', 'current')).toBe(abort);
    const { m, stored, now } = inState(1, state);
    m.send(endTxn(stored, false), now);
    expect(m.context<TxnCoordinatorContext>().txns.tx?.producerEpoch).toBe(stored);
  });
  it('any epoch but the stored one is PRODUCER_FENCED; another producer id INVALID_PRODUCER_ID_MAPPING', () => {
    expect(answer(1, 'Ongoing', 'COMMIT', 'retry')).toBe('PRODUCER_FENCED');
    const { m, stored, now } = inState(1, 'Ongoing');
    expect(reply(m.send(endTxn(stored + 1, true), now))?.error).toBe('PRODUCER_FENCED');
    expect(reply(m.send(endTxn(stored, true, 999), now + 1))?.error).toBe('INVALID_PRODUCER_ID_MAPPING');
  });
});
