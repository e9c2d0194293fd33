/**
 * The summary as a view shows it at a step (docs/architecture.md, "Views as accumulators"): what
 * summarize gathers, in time bounded by what is shown — the partitions' offsets without their
 * records (read by range: partitionHeads, recordRows), and every list that grows with the run (the
 * records each consumer received, the errors each client saw, the side effects) as its length at the
 * step and one page of it, read from the accumulators. The verdict is verdictViewAt's.
 */
import type { PartitionHead } from '../checks/indexQueries';
import type { VerdictView } from '../checks/verdictTypes';
import type { SimView, Trace } from '../run';
import { partitionHeads } from './logView';
import { accumulatorsOf, clientsOf, consumersAt, groupsAt, streamsAt, type TraceSummary, verdictViewAt } from './summary';
import type { Page, ReceivedRow, SideEffectRow } from './viewAccumulators';

export interface SummaryView {
  readonly atStep: number;
  readonly time: number;
  readonly partitions: readonly PartitionHead[];
  readonly groups: TraceSummary['groups'];
  readonly consumers: readonly (Omit<TraceSummary['consumers'][number], 'received'> & { received: Page<ReceivedRow> })[];
  readonly clients: readonly { id: string; errors: Page<string>; notes: readonly string[] }[];
  readonly sideEffects: Page<SideEffectRow>;
  readonly streams: TraceSummary['streams'];
  readonly verdict: VerdictView;
}

/** Which page of each list: from `from` (null: the latest rows), `size` rows. */
export interface PageAsk {
  readonly from: number | null;
  readonly size: number;
}

export function summaryViewAt(trace: Trace, view: SimView, page: PageAsk = { from: null, size: 20 }): SummaryView {
  const step = view.step;
  const acc = accumulatorsOf(trace);
  return {
    atStep: step,
    time: view.time,
    partitions: partitionHeads(view.actors).map((p) => p.head),
    groups: groupsAt(view),
    consumers: consumersAt(trace, view).map((c) => ({ ...c, received: acc.receivedPage(c.id, step, page.from, page.size) })),
    clients: clientsOf(trace).map(({ id, notes }) => ({ id, errors: acc.errorsPage(id, step, page.from, page.size), notes })),
    sideEffects: acc.sideEffectsPage(step, page.from, page.size),
    streams: streamsAt(trace, view),
    verdict: verdictViewAt(trace, view),
  };
}
