/**
 * A run that reaches run.maxSteps says so, in the CLI too: how many steps it was allowed, and how to
 * run it further headless (`npm run sim -- … --max-steps <n>`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { maxStepsNotice, runScenario, withMaxSteps } from '../src/sim/run';

const opening = () => findPreset('opening-story')?.scenario as NonNullable<ReturnType<typeof findPreset>>['scenario'];

describe('run.maxSteps reached', () => {
  it('the notice names the limit and the headless command; a run that settled has none', () => {
    const cut = runScenario(withMaxSteps(opening(), 30));
    expect(cut.stopReason).toBe('max-steps');
    expect(cut.steps.length).toBe(30);
    const notice = maxStepsNotice(cut) ?? '';
    expect(notice).toContain('run.maxSteps = 30 steps');
    expect(notice).toContain('--max-steps');
    // what the scenario asks for, as the page's budget notice says it
    expect(notice).toContain(
      'The scenario asks for 1 topic (1 partition in all, at most 1 per topic), 2 clients (1 of them consumers or Streams applications), 1 record to send, run.maxSteps = 30.',
    );
    expect(maxStepsNotice(runScenario(opening()))).toBeNull();
  });

  it('the CLI takes --max-steps, prints the run so far, and says so on stderr', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'eos-')), 'opening.json');
    writeFileSync(file, JSON.stringify(opening()));
    const r = spawnSync('npx', ['tsx', 'cli/sim.ts', file, '--max-steps', '30'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('30 steps');
    expect(r.stdout).toContain('stopped: max-steps');
    expect(r.stderr).toContain('run.maxSteps = 30 steps');
    expect(r.stderr).toContain('The scenario asks for');
    const bad = spawnSync('npx', ['tsx', 'cli/sim.ts', file, '--max-steps', '0'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--max-steps needs a whole number');
  }, 60000);
});
