/**
 * Builds the test harness page (e2e/harness/index.html) with Vite into test-artifacts/harness and
 * serves it to a page on the app's own origin through request interception, so the production
 * build (dist/) stays exactly what ships.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Page } from 'playwright-core';
import { build } from 'vite';

const OUT = resolve('test-artifacts/harness');
let built: Promise<void> | undefined;

export function buildHarness(): Promise<void> {
  built ??= build({
    configFile: false,
    root: resolve('e2e/harness'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: OUT, emptyOutDir: true, target: 'es2022', sourcemap: false },
  }).then(() => undefined);
  return built;
}

const TYPES: Record<string, string> = { html: 'text/html', js: 'text/javascript', css: 'text/css' };

/** Opens the harness at <baseUrl>__harness/ and waits for window.__eosHarness. */
export async function openHarness(page: Page, baseUrl: string): Promise<void> {
  await buildHarness();
  const prefix = `${baseUrl}__harness/`;
  await page.route(`${prefix}**`, (route) => {
    const rel = new URL(route.request().url()).pathname.replace(/^.*__harness\//, '') || 'index.html';
    const file = join(OUT, rel);
    if (!file.startsWith(OUT)) return route.fulfill({ status: 404 });
    const ext = rel.split('.').pop() ?? '';
    try {
      return route.fulfill({ status: 200, contentType: TYPES[ext] ?? 'application/octet-stream', body: readFileSync(file) });
    } catch {
      return route.fulfill({ status: 404 });
    }
  });
  await page.goto(`${prefix}index.html`);
  await page.waitForFunction(() => '__eosHarness' in window);
}
