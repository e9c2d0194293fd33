/**
 * Every preset, played to the end on the page: the verdict on screen is the engine's verdict,
 * computed here in Node from the same scenario — row by row (layer, subject, status, sentence) and
 * counter by counter.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { summarize } from '../src/sim/trace/summary';
import { launchBrowser, watchErrors } from './browser';
import { counters, loadScenario, openPage, position, verdictRows, waitForStep } from './ui-helpers';

let browser: Browser;
let page: Page;
let errors: string[];
beforeAll(async () => {
  browser = await launchBrowser();
  page = await openPage(browser);
  errors = watchErrors(page);
});
afterAll(async () => {
  await browser?.close();
});

describe('verdict on screen = engine verdict, for every preset', () => {
  for (const preset of PRESETS)
    it(`${preset.id}: played to the end`, async () => {
      await loadScenario(page, preset.scenario);
      await page.getByRole('heading', { level: 2, name: preset.title }).waitFor();
      // play at the fastest speed until the run ends
      await page.getByLabel('Speed').selectOption('2000');
      await page.getByRole('button', { name: 'Play' }).click();
      const { total } = await position(page);
      await waitForStep(page, total);
      await expect.poll(() => page.getByRole('button', { name: 'Play' }).count()).toBe(1);

      const engine = summarize(runScenario(preset.scenario)).verdict;
      expect(await page.getByTestId('verdict').getAttribute('data-step')).toBe(String(total));
      expect(await verdictRows(page)).toEqual(
        engine.layers.map((f) => ({ layer: f.layer, subject: f.subject ?? '', status: f.status, sentence: f.sentence })),
      );
      const c = engine.counters;
      expect(await counters(page)).toEqual({
        transactionsCommitted: c.transactionsCommitted,
        transactionsAborted: c.transactionsAborted,
        producersFenced: c.producersFenced,
        commitFailures: c.commitFailures,
        retryDuplicates: c.retryDuplicates,
        duplicateEventIdsSeenByApplications: c.duplicateEventIdsSeenByApplications,
        inboxConflicts: c.inboxConflicts,
        ...Object.fromEntries(Object.entries(c.consumerLag).map(([g, n]) => [`consumerLag:${g}`, n])),
      });
      expect(errors).toEqual([]);
    });
});
