/**
 * Forks: an edit at step k runs on from the checkpoint before k instead of from the start.
 *
 * An edit (trace/edits.ts) changes the scenario, never the steps before the step it is made at.
 * When the edited scenario differs from the recorded one only by faults it adds — timed faults
 * (crash, restart, pause, resume, a signal) and envelope faults (drop, delay, duplicate, reset) —
 * the edited run's state at a checkpoint is the recorded one's, plus what those faults put there
 * from the start: a queue entry for each new timed fault and a match counter for each new envelope
 * fault. `rebase` adds them (and renumbers the recorded faults, whose ids the edit may shift), so
 * the fork restores the latest checkpoint at or before k where no new fault has acted yet, keeps the
 * recorded steps and envelopes before it (sharing the recorder's name and value tables), and runs
 * on. Anything else (clients, scripts, configuration, a removed fault, a point fault) runs in full.
 * tests/properties/fork.property.test.ts: a fork's traceHash equals a full run of the edited scenario.
 */
import type { Checkpoint } from '../kernel/checkpoint';
import type { Queued } from '../kernel/eventQueue';
import type { EnvelopeFault, KernelFault, TimedFault } from '../kernel/faults';
import { envelopeMatches } from '../kernel/faults';
import { PackedCheckpoint, type PackedPart } from '../kernel/packedCheckpoint';
import type { QueueItem } from '../kernel/queueItem';
import { Simulation } from '../kernel/simulation';
import type { KernelOptions } from '../kernel/types';
import { type BuiltScenario, buildScenario } from '../scenario/build';
import type { ResolvedScenario } from '../scenario/validate';
import { RecordedTrace } from './trace';

export interface Fork {
  readonly trace: RecordedTrace;
  /** The step the fork ran on from (0: the edited scenario ran in full). */
  readonly from: number;
}

/** How the edited scenario's faults relate to the recorded ones; null when a fork cannot reuse the run. */
interface FaultPlan {
  /** Recorded fault id → the same fault's id in the edited scenario. */
  readonly idMap: ReadonlyMap<number, number>;
  readonly newTimed: readonly { fault: TimedFault; seq: number }[];
  readonly newEnvelope: readonly EnvelopeFault[];
}

const content = (f: KernelFault): string => JSON.stringify({ ...f, id: 0 });

function sameRun(a: BuiltScenario, b: BuiltScenario): boolean {
  if (a.specs.length !== b.specs.length) return false;
  for (let i = 0; i < a.specs.length; i++) {
    const x = a.specs[i];
    const y = b.specs[i];
    if (!x || !y || x.id !== y.id || x.kind !== y.kind || x.logic !== y.logic || x.boot !== y.boot || x.bootAt !== y.bootAt) return false;
    if (x.input !== y.input && inputText(x.input) !== inputText(y.input)) return false;
  }
  return sameOptions(a.options, b.options) || optionsText(a) === optionsText(b);
}

/** The same options but for the faults, field by field (a search's schedules share them with its configuration). */
function sameOptions(a: KernelOptions, b: KernelOptions): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof KernelOptions)[];
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (k !== 'faults' && a[k] !== b[k]) return false;
  return true;
}

/**
 * JSON texts of a built scenario's parts, made once per object: a search forks hundreds of
 * schedules from one recorded run, whose specs and options (never changed once built) were
 * stringified again for every fork.
 */
const inputTexts = new WeakMap<object, string>();
const optionTexts = new WeakMap<BuiltScenario, string>();

function inputText(input: unknown): string {
  if (typeof input !== 'object' || input === null) return JSON.stringify(input);
  let text = inputTexts.get(input);
  if (text === undefined) {
    text = JSON.stringify(input);
    inputTexts.set(input, text);
  }
  return text;
}

function optionsText(built: BuiltScenario): string {
  let text = optionTexts.get(built);
  if (text === undefined) {
    text = JSON.stringify({ ...built.options, faults: null });
    optionTexts.set(built, text);
  }
  return text;
}

/**
 * Pairs every recorded fault with an equal one of the edited scenario, in order; the edited
 * scenario's others are new. A new timed fault gets a queue seq in the order a full run would have
 * given it relative to the others (create() queues boots, then timed faults in list order, before
 * anything queued while running): a fraction between its neighbours' seqs, since only the order of
 * seqs matters.
 */
function planFaults(base: BuiltScenario, start: Checkpoint, edited: BuiltScenario): FaultPlan | null {
  const unmatched = new Map<string, KernelFault[]>();
  for (const f of base.options.faults) {
    const k = content(f);
    unmatched.set(k, [...(unmatched.get(k) ?? []), f]);
  }
  const idMap = new Map<number, number>();
  const fresh: KernelFault[] = [];
  for (const f of edited.options.faults) {
    const list = unmatched.get(content(f));
    const old = list?.shift();
    if (old) idMap.set(old.id, f.id);
    else fresh.push(f);
  }
  if (idMap.size !== base.options.faults.length) return null;
  if (fresh.some((f) => f.kind === 'point')) return null;
  // the seqs create() gave the recorded run's boots and timed faults, as its first checkpoint holds
  // them (in a fork of a fork some are fractions already); run-time seqs start at its `seq`
  const baseSeq = new Map<number, number>();
  let prev = -1;
  for (const q of start.queue as Queued<QueueItem>[]) {
    if (q.item.kind === 'fault') baseSeq.set(q.item.fault, q.seq);
    else if (q.item.kind === 'boot') prev = Math.max(prev, q.seq);
  }
  let last = prev;
  const newTimed: { fault: TimedFault; seq: number }[] = [];
  let run: TimedFault[] = [];
  const flush = (next: number) => {
    for (let j = 0; j < run.length; j++)
      newTimed.push({ fault: run[j] as TimedFault, seq: prev + ((next - prev) * (j + 1)) / (run.length + 1) });
    run = [];
  };
  const reverse = new Map([...idMap].map(([a, b]) => [b, a]));
  for (const f of edited.options.faults) {
    if (f.kind !== 'timed') continue;
    const old = reverse.get(f.id);
    if (old === undefined) {
      run.push(f);
      continue;
    }
    const seq = baseSeq.get(old);
    if (seq === undefined || seq < last) return null;
    last = seq;
    flush(seq);
    prev = seq;
  }
  flush(start.seq);
  return { idMap, newTimed, newEnvelope: fresh.filter((f): f is EnvelopeFault => f.kind === 'envelope') };
}

/**
 * For each new envelope fault, how many envelopes it matched before each envelope id (its counter
 * when that many envelopes had been sent). The payload is read (replayed) only for a fault that
 * matches on payload values.
 */
function matchCounts(base: RecordedTrace, faults: readonly EnvelopeFault[]): Map<number, Uint32Array> {
  const out = new Map<number, Uint32Array>();
  const n = base.recorder.envelopeCount;
  for (const f of faults) {
    const counts = new Uint32Array(n + 1);
    for (let id = 0; id < n; id++) {
      const row = base.recorder.envelopeRow(id);
      // the payload (a replay) only for a fault that looks into it
      const payload = row && f.match.where !== undefined ? (base.envelopes.at(id)?.payload ?? {}) : {};
      const hit = row ? envelopeMatches(f.match, { rpc: row.rpc, from: row.from, to: row.to, payload }) : false;
      counts[id + 1] = (counts[id] as number) + (hit ? 1 : 0);
    }
    out.set(f.id, counts);
  }
  return out;
}

const countersAt = (counts: ReadonlyMap<number, Uint32Array>, envelopeCounter: number): Map<number, number> =>
  new Map([...counts].map(([id, c]) => [id, c[Math.min(envelopeCounter, c.length - 1)] as number]));

/** A recorded checkpoint in the edited scenario's terms (see the module comment). */
function rebase(cp: Checkpoint, plan: FaultPlan, counters: ReadonlyMap<number, number>): Checkpoint {
  // a run with a fault still to come never waits for quiet
  const quietDeadline = plan.newTimed.length > 0 ? null : cp.quietDeadline;
  // a packed checkpoint stays packed: the fork unpacks the one it restores, when it reads it
  if (cp instanceof PackedCheckpoint) return cp.derive({ quietDeadline }, (p) => rebasePart(p, plan, counters));
  return { ...cp, ...rebasePart(cp, plan, counters), quietDeadline };
}

function rebasePart(cp: PackedPart, plan: FaultPlan, counters: ReadonlyMap<number, number>): PackedPart {
  // written out, not spread: queue entries and items made as the kernel makes them have its hidden
  // classes, and the kernel's code is not thrown away (and compiled again) on meeting others
  const remap = (q: Queued<QueueItem>): Queued<QueueItem> =>
    q.item.kind === 'fault'
      ? { time: q.time, seq: q.seq, item: { kind: 'fault', fault: plan.idMap.get(q.item.fault) as number, fg: true } }
      : q;
  const queue = (cp.queue as Queued<QueueItem>[]).map(remap);
  const foreground = [...cp.foreground];
  for (const { fault, seq } of plan.newTimed) {
    queue.push({ time: fault.at, seq, item: { kind: 'fault', fault: fault.id, fg: true } });
    foreground.push(seq);
  }
  const faultCounters: [number, number][] = cp.faultCounters.map(([id, n]) => [plan.idMap.get(id) as number, n]);
  for (const [id, n] of counters) if (n > 0) faultCounters.push([id, n]);
  return {
    ...cp,
    // a heap's order holds for any array sorted by (time, seq)
    queue: queue.sort((a, b) => a.time - b.time || a.seq - b.seq),
    foreground,
    faultCounters,
    processes: cp.processes.map(([id, p]) => [id, { ...p, deferred: (p.deferred as Queued<QueueItem>[]).map(remap) }]),
  };
}

/** A fork under way: run `sim` on (in slices, if need be), then `finishTrace(edited, built, sim)`. */
export interface StartedFork {
  readonly sim: Simulation;
  readonly built: BuiltScenario;
  /** The step it runs on from (0: the edited scenario runs in full). */
  readonly from: number;
}

/**
 * The edited scenario, restored at the latest checkpoint at or before `atStep` it shares with `base`.
 * With `record: false` it records nothing (fast mode: the search's schedules), from the start or the checkpoint.
 */
export function startFork(
  base: RecordedTrace,
  edited: ResolvedScenario,
  atStep: number,
  options: { record?: boolean; built?: BuiltScenario } = {},
): StartedFork {
  // `built`: the edited scenario already built (the search's schedules: scenario/build.ts withFaults)
  const recorded = options.built ?? buildScenario(edited);
  const built = options.record === false ? { ...recorded, options: { ...recorded.options, record: false } } : recorded;
  const plan = sameRun(base.built, recorded) ? planFaults(base.built, base.checkpoints[0] as Checkpoint, recorded) : null;
  let chosen = -1;
  const counts = plan ? matchCounts(base, plan.newEnvelope) : new Map<number, Uint32Array>();
  if (plan) {
    const cps = base.checkpoints;
    for (let i = cps.length - 1; i >= 0; i--) {
      const cp = cps[i] as Checkpoint;
      if (cp.step > atStep) continue;
      if (plan.newTimed.some(({ fault }) => fault.at <= cp.now)) continue;
      const c = countersAt(counts, cp.envelopeCounter);
      if (plan.newEnvelope.some((f) => (c.get(f.id) as number) >= f.nth)) continue;
      chosen = i;
      break;
    }
  }
  if (!plan || chosen <= 0) return { sim: Simulation.create(built.specs, built.options), built, from: 0 };
  // without a recorder only the checkpoint it starts from is needed
  const kept = options.record === false ? [base.checkpoints[chosen] as Checkpoint] : base.checkpoints.slice(0, chosen + 1);
  const cps = kept.map((cp) => rebase(cp, plan, countersAt(counts, cp.envelopeCounter)));
  const at = cps[cps.length - 1] as Checkpoint;
  if (options.record === false) return { sim: Simulation.restore(built.specs, built.options, at), built, from: at.step };
  const recorder = base.recorder.prefix(at.step, at.envelopeCounter, cps);
  return { sim: Simulation.restore(built.specs, built.options, at, recorder), built, from: at.step };
}

/** Runs the edited scenario from the latest checkpoint at or before `atStep` that it shares with `base`. */
export function forkRun(base: RecordedTrace, edited: ResolvedScenario, atStep: number): Fork {
  const { sim, built, from } = startFork(base, edited, atStep);
  sim.run();
  if (!sim.done) sim.takeCheckpoint();
  return { trace: new RecordedTrace(edited, built, sim), from };
}
