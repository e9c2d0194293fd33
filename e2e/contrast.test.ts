/**
 * Contrast and the rest of axe, everywhere a reader goes: the main page mid-run, a selected envelope
 * (its button in the in-flight list pressed), the gallery and the configuration editor — in both
 * themes and both languages, with no violations at all (serious and critical included).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario, stateAt } from '../src/sim/run';
import { encodeLink } from '../src/sim/scenario/link';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { axe } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function check(page: Page, where: string, found: string[]): Promise<void> {
  for (const v of await axe(page)) found.push(`${where}: ${v.id} (${v.impact}) ${v.nodes.slice(0, 3).join(', ')}`);
}

describe('axe in both themes and both languages', () => {
  for (const theme of ['light', 'dark'] as const)
    for (const language of ['en', 'ko'] as const)
      it(`${theme}, ${language}: main page, selected envelope, gallery, config editor`, async () => {
        const preset = findPreset('zombie-fencing');
        if (!preset) throw new Error('zombie-fencing');
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        const errors = watchErrors(page);
        // mid-run, at the first step from 34 on with an envelope in flight (selected below)
        const trace = runScenario(preset.scenario);
        let step = 34;
        while (stateAt(trace, step).inFlight.length === 0) step++;
        await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(preset.scenario, { step, selection: null, language })}`);
        await page.getByTestId('verdict').waitFor();
        await page.evaluate((t) => window.__eosLab?.store.getState().setTheme(t), theme);
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        const found: string[] = [];
        await check(page, 'main', found);

        // an envelope in flight, selected: its button in the in-flight list is pressed
        const envelope = await page.evaluate(() => window.__eosLab?.store.getState().view?.inFlight[0]?.id ?? null);
        expect(envelope).not.toBeNull();
        await page.evaluate((id) => window.__eosLab?.store.getState().select({ kind: 'envelope', id: id as number }), envelope);
        await page.getByTestId('envelope-actions').waitFor();
        await check(page, 'envelope', found);
        if (language === 'en') await screenshot(page, `contrast-envelope-${theme}`);

        await page.getByTestId('open-gallery').click();
        await page.getByTestId('gallery').waitFor();
        await check(page, 'gallery', found);
        await page.keyboard.press('Escape');
        await page.getByTestId('gallery').waitFor({ state: 'hidden' });

        await page.getByTestId('open-config').click();
        await page.getByTestId('config-editor').waitFor();
        await page.waitForTimeout(200);
        await check(page, 'config', found);
        await page.keyboard.press('Escape');

        expect(found).toEqual([]);
        expect(errors).toEqual([]);
        await page.close();
      });
});
