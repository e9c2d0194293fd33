/**
 * The exported figure's message labels say what the page's message diagram said: a Korean page
 * writes an envelope's fault in Korean ("버려짐: …" with the reason in Korean), and the figure it
 * exports used to write the kernel's English reason after it ("버려짐: the ack is lost on the way
 * back"). Both now take the words from one function (useFaultText: narration's envelopeFaultText)
 * and place the labels with one layout (drawArrows → mscLabels.ts placeLabels). English too: the
 * page's fault labels are in the figure as the page wrote them.
 */
import { readFileSync } from 'node:fs';
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

/** Three English words in a row: prose, not a Kafka term or a name. */
const ENGLISH_PROSE = /\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b/;

/** The fault labels the page's message diagram placed (not cut), once it writes them in the page's language. */
async function pageFaults(page: Page, language: 'en' | 'ko'): Promise<string[]> {
  const read = () =>
    page
      .getByTestId('msc')
      .locator('canvas[role="img"]')
      .evaluate((c) =>
        ((c as HTMLCanvasElement & { eosPlacedLabels?: { text: string; ref?: number; cut?: boolean }[] }).eosPlacedLabels ?? [])
          .filter((l) => l.ref !== undefined && l.cut !== true)
          .map((l) => l.text),
      );
  // the Korean words come with the narration module, a moment after the run is on screen
  if (language === 'ko')
    await expect.poll(async () => (await read()).length > 0 && (await read()).every((t) => !ENGLISH_PROSE.test(t))).toBe(true);
  return read();
}

async function figureTexts(page: Page, button: string): Promise<string[]> {
  await page.getByTestId('open-export').click();
  const dialog = page.getByTestId('export-dialog');
  await dialog.getByTestId('figure-width').selectOption('1280');
  const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: button, exact: true }).click()]);
  const svg = readFileSync(await file.path(), 'utf8');
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return [...doc.querySelectorAll('text')].map((t) => t.textContent ?? '');
  }, svg);
}

describe('the exported figure writes the page’s message labels', () => {
  for (const [preset, language, button] of [
    ['lost-ack-idempotent', 'ko', '그림 SVG'],
    ['coordinator-failover-mid-commit', 'ko', '그림 SVG'],
    ['lost-ack-idempotent', 'en', 'Figure as SVG'],
  ] as const)
    it(`${preset} (${language}): each fault label on the page is in the figure, word for word`, async () => {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=${preset}&step=1000000&lang=${language}`);
      await page.getByTestId('verdict').waitFor();
      const onPage = await pageFaults(page, language);
      expect(onPage.length).toBeGreaterThan(0);
      const inFigure = await figureTexts(page, button);
      for (const f of onPage) expect(inFigure, f).toContain(f);
      if (language === 'ko') {
        const faults = inFigure.filter((t) => /^(버려짐|유실)/.test(t));
        expect(faults.length).toBeGreaterThan(0);
        for (const f of faults) expect(f).not.toMatch(ENGLISH_PROSE);
      }
      expect(errors).toEqual([]);
      await page.close();
    });
});
