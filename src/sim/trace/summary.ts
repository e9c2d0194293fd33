/**
 * The run as one JSON document (`npm run sim -- <scenario> --json`), documented in
 * docs/trace-format.md: partitions with every record, groups with committed offsets, what each
 * consumer received, the errors each client saw, the side effects, and the verdict — as of the end
 * of the run or of any step.
 */
import { queriesOfIndex } from '../checks/indexQueriesOfIndex';
import { computeVerdict, type Verdict, type VerdictInput, type VerdictView, verdictOfIndex, verdictView } from '../checks/verdict';
import type { ConsumerContext } from '../consumer/consumer.machine';
import { CONTROLLER_ID } from '../controller/controller.machine';
import type { TraceStep } from '../kernel/simulation';
import { stateValueToString } from '../kernel/stateValue';
import type { Headers } from '../log/recordBatch';
import { type SimView, stateAt, type Trace } from '../run';
import { streamsInternalTopics } from '../scenario/build';
import type { Scenario } from '../scenario/schema';
import type { StreamThreadContext } from '../streams/streamThread.machine';
import { type Store, storesByTask } from '../streams/streamThreadContext';
import { coordinatorGroups } from './coordinatorGroups';
import { type PartitionRow, partitionHeads, partitionRows, partitionRowsOf } from './logView';
import type { Truncations } from './replicationView';
import { intendedSendsOf, stoppedAt, verdictAppsOf, verdictConsumersOf, writersOf } from './verdictInput';
import { ViewAccumulators } from './viewAccumulators';

export interface TraceSummary {
  readonly scenario: Scenario;
  readonly traceHash: string;
  readonly steps: number;
  /** The step this summary describes (steps = the whole run). */
  readonly atStep: number;
  readonly time: number;
  readonly stopReason: string;
  /** For 'livelock' and 'invalid-time': what the kernel saw. */
  readonly stopDetail: string | null;
  readonly partitions: readonly PartitionRow[];
  readonly groups: readonly {
    groupId: string;
    generation: number;
    state: string;
    members: readonly string[];
    committed: Readonly<Record<string, number>>;
    pendingTransactionalOffsets: readonly { producerId: number; offsets: Readonly<Record<string, number>> }[];
  }[];
  readonly consumers: readonly {
    id: string;
    groupId: string | null;
    isolationLevel: string;
    state: string;
    positions: Readonly<Record<string, number>>;
    received: readonly { topic: string; partition: number; offset: number; key: string | null; value: string | null; headers: Headers }[];
  }[];
  readonly clients: readonly { id: string; errors: readonly string[]; notes: readonly string[] }[];
  readonly sideEffects: readonly { sink: string; effect: string; eventId: string | null; app: string; applied: boolean; step: number }[];
  /** Kafka Streams clients: their guarantee and each task's state store (count per key), by task id (`0_2`). */
  readonly streams: readonly { id: string; processingGuarantee: string; state: string; stores: Readonly<Record<string, Store>> }[];
  readonly verdict: Verdict;
}

/** Topics that carry no business events (Kafka Streams' changelog and repartition topics): the verdict leaves them out. */
export function eventlessTopicsOf(trace: Pick<Trace, 'resolved'>): Set<string> {
  return new Set(streamsInternalTopics(trace.resolved).map((t) => t.name));
}

export function outputTopicsOf(s: Scenario): string[] {
  const out = new Set<string>();
  for (const c of s.clients) {
    if (c.type === 'consumer' && c.processing?.outputTopic) out.add(c.processing.outputTopic);
    if (c.type === 'streams') out.add(c.outputTopic);
  }
  for (const k of s.sinks ?? []) if (k.type === 'outbox' && k.topic) out.add(k.topic);
  return [...out];
}

const EMPTY: readonly never[] = Object.freeze([]);
/**
 * A step as the verdict reads it: its index, time and facts (and, when known, its actor and kind);
 * the rest left empty. Views and fast runs hand the verdict only the steps that have facts.
 */
export function factStep(
  i: number,
  t: number,
  facts: TraceStep['facts'],
  actor: TraceStep['actor'] = '',
  kind: TraceStep['kind'] = 'call',
): TraceStep {
  return {
    i,
    t,
    actor,
    kind,
    label: '',
    from: null,
    envelope: null,
    detail: null,
    before: '',
    after: '',
    sent: EMPTY,
    facts,
    faults: EMPTY,
  };
}

const accumulators = new WeakMap<Trace, ViewAccumulators>();

/** The accumulators a trace's views read (./viewAccumulators): made on the first view, kept with the trace. */
export function accumulatorsOf(trace: Trace): ViewAccumulators {
  let a = accumulators.get(trace);
  if (!a) {
    a = new ViewAccumulators(trace, eventlessTopicsOf(trace), verdictAppsOf(trace), writersOf(trace.scenario));
    accumulators.set(trace, a);
  }
  return a;
}

/**
 * The records truncation cut from replicas in the steps before `step`, per "topic-partition", for
 * partitionRows / the lanes (empty at once for a run whose partitions have one replica each).
 */
export function truncationsAt(trace: Trace, step: number): Truncations {
  if (!trace.built.specs.some((s) => s.id === CONTROLLER_ID)) return NO_TRUNCATIONS;
  return accumulatorsOf(trace).truncationsBefore(step);
}

const NO_TRUNCATIONS: Truncations = new Map();

/** What the verdict reads of a run besides its steps: the scenario and how it was built. */
export type VerdictSource = Pick<Trace, 'scenario' | 'resolved' | 'built'>;

/**
 * The verdict at the step `view` shows, from the steps up to it (only their facts, times and
 * indexes are read: fast mode hands over just the steps that have facts). `scenarioPart`: what the
 * verdict reads of the scenario alone, made once by the caller for many runs of one configuration
 * (the search's schedules: their faults change none of it).
 */
export function verdictAt(
  trace: VerdictSource,
  steps: readonly TraceStep[],
  view: SimView,
  groups: readonly { groupId: string; committed: Readonly<Record<string, number>> }[] = groupsOf(view),
  final = true,
  scenarioPart: VerdictScenarioPart = verdictScenarioPart(trace),
): Verdict {
  return computeVerdict({ steps, ...verdictInput(trace, partitionRows(view.actors), view, groups, final, scenarioPart) });
}

/** What the verdict reads of the scenario alone: its readers, applications, writers, sinks, intended sends, output and ignored topics. */
export type VerdictScenarioPart = Pick<
  VerdictInput,
  'consumers' | 'apps' | 'writers' | 'sinks' | 'intendedSends' | 'outputTopics' | 'ignoredTopics'
>;

export function verdictScenarioPart(trace: Pick<Trace, 'scenario' | 'resolved'>): VerdictScenarioPart {
  const s = trace.scenario;
  return {
    consumers: verdictConsumersOf(trace),
    apps: verdictAppsOf(trace),
    writers: writersOf(s),
    sinks: (s.sinks ?? []).map((k) => k.id),
    intendedSends: intendedSendsOf(s),
    outputTopics: outputTopicsOf(s),
    ignoredTopics: [...eventlessTopicsOf(trace)],
  };
}

/** What the verdict reads besides the facts: the logs, the scenario's readers, writers and sinks, the groups. */
function verdictInput(
  trace: VerdictSource,
  partitions: readonly PartitionRow[],
  view: SimView,
  groups: readonly { groupId: string; committed: Readonly<Record<string, number>> }[],
  final: boolean,
  scenarioPart: VerdictScenarioPart = verdictScenarioPart(trace),
): Omit<VerdictInput, 'steps'> {
  return {
    partitions,
    consumers: scenarioPart.consumers,
    apps: scenarioPart.apps,
    writers: scenarioPart.writers,
    sinks: scenarioPart.sinks,
    intendedSends: scenarioPart.intendedSends,
    stopped: stoppedAt(trace, view),
    outputTopics: scenarioPart.outputTopics,
    groups: groups.map((g) => ({ groupId: g.groupId, committed: g.committed })),
    ignoredTopics: scenarioPart.ignoredTopics,
    final,
  };
}

/**
 * The verdict at the step `view` shows, and nothing else of the summary: what the verdict panel, the
 * embed and the exported figure need (summarize also gathers every delivery and error, at about the
 * same cost again).
 */
export function verdictAtStep(trace: Trace, view: SimView): Verdict {
  return verdictWithRows(trace, view, partitionRows(view.actors));
}

/**
 * The verdict as the verdict panel, the embed and the exported figure show it at the step `view`
 * shows (the findings and counters, not the row of every event), in bounded time: the ledger's
 * answers as of the step (checks/journalQueries), or where it does not apply the index at the step
 * gathered in full.
 */
export function verdictViewAt(trace: Trace, view: SimView): VerdictView {
  const acc = accumulatorsOf(trace);
  // only the Streams stores' topics need their records here (checks/verdictStore.ts)
  const input = verdictInput(trace, storeRows(trace, view), view, groupsOf(view), view.step >= trace.steps.length);
  const q =
    acc.verdictQueriesAt(view.step, partitionHeads(view.actors)) ?? queriesOfIndex(acc.indexAt(view.step, partitionRows(view.actors)));
  return verdictView(q, input);
}

/** The partitions (with their records) of the topics the Streams counts' store checks read; none without Streams. */
function storeRows(trace: Trace, view: SimView): PartitionRow[] {
  const topics = new Set<string>();
  for (const a of verdictAppsOf(trace)) if (a.store) topics.add(a.store.changelogTopic).add(a.store.countedTopic);
  return topics.size ? partitionRowsOf(view.actors, topics) : [];
}

/** The verdict from the accumulators as of the view's step, and the logs at it. */
function verdictWithRows(trace: Trace, view: SimView, partitions: readonly PartitionRow[]): Verdict {
  const input = verdictInput(trace, partitions, view, groupsOf(view), view.step >= trace.steps.length);
  return verdictOfIndex(accumulatorsOf(trace).indexAt(view.step, partitions), input);
}

function groupsOf(view: SimView): { groupId: string; committed: Readonly<Record<string, number>> }[] {
  return Object.values(coordinatorGroups(view.actors))
    .sort((a, b) => (a.groupId < b.groupId ? -1 : 1))
    .map((g) => ({ groupId: g.groupId, committed: g.committed }));
}

/** The groups at the step `view` shows, as the summary lists them. */
export function groupsAt(view: SimView): TraceSummary['groups'] {
  return Object.values(coordinatorGroups(view.actors))
    .sort((a, b) => (a.groupId < b.groupId ? -1 : 1))
    .map((g) => ({
      groupId: g.groupId,
      generation: g.generationId,
      state: g.state,
      members: Object.keys(g.members).sort(),
      committed: g.committed,
      pendingTransactionalOffsets: g.pending,
    }));
}

/** Each consumer at the step (everything but what it received), in the scenario's order. */
export function consumersAt(trace: Trace, view: SimView) {
  return trace.scenario.clients
    .filter((c) => c.type === 'consumer')
    .map((c) => {
      const snap = view.actors.get(`${c.id}.consumer`);
      const ctx = snap?.context as ConsumerContext | undefined;
      return {
        id: c.id,
        groupId: ctx?.config['group.id'] ?? null,
        isolationLevel: ctx?.config['isolation.level'] ?? 'read_uncommitted',
        state: snap ? stateValueToString(snap.value) : 'null',
        positions: ctx?.positions ?? {},
      };
    });
}

/** Every client and sink id, with the notes the scenario's validation made about it. */
export function clientsOf(trace: Trace): { id: string; notes: string[] }[] {
  const s = trace.scenario;
  return [...s.clients.map((c) => c.id), ...(s.sinks ?? []).map((k) => k.id)].map((id) => ({
    id,
    notes: trace.resolved.notes
      .filter((n) => n.path.startsWith(`clients[${s.clients.findIndex((c) => c.id === id)}]`))
      .map((n) => n.message),
  }));
}

/** The Kafka Streams clients at the step: their guarantee and state store. */
export function streamsAt(trace: Trace, view: SimView): TraceSummary['streams'] {
  return trace.scenario.clients
    .filter((c) => c.type === 'streams')
    .map((c) => {
      const snap = view.actors.get(`${c.id}.app`);
      const ctx = snap?.context as StreamThreadContext | undefined;
      return {
        id: c.id,
        processingGuarantee: ctx?.guarantee ?? 'at_least_once',
        state: snap ? stateValueToString(snap.value) : '',
        stores: ctx ? storesByTask(ctx) : {},
      };
    });
}

export function summarize(trace: Trace, atStep: number = trace.steps.length, view: SimView = stateAt(trace, atStep)): TraceSummary {
  const step = view.step;
  const partitions = partitionRows(view.actors, truncationsAt(trace, step));
  const acc = accumulatorsOf(trace);
  const consumers = consumersAt(trace, view).map((c) => ({ ...c, received: acc.receivedBefore(c.id, step) }));
  const clients = clientsOf(trace).map(({ id, notes }) => ({ id, errors: acc.errorsBefore(id, step), notes }));
  return {
    scenario: trace.scenario,
    traceHash: trace.traceHash,
    steps: trace.steps.length,
    atStep: step,
    time: view.time,
    stopReason: trace.stopReason,
    stopDetail: trace.stopDetail ?? null,
    partitions,
    groups: groupsAt(view),
    consumers,
    clients,
    sideEffects: acc.sideEffectsBefore(step),
    streams: streamsAt(trace, view),
    verdict: verdictWithRows(trace, view, partitions),
  };
}
