/**
 * The engine in its dedicated Web Worker (src/store/engine), in real Chromium against the built app
 * (issue 13 item 6): every preset run in the worker gives the traceHash and the final verdict Node
 * computes; a long run reports progress and stops when cancelled; and while the worker runs a long
 * scenario, the page's main thread makes no long task (PerformanceObserver `longtask`) and answers a
 * click at once. The same long run through the page's in-process store is measured beside it. And
 * the page's boot chunks carry V8's compile hint (vite.config.ts).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { longScenario } from '../bench/budgetScenarios';
import { longestTask, OBSERVE } from '../bench/longTasks';
import { PAGE_BUDGETS } from '../src/sim/budget';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import { replayTo } from '../src/sim/trace/trace';
import { verdictViewAt } from '../src/sim/views';
import type { StepViews } from '../src/store/engine/protocol';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  errors = watchErrors(page);
  await page.addInitScript(OBSERVE);
  await gotoWorkspace(page, inject('baseUrl'));
  await page.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready');
});
afterAll(async () => {
  await browser?.close();
});

/** Runs each scenario in the worker; its outcome and the views at its last step. */
function runInWorker(scenarios: readonly Scenario[]): Promise<{ traceHash: string; steps: number; views: StepViews | null }[]> {
  return page.evaluate(async (list) => {
    const engine = await window.__eosLab?.engine?.();
    if (!engine) throw new Error('the app exposes no engine');
    const out = [];
    for (const s of list) {
      const r = await engine.start(s);
      if (r.kind !== 'done') throw new Error(r.kind);
      out.push({ traceHash: r.outcome.traceHash, steps: r.outcome.steps, views: await engine.views(r.outcome.steps) });
    }
    engine.terminate();
    return out;
  }, scenarios as Scenario[]);
}

const longest = () => longestTask(page);

/** Opens and closes the help dialog `n` times; how long each click took to show it (ms). */
async function helpClicks(n: number): Promise<number[]> {
  const clicks: number[] = [];
  for (let i = 0; i < n; i++) {
    await page.waitForTimeout(300);
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click({ timeout: 10000 });
    await page.getByRole('dialog').waitFor({ timeout: 10000 });
    clicks.push(Date.now() - t0);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 10000 });
  }
  return clicks;
}

describe('the engine in a Web Worker', () => {
  it('the page’s boot chunks (its entry and every modulepreload) ask V8 to compile them while they stream in', () => {
    const html = readFileSync('dist/index.html', 'utf8');
    const files = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(readFileSync(`dist/${file}`, 'utf8').startsWith('//# allFunctionsCalledOnLoad\n'), file).toBe(true);
  });

  it('runs every preset to the traceHash and the final verdict Node computes', async () => {
    const scenarios = PRESETS.map((p) => p.scenario);
    const inWorker = await runInWorker(scenarios);
    for (const [i, s] of scenarios.entries()) {
      const trace = runScenario(s);
      const got = inWorker[i];
      expect(got?.traceHash, PRESETS[i]?.id).toBe(trace.traceHash);
      expect(got?.steps).toBe(trace.steps.length);
      expect(got?.views?.verdict).toEqual(verdictViewAt(trace, replayTo(trace, trace.steps.length)));
    }
    expect(errors).toEqual([]);
  });

  it('a long run reports progress, stops when cancelled, and the page answers input meanwhile', async () => {
    await longest(); // forget the tasks before
    // the same clicks with nothing running (the first one also loads the dialog's code)
    const idleClicks = await helpClicks(3);
    const idleTask = await longest();
    // keep the worker busy for as long as the clicks take: a run ends at the page's step budget in a
    // fraction of a second on a quiet machine, so each one that ends is followed by another
    await page.evaluate(async (s) => {
      const engine = await window.__eosLab?.engine?.();
      if (!engine) throw new Error('the app exposes no engine');
      type Run = { progress: number[]; steps: number; budget: string | null };
      const w = window as unknown as { __busy: boolean; __runs: Run[]; __loop: Promise<void>; __engine: unknown };
      w.__busy = true;
      w.__runs = [];
      w.__engine = engine;
      w.__loop = (async () => {
        while (w.__busy) {
          const progress: number[] = [];
          const r = await engine.start(s, { onProgress: (n) => progress.push(n) });
          if (r.kind !== 'done') throw new Error(r.kind);
          w.__runs.push({ progress, steps: r.outcome.steps, budget: r.outcome.budget?.kind ?? null });
        }
      })();
    }, longScenario(150000));
    const clicks = await helpClicks(3);
    const runs = await page.evaluate(async () => {
      type Run = { progress: number[]; steps: number; budget: string | null };
      const w = window as unknown as { __busy: boolean; __runs: Run[]; __loop: Promise<void>; __engine: { cancel(): void } };
      w.__busy = false;
      w.__engine.cancel();
      await w.__loop;
      return w.__runs;
    });
    const maxTask = await longest();
    // then a run cancelled as soon as it reports progress
    const cancelled = await page.evaluate(async (s) => {
      type Engine = {
        start(
          s: unknown,
          o: { onProgress(n: number): void },
        ): Promise<{ kind: string; outcome?: { steps: number; budget: { kind: string } | null } }>;
        cancel(): void;
        terminate(): void;
      };
      const engine = (window as unknown as { __engine: Engine }).__engine;
      const progress: number[] = [];
      const done = await engine.start(s, {
        onProgress: (n) => {
          if (progress.push(n) === 1) engine.cancel();
        },
      });
      engine.terminate();
      return { done, progress };
    }, longScenario(150000));
    console.log(
      `worker runs during the clicks: ${runs.map((r) => `${r.steps} steps (${r.budget}, ${r.progress.length} progress)`).join('; ')}; ` +
        `cancelled run: progress ${cancelled.progress.join(', ')}, stopped at ${cancelled.done.outcome?.steps}; ` +
        `clicks answered in ${clicks.join(', ')} ms; longest main-thread task ${maxTask} ms (with nothing running: clicks ${idleClicks.join(', ')} ms, longest task ${idleTask} ms)`,
    );
    // every run that ended on its own ended at the page's step budget (the scenario asks for more),
    // the last one ended there or at the cancel; each reported its progress in order, below its end
    expect(runs.length).toBeGreaterThanOrEqual(1);
    for (const [i, run] of runs.entries()) {
      const last = i === runs.length - 1;
      if (!last || run.budget === 'steps') {
        expect(run.budget).toBe('steps');
        expect(run.steps).toBe(PAGE_BUDGETS.maxSteps);
      } else expect(run.budget).toBe('cancelled');
      for (let k = 1; k < run.progress.length; k++) expect(run.progress[k]).toBeGreaterThan(run.progress[k - 1] as number);
      for (const n of run.progress) expect(n).toBeLessThanOrEqual(run.steps);
    }
    expect(runs.reduce((n, r) => n + r.progress.length, 0)).toBeGreaterThanOrEqual(1);
    // the cancel stops a run where it is, short of the budget
    expect(cancelled.done.kind).toBe('done');
    expect(cancelled.done.outcome?.budget?.kind).toBe('cancelled');
    expect(cancelled.done.outcome?.steps).toBeGreaterThanOrEqual(cancelled.progress[0] as number);
    expect(cancelled.done.outcome?.steps).toBeLessThan(PAGE_BUDGETS.maxSteps);
    // a click is answered as fast as on the idle page (the machine's load sets both: 2 cores shared),
    // within 1 s on a quiet machine
    const bound = Math.max(1000, 2 * Math.max(...idleClicks));
    for (const c of clicks) expect(c).toBeLessThan(bound);
    expect(errors).toEqual([]);
  });

  it('for comparison: the same long run in the page (in-process, in slices)', async () => {
    await longest();
    const steps = await page.evaluate(async (s) => {
      const store = window.__eosLab?.store;
      if (!store) throw new Error('no store');
      store.getState().load(s);
      await new Promise((res) => setTimeout(res, 1500));
      store.getState().cancel();
      while (store.getState().status === 'running') await new Promise((res) => setTimeout(res, 0));
      return store.getState().trace?.steps.length ?? 0;
    }, longScenario(150000));
    const maxTask = await longest();
    console.log(`in-process run: ${steps} steps in 1.5 s, then landed; longest main-thread task ${maxTask} ms`);
    expect(steps).toBeGreaterThan(0);
  });
});
