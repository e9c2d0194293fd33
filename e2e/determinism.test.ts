/**
 * Chromium computes the same traceHash as Node: the production app (built and served by
 * e2e/globalSetup.ts) runs every preset and 50 random scenarios (faults included) through its own
 * store — `window.__eosLab.store`, the debugging hook main.tsx exposes — and each hash must equal
 * the one Node computes for the same scenario.
 */
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import { scenarioArb } from '../tests/properties/arbitraries';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  errors = watchErrors(page);
  await gotoWorkspace(page, inject('baseUrl'));
  await page.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready');
});
afterAll(async () => {
  await browser?.close();
});

/** Loads each scenario into the app's store, waits for its run to finish, and reads its traceHash. */
function hashesInBrowser(scenarios: readonly Scenario[]): Promise<(string | null)[]> {
  return page.evaluate(async (list) => {
    const store = window.__eosLab?.store;
    if (!store) throw new Error('the app exposes no store');
    const out: (string | null)[] = [];
    for (const s of list) {
      store.getState().load(s);
      while (store.getState().status === 'running') await new Promise((r) => setTimeout(r, 0));
      out.push(store.getState().status === 'ready' ? (store.getState().trace?.traceHash ?? null) : null);
    }
    return out;
  }, scenarios as Scenario[]);
}

describe('determinism across Node and Chromium', () => {
  it('every preset', async () => {
    const scenarios = PRESETS.map((p) => p.scenario);
    const node = scenarios.map((s) => runScenario(s).traceHash);
    expect(await hashesInBrowser(scenarios)).toEqual(node);
    expect(errors).toEqual([]);
  });

  it('50 random scenarios with faults', async () => {
    const scenarios = fc.sample(scenarioArb, { numRuns: 50, seed: 4242 });
    const node = scenarios.map((s) => runScenario(s).traceHash);
    const inBrowser: (string | null)[] = [];
    for (let i = 0; i < scenarios.length; i += 10) inBrowser.push(...(await hashesInBrowser(scenarios.slice(i, i + 10))));
    expect(inBrowser).toEqual(node);
    expect(new Set(node).size).toBeGreaterThan(45);
    expect(errors).toEqual([]);
  });
});
