/**
 * The page boots in two stages (src/main.tsx): the first (src/shell/) shows the URL's run from the
 * engine worker with no in-process engine chunk fetched, and its Play answers; the workspace
 * (src/page.tsx) then takes over at the step the person is at, playing if they were.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { longScenario } from '../bench/budgetScenarios';
import { DEFAULT_LINK_VIEW, encodeLink } from '../src/sim/scenario/link';
import { launchBrowser, watchErrors } from './browser';

/** The in-process engine's and the workspace's chunks (vite.config.ts lists them in index.html's eos-lab-workspace meta). */
const WORKSPACE_CHUNK = /\/assets\/(presets|clientActors|build|sim|page)-[^/]*\.js$/;
const INTERACTIVE = '.app[data-status="ready"] [data-testid="step-counter"]';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens `hash`, holding the workspace's first chunk until `release` is called. */
async function openHeld(hash: string, interactive = INTERACTIVE): Promise<{ page: Page; errors: string[]; release: () => void }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = watchErrors(page);
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/presets-[^/]*\.js$/, (route) => (released ? route.continue() : void held.push(route)));
  const release = () => {
    released = true;
    for (const r of held.splice(0)) void r.continue();
  };
  await page.goto(`${inject('baseUrl')}${hash}`);
  // the interactive point, noted in the page's own clock (as the bench does, bench/longTasks.ts)
  await page.waitForFunction(
    (sel) => {
      const w = window as unknown as { __interactive?: number };
      if (!document.querySelector(sel)) return false;
      w.__interactive ??= performance.now();
      return true;
    },
    interactive,
    { polling: 'raf', timeout: 60_000 },
  );
  return { page, errors, release };
}

const shellStep = (page: Page) =>
  page.evaluate(() => Number(/(\d+) \//.exec(document.querySelector('[data-testid="step-counter"]')?.textContent ?? '')?.[1] ?? -1));

describe('the two-stage page boot', () => {
  it('modulepreloads no chunk of the in-process engine', () => {
    const html = readFileSync('dist/index.html', 'utf8');
    const preloads = [...html.matchAll(/rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(preloads.length).toBeGreaterThan(0);
    expect(preloads.filter((f) => WORKSPACE_CHUNK.test(f))).toEqual([]);
    const workspace = /name="eos-lab-workspace" content="([^"]*)"/.exec(html)?.[1] ?? '';
    for (const name of ['presets', 'clientActors', 'build', 'sim', 'page']) expect(workspace).toMatch(new RegExp(`/${name}-`));
  });

  it('is interactive with no engine chunk fetched; Play answers; the workspace keeps the step', async () => {
    const { page, errors, release } = await openHeld('#preset=streams-eos-crash-restore');
    const fetched = await page.evaluate(() => {
      const until = (window as unknown as { __interactive: number }).__interactive;
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= until)
        .map((e) => new URL(e.name).pathname);
    });
    expect(fetched.some((p) => p.includes('/assets/boot-'))).toBe(true);
    expect(fetched.filter((p) => WORKSPACE_CHUNK.test(p))).toEqual([]);
    // the first stage: no store hook yet, the workspace's panels not there
    expect(await page.evaluate(() => window.__eosLab === undefined)).toBe(true);
    expect(await page.locator('.app').getAttribute('data-stage')).toBe('shell');
    expect(await page.getByTestId('verdict').count()).toBe(0);
    // Play answers in the first stage
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => /^step ([1-9]\d*) \//.test(document.querySelector('[data-testid="step-counter"]')?.textContent ?? ''));
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    const at = await shellStep(page);
    expect(at).toBeGreaterThan(0);
    // the workspace takes over at that step
    release();
    await page.getByTestId('verdict').waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => window.__eosLab?.store.getState().step)).toBe(at);
    expect(await page.evaluate(() => window.__eosLab?.store.getState().scenario?.id)).toBe('streams-eos-crash-restore');
    expect(await shellStep(page)).toBe(at);
    expect(await page.locator('.app').getAttribute('data-stage')).toBeNull();
    expect(await page.locator('.app').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps playing across the take-over, in the language it opened in', async () => {
    const { page, errors, release } = await openHeld('#preset=zombie-fencing&lang=ko');
    expect(await page.getByRole('button', { name: '재생', exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: '재생', exact: true }).click();
    // the first stage plays before the workspace is let in (releasing at once raced the first tick)
    await page.waitForFunction(
      () => Number(/(\d+) \//.exec(document.querySelector('[data-testid="step-counter"]')?.textContent ?? '')?.[1] ?? 0) > 0,
    );
    const before = await shellStep(page);
    expect(before).toBeGreaterThan(0);
    release();
    await page.getByTestId('verdict').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => window.__eosLab?.store.getState().playing === true);
    expect(await page.evaluate(() => window.__eosLab?.store.getState().language)).toBe('ko');
    // still playing after the take-over: the workspace's step moves on past where the first stage was
    await page.waitForFunction((from) => (window.__eosLab?.store.getState().step ?? 0) > from, before);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a bad link as its error panel in the first stage and after', async () => {
    const { page, errors, release } = await openHeld('#s=1.not-a-link', '[data-testid="link-error"]');
    const message = await page.getByTestId('link-error-message').innerText();
    expect(message.length).toBeGreaterThan(10);
    expect(await page.locator('.app').getAttribute('data-stage')).toBe('shell');
    expect(await page.getByTestId('step-counter').count()).toBe(0);
    release();
    await page.waitForFunction(() => window.__eosLab !== undefined, undefined, { timeout: 60_000 });
    expect(await page.getByTestId('link-error-message').innerText()).toBe(message);
    expect(await page.getByTestId('step-counter').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  for (const [language, words] of [
    ['en', 'Loading the simulator…'],
    ['ko', '시뮬레이터를 불러오는 중…'],
  ] as const)
    it(`${language}: while the engine worker starts, the first stage says it is loading (it showed a blank page)`, async () => {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      const errors = watchErrors(page);
      // the worker's engine script never arrives: the first stage stays where it waits for it
      await page.route(/\/assets\/embed-engine\.js/, () => undefined);
      await page.goto(`${inject('baseUrl')}#preset=zombie-fencing&lang=${language}`);
      await page.locator('.app[data-stage="shell"]').waitFor({ timeout: 30_000 });
      const note = page.getByTestId('shell-starting');
      expect(await note.innerText()).toBe(words);
      expect(await note.isVisible()).toBe(true);
      expect(await page.getByTestId('step-counter').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('nothing to show after a while: the workspace takes over while its run computes, its progress line with Cancel', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors = watchErrors(page);
    // the worker's engine script never arrives: the first stage has nothing to show
    await page.route(/\/assets\/embed-engine\.js/, () => undefined);
    await page.goto(`${inject('baseUrl')}${encodeLink(longScenario(150000), DEFAULT_LINK_VIEW)}`);
    await page.locator('.app[data-stage="shell"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('step-counter').count()).toBe(0);
    // after LONG_RUN_MS (src/shell/boot.tsx) the workspace loads, and takes over while its own run computes
    await page.waitForFunction(() => window.__eosLab !== undefined, undefined, { timeout: 60_000 });
    expect(await page.evaluate(() => window.__eosLab?.store.getState().status)).toBe('running');
    await page.getByTestId('run-cancel').click({ timeout: 5000, noWaitAfter: true });
    const notice = page.getByTestId('budget-notice');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.getAttribute('data-kind')).toBe('cancelled');
    expect(errors).toEqual([]);
    await page.close();
  });
});
