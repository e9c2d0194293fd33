/**
 * Per-instance charts: the states a coordinator keeps for each transactional.id (TransactionState)
 * and for each group (ClassicGroupState) are data in its context, each checked against a chart of
 * its own. These are the charts the page draws for the instance selected.
 */
import { classicGroupStateMachine } from '../coordinator/classicGroupState';
import { transactionStateMachine } from '../coordinator/transactionState';
import { type Chart, chartOf } from './chart';

export type InstanceKind = 'transactionalId' | 'group';

export interface InstanceChart {
  readonly kind: InstanceKind;
  /** The transactional.id or group.id. */
  readonly instance: string;
  readonly chart: Chart;
  readonly state: string;
}

let txnChart: Chart | null = null;
let groupChart: Chart | null = null;
export const transactionStateChart = (): Chart => {
  txnChart ??= chartOf(transactionStateMachine);
  return txnChart;
};
export const classicGroupChart = (): Chart => {
  groupChart ??= chartOf(classicGroupStateMachine);
  return groupChart;
};

/** The per-instance charts of an actor of kind `actorKind` (as the scenario builds it) in this context. */
export function instanceCharts(actorKind: string, context: unknown): InstanceChart[] {
  const ctx = context as Record<string, unknown> | undefined;
  if (!ctx) return [];
  if (actorKind === 'txn-coordinator') {
    const txns = (ctx.txns ?? {}) as Record<string, { state: string }>;
    return Object.entries(txns).map(([id, m]) => ({
      kind: 'transactionalId',
      instance: id,
      chart: transactionStateChart(),
      state: m.state,
    }));
  }
  if (actorKind === 'group-coordinator') {
    const groups = (ctx.groups ?? {}) as Record<string, { state: string }>;
    return Object.entries(groups).map(([id, g]) => ({ kind: 'group', instance: id, chart: classicGroupChart(), state: g.state }));
  }
  return [];
}
