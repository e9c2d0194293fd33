/**
 * Scenarios found by the fuzzer (shrunk by hand to their essence), kept as regression tests: each
 * must run without breaking an invariant. One that fails is an open engine bug — see the file's
 * `description`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatViolations, runChecked } from '../../src/sim/checks/invariants';
import { runScenario } from '../../src/sim/run';

const dir = join(import.meta.dirname, 'regressions');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('scenarios the fuzzer found', () => {
  it('there are some', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s keeps every invariant', (file) => {
    const scenario = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    expect(formatViolations(runChecked(scenario, { everyStep: true }).violations)).toBe('');
  });

  it('a pause at a point of the Streams loop still lets the run settle (the held timers stay cancellable)', () => {
    const scenario = JSON.parse(readFileSync(join(dir, 'pause-at-loop-point-settles.json'), 'utf8'));
    const trace = runScenario(scenario);
    expect(trace.stopReason).toBe('quiescent');
    expect(trace.endTime).toBeLessThan(150000);
  });
});
