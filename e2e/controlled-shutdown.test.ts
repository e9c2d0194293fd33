/**
 * A controlled shutdown injected from the page: on a replicated preset, a broker's actions offer it
 * beside Crash broker; clicking it forks the run as the engine runs the same edit (same traceHash),
 * the scenario's faults list it, and the narration tells the broker asking the controller to move
 * its leaderships — in English and in Korean.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { injectProcessFault } from '../src/sim/scenario/edits';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const seek = (page: Page, step: number) => page.evaluate((s) => window.__eosLab?.store.getState().seek(s), step);
const traceHash = (page: Page) => page.getByTestId('trace-hash').getAttribute('data-trace-hash');

describe('a controlled shutdown from the injection panel', () => {
  it('forks the run as the engine does, lists the fault and narrates the request to the controller', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}#preset=idempotence-survives-failover`);
    await page.getByTestId('verdict').waitFor();
    const preset = findPreset('idempotence-survives-failover');
    if (!preset) throw new Error('no preset');
    const before = runScenario(preset.scenario);
    const step = 5;
    await seek(page, step);
    const panel = page.getByRole('region', { name: 'Inject a failure' });
    await panel.getByLabel('Process').selectOption('broker-1');
    await panel.getByRole('button', { name: 'Crash broker', exact: true }).waitFor();
    await expect(panel.getByLabel('start again after').inputValue()).resolves.toBe('5000');
    await panel.getByRole('button', { name: 'Controlled shutdown', exact: true }).click();
    await expect.poll(() => panel.getByTestId('inject-status').innerText()).toContain('controlled shutdown of broker-1');
    await expect.poll(() => page.getByTestId('scenario-faults').innerText()).toContain('controlled shutdown of broker-1');
    const edited = injectProcessFault(preset.scenario, {
      trace: before,
      step,
      process: 'broker-1',
      action: { type: 'controlledShutdown', restartAfterMs: 5000 },
    });
    if (!edited.ok) throw new Error(edited.reason);
    const after = runScenario(edited.scenario);
    await expect.poll(() => traceHash(page)).toBe(after.traceHash);
    // the step where broker-1 is asked to stop: its narration, in both languages
    const signal = after.steps.findIndex((s) => s.actor === 'broker-1' && s.label === 'controlledShutdown');
    await seek(page, signal + 1);
    await expect.poll(() => page.getByTestId('narration').innerText()).toContain('begins a controlled shutdown');
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    await expect
      .poll(() => page.getByTestId('narration').innerText())
      .toContain('제어된 종료(controlled.shutdown.enable=true)를 시작합니다');
    expect(errors).toEqual([]);
    await page.close();
  });
});
