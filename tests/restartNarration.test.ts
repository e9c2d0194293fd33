/**
 * A process restarting after a crash fault: the sentence names the fault it ends as a quotation
 * (“…”), where it read “(the end of: billing crashes after …)”.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';

describe('a restart’s sentence', () => {
  it('names the fault it ends as a quotation, not “(the end of: …)”', () => {
    const preset = findPreset('at-least-once-consumer-crash');
    if (!preset) throw new Error('no at-least-once-consumer-crash');
    const trace = runScenario(preset.scenario);
    const restart = trace.steps.find((s) => s.kind === 'fault' && narrate(trace, s.i, 'en').includes('restarts as a new incarnation'));
    if (!restart) throw new Error('no restart');
    expect(narrate(trace, restart.i, 'en')).toBe(
      'billing restarts as a new incarnation, ending the fault “billing crashes after processing offset 1, before it commits”; answers meant for the old one will not reach it.',
    );
  });
});
