/**
 * The configuration editor's confirmation names the step the page is on. A change that makes the run
 * shorter lands on the new run's last step, and the confirmation used to name the step before the
 * change — "you are at step 168" above a step counter reading "step 101 / 101". At the end of
 * abort-hidden-from-read-committed, committed-reader switched to read_uncommitted; in English and
 * Korean. A change that keeps the step says that step, as before.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';
import { position } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the configuration editor’s confirmation', () => {
  for (const language of ['en', 'ko'] as const)
    it(`${language}: after a change that shortens the run, it names the step the counter shows`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=abort-hidden-from-read-committed&lang=${language}`);
      await page.getByTestId('verdict').waitFor();
      await page.keyboard.press('End');
      const before = await position(page);
      expect(before.step).toBe(before.total);
      await page.getByTestId('configure-committed-reader').click();
      const sheet = page.getByTestId('config-sheet');
      await sheet.getByTestId('config-editor').waitFor();
      const level = sheet.locator('select').filter({ hasText: 'read_committed' }).first();
      expect(await level.inputValue()).toBe('read_committed');
      await level.selectOption('read_uncommitted');
      const status = sheet.getByTestId('config-status');
      await expect.poll(() => status.innerText()).not.toBe('');
      await page.waitForFunction(() => document.querySelector('.app')?.getAttribute('data-status') === 'ready');
      const after = await position(page);
      // the run is shorter now, and the page is at its last step
      expect(after.total).toBeLessThan(before.total);
      expect(after.step).toBe(after.total);
      const said = await status.innerText();
      const steps = [...said.matchAll(/\d[\d,]*/g)].map((m) => Number(m[0].replaceAll(',', '')));
      expect(steps).toEqual([after.step]);
      expect(said).not.toContain(String(before.step));
      if (language === 'ko') expect(said).toMatch(/[가-힣]/);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('en: a change that keeps the step names that step', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}#preset=abort-hidden-from-read-committed&step=20&lang=en`);
    await page.getByTestId('verdict').waitFor();
    expect((await position(page)).step).toBe(20);
    await page.getByTestId('configure-committed-reader').click();
    const sheet = page.getByTestId('config-sheet');
    await sheet.getByTestId('config-editor').waitFor();
    await sheet.locator('select').filter({ hasText: 'read_committed' }).first().selectOption('read_uncommitted');
    await expect.poll(() => sheet.getByTestId('config-status').innerText()).toContain('you are at step 20.');
    expect((await position(page)).step).toBe(20);
    expect(errors).toEqual([]);
    await page.close();
  });
});
