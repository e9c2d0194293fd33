/**
 * History: opening a scenario or forking the run pushes a history entry, so Back and Forward move
 * between them inside the app; moving through the run (step, selection) replaces the current entry.
 * Opening a scenario also scrolls the side column back to its top.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const scenarioId = (page: Page) => page.evaluate(() => window.__eosLab?.store.getState().scenario?.id ?? null);
const faults = (page: Page) => page.evaluate(() => window.__eosLab?.store.getState().scenario?.faults?.length ?? 0);
const historyLength = (page: Page) => page.evaluate(() => history.length);
/** The address has caught up with the store (it is written after a short debounce). */
async function settled(page: Page): Promise<string> {
  await page.waitForTimeout(400);
  return page.evaluate(() => location.hash);
}

async function openFromGallery(page: Page, id: string): Promise<void> {
  await page.getByTestId('open-gallery').click();
  await page.getByTestId('gallery').getByTestId(`open-${id}`).click();
  await expect.poll(() => scenarioId(page)).toBe(id);
}

describe('history', () => {
  it('Back and Forward move between opened scenarios and forks; steps do not add entries', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('verdict').waitFor();
    expect(await scenarioId(page)).toBe('opening-story');
    const first = await settled(page);
    const start = await historyLength(page);

    // moving through the run replaces the entry
    await page.evaluate(() => window.__eosLab?.store.getState().seek(12));
    const moved = await settled(page);
    expect(moved).not.toBe(first);
    expect(await historyLength(page)).toBe(start);

    await openFromGallery(page, 'zombie-fencing');
    const second = await settled(page);
    expect(await historyLength(page)).toBe(start + 1);
    const shipped = await faults(page);

    // a fork (a fault added to the scenario) is an entry of its own
    await page.evaluate(() =>
      window.__eosLab?.store
        .getState()
        .fork((s) => ({ ...s, faults: [...(s.faults ?? []), { type: 'drop', rpc: 'ProduceResponse', nth: 1 }] as typeof s.faults })),
    );
    await expect.poll(() => faults(page)).toBe(shipped + 1);
    const forked = await settled(page);
    expect(forked).not.toBe(second);
    expect(await historyLength(page)).toBe(start + 2);

    await page.goBack();
    await expect.poll(() => faults(page)).toBe(shipped);
    expect(await scenarioId(page)).toBe('zombie-fencing');
    await page.goBack();
    await expect.poll(() => scenarioId(page)).toBe('opening-story');
    // Back lands where the person left that entry, and does not push anything itself
    await expect.poll(() => page.evaluate(() => window.__eosLab?.store.getState().step)).toBe(12);
    expect(await settled(page)).toBe(moved);
    await page.goForward();
    await expect.poll(() => scenarioId(page)).toBe('zombie-fencing');
    await page.goForward();
    await expect.poll(() => faults(page)).toBe(shipped + 1);
    expect(await historyLength(page)).toBe(start + 2);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opening a scenario scrolls the side column back to its top', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('verdict').waitFor();
    const side = page.locator('.side-column');
    await side.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect(await side.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await openFromGallery(page, 'db-sink-inbox');
    await expect.poll(() => side.evaluate((el) => el.scrollTop)).toBe(0);
    await page.close();
  });
});
