/**
 * Worked cases: small scenarios whose outcome was derived by hand from Kafka's source (trunk of
 * October 2024, the 4.0 line) before they were run. Each file of tests/workedCases is one area;
 * each scenario is a JSON file in ./scenarios, so `npm run sim -- tests/workedCases/scenarios/<file>`
 * prints the same run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import { keyOf } from '../../src/sim/protocol/topicPartition';
import { type SimView, stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { type PartitionRow, partitionRows } from '../../src/sim/trace/logView';
import { type PresetRun, runWith } from '../presets/helpers';

export function scenario(file: string): Scenario {
  return JSON.parse(readFileSync(join(__dirname, 'scenarios', file), 'utf8')) as Scenario;
}

export interface WorkedRun extends PresetRun {
  /** The partition as it was after the last step at or before virtual time `t`. */
  partitionAt(name: string, t: number): PartitionRow;
  /** The whole simulation as it was after the last step at or before virtual time `t`. */
  viewAt(t: number): SimView;
  /** The index of the first step with a fact matching `match`, -1 when none. */
  stepOf(match: (f: Fact) => boolean): number;
  /** Virtual time of a step. */
  timeOf(step: number): number;
  /** A producer id as the client that got it (`a`, `a#2` for its second id), so cases do not depend on id allocation. */
  pidName(pid: number): string;
  /** Each record of a partition, in one line: `offset key|MARKER pid e<epoch> s<seq> [T]`. */
  log(name: string): string[];
  /** The coordinator's transitions of a transactional id, `from→to@epoch`. */
  txnStates(transactionalId: string): string[];
  /** Envelopes of an RPC (optionally from / to an actor), in send order. */
  rpcs(rpc: string, from?: string, to?: string): EnvelopeRecord[];
}

export function run(file: string, edit?: (s: Scenario) => Scenario): WorkedRun {
  const base = scenario(file);
  const r = runWith(edit ? edit(base) : base);
  const names = new Map<number, string>();
  for (const f of r.facts('producerId')) {
    if (names.has(f.producerId)) continue;
    const prior = [...names.values()].filter((n) => n === f.client || n.startsWith(`${f.client}#`)).length;
    names.set(f.producerId, prior === 0 ? f.client : `${f.client}#${prior + 1}`);
  }
  const pidName = (pid: number) => names.get(pid) ?? String(pid);
  const stepAtTime = (t: number) => {
    let i = 0;
    while (i < r.trace.steps.length && (r.trace.steps.at(i)?.t ?? 0) <= t) i++;
    return i;
  };
  return {
    ...r,
    partitionAt: (name, t) => {
      const p = partitionRows(stateAt(r.trace, stepAtTime(t)).actors).find((x) => keyOf(x) === name);
      if (!p) throw new Error(`no partition ${name}`);
      return p;
    },
    viewAt: (t) => stateAt(r.trace, stepAtTime(t)),
    stepOf: (match) => r.trace.steps.findIndex((s) => (s.facts as Fact[]).some(match)),
    timeOf: (step) => r.trace.steps.at(step)?.t ?? Number.NaN,
    pidName,
    log: (name) =>
      r
        .partition(name)
        .records.map(
          (x) =>
            `${x.offset} ${x.control ?? x.key} ${pidName(x.producerId)} e${x.producerEpoch} s${x.sequence}${x.transactional ? ' T' : ''}`,
        ),
    rpcs: (rpc, from, to) =>
      r.trace.envelopes.filter((e) => e.rpc === rpc && (from === undefined || e.from === from) && (to === undefined || e.to === to)),
    txnStates: (id) =>
      r
        .facts('txnState')
        .filter((f) => f.transactionalId === id)
        .map((f) => `${f.from}→${f.to}@${f.producerEpoch}`),
  };
}
