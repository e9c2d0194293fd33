/**
 * A share link pasted into Export / Import as a colleague's chat or mail hands it over opens the run:
 * a link of some 900 characters wrapped onto lines, in <angle brackets>, or followed by the sentence's
 * full stop. Those characters cannot be part of a link's data; the field used to read them as a
 * damaged link ('character "\n" is not base64url'). At 1280×800 and on a phone. The same link opened
 * in the address bar with a full stop after it opens too (src/shell/boot.tsx cleanAddress).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { encodeLink } from '../src/sim/scenario/link';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const fencing = findPreset('zombie-fencing');
if (!fencing) throw new Error('no zombie-fencing');
const link = `https://eos-lab.example/${encodeLink(fencing.scenario, { step: 24, selection: null, language: 'en' })}`;
/** As a mail client wraps it: lines of 76 characters. */
const wrapped = (link.match(/.{1,76}/g) ?? []).join('\n');

async function pasteAndOpen(page: Page, text: string): Promise<void> {
  await page.getByTestId('open-export').click();
  const dialog = page.getByTestId('export-dialog');
  await dialog.getByTestId('import-text').fill(text);
  await dialog.getByRole('button', { name: 'Open it' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('a pasted share link opens as a chat or mail client hands it over', () => {
  for (const [name, size, text] of [
    ['wrapped onto lines, in <…>', { width: 1280, height: 800 }, `<${wrapped}>`],
    ['followed by a full stop, on a phone', { width: 390, height: 844 }, `${link}.`],
  ] as const)
    it(name, async () => {
      const phone = size.width < 700;
      const page = await browser.newPage({ viewport: size, hasTouch: phone, isMobile: phone });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=opening-story&lang=en`);
      await page.getByTestId('verdict').waitFor();
      await pasteAndOpen(page, text);
      await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 24 \//);
      await expect.poll(() => page.locator('.scenario-title h2').innerText()).toMatch(/fencing/i);
      expect(errors).toEqual([]);
      await page.close();
    });
});

describe('a share link opened in the address bar with the sentence’s full stop after it', () => {
  it('opens the run, and the address loses the full stop', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    const hash = encodeLink(fencing.scenario, { step: 24, selection: null, language: 'en' });
    await gotoWorkspace(page, `${inject('baseUrl')}${hash}.`);
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 24 \//);
    await expect.poll(() => page.locator('.scenario-title h2').innerText()).toMatch(/fencing/i);
    expect(await page.getByTestId('link-error').count()).toBe(0);
    expect(await page.evaluate(() => window.location.hash.endsWith('.'))).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });
});
