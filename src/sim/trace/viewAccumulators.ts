/**
 * The accumulators a trace's views read (docs/architecture.md, "Views as accumulators"): the
 * verdict's index (../checks/indexJournal) and what the summary lists from the facts (what each
 * consumer received, the errors each client saw, the side effects). Folded once per trace, step by
 * step, as far as a view has asked; every list is append-only and in step order, so the
 * accumulator as of any step is a prefix of each list, found by binary search. A view change
 * refolds nothing: it reads prefixes and joins them with the state at the step.
 */
import { IndexJournal, stepsBefore } from '../checks/indexJournal';
import type { IndexQueries, PartitionHead } from '../checks/indexQueries';
import { journalQueries } from '../checks/journalQueries';
import type { RunIndex } from '../checks/verdictIndex';
import { type LedgerApp, type LedgerWriter, VerdictLedger } from '../checks/verdictLedger';
import type { PartitionLog } from '../log/partitionLog';
import type { RecordForApp } from '../protocol/messages';
import type { Trace } from '../run';
import type { Fact } from './facts';
import type { PartitionRow } from './logView';
import type { Truncations } from './replicationView';
import { RecordedTrace } from './trace';
import { TruncationJournal } from './truncationJournal';

/** A record a consumer received, as the summary lists it. */
export type ReceivedRow = RecordForApp;

export interface SideEffectRow {
  readonly sink: string;
  readonly effect: string;
  readonly eventId: string | null;
  readonly app: string;
  readonly applied: boolean;
  readonly step: number;
}

/** A list in step order, with the step of each entry beside it. */
class StepList<T> {
  readonly steps: number[] = [];
  readonly items: T[] = [];
  add(step: number, item: T): void {
    this.steps.push(step);
    this.items.push(item);
  }
  /** The entries of the steps before `step` (a new array). */
  before(step: number): T[] {
    return this.items.slice(0, stepsBefore(this.steps, step));
  }

  /** How many entries the steps before `step` made, and those from `from` (the latest `size` when null), at most `size`. */
  page(step: number, from: number | null, size: number): Page<T> {
    const count = stepsBefore(this.steps, step);
    const start = Math.max(0, Math.min(from ?? count - size, count));
    return { count, from: start, rows: this.items.slice(start, Math.min(count, start + size)) };
  }
}

/** A list as a view shows it: how long it is at the step, and one page of it. */
export interface Page<T> {
  readonly count: number;
  /** The place of the first row in the list. */
  readonly from: number;
  readonly rows: readonly T[];
}

const NONE = new StepList<never>();

function listOf<T>(map: Map<string, StepList<T>>, key: string): StepList<T> {
  let l = map.get(key);
  if (!l) {
    l = new StepList<T>();
    map.set(key, l);
  }
  return l;
}

export class ViewAccumulators {
  readonly index: IndexJournal;
  private readonly ledger: VerdictLedger;
  private readonly received = new Map<string, StepList<ReceivedRow>>();
  private readonly errors = new Map<string, StepList<string>>();
  private readonly effects = new StepList<SideEffectRow>();
  private readonly truncations = new TruncationJournal();
  /** Steps folded so far (the next one to fold). */
  private folded = 0;

  constructor(
    private readonly trace: Trace,
    ignored: ReadonlySet<string>,
    apps: readonly LedgerApp[] = [],
    writers: readonly LedgerWriter[] = [],
  ) {
    this.index = new IndexJournal(ignored);
    this.ledger = new VerdictLedger(this.index, apps, writers, trace.built.options.checkpointEvery);
  }

  /** Folds the steps up to `step` (exclusive) not folded yet. */
  foldTo(step: number): void {
    const to = Math.min(step, this.trace.steps.length);
    const t = this.trace;
    if (t instanceof RecordedTrace) {
      const r = t.recorder;
      for (let i = this.folded; i < to; i++) if (r.hasFacts(i)) this.fold(i, r.t[i] as number, r.factsAt(i));
    } else
      for (let i = this.folded; i < to; i++) {
        const s = t.steps.at(i);
        if (s && s.facts.length > 0) this.fold(i, s.t, s.facts);
      }
    this.folded = Math.max(this.folded, to);
  }

  private fold(i: number, t: number, facts: readonly unknown[]): void {
    this.index.fold(i, t, facts);
    this.ledger.fold(i, facts);
    this.truncations.fold(i, t, facts);
    for (const raw of facts) {
      const f = raw as Fact;
      if (f.kind === 'delivered')
        listOf(this.received, f.consumer).add(i, {
          topic: f.topic,
          partition: f.partition,
          offset: f.offset,
          key: f.key,
          value: f.value,
          headers: f.headers,
        });
      else if (f.kind === 'clientError') listOf(this.errors, f.client).add(i, f.error);
      else if (f.kind === 'sideEffect')
        this.effects.add(i, { sink: f.sink, effect: f.effect, eventId: f.eventId, app: f.app, applied: f.applied, step: i });
    }
  }

  /** The verdict's index as of `step`, with the logs at that step. */
  indexAt(step: number, partitions: readonly PartitionRow[]): RunIndex {
    this.foldTo(step);
    return this.index.indexAt(step, partitions);
  }

  /**
   * The verdict's questions as of `step`, answered in bounded time from the accumulators and the
   * logs at that step (`heads`: partitionHeads); null where the ledger does not apply (a record removed).
   */
  verdictQueriesAt(step: number, heads: readonly { head: PartitionHead; log: PartitionLog }[]): IndexQueries | null {
    this.foldTo(step);
    return journalQueries(this.index, this.ledger, step, heads);
  }

  /** The records truncation cut from replicas in the steps before `step`, per "topic-partition". */
  truncationsBefore(step: number): Truncations {
    this.foldTo(step);
    return this.truncations.before(step);
  }

  receivedBefore(consumer: string, step: number): ReceivedRow[] {
    this.foldTo(step);
    return (this.received.get(consumer) ?? NONE).before(step);
  }

  errorsBefore(client: string, step: number): string[] {
    this.foldTo(step);
    return (this.errors.get(client) ?? NONE).before(step);
  }

  sideEffectsBefore(step: number): SideEffectRow[] {
    this.foldTo(step);
    return this.effects.before(step);
  }

  /** The same lists by page: their length at the step and the rows from `from` (null: the latest). */
  receivedPage(consumer: string, step: number, from: number | null, size: number): Page<ReceivedRow> {
    this.foldTo(step);
    return (this.received.get(consumer) ?? NONE).page(step, from, size);
  }

  errorsPage(client: string, step: number, from: number | null, size: number): Page<string> {
    this.foldTo(step);
    return (this.errors.get(client) ?? NONE).page(step, from, size);
  }

  sideEffectsPage(step: number, from: number | null, size: number): Page<SideEffectRow> {
    this.foldTo(step);
    return this.effects.page(step, from, size);
  }
}
