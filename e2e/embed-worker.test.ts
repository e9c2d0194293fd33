/**
 * The embed's engine in its Web Worker (issue 13 item 6), in real Chromium against the built embed:
 * its main bundle holds no engine code nor the presets and its page never evaluates the engine (a worker is started,
 * the engine script is not loaded on the page); the heavy share link is refused with the page's own
 * message while the page answers input; a long run computes in the worker while the main thread makes
 * no long task and answers a click; and where workers are unavailable the embed still runs (the engine
 * script on the page, in-process).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { heavyScenario, longScenario } from '../bench/budgetScenarios';
import { longestTask, OBSERVE } from '../bench/longTasks';
import { PAGE_BUDGETS, sizeRefusal } from '../src/sim/budget';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { DEFAULT_LINK_VIEW, encodeLink } from '../src/sim/scenario/link';
import { validateScenario } from '../src/sim/scenario/validate';
import { budgetBody, budgetTitle } from '../src/ui/layout/budgetText';
import { launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Counts the workers the page starts (before its scripts run). */
const COUNT_WORKERS = () => {
  const w = window as unknown as { __workers: number; Worker: typeof Worker };
  w.__workers = 0;
  const Original = w.Worker;
  w.Worker = class extends Original {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      w.__workers++;
    }
  };
};

async function open(url: string, init: (() => void)[] = [OBSERVE, COUNT_WORKERS]): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  const errors = watchErrors(page);
  for (const script of init) await page.addInitScript(script);
  await page.goto(url);
  return { page, errors };
}

const longest = longestTask;

const story = findPreset('opening-story')!;

describe("the embed's engine in a Web Worker", () => {
  it('the main bundle holds no engine code; the page starts a worker and never evaluates the engine', async () => {
    const main = readFileSync('dist/assets/embed.js', 'utf8');
    const engine = readFileSync('dist/assets/embed-engine.js', 'utf8');
    // string literals only the engine, its narration and its presets hold
    for (const marker of [
      'InitProducerIdResponse',
      'WriteTxnMarkersResponse',
      'xstate.',
      'Press play or step forward to watch it happen',
    ]) {
      expect(engine, marker).toContain(marker);
      expect(main, marker).not.toContain(marker);
    }
    // nor the presets (the worker resolves a preset id): a preset's question is only the engine's
    const question = findPreset('eos-auto-commit-rebalance')!.question.slice(0, 60);
    expect(engine).toContain(question);
    expect(main).not.toContain(question);
    // both scripts the page runs ask V8 to compile them while they stream in (vite.config.ts)
    for (const script of [main, readFileSync('dist/assets/embed-vendor.js', 'utf8')])
      expect(script.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
    const { page, errors } = await open(`${inject('baseUrl')}embed.html?preset=opening-story&step=12`);
    await expect.poll(() => page.getByTestId('embed-step').getAttribute('data-step'), { timeout: 30_000 }).toBe('12');
    const steps = runScenario(story.scenario).steps.length;
    expect(await page.getByTestId('embed-step').getAttribute('data-steps')).toBe(String(steps));
    // the panels came from the worker: narration, verdict and timeline are on screen
    expect(await page.getByTestId('embed-narration-text').innerText()).not.toBe('');
    expect(await page.locator('[data-testid="embed-verdict"] li').count()).toBeGreaterThan(0);
    await page.getByTestId('timeline').waitFor();
    const where = await page.evaluate(() => ({
      workers: (window as unknown as { __workers: number }).__workers,
      engineOnPage: 'EosLabEngine' in window,
      scripts: performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.split('/').pop() ?? ''),
    }));
    expect(where.workers).toBe(1);
    expect(where.engineOnPage).toBe(false);
    expect(where.scripts.filter((s) => s.startsWith('embed-engine'))).toEqual([]);
    // stepping asks the worker for the next panels
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await expect.poll(async () => Number(await page.getByTestId('embed-step').getAttribute('data-step'))).toBeGreaterThan(12);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a message's tooltip shows its payload, asked for from the worker (the diagram comes without them)", async () => {
    const steps = runScenario(story.scenario).steps.length;
    const { page, errors } = await open(`${inject('baseUrl')}embed.html?preset=opening-story&step=${steps}`);
    await expect.poll(() => page.getByTestId('embed-step').getAttribute('data-step'), { timeout: 30_000 }).toBe(String(steps));
    const tooltip = page.getByTestId('msc-tooltip');
    await page.getByRole('application', { name: 'Message sequence' }).focus();
    // each key moves the focus to another envelope; wait for the tooltip to follow. Its data-envelope is
    // `<id>@<step>`, with `…` while the payload is on its way: a payload landing changes it too, so wait
    // for the id (else the next key is pressed before the tooltip has moved, and the loop overshoots)
    const envelopeId = async () => (await tooltip.getAttribute('data-envelope'))?.split('@')[0];
    const press = async (key: string) => {
      const before = await envelopeId();
      await page.keyboard.press(key);
      await expect.poll(envelopeId).not.toBe(before);
      return tooltip.getAttribute('data-rpc');
    };
    // (focusing the diagram may already show the first envelope, so Home need not change the tooltip)
    await page.keyboard.press('Home');
    await expect.poll(() => tooltip.getAttribute('data-envelope')).toMatch(/^\d+@/);
    let rpc = await tooltip.getAttribute('data-rpc');
    for (let i = 0; i < 20 && rpc !== 'Produce'; i++) rpc = await press('ArrowRight');
    expect(rpc).toBe('Produce');
    // the producer id, epoch and sequence the broker deduplicates by, as the page's own tooltip shows them
    // the payload comes from the worker (a replay of the step that sent it): give it time on a loaded machine
    await expect
      .poll(() => tooltip.innerText(), { timeout: 10_000 })
      .toContain('batch(producerId=1000, epoch=0, baseSequence=0, 1 record)');
    expect(await tooltip.innerText()).not.toContain('reading…');
    expect(await press('ArrowRight')).toBe('ProduceResponse');
    await expect.poll(() => tooltip.innerText(), { timeout: 10_000 }).toMatch(/baseOffset=\d+/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the heavy link is refused in the worker with the same message, and the page answers input', async () => {
    const { page, errors } = await open(`${inject('baseUrl')}embed.html${encodeLink(heavyScenario(), DEFAULT_LINK_VIEW)}`);
    const notice = page.getByTestId('budget-notice');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.getAttribute('data-kind')).toBe('size');
    const v = validateScenario(heavyScenario());
    const refusal = v.ok ? sizeRefusal(v.resolved.scenario, PAGE_BUDGETS) : null;
    if (!refusal) throw new Error('the heavy scenario is not refused');
    expect(await notice.getByRole('heading').innerText()).toBe(budgetTitle(refusal, 'en'));
    expect(await notice.innerText()).toContain(budgetBody(refusal, 'en'));
    expect(await notice.innerText()).toContain('npm run sim -- scenario.json --max-steps');
    // the boot (evaluating the embed's script, its first render) is npm run bench's embed-boot figure
    await longest(page);
    await page.evaluate(() => {
      const w = window as unknown as { __clickWaits: number[] };
      w.__clickWaits = [];
      document.addEventListener('click', (e) => w.__clickWaits.push(performance.now() - e.timeStamp), true);
    });
    // input is answered: the scenario is saved as the file the headless command reads
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save the scenario (scenario.json)' }).click();
    expect((await download).suggestedFilename()).toBe('scenario.json');
    const clickWait = await page.evaluate(() => (window as unknown as { __clickWaits: number[] }).__clickWaits[0] ?? -1);
    const maxTask = await longest(page);
    // and the default scenario opens from the notice (its first render is the page's own work)
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Open the default scenario' }).click();
    await page.getByTestId('embed-play').waitFor({ timeout: 30_000 });
    console.log(
      `embed, heavy link: longest task from its message to a saved file ${maxTask} ms (the click waited ${Math.round(clickWait)} ms); the default run on screen ${Date.now() - t0} ms later, its first render's longest task ${await longest(page)} ms`,
    );
    // the refusal came from the worker: the engine never ran on this page (the 50 ms line on the
    // longest task is npm run bench's embed-heavy-link, measured on an idle machine; a test run shares
    // its cores with the rest of the suite)
    const where = await page.evaluate(() => ({
      workers: (window as unknown as { __workers: number }).__workers,
      engineOnPage: 'EosLabEngine' in window,
    }));
    expect(where).toEqual({ workers: 1, engineOnPage: false });
    expect(clickWait).toBeGreaterThanOrEqual(0);
    expect(clickWait).toBeLessThan(250);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a long run computes in the worker while the main thread answers a click (its long tasks printed: the 50 ms target is npm run bench’s)', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    const errors = watchErrors(page);
    await page.addInitScript(OBSERVE);
    // a host page: the bridge takes commands from its parent only
    await page.setContent(
      `<iframe id="embed" sandbox="allow-scripts" style="width:880px;height:680px" src="${inject('baseUrl')}embed.html?preset=opening-story"></iframe>`,
    );
    const frame = page.frameLocator('#embed');
    await frame.getByTestId('embed-play').waitFor({ timeout: 30_000 });
    const inFrame = () => page.frames().find((f) => f.url().includes('embed.html'));
    const frameLongest = () => {
      const f = inFrame();
      if (!f) throw new Error('no embed frame');
      return longestTask(f);
    };
    await frameLongest();
    // how long a click waits for the main thread (from the input event to its handler), and whether
    // the worker's run was still going when the click was handled
    await inFrame()?.evaluate(() => {
      const w = window as unknown as { __clicks: { wait: number; running: boolean }[] };
      w.__clicks = [];
      document.addEventListener(
        'click',
        (e) => w.__clicks.push({ wait: performance.now() - e.timeStamp, running: document.querySelector('progress') !== null }),
        true,
      );
    });
    // a host's load: 150,000 records, seconds of engine work (it stops at the step budget). On a quiet
    // machine the run can reach its budget before Playwright's click lands: then the host loads it again
    // and clicks at once, so the click is always answered while the worker computes.
    let click: { wait: number; running: boolean } | undefined;
    let clickMs = -1;
    for (let attempt = 0; attempt < 8 && !click?.running; attempt++) {
      await page.evaluate((scenario) => {
        (document.getElementById('embed') as HTMLIFrameElement).contentWindow?.postMessage({ type: 'load', scenario }, '*');
      }, longScenario(150000));
      await frame.locator('progress').waitFor({ timeout: 10_000 });
      const before = await frame.getByTestId('embed-play').innerText();
      const t0 = Date.now();
      // (Playwright's own click takes seconds on a loaded machine: the main thread's delay is measured in the page)
      await frame.getByTestId('embed-play').click({ timeout: 15_000 });
      // input while it runs: Play toggles at once
      await expect.poll(() => frame.getByTestId('embed-play').innerText(), { timeout: 15_000 }).not.toBe(before);
      clickMs = Date.now() - t0;
      click = await inFrame()?.evaluate(() => (window as unknown as { __clicks: { wait: number; running: boolean }[] }).__clicks.at(-1));
    }
    expect(click?.running).toBe(true);
    const clickWait = click?.wait ?? -1;
    const whileRunning = await frameLongest();
    await frame.getByTestId('budget-notice').waitFor({ timeout: 240_000 });
    const landing = await frameLongest();
    console.log(
      `embed, long run: longest task while it ran ${whileRunning} ms, landing it ${landing} ms; a click waited ${Math.round(clickWait)} ms for the main thread, shown in ${clickMs} ms`,
    );
    expect(clickWait).toBeGreaterThanOrEqual(0);
    // a loaded machine (five helpers on two cores) delays every task; an engine on this thread would hold it for seconds
    expect(clickWait).toBeLessThan(250);
    expect(await frame.getByTestId('budget-notice').getAttribute('data-kind')).toMatch(/^(steps|memory)$/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('where workers are unavailable, the engine runs on the page and the embed works as before', async () => {
    const { page, errors } = await open(`${inject('baseUrl')}embed.html?preset=opening-story&step=9`, [
      () => {
        (window as unknown as { Worker: unknown }).Worker = undefined;
      },
    ]);
    await expect.poll(() => page.getByTestId('embed-step').getAttribute('data-step'), { timeout: 30_000 }).toBe('9');
    expect(await page.evaluate(() => 'EosLabEngine' in window)).toBe(true);
    expect(await page.locator('[data-testid="embed-verdict"] li').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Next step', exact: true }).click();
    await expect.poll(async () => Number(await page.getByTestId('embed-step').getAttribute('data-step'))).toBeGreaterThan(9);
    expect(errors).toEqual([]);
    await page.close();
  });
});
