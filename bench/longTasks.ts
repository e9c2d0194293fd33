/**
 * Long tasks in the page, in real Chromium (issue 13 item 6): a PerformanceObserver('longtask')
 * installed before the app's scripts records every main-thread task over 50 ms while the built app
 * (dist/, served by `vite preview`) boots (from navigation to its first paint and on to a run the
 * person can play: what a visitor waits for), loads each shipped preset, plays
 * streams-eos-crash-restore at 64 steps/s, and opens the heavy share link (16 topics × 64
 * partitions, 15 consumers) up to its message and an answered click; and the embed's boot likewise,
 * and the heavy link in the embed (its engine in a worker) from its message to an answered click.
 * The JavaScript a boot fetched is counted gzipped from dist/. Measured, not asserted: `npm run
 * bench` prints PASS/FAIL.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Frame, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/browser';
import { PRESETS } from '../src/sim/presets';
import { DEFAULT_LINK_VIEW, encodeLink } from '../src/sim/scenario/link';
import { bootsWithoutInspector } from './bootWithoutInspector';
import { heavyScenario } from './budgetScenarios';
import { previewBuild } from './previewServer';

/** A boot, from navigation: first contentful paint, interactive, its longest task and the JS it fetched. */
export interface BootResult {
  readonly firstPaintMs: number;
  readonly interactiveMs: number;
  readonly maxTaskMs: number;
  /** Gzipped JavaScript fetched until interactive (entry, chunks and worker scripts). */
  readonly jsKb: number;
}

export interface LongTaskResult {
  /** The boots under Playwright's inspector (CDP), as the other figures are taken. */
  readonly pageBoot: BootResult;
  readonly embedBoot: BootResult;
  /** The same boots, and the heavy link's up to its message, with no inspector attached (bootWithoutInspector.ts): a visitor's. */
  readonly withoutInspector: { readonly pageBoot: BootResult; readonly embedBoot: BootResult; readonly heavyBoot: BootResult };
  /**
   * The page's workspace (its second stage, src/page.tsx) taking over from the first stage (src/shell/),
   * under CDP: milliseconds from navigation until every panel is in, and the longest task from the
   * interactive point until then (loading the engine's chunks, running the scenario again, the take-over's render).
   */
  readonly workspaceMs: number;
  readonly workspaceMaxMs: number;
  /** Gzipped JavaScript the page itself fetched until the workspace was in (the worker's script not included). */
  readonly workspaceJsKb: number;
  /** The longest task while loading any preset into the open page, and which preset. */
  readonly presetsMaxMs: number;
  readonly presetsWorst: string;
  /** The longest task while playing streams-eos-crash-restore at 64 steps/s. */
  readonly playMaxMs: number;
  /** The longest task from opening the heavy link to its message and an answered click (the boot included, under CDP). */
  readonly heavyMaxMs: number;
  /** The longest task from the heavy link's message to an answered click (after its boot). */
  readonly heavyAfterMessageMaxMs: number;
  /** Milliseconds from navigating to the heavy link to its message on screen. */
  readonly heavyReadyMs: number;
  /** Milliseconds from a click on the help button to its dialog, on the heavy link's page. */
  readonly heavyClickMs: number;
  /** The embed (its engine in a worker) opening the heavy link: the longest task after its boot, to its message and an answered click. */
  readonly embedHeavyMaxMs: number;
  /** Milliseconds from a click on the embed's "Save the scenario" to its download. */
  readonly embedHeavyClickMs: number;
}

const ROOT = resolve(import.meta.dirname, '..');

/** Installed before the app's scripts (`page.addInitScript`): collects every long task's duration. */
export const OBSERVE = () => {
  const w = window as unknown as { __longTasks: number[] };
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
};

/** The longest task since the last call on a page (or frame) opened with OBSERVE (two frames first, so the render after a store change counts). */
export function longestTask(page: Page | Frame): Promise<number> {
  return page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const w = window as unknown as { __longTasks: number[] };
    const max = Math.max(0, ...w.__longTasks);
    w.__longTasks = [];
    return max;
  });
}

/** After `ready` resolved on a page opened with OBSERVE: the boot's figures. */
async function bootFigures(page: Page): Promise<BootResult> {
  // two frames, so the render after the store change is counted
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const r = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __interactive: number };
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const scripts = performance
      .getEntriesByType('resource')
      .filter((e) => /\.js(\?|$)/.test(e.name) && e.startTime <= w.__interactive)
      .map((e) => new URL(e.name).pathname);
    const max = Math.max(0, ...w.__longTasks);
    w.__longTasks = [];
    return { firstPaintMs: paint?.startTime ?? -1, interactiveMs: w.__interactive, maxTaskMs: max, scripts };
  });
  let gz = 0;
  for (const path of new Set(r.scripts)) gz += gzipSync(readFileSync(join(ROOT, 'dist', path.replace(/^\//, ''))), { level: 9 }).length;
  return { firstPaintMs: r.firstPaintMs, interactiveMs: r.interactiveMs, maxTaskMs: r.maxTaskMs, jsKb: gz / 1024 };
}

/** Gzipped JavaScript the page fetched (its own resource entries: entry and chunks) until `ms` after navigation. */
async function scriptsKbUntil(page: Page, ms: number): Promise<number> {
  const scripts = await page.evaluate(
    (until) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => /\.js(\?|$)/.test(e.name) && e.startTime <= until)
        .map((e) => new URL(e.name).pathname),
    ms,
  );
  let gz = 0;
  for (const path of new Set(scripts)) gz += gzipSync(readFileSync(join(ROOT, 'dist', path.replace(/^\//, ''))), { level: 9 }).length;
  return gz / 1024;
}

/** Resolves when `selector` is in the page, and notes the time (performance.now()) as __interactive. */
function waitInteractive(page: Page, selector: string): Promise<unknown> {
  return page.waitForFunction(
    (sel) => {
      const w = window as unknown as { __interactive?: number };
      if (!document.querySelector(sel)) return false;
      w.__interactive ??= performance.now();
      return true;
    },
    selector,
    { polling: 'raf', timeout: 120000 },
  );
}

/** What makes each boot interactive: the run on screen with its playback bar; the embed's Play; the heavy link's message. */
const PAGE_INTERACTIVE = '.app[data-status="ready"] [data-testid="step-counter"]';
const EMBED_PATH = 'embed.html?preset=streams-eos-crash-restore';
const EMBED_INTERACTIVE = '[data-testid="embed-play"]';
const HEAVY_MESSAGE = '[data-testid="budget-notice"]';

export async function measureLongTasks(): Promise<LongTaskResult> {
  const heavyLink = encodeLink(heavyScenario(), DEFAULT_LINK_VIEW);
  const server = await previewBuild();
  const base = server.base;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(OBSERVE);
    await page.goto(base);
    // interactive: the run is on screen with its playback bar (the Play button answers)
    await waitInteractive(page, PAGE_INTERACTIVE);
    const pageBoot = await bootFigures(page);
    const take = () => longestTask(page);
    // then the workspace takes over (src/page.tsx): every panel in, the store's hook exposed
    await page.waitForFunction(
      () =>
        window.__eosLab?.store.getState().status === 'ready' &&
        document.querySelector('.workspace')?.getAttribute('data-pending-stages') === '0',
      null,
      { polling: 'raf', timeout: 120000 },
    );
    const workspaceMs = await page.evaluate(() => performance.now());
    const workspaceMaxMs = await take();
    const workspaceJsKb = await scriptsKbUntil(page, workspaceMs);
    let presetsMaxMs = 0;
    let presetsWorst = '';
    for (const p of PRESETS) {
      await page.evaluate((s) => window.__eosLab?.store.getState().load(s), p.scenario);
      await page.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready');
      const ms = await take();
      if (ms > presetsMaxMs) [presetsMaxMs, presetsWorst] = [ms, p.id];
    }
    const crash = PRESETS.find((p) => p.id === 'streams-eos-crash-restore');
    await page.evaluate((s) => window.__eosLab?.store.getState().load(s), crash?.scenario);
    await page.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready');
    await take();
    await page.evaluate(() => {
      const st = window.__eosLab?.store.getState();
      st?.setSpeed(64);
      st?.setPlaying(true);
    });
    await page.waitForTimeout(6000);
    await page.evaluate(() => window.__eosLab?.store.getState().setPlaying(false));
    const playMaxMs = await take();
    await page.close();

    const heavy = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await heavy.addInitScript(OBSERVE);
    await heavy.goto(`${base}${heavyLink}`);
    await waitInteractive(heavy, HEAVY_MESSAGE);
    const heavyReadyMs = await heavy.evaluate(() => (window as unknown as { __interactive: number }).__interactive);
    const heavyBootMaxMs = await longestTask(heavy);
    const t0 = Date.now();
    await heavy.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await heavy.getByRole('dialog').waitFor();
    const heavyClickMs = Date.now() - t0;
    const heavyAfterMessageMaxMs = await longestTask(heavy);
    const heavyMaxMs = Math.max(heavyBootMaxMs, heavyAfterMessageMaxMs);
    await heavy.close();

    const embed = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await embed.addInitScript(OBSERVE);
    await embed.goto(`${base}${EMBED_PATH}`);
    await waitInteractive(embed, EMBED_INTERACTIVE);
    const embedBoot = await bootFigures(embed);
    await embed.close();

    // the embed's heavy link: refused in the engine's worker; its boot is embedBoot's figure
    const embedHeavy = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await embedHeavy.addInitScript(OBSERVE);
    await embedHeavy.goto(`${base}embed.html${heavyLink}`);
    await embedHeavy.getByTestId('budget-notice').waitFor({ timeout: 120000 });
    await longestTask(embedHeavy);
    // input while the message is up: the scenario is saved (the file the headless command reads)
    const t1 = Date.now();
    const download = embedHeavy.waitForEvent('download');
    await embedHeavy.getByRole('button', { name: 'Save the scenario (scenario.json)' }).click();
    await download;
    const embedHeavyClickMs = Date.now() - t1;
    const embedHeavyMaxMs = await longestTask(embedHeavy);
    await embedHeavy.close();
    const [pageQuiet, embedQuiet, heavyQuiet] = await bootsWithoutInspector([
      { path: '', selector: PAGE_INTERACTIVE, viewport: { width: 1280, height: 720 } },
      { path: EMBED_PATH, selector: EMBED_INTERACTIVE, viewport: { width: 800, height: 600 } },
      { path: heavyLink, selector: HEAVY_MESSAGE, viewport: { width: 1280, height: 720 } },
    ]);
    return {
      pageBoot,
      embedBoot,
      withoutInspector: { pageBoot: pageQuiet as BootResult, embedBoot: embedQuiet as BootResult, heavyBoot: heavyQuiet as BootResult },
      heavyAfterMessageMaxMs,
      workspaceMs,
      workspaceMaxMs,
      workspaceJsKb,
      presetsMaxMs,
      presetsWorst,
      playMaxMs,
      heavyMaxMs,
      heavyReadyMs,
      heavyClickMs,
      embedHeavyMaxMs,
      embedHeavyClickMs,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}
