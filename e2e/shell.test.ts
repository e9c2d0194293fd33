import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { everyStep } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('app shell', () => {
  it('opens on opening-story, steps, and the log changes', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByRole('heading', { name: /consumer got the order twice/ }).waitFor();
    const before = await page.getByTestId('logs').innerText();
    await everyStep(page);
    const step = page.getByRole('button', { name: /Step/ });
    for (let i = 0; i < 20; i++) await step.click();
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toContain('step 20');
    const after = await page.getByTestId('logs').innerText();
    expect(after).not.toBe(before);
    await screenshot(page, 'shell-opening-story');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('computes the same traceHash as Node for the same scenario', async () => {
    const page = await browser.newPage();
    await gotoWorkspace(page, inject('baseUrl'));
    const hash = await page.getByTestId('trace-hash').getAttribute('data-trace-hash');
    const preset = findPreset('opening-story');
    expect(preset).toBeDefined();
    expect(hash).toBe(runScenario(preset?.scenario).traceHash);
    await page.close();
  });
});
