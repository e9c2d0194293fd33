/** Every coordinator transition Kafka allows is accepted; every other one is refused. */
import { describe, expect, it } from 'vitest';
import { canTransition, initialTxnState, TXN_STATES, type TxnState, VALID_PREVIOUS_STATES } from '../src/sim/coordinator/transactionState';

const ALLOWED: [TxnState, TxnState][] = [
  ['Empty', 'Empty'],
  ['CompleteCommit', 'Empty'],
  ['CompleteAbort', 'Empty'],
  ['Ongoing', 'Ongoing'],
  ['Empty', 'Ongoing'],
  ['CompleteCommit', 'Ongoing'],
  ['CompleteAbort', 'Ongoing'],
  ['Ongoing', 'PrepareCommit'],
  ['Ongoing', 'PrepareAbort'],
  ['PrepareEpochFence', 'PrepareAbort'],
  ['Empty', 'PrepareAbort'],
  ['CompleteCommit', 'PrepareAbort'],
  ['CompleteAbort', 'PrepareAbort'],
  ['PrepareCommit', 'CompleteCommit'],
  ['PrepareAbort', 'CompleteAbort'],
  ['Ongoing', 'PrepareEpochFence'],
  ['Empty', 'Dead'],
  ['CompleteAbort', 'Dead'],
  ['CompleteCommit', 'Dead'],
];

describe('transaction coordinator states', () => {
  it('starts Empty', () => {
    expect(initialTxnState()).toBe('Empty');
  });

  it.each(ALLOWED)('allows %s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
  });

  it('refuses every other transition', () => {
    const allowed = new Set(ALLOWED.map(([a, b]) => `${a}>${b}`));
    const refused: string[] = [];
    for (const from of TXN_STATES)
      for (const to of TXN_STATES) {
        if (allowed.has(`${from}>${to}`)) continue;
        expect(canTransition(from, to), `${from} → ${to}`).toBe(false);
        refused.push(`${from}>${to}`);
      }
    expect(refused.length + allowed.size).toBe(TXN_STATES.length ** 2);
  });

  it("matches Kafka's validPreviousStates table", () => {
    const fromTable = Object.entries(VALID_PREVIOUS_STATES).flatMap(([to, froms]) => froms.map((from) => `${from}>${to}`));
    expect(new Set(fromTable)).toEqual(new Set(ALLOWED.map(([a, b]) => `${a}>${b}`)));
  });
});
