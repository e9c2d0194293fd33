import { findPreset } from '../../src/sim/presets';
import { keyOf } from '../../src/sim/protocol/topicPartition';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import type { PartitionRow, RecordRow } from '../../src/sim/trace/logView';
import { summarize, type TraceSummary } from '../../src/sim/trace/summary';

export interface PresetRun {
  readonly trace: Trace;
  readonly summary: TraceSummary;
  partition(name: string): PartitionRow;
  /** Data records (markers excluded) of a partition. */
  data(name: string): RecordRow[];
  received(consumer: string): { topic: string; partition: number; offset: number; key: string | null; headers: Record<string, string> }[];
  errors(client: string): readonly string[];
  facts<K extends Fact['kind']>(kind: K): Extract<Fact, { kind: K }>[];
  layer(layer: string, subject?: string | null): { status: string; sentence: string } | undefined;
}

export function runPreset(id: string): PresetRun {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  return runWith(preset.scenario);
}

/** The same views of any scenario's run. */
export function runWith(scenario: Scenario): PresetRun {
  const trace = runScenario(scenario);
  const summary = summarize(trace);
  const partition = (name: string) => {
    const p = summary.partitions.find((x) => keyOf(x) === name);
    if (!p) throw new Error(`no partition ${name}`);
    return p;
  };
  return {
    trace,
    summary,
    partition,
    data: (name) => partition(name).records.filter((r) => r.control === null),
    received: (consumer) => (summary.consumers.find((c) => c.id === consumer)?.received ?? []) as never,
    errors: (client) => summary.clients.find((c) => c.id === client)?.errors ?? [],
    facts: <K extends Fact['kind']>(kind: K) =>
      trace.steps.flatMap((s) => s.facts as Fact[]).filter((f): f is Extract<Fact, { kind: K }> => f.kind === kind),
    layer: (layer, subject) => summary.verdict.layers.find((l) => l.layer === layer && (subject === undefined || l.subject === subject)),
  };
}
