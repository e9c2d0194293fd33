#!/usr/bin/env node
/**
 * `npm test`: every test — engine unit and property tests, and browser tests in Chromium — in one
 * Vitest run, then the plain total on the last line ("N passed, N failed"), which CI reads.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('test-artifacts', { recursive: true });
const report = 'test-artifacts/vitest-report.json';
rmSync(report, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { stdio: 'inherit' });
let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests ?? 0;
  failed = (r.numFailedTests ?? 0) + (r.numTodoTests ?? 0) + (r.numPendingTests ?? 0);
  // a file that failed to load has no tests but must still count
  for (const f of r.testResults ?? []) if (f.status === 'failed' && (f.assertionResults ?? []).length === 0) failed += 1;
} catch {
  failed = Math.max(failed, 1);
}
if (run.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || run.status !== 0 ? 1 : 0);
