/**
 * Break it in the page, in real Chromium (issue 16: "the page shows no long task over 50 ms while a
 * search runs"): the built app (dist/, served by `vite preview`) opens Break it on a preset from the
 * gallery, and a PerformanceObserver('longtask') records every main-thread task over 50 ms from the
 * click on Start until the panel says the search has finished, while a frame is requested every
 * 100 ms to see that the page keeps answering. Measured, not asserted: `npm run bench` prints PASS/FAIL.
 */
import { launchBrowser } from '../e2e/browser';
import { longestTask, OBSERVE } from './longTasks';
import { previewBuild } from './previewServer';

export interface SearchLongTaskResult {
  readonly preset: string;
  /** The longest main-thread task from Start to the search's end. */
  readonly maxTaskMs: number;
  /** The longest wait for a requested animation frame while the search ran. */
  readonly maxFrameWaitMs: number;
  /** Wall time of the search in the page, from Start to the panel's "finished". */
  readonly searchMs: number;
  /** The panel's answer (its first line), so the figure says what was searched. */
  readonly answer: string;
}

export async function measureSearchLongTasks(presetId = 'ctp-exactly-once-crash'): Promise<SearchLongTaskResult> {
  const server = await previewBuild();
  const base = server.base;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(OBSERVE);
    await page.goto(base);
    await page.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready', null, { timeout: 120000 });
    await page.getByTestId('open-gallery').click();
    await page.getByTestId(`break-it-${presetId}`).click();
    const panel = page.getByTestId('break-it');
    await panel.waitFor();
    await page.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready', null, { timeout: 120000 });
    // opening the panel loads the preset, whose workspace renders in stages: let them land, as a
    // person reading the panel before pressing Start would
    await page.waitForTimeout(2000);
    await longestTask(page);
    // a frame requested every 100 ms: the longest wait for one is what a person would feel
    await page.evaluate(() => {
      const w = window as unknown as { __frameWaits: number[]; __frameTimer: number };
      w.__frameWaits = [];
      w.__frameTimer = window.setInterval(() => {
        const t0 = performance.now();
        requestAnimationFrame(() => w.__frameWaits.push(performance.now() - t0));
      }, 100);
    });
    const t0 = Date.now();
    await panel.getByTestId('break-it-start').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="break-it-progress"]')?.getAttribute('data-running') === 'true',
      null,
      { timeout: 30000 },
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid="break-it-progress"]')?.getAttribute('data-running') === 'false',
      null,
      { timeout: 300000 },
    );
    const searchMs = Date.now() - t0;
    const maxTaskMs = await longestTask(page);
    const maxFrameWaitMs = await page.evaluate(() => {
      const w = window as unknown as { __frameWaits: number[]; __frameTimer: number };
      clearInterval(w.__frameTimer);
      return Math.max(0, ...w.__frameWaits);
    });
    const answer = (await panel.getByTestId('break-it-progress').innerText()).split('\n')[0] ?? '';
    return { preset: presetId, maxTaskMs, maxFrameWaitMs, searchMs, answer };
  } finally {
    await browser.close();
    await server.close();
  }
}
