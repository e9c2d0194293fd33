/**
 * House rules that keep the engine shareable and the code carried on: src/sim is deterministic and
 * headless, the code type-checks and passes the linter.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(p) && !/\.test\./.test(p) ? [p] : [];
  });
}

describe('project rules', () => {
  const sim = files('src/sim');

  it('src/sim reads no clock, no timers and no Math.random', () => {
    const bad = sim.filter((f) =>
      /Math\.random|Date\.now|new Date\(|performance\.now|setTimeout|setInterval|requestAnimationFrame|crypto\.(randomUUID|getRandomValues)/.test(
        readFileSync(f, 'utf8'),
      ),
    );
    expect(bad).toEqual([]);
  });

  it('src/sim imports no React, DOM, store or d3 code', () => {
    const bad = sim.filter((f) =>
      /from ['"](react|react-dom|zustand|d3[-\w]*)['"]|from ['"][./]+\/(ui|store)\//.test(readFileSync(f, 'utf8')),
    );
    expect(bad).toEqual([]);
  });

  it('machines use no XState `after` delays (deadlines are kernel events)', () => {
    const bad = sim.filter((f) => /\bafter\s*:\s*\{/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });

  it('type-checks', () => {
    expect(() => execFileSync('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], { stdio: 'pipe' })).not.toThrow();
  }, 120000);

  it('passes the linter', () => {
    let output = '';
    try {
      execFileSync('npx', ['biome', 'check', '.'], { stdio: 'pipe' });
    } catch (e) {
      output = String((e as { stdout?: Buffer }).stdout ?? e);
    }
    expect(output).toBe('');
  }, 120000);
});
