/**
 * The one place the search runs the engine: `runSchedule(base, faults, parent?)` → verdict,
 * traceHash, an effect hash and, for enumerating the next fault, the run itself.
 *
 * A schedule extends its parent's by one fault that fires at a step after the parent's own: every
 * step before it is the parent's. So a schedule given its parent runs on from the parent's latest
 * checkpoint before that step (`startFork`, trace/fork.ts — the same forks an edit in the page
 * makes, property-tested against full runs), and keeps the parent's named points before it. Without
 * a parent (the root, shrinking), it runs in full. Nothing else in src/sim/search touches the kernel.
 */

import type { Verdict } from '../checks/verdict';
import type { StepRecord } from '../kernel/core';
import type { FactBase } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { StreamHash, stringHash } from '../kernel/hash';
import { NameTable } from '../kernel/nameTable';
import { KIND_CODE } from '../kernel/recorder';
import { Simulation, type TraceStep } from '../kernel/simulation';
import { finishTrace, type SimView, stateAt, type Trace } from '../run';
import { type BuiltScenario, buildScenario, withFaults } from '../scenario/build';
import type { FaultSpec, Scenario } from '../scenario/schema';
import { type ResolvedScenario, validateScenario } from '../scenario/validate';
import { startFork } from '../trace/fork';
import { factStep, type VerdictScenarioPart, verdictAt, verdictAtStep, verdictScenarioPart } from '../trace/summary';
import { RecordedTrace } from '../trace/trace';

/** A named point an application passed (afterPoll, afterProcess …) at a step, with its detail. */
export interface PointOccurrence {
  readonly step: number;
  readonly time: number;
  readonly actor: ActorId;
  readonly point: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

/** The configuration being searched: validated once, its scripted failures taken out. */
export interface SearchBase {
  readonly resolved: ResolvedScenario;
  /** Faults kept from the scenario (the log cleaner runs; with keepFaults, every scripted fault). */
  readonly fixedFaults: readonly FaultSpec[];
}

export interface ScheduleRun {
  readonly verdict: Verdict;
  readonly traceHash: string;
  /** A hash of what happened, without the faults' own labels: equal hashes, equal effect. */
  readonly effectHash: string;
  readonly steps: number;
  readonly endTime: number;
  readonly trace: Trace;
  readonly points: readonly PointOccurrence[];
  /** The step it ran on from, restored from its parent's checkpoint (0: it ran in full). */
  readonly forkedFrom: number;
}

/** Failures the search injects itself; the rest of a scenario's faults (runCleaner, resetOffsets, abortTransaction: operators' actions) are its workload. */
const INJECTED = new Set(['drop', 'delay', 'duplicate', 'reset', 'crash', 'restart', 'pause', 'resume', 'slowReplication']);

export class SearchBaseError extends Error {}

/** Validates a scenario and takes its scripted failures out (unless keepFaults): the configuration to break. */
export function prepareBase(input: unknown, options: { keepFaults?: boolean } = {}): SearchBase {
  const v = validateScenario(input);
  if (!v.ok) throw new SearchBaseError(v.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const faults = v.resolved.scenario.faults ?? [];
  const fixedFaults = options.keepFaults ? faults : faults.filter((f) => !INJECTED.has(f.type));
  return { resolved: v.resolved, fixedFaults };
}

/** The scenario a schedule runs: the configuration, its fixed faults, then the schedule's. */
export function scheduleScenario(base: SearchBase, faults: readonly FaultSpec[]): Scenario {
  return { ...base.resolved.scenario, faults: [...base.fixedFaults, ...faults] };
}

/** Records the named points each application passes (the kernel's point listener; not in the trace). */
function listenToPoints(sim: Simulation, out: PointOccurrence[]): void {
  sim.pointListener = (actor, point, detail) => out.push({ step: sim.stepIndex, time: sim.now, actor, point, detail });
}

/**
 * Folds one step (at virtual time `t`) into an effect hash: its actor, kind, label, states, how many
 * envelopes it sent, faults and facts, and the facts — not a fault's own wording (its first two
 * words: "drop Produce", "crash app-1"), nor envelope ids (one duplicate shifts every later id).
 * Names are folded by their content hashes (`stringHash`), which the kernel computed once per name
 * for the traceHash: fast mode hands them over with each step (`stepSink`).
 */
function foldEffect(h: StreamHash, t: number, s: StepRecord, actor: number, label: number, before: number, after: number): void {
  h.num(t)
    .int(actor)
    .int(KIND_CODE[s.kind])
    .int(s.kind === 'fault' ? stringHash(s.label.split(' ', 2).join(' ')) : label)
    .int(before)
    .int(after)
    .int(s.sent.length)
    .int(s.faults.length)
    .int(s.facts.length);
  const facts = s.facts;
  for (let i = 0; i < facts.length; i++) h.value(facts[i]);
}

/** Folds a recorded step, hashing its names as the kernel does (once per name, in `names`). */
function foldRecorded(h: StreamHash, names: NameTable, s: TraceStep): void {
  const hs = names.hashes;
  foldEffect(
    h,
    s.t,
    s,
    hs[names.id(s.actor)] as number,
    hs[names.id(s.label)] as number,
    hs[names.id(s.before)] as number,
    hs[names.id(s.after)] as number,
  );
}

/** Folds the steps into a hash that leaves out fault labels (two faults with one effect hash alike). */
export function effectHashOf(steps: Iterable<TraceStep>): string {
  const h = new StreamHash();
  const names = new NameTable(stringHash);
  for (const s of steps) foldRecorded(h, names, s);
  return h.digest();
}

/** The run a schedule extends, and the step its one more fault fires at (every step before it is the parent's). */
export interface ScheduleParent {
  readonly run: ScheduleRun;
  readonly step: number;
}

/**
 * A search's runs keep a checkpoint this often (the page's default is every 256 steps): a schedule
 * forks from its parent's last checkpoint before its new fault, so dense checkpoints leave little
 * to run again. Checkpoints never change a run (every preset's traceHash is the same with either
 * interval), and links are made from the configuration, not from these runs.
 */
export const SEARCH_CHECKPOINT_EVERY = 16;

/** The scenario a schedule runs, as the search runs it (a checkpoint every SEARCH_CHECKPOINT_EVERY steps). */
function searchScenario(base: SearchBase, faults: readonly FaultSpec[]): { scenario: Scenario; resolved: ResolvedScenario } {
  const scheduled = scheduleScenario(base, faults);
  const scenario: Scenario = { ...scheduled, run: { ...scheduled.run, checkpointEvery: SEARCH_CHECKPOINT_EVERY } };
  return { scenario, resolved: { ...base.resolved, scenario } };
}

/** What every schedule of one configuration shares: its build, and what the verdict reads of its scenario. */
export interface Configuration {
  readonly built: BuiltScenario;
  readonly verdictPart: VerdictScenarioPart;
}

const configurations = new WeakMap<SearchBase, Configuration>();

/** The configuration's build and verdict part, made on the first schedule of `base` and kept with it. */
export function configurationOf(base: SearchBase): Configuration {
  let c = configurations.get(base);
  if (!c) {
    const { resolved } = searchScenario(base, []);
    c = { built: buildScenario(resolved), verdictPart: verdictScenarioPart({ scenario: resolved.scenario, resolved }) };
    configurations.set(base, c);
  }
  return c;
}

/**
 * A schedule's scenario built: the configuration is built once per search (its actors' specs, the
 * cluster's metadata, the kernel's options) and each schedule only puts its faults in (withFaults:
 * the faults are all a schedule changes of a build). tests/search/builtWithFaults.test.ts holds it
 * equal to building the schedule's scenario.
 */
export function scheduleBuild(base: SearchBase, scenario: Scenario): BuiltScenario {
  return withFaults(configurationOf(base).built, scenario.faults ?? []);
}

export function runSchedule(base: SearchBase, faults: readonly FaultSpec[], parent?: ScheduleParent): ScheduleRun {
  const { scenario, resolved } = searchScenario(base, faults);
  const prebuilt = scheduleBuild(base, scenario);
  const started =
    parent && parent.run.trace instanceof RecordedTrace
      ? startFork(parent.run.trace, resolved, parent.step, { built: prebuilt })
      : { sim: Simulation.create(prebuilt.specs, prebuilt.options), built: prebuilt, from: 0 };
  const { sim, built, from } = started;
  // the points of the steps the fork did not run again are the parent's (a point carries the index
  // of the step that passed it)
  const points: PointOccurrence[] = from > 0 && parent ? parent.run.points.filter((p) => p.step < from) : [];
  listenToPoints(sim, points);
  sim.run();
  const trace = finishTrace(resolved, built, sim);
  const verdict = verdictAtStep(trace, stateAt(trace, trace.steps.length));
  return {
    verdict,
    traceHash: trace.traceHash,
    effectHash: effectHashOf(trace.steps),
    steps: trace.steps.length,
    endTime: trace.endTime,
    trace,
    points,
    forkedFrom: from,
  };
}

/** What a schedule's run says without its trace: enough to judge it and to collapse it with another. */
export type ScheduleVerdict = Pick<ScheduleRun, 'verdict' | 'traceHash' | 'effectHash' | 'steps' | 'endTime' | 'forkedFrom'>;

/** What a fast fork of a parent needs from it: its steps with facts, and its effect hash at each checkpoint. */
interface ParentPrefix {
  readonly factSteps: readonly TraceStep[];
  readonly effectAt: ReadonlyMap<number, readonly [number, number]>;
}

const prefixes = new WeakMap<ScheduleRun, ParentPrefix>();

function prefixOf(run: ScheduleRun): ParentPrefix {
  let p = prefixes.get(run);
  if (p) return p;
  const at = new Set(run.trace.checkpoints.map((c) => c.step));
  const factSteps: TraceStep[] = [];
  const effectAt = new Map<number, readonly [number, number]>();
  const h = new StreamHash();
  const names = new NameTable(stringHash);
  for (const s of run.trace.steps) {
    if (at.has(s.i)) effectAt.set(s.i, h.state);
    foldRecorded(h, names, s);
    if (s.facts.length > 0) factSteps.push(factStep(s.i, s.t, s.facts));
  }
  p = { factSteps, effectAt };
  prefixes.set(run, p);
  return p;
}

/**
 * A schedule in fast mode: the same run as `runSchedule` (forked from the same checkpoint of its
 * parent), recording nothing — the kernel's hash, the facts the verdict folds and the effect hash,
 * folded as the steps come, on top of the parent's at the checkpoint. For the schedules the search
 * only judges (every child; a parent is run again recorded when its own children are enumerated).
 * tests/search/runnerFork.test.ts: equal to a full recorded run of the same schedule.
 */
export function runScheduleFast(base: SearchBase, faults: readonly FaultSpec[], parent?: ScheduleParent): ScheduleVerdict {
  const { scenario, resolved } = searchScenario(base, faults);
  const prebuilt = scheduleBuild(base, scenario);
  const prefix = parent && parent.run.trace instanceof RecordedTrace ? prefixOf(parent.run) : null;
  const { sim, built, from } =
    parent && prefix
      ? startFork(parent.run.trace as RecordedTrace, resolved, parent.step, { record: false, built: prebuilt })
      : startFast(prebuilt);
  const effectState = from > 0 ? prefix?.effectAt.get(from) : undefined;
  const effect = effectState ? StreamHash.from(effectState) : new StreamHash();
  const factSteps: TraceStep[] = [];
  if (from > 0 && prefix) for (const s of prefix.factSteps) if (s.i < from) factSteps.push(s);
  sim.factSink = (i: number, t: number, facts: readonly FactBase[]) => {
    factSteps.push(factStep(i, t, facts));
  };
  sim.stepSink = (t, step, actor, label, before, after) => foldEffect(effect, t, step, actor, label, before, after);
  sim.run();
  const final: SimView = {
    step: sim.stepIndex,
    time: sim.now,
    actors: sim.actorSnapshots(),
    processes: sim.processStates(),
    // the envelopes in flight (the queue sorted) only if read: the verdict reads none
    get inFlight() {
      return sim.inFlight();
    },
  };
  // what the verdict reads of the scenario is the configuration's: made once per search
  const verdict = verdictAt({ scenario, resolved, built }, factSteps, final, undefined, sim.done, configurationOf(base).verdictPart);
  return { verdict, traceHash: sim.traceHash, effectHash: effect.digest(), steps: sim.stepIndex, endTime: sim.now, forkedFrom: from };
}

function startFast(built: BuiltScenario): { sim: Simulation; built: BuiltScenario; from: number } {
  return { sim: Simulation.create(built.specs, { ...built.options, record: false }), built, from: 0 };
}
