/** A recorded run keeps its checkpoints packed; unpacked, each is the state a run has at that step. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../src/sim/kernel/checkpoint';
import { PackedCheckpoint } from '../src/sim/kernel/packedCheckpoint';
import { Simulation } from '../src/sim/kernel/simulation';
import { PRESETS } from '../src/sim/presets';
import { finishTrace, runScenario, startRun, stateAt } from '../src/sim/run';
import { injectProcessFault } from '../src/sim/scenario/edits';
import { validateScenario } from '../src/sim/scenario/validate';
import { forkRun } from '../src/sim/trace/fork';
import { FAMILIES } from './properties/families';
import { cases, PROPERTY_SEED } from './properties/modelProperty';

const FIELDS = [
  'queue',
  'cancelled',
  'timerIndex',
  'foreground',
  'requestTimeouts',
  'network',
  'faultCounters',
  'openRequests',
  'processes',
  'actors',
] as const;

/**
 * The checkpoint's state; the queue in pop order (by time, then seq): a binary heap's array is one of
 * many layouts of the same queue (a restore or a stop's look at its top may leave another one).
 */
const unpacked = (cp: Checkpoint) =>
  Object.fromEntries(FIELDS.map((f) => [f, f === 'queue' ? [...cp.queue].sort((a, b) => a.time - b.time || a.seq - b.seq) : cp[f]]));

/** A recorded run that packs its checkpoints from `packFromStep` (a long run's behaviour, on a short one). */
function runPacking(scenario: unknown, packFromStep: number) {
  const v = validateScenario(scenario);
  if (!v.ok) throw new Error('invalid scenario');
  const { sim, built } = startRun(v.resolved);
  if (!sim.recorder) throw new Error('no recorder');
  sim.recorder.packFromStep = packFromStep;
  sim.run();
  return finishTrace(v.resolved, built, sim);
}

/** Every packed checkpoint of `trace` unpacks to the state a run from the start has there, and restores it. */
function expectCheckpointsFaithful(trace: ReturnType<typeof runPacking>): void {
  const cps = trace.checkpoints;
  const forward = Simulation.create(trace.built.specs, { ...trace.built.options, record: false });
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i] as Checkpoint;
    expect(cp).toBeInstanceOf(PackedCheckpoint);
    forward.run(cp.step);
    const beforeStop = forward.takeCheckpoint();
    // the last checkpoint is taken as the run stops (with the hash before the stop is folded in),
    // after the stop's look at the queue dropped the cancelled entries on its top: the forward run
    // stops too before its queue is compared
    const last = i === cps.length - 1 && trace.stopReason !== null;
    if (last) forward.step();
    const plain = last ? forward.takeCheckpoint() : beforeStop;
    expect(cp.step).toBe(plain.step);
    expect(cp.hash).toEqual(beforeStop.hash);
    expect(unpacked(cp)).toStrictEqual(unpacked(plain));
    // restored from the packed checkpoint, the run reaches the next one with the same hash and state
    const next = cps[i + 1];
    if (next) {
      const restored = Simulation.restore(trace.built.specs, { ...trace.built.options, record: false }, cp);
      restored.run(next.step);
      const at = restored.takeCheckpoint();
      expect(at.hash).toEqual(next.hash);
      if (i + 1 === cps.length - 1 && trace.stopReason !== null) restored.step();
      expect(unpacked(i + 1 === cps.length - 1 && trace.stopReason !== null ? restored.takeCheckpoint() : at)).toStrictEqual(
        unpacked(next),
      );
    }
  }
}

describe('packed checkpoints', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))(
    '%s: every checkpoint unpacks to the state a run has there, and restores it',
    (_id, preset) => expectCheckpointsFaithful(runPacking(preset.scenario, 0)),
  );

  it('a short run keeps its checkpoints as objects; from packFromStep on, all of them are packed', () => {
    const scenario = PRESETS.find((p) => p.id === 'late-duplicate-after-expiry')?.scenario;
    const short = runScenario(scenario);
    expect(short.steps.length).toBeLessThan(short.recorder.packFromStep);
    expect(short.checkpoints.some((cp) => cp instanceof PackedCheckpoint)).toBe(false);
    expect(short.recorder.checkpointBytes.length).toBe(0);
    const long = runPacking(scenario, 1000);
    const packed = long.checkpoints.map((cp) => cp instanceof PackedCheckpoint);
    expect(packed.every((p) => p)).toBe(true);
    expect(long.traceHash).toBe(short.traceHash);
    // a few bytes a step where the objects took ~90 (docs/architecture.md)
    const perStep = long.recorder.checkpointBytes.length / long.steps.length;
    expect(perStep).toBeGreaterThan(0);
    expect(perStep).toBeLessThan(30);
  });

  it.each(['ctp-exactly-once-crash', 'streams-eos-crash-restore', 'late-duplicate-after-expiry'])(
    '%s: a fork from packed checkpoints is the full rerun of the edited scenario',
    (id) => {
      const scenario = PRESETS.find((p) => p.id === id)?.scenario;
      const trace = runPacking(scenario, 0);
      const step = Math.floor((trace.steps.length * 2) / 3);
      const process = trace.built.processes[0]?.id;
      if (!process) throw new Error('no process');
      const outcome = injectProcessFault(trace.scenario, { trace, step, process, action: { type: 'crash', restartAfterMs: 400 } });
      if (!outcome.ok) throw new Error('the edit was refused');
      const v = validateScenario(outcome.scenario);
      if (!v.ok) throw new Error('invalid edited scenario');
      const fork = forkRun(trace, v.resolved, step);
      const full = runScenario(outcome.scenario);
      expect(fork.from).toBeGreaterThan(0);
      expect(fork.trace.traceHash).toBe(full.traceHash);
      expect(fork.trace.steps.length).toBe(full.steps.length);
      const probe = Math.floor((fork.from + full.steps.length) / 2);
      expect([...stateAt(fork.trace, probe).actors]).toEqual([...stateAt(full, probe).actors]);
    },
  );
  // consecutive checkpoints refer to what the one before wrote (stateCodec.ts): on random scenarios
  // of three families, a checkpoint every 16 steps, every one is still the state of a run from the start
  it.each([
    ['general', 12],
    ['replication', 6],
    ['streams-faults', 8],
  ] as const)('random %s scenarios: every packed checkpoint, a checkpoint every 16 steps, is the state a run has there', (family, runs) => {
    fc.assert(
      fc.property(FAMILIES[family].arb, (scenario) => {
        const every16 = { ...scenario, run: { ...scenario.run, checkpointEvery: 16 } };
        expectCheckpointsFaithful(runPacking(every16, 0));
      }),
      { numRuns: cases(runs), seed: PROPERTY_SEED },
    );
  });
});
