/**
 * A classic consumer group's states and the transitions Kafka allows (ClassicGroupState's
 * validPreviousStates in Kafka 4.x, group-coordinator/…/classic/ClassicGroupState.java):
 *
 *   Empty               ← PreparingRebalance
 *   PreparingRebalance  ← Stable, CompletingRebalance, Empty
 *   CompletingRebalance ← PreparingRebalance
 *   Stable              ← CompletingRebalance
 *   Dead                ← Stable, PreparingRebalance, CompletingRebalance, Empty, Dead
 *
 * One chart per group, checked by classicGroup.ts's tests and drawn per group in the page. (A
 * coordinator that loads a group after a failover sets its state from the log, not by a transition.)
 */
import { setup } from 'xstate';
import type { GroupState } from './classicGroup';

export const GROUP_STATES = [
  'Empty',
  'PreparingRebalance',
  'CompletingRebalance',
  'Stable',
  'Dead',
] as const satisfies readonly GroupState[];

export const GROUP_VALID_PREVIOUS_STATES: Readonly<Record<GroupState, readonly GroupState[]>> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Stable', 'CompletingRebalance', 'Empty'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Stable', 'PreparingRebalance', 'CompletingRebalance', 'Empty', 'Dead'],
};

type GroupStateEvent = { type: GroupState };

/** One state node per Kafka state; an event named after a target state is accepted only from its valid previous states. */
export const classicGroupStateMachine = setup({ types: {} as { events: GroupStateEvent } }).createMachine({
  id: 'classicGroup',
  initial: 'Empty',
  states: Object.fromEntries(
    GROUP_STATES.map((from) => [
      from,
      {
        on: Object.fromEntries(
          GROUP_STATES.filter((to) => to !== from && GROUP_VALID_PREVIOUS_STATES[to].includes(from)).map((to) => [to, { target: to }]),
        ),
      },
    ]),
  ),
});

/** Whether Kafka allows a group in state `from` to move to `to`. */
export function canGroupTransition(from: GroupState, to: GroupState): boolean {
  return GROUP_VALID_PREVIOUS_STATES[to].includes(from);
}
