/**
 * Chromium computes the same traceHash as Node: for every preset and 50 random scenarios (faults
 * included), the engine running in the page (the test harness, built from the same sources with
 * the same toolchain as the app — see e2e/harness/) gives the hash Node gives. The real app's own
 * hash for its default scenario is checked against the harness too.
 */
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_PRESET_ID, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import { scenarioArb } from '../tests/properties/arbitraries';
import { launchBrowser, watchErrors } from './browser';
import { openHarness } from './harness/build';

let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  errors = watchErrors(page);
  await openHarness(page, inject('baseUrl'));
});
afterAll(async () => {
  await browser?.close();
});

function hashesInBrowser(scenarios: readonly Scenario[]): Promise<string[]> {
  return page.evaluate(
    (list) => list.map((s) => (window as unknown as { __eosHarness: { traceHash(s: unknown): string } }).__eosHarness.traceHash(s)),
    scenarios as Scenario[],
  );
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
    const browserHashes: string[] = [];
    for (let i = 0; i < scenarios.length; i += 10) browserHashes.push(...(await hashesInBrowser(scenarios.slice(i, i + 10))));
    expect(browserHashes).toEqual(node);
    expect(new Set(node).size).toBeGreaterThan(45);
    expect(errors).toEqual([]);
  });

  it("the app's own page shows the hash the harness computes for its default scenario", async () => {
    const app = await browser.newPage();
    await app.goto(inject('baseUrl'));
    const shown = await app.getByTestId('trace-hash').getAttribute('data-trace-hash');
    const preset = PRESETS.find((p) => p.id === DEFAULT_PRESET_ID);
    expect(preset).toBeDefined();
    expect(shown).toBe((await hashesInBrowser([preset?.scenario as Scenario]))[0]);
    await app.close();
  });
});
