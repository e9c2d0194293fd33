/**
 * Long tasks in the page, in real Chromium (issue 13 item 6): a PerformanceObserver('longtask')
 * installed before the app's scripts records every main-thread task over 50 ms while the built app
 * (dist/, served by `vite preview`) loads each shipped preset, plays streams-eos-crash-restore at
 * 64 steps/s, and opens the heavy share link (16 topics × 64 partitions, 15 consumers). Measured,
 * not asserted: `npm run bench` prints PASS/FAIL.
 */
import { resolve } from 'node:path';
import { type PreviewServer, preview } from 'vite';
import { launchBrowser } from '../e2e/browser';
import { PRESETS } from '../src/sim/presets';
import { DEFAULT_LINK_VIEW, encodeLink } from '../src/sim/scenario/link';
import { heavyScenario } from './budgetScenarios';

export interface LongTaskResult {
  /** The longest task while loading any preset into the open page, and which preset. */
  readonly presetsMaxMs: number;
  readonly presetsWorst: string;
  /** The longest task while playing streams-eos-crash-restore at 64 steps/s. */
  readonly playMaxMs: number;
  /** The longest task from opening the heavy link to its message (the app's boot included). */
  readonly heavyMaxMs: number;
  /** Milliseconds from a click on the help button to its dialog, on the heavy link's page. */
  readonly heavyClickMs: number;
}

const ROOT = resolve(import.meta.dirname, '..');

const OBSERVE = () => {
  const w = window as unknown as { __longTasks: number[] };
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
};

export async function measureLongTasks(): Promise<LongTaskResult> {
  const server: PreviewServer = await preview({
    root: ROOT,
    logLevel: 'warn',
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.httpServer.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 4173}/`;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(OBSERVE);
    await page.goto(base);
    await page.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready');
    const take = () =>
      page.evaluate(async () => {
        // two frames, so the render after the store change is counted
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const w = window as unknown as { __longTasks: number[] };
        const max = Math.max(0, ...w.__longTasks);
        w.__longTasks = [];
        return max;
      });
    await take(); // the app's boot is not a preset load
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
    await heavy.goto(`${base}${encodeLink(heavyScenario(), DEFAULT_LINK_VIEW)}`);
    await heavy.getByTestId('budget-notice').waitFor({ timeout: 120000 });
    const t0 = Date.now();
    await heavy.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await heavy.getByRole('dialog').waitFor();
    const heavyClickMs = Date.now() - t0;
    const heavyMaxMs = await heavy.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));
    await heavy.close();
    return { presetsMaxMs, presetsWorst, playMaxMs, heavyMaxMs, heavyClickMs };
  } finally {
    await browser.close();
    await server.close();
  }
}
