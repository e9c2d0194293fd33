/**
 * The transaction coordinator's per-transactional.id states and the transitions Kafka allows
 * (TransactionState.validPreviousStates in Kafka 4.x):
 *
 *   Empty             ← Empty, CompleteCommit, CompleteAbort
 *   Ongoing           ← Ongoing, Empty, CompleteCommit, CompleteAbort
 *   PrepareCommit     ← Ongoing
 *   PrepareAbort      ← Ongoing, PrepareEpochFence, Empty, CompleteCommit, CompleteAbort
 *                       (the last three only for protocol v2's abort of an empty transaction)
 *   CompleteCommit    ← PrepareCommit
 *   CompleteAbort     ← PrepareAbort
 *   PrepareEpochFence ← Ongoing
 *   Dead              ← Empty, CompleteCommit, CompleteAbort
 *
 * It is an XState machine so the chart can be inspected and tested as one; the coordinator asks it
 * whether a transition is allowed before it makes one.
 */
import { createMachine, initialTransition, transition } from 'xstate';

export const TXN_STATES = [
  'Empty',
  'Ongoing',
  'PrepareCommit',
  'PrepareAbort',
  'CompleteCommit',
  'CompleteAbort',
  'PrepareEpochFence',
  'Dead',
] as const;

export type TxnState = (typeof TXN_STATES)[number];

export const VALID_PREVIOUS_STATES: Readonly<Record<TxnState, readonly TxnState[]>> = {
  Empty: ['Empty', 'CompleteCommit', 'CompleteAbort'],
  Ongoing: ['Ongoing', 'Empty', 'CompleteCommit', 'CompleteAbort'],
  PrepareCommit: ['Ongoing'],
  PrepareAbort: ['Ongoing', 'PrepareEpochFence', 'Empty', 'CompleteCommit', 'CompleteAbort'],
  CompleteCommit: ['PrepareCommit'],
  CompleteAbort: ['PrepareAbort'],
  PrepareEpochFence: ['Ongoing'],
  Dead: ['Empty', 'CompleteAbort', 'CompleteCommit'],
};

/** One state node per Kafka state; an event named after a target state is accepted only from its valid previous states. */
export const transactionStateMachine = createMachine({
  id: 'transactionState',
  initial: 'Empty',
  states: Object.fromEntries(
    TXN_STATES.map((from) => [
      from,
      {
        on: Object.fromEntries(
          TXN_STATES.filter((to) => VALID_PREVIOUS_STATES[to].includes(from)).map((to) => [to, { target: to, reenter: true }]),
        ),
      },
    ]),
  ),
});

const cache = new Map<string, boolean>();

/** Whether Kafka allows a transaction in state `from` to move to `to` (asked of the machine once, then cached). */
export function canTransition(from: TxnState, to: TxnState): boolean {
  const key = `${from}>${to}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const start = transactionStateMachine.resolveState({ value: from, context: {} });
  const [next] = transition(transactionStateMachine, start, { type: to });
  const allowed = next.value === to && transactionStateMachine.getStateNodeById(`transactionState.${from}`).on[to] !== undefined;
  cache.set(key, allowed);
  return allowed;
}

/** The machine's initial state, for tests. */
export function initialTxnState(): TxnState {
  const [s] = initialTransition(transactionStateMachine);
  return s.value as TxnState;
}
