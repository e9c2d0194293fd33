/** `npm run search`: exit 1 on a counterexample, 0 on none, 2 on bad input; --json prints the answer. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) => spawnSync('npx', ['tsx', 'cli/search.ts', ...args], { encoding: 'utf8', cwd: process.cwd() });

describe('npm run search', () => {
  it('a counterexample: exit 1, with its link', () => {
    const r = run('app-resend', '--property', 'no-duplicates', '--json');
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.counterexample).toMatchObject({ k: 0, violation: { layer: 'log', subject: 'orders', status: 'more-than-once' } });
    expect(out.counterexample.link).toContain('#s=1.');
  }, 60_000);

  it('none within the bound: exit 0, and the bound is stated', () => {
    const r = run('lost-ack-idempotent', '--property', 'no-duplicates', '--at', 'orders', '--max-faults', '0');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('no counterexample among all 1 schedules with ≤ 0 faults');
  }, 60_000);

  it('bad arguments: exit 2', () => {
    expect(run('no-such-preset').status).toBe(2);
  }, 60_000);
});
