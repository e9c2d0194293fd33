/**
 * Budgets that protect the tab (issue 13 item 6): the heavy share link (16 topics × 64 partitions,
 * 15 consumers) opens to a message that says what it asks for and how to run it headless, and the
 * page answers a click at once; a long run shows its progress line and Cancel works while it runs.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { heavyScenario, longScenario } from '../bench/budgetScenarios';
import { DEFAULT_LINK_VIEW, encodeLink } from '../src/sim/scenario/link';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('page budgets', () => {
  it('the heavy link opens to the size message and the page answers input', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(heavyScenario(), DEFAULT_LINK_VIEW)}`);
    const notice = page.getByTestId('budget-notice');
    await notice.waitFor({ timeout: 10000 });
    expect(await notice.getAttribute('data-kind')).toBe('size');
    const text = await notice.innerText();
    expect(text).toContain('topics[0].partitions');
    expect(text).toContain('15,360 partition assignments');
    expect(text).toContain('npm run sim -- scenario.json --max-steps');
    // input is handled within a second: the help dialog opens
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click({ timeout: 1000 });
    await page.getByRole('dialog').waitFor({ timeout: 1000 });
    expect(Date.now() - t0).toBeLessThan(1000);
    await screenshot(page, 'budget-heavy-link');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a long run shows its progress and Cancel stops it with the run so far', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('verdict').waitFor();
    await page.evaluate((s) => window.__eosLab?.store.getState().load(s), longScenario(150000));
    await page.getByTestId('run-progress').waitFor({ timeout: 5000 });
    const t0 = Date.now();
    await page.getByTestId('run-cancel').click({ timeout: 1000, noWaitAfter: true });
    const notice = page.getByTestId('budget-notice');
    await notice.waitFor({ timeout: 1000 });
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await notice.getAttribute('data-kind')).toBe('cancelled');
    expect(await notice.innerText()).toContain('What you see is the run so far');
    await page.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready');
    expect(errors).toEqual([]);
    await page.close();
  });
});
