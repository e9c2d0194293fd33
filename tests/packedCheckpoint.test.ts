/** A recorded run keeps its checkpoints packed; unpacked, each is the state a run has at that step. */
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../src/sim/kernel/checkpoint';
import { PackedCheckpoint } from '../src/sim/kernel/packedCheckpoint';
import { Simulation } from '../src/sim/kernel/simulation';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';

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

const unpacked = (cp: Checkpoint) => Object.fromEntries(FIELDS.map((f) => [f, cp[f]]));

describe('packed checkpoints', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))(
    '%s: every checkpoint unpacks to the state a run has there, and restores it',
    (_id, preset) => {
      const trace = runScenario(preset.scenario);
      const cps = trace.checkpoints;
      const forward = Simulation.create(trace.built.specs, { ...trace.built.options, record: false });
      for (let i = 0; i < cps.length; i++) {
        const cp = cps[i] as Checkpoint;
        expect(cp).toBeInstanceOf(PackedCheckpoint);
        forward.run(cp.step);
        const plain = forward.takeCheckpoint();
        expect(cp.step).toBe(plain.step);
        expect(cp.hash).toEqual(plain.hash);
        expect(unpacked(cp)).toStrictEqual(unpacked(plain));
        // restored from the packed checkpoint, the run reaches the next one with the same hash and state
        const next = cps[i + 1];
        if (next) {
          const restored = Simulation.restore(trace.built.specs, { ...trace.built.options, record: false }, cp);
          restored.run(next.step);
          const at = restored.takeCheckpoint();
          expect(at.hash).toEqual(next.hash);
          expect(unpacked(at)).toStrictEqual(unpacked(next));
        }
      }
    },
  );

  it('keeps a few bytes per step on a long run', () => {
    const preset = PRESETS.find((p) => p.id === 'throughput-exactly-once');
    const trace = runScenario(preset?.scenario);
    const perStep = trace.recorder.checkpointBytes.length / trace.steps.length;
    expect(perStep).toBeGreaterThan(0);
    expect(perStep).toBeLessThan(30);
  });
});
