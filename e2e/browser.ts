/**
 * Launches Debian's Chromium through playwright-core. No test tool downloads a browser: the path
 * is /usr/bin/chromium unless CHROMIUM_PATH says otherwise.
 */
import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/** Collects console errors and page errors so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

export const ARTIFACTS = 'test-artifacts';

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
}

/**
 * Opens the page at `url` and waits for its workspace (the page's second stage, src/page.tsx) to take
 * over from the first (src/shell/, the run from the engine worker): from then on the store hook
 * `window.__eosLab` is there and every panel renders. e2e/two-stage-boot.test.ts tests the first stage.
 */
export async function gotoWorkspace(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => (window as { __eosLab?: unknown }).__eosLab !== undefined, undefined, { timeout: 60_000 });
}
