/**
 * Shared steps of the UI browser tests: open the page at a size, load a scenario through the page's
 * store hook, wait for a step, read the verdict table off the screen.
 */
import { createRequire } from 'node:module';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

/** The app open in one Chromium page for a whole test file, its console errors collected (a test may open a fresh page). */
export interface AppSession {
  readonly browser: Browser;
  page: Page;
  errors: string[];
}

/** Call at the top of a test file: launches Chromium and opens the app before its tests, closes it after. */
export function appSession(): AppSession {
  const session = {} as { browser: Browser; page: Page; errors: string[] };
  beforeAll(async () => {
    session.browser = await launchBrowser();
    session.page = await openPage(session.browser);
    session.errors = watchErrors(session.page);
  });
  afterAll(async () => {
    await session.browser?.close();
  });
  return session;
}

/** Call at the top of a test file whose tests open their own pages: one Chromium for them all. */
export function browserSession(): { readonly browser: Browser } {
  const session = {} as { browser: Browser };
  beforeAll(async () => {
    session.browser = await launchBrowser();
  });
  afterAll(async () => {
    await session.browser?.close();
  });
  return session;
}

/** A phone's screen, as the phone tests use it. */
export const PHONE = { width: 390, height: 844 };

/**
 * A new page at `viewport` (a touch screen when it is PHONE) on the app's `fragment` (`#preset=…`),
 * its verdict on screen; the console errors it logs from the start.
 */
export async function openAt(browser: Browser, fragment: string, viewport = PHONE): Promise<{ page: Page; errors: string[] }> {
  const touch = viewport.width <= PHONE.width;
  const page = await browser.newPage({ viewport, ...(touch ? { hasTouch: true, isMobile: true } : {}) });
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}${fragment}`);
  await page.getByTestId('verdict').waitFor();
  return { page, errors };
}

export async function openPage(browser: Browser, size = { width: 1280, height: 720 }): Promise<Page> {
  const page = await browser.newPage({ viewport: size });
  await gotoWorkspace(page, inject('baseUrl'));
  await page.getByTestId('verdict').waitFor();
  return page;
}

export async function loadScenario(page: Page, scenario: unknown): Promise<void> {
  await page.evaluate((s) => {
    const hook = (window as unknown as { __eosLab?: { store: { getState(): { load(x: unknown): void } } } }).__eosLab;
    if (!hook) throw new Error('the page has no store hook');
    hook.store.getState().load(s);
  }, scenario);
  await page.waitForFunction(() => document.querySelector('.app')?.getAttribute('data-status') === 'ready');
}

/** Waits until a run's workspace shows every panel (it renders in stages, src/ui/layout/stages.ts); at once without one. */
export async function everyPanel(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const w = document.querySelector('.workspace');
    return w === null || w.getAttribute('data-pending-stages') === '0';
  });
}

/** The step counter's "step N / M". */
export async function position(page: Page): Promise<{ step: number; total: number }> {
  const text = await page.getByTestId('step-counter').innerText();
  const m = text.match(/(\d+) \/ (\d+)/);
  if (!m) throw new Error(`no position in "${text}"`);
  return { step: Number(m[1]), total: Number(m[2]) };
}

export async function waitForStep(page: Page, step: number): Promise<void> {
  await page.waitForFunction(
    (n) => new RegExp(`(^|\\D)${n} / `).test(document.querySelector('[data-testid="step-counter"]')?.textContent ?? ''),
    step,
  );
}

export interface ScreenRow {
  readonly layer: string;
  readonly subject: string;
  readonly status: string;
  readonly sentence: string;
}

export async function verdictRows(page: Page): Promise<ScreenRow[]> {
  return page.$$eval('[data-testid="verdict"] tr[data-layer]', (rows) =>
    rows.map((r) => ({
      layer: r.getAttribute('data-layer') ?? '',
      subject: r.getAttribute('data-subject') ?? '',
      status: r.getAttribute('data-status') ?? '',
      sentence: r.querySelector('.sentence')?.textContent ?? '',
    })),
  );
}

export async function counters(page: Page): Promise<Record<string, number>> {
  return page.$$eval('[data-testid="verdict"] [data-counter]', (els) =>
    Object.fromEntries(
      els.map((e) => [
        `${e.getAttribute('data-counter')}${e.getAttribute('data-group') ? `:${e.getAttribute('data-group')}` : ''}`,
        Number(e.getAttribute('data-value')),
      ]),
    ),
  );
}

const require = createRequire(import.meta.url);

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly string[];
}

/** Runs axe-core on the page; returns its violations (id, help, and the offending selectors). */
export async function axe(page: Page): Promise<AxeViolation[]> {
  await everyPanel(page);
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run(
          ctx: Document,
          opts: unknown,
        ): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** Turns off "Hide background steps" so each Step is one step of the trace (tests that count steps). */
export async function everyStep(page: Page): Promise<void> {
  const toggle = page.getByTestId('skip-idle');
  if ((await toggle.getAttribute('aria-checked')) === 'true') await toggle.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="skip-idle"]')?.getAttribute('aria-checked') === 'false');
}

/** Opens the configuration editor (a modal sheet since it left the side column) and returns it. */
export async function openConfig(page: Page): Promise<Locator> {
  const sheet = page.getByTestId('config-sheet');
  if (!(await sheet.isVisible())) await page.getByTestId('open-config').click();
  await page.getByTestId('config-editor').waitFor();
  return sheet;
}

/** Closes the configuration editor's sheet (Escape), so the page behind it takes input again. */
export async function closeConfig(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByTestId('config-sheet').waitFor({ state: 'hidden' });
}
