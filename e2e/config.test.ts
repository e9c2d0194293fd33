/**
 * The config editor in the browser: an invalid combination shows the ConfigException Kafka would
 * raise and changes nothing; a valid one re-runs the scenario (the same run the engine computes in
 * Node); Kafka's INFO line appears when idempotence is silently switched off; junk never crashes;
 * in Korean the documentation is Korean while Kafka's messages stay English.
 */

import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { setConfigValues } from '../src/sim/scenario/edits';
import type { Scenario } from '../src/sim/scenario/schema';
import { DOCS_KO } from '../src/ui/config/docsKo';
import { CONFIG_STRINGS } from '../src/ui/config/strings';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { closeConfig, openConfig } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const opening = (): Scenario => {
  const p = findPreset('opening-story');
  if (!p) throw new Error('opening-story is missing');
  return p.scenario;
};
const ORDERS = { scope: 'client', client: 'orders-service' } as const;

async function open(): Promise<{ page: Page; errors: string[]; config: Locator }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = watchErrors(page);
  await gotoWorkspace(page, inject('baseUrl'));
  await page.getByRole('heading', { name: /consumer got the order twice/ }).waitFor();
  return { page, errors, config: await openConfig(page) };
}

const traceHash = (page: Page) => page.getByTestId('trace-hash').getAttribute('data-trace-hash');

async function type(config: Locator, key: string, text: string): Promise<void> {
  const field = config.getByRole('textbox', { name: key, exact: true });
  await field.fill(text);
  await field.press('Enter');
}

describe('config editor', () => {
  it("shows Kafka's ConfigException for an invalid combination, then re-runs on a valid one", async () => {
    const { page, errors, config } = await open();
    const original = await traceHash(page);
    expect(original).toBe(runScenario(opening()).traceHash);

    // opening-story sets enable.idempotence=true explicitly: 6 in flight is a ConfigException
    await type(config, 'max.in.flight.requests.per.connection', '6');
    const alert = config.getByTestId('config-errors');
    await expect
      .poll(() => alert.innerText())
      .toContain(
        'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6.',
      );
    expect(await config.getByRole('textbox', { name: 'max.in.flight.requests.per.connection' }).getAttribute('aria-invalid')).toBe('true');
    expect(await traceHash(page)).toBe(original);
    await screenshot(page, 'config-invalid-combination');

    // turning idempotence off makes the same value valid: the run changes
    await config.getByRole('checkbox', { name: 'enable.idempotence' }).uncheck();
    await expect.poll(() => config.getByTestId('config-status').innerText()).toContain('Applied');
    expect(await alert.count()).toBe(0);
    const expected = setConfigValues(opening(), ORDERS, { 'max.in.flight.requests.per.connection': 6, 'enable.idempotence': false });
    await expect.poll(() => traceHash(page)).toBe(runScenario(expected).traceHash);
    expect(await traceHash(page)).not.toBe(original);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows Kafka's INFO line when acks=1 switches defaulted idempotence off", async () => {
    const { page, errors, config } = await open();
    await config.getByRole('button', { name: 'Use the default for enable.idempotence' }).click();
    await expect.poll(() => config.getByTestId('config-status').innerText()).toContain('Applied');
    await config.getByRole('combobox', { name: 'acks' }).selectOption('1');
    await expect
      .poll(() => config.getByTestId('config-table').innerText())
      .toContain("INFO Idempotence will be disabled because acks is set to 1, not set to 'all'.");
    const row = config.locator('[data-key="enable.idempotence"]');
    await expect.poll(() => row.innerText()).toContain('in effect: false');
    const expected = setConfigValues(opening(), ORDERS, { 'enable.idempotence': undefined, acks: '1' });
    await expect.poll(() => traceHash(page)).toBe(runScenario(expected).traceHash);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('explains junk input without crashing, edits a consumer, and discards a change', async () => {
    const { page, errors, config } = await open();
    const original = await traceHash(page);
    await type(config, 'linger.ms', 'soon');
    // ConfigDef.parseType: Long.parseLong fails, "Not a number of type LONG"
    await expect
      .poll(() => config.getByTestId('config-errors').innerText())
      .toContain('ConfigException: Invalid value soon for configuration linger.ms: Not a number of type LONG');
    await config.getByRole('button', { name: 'Discard the change' }).click();
    expect(await config.getByTestId('config-errors').count()).toBe(0);
    expect(await config.getByRole('textbox', { name: 'linger.ms', exact: true }).inputValue()).toBe('5');

    await config.getByLabel('Configure').selectOption('client:billing');
    await type(config, 'session.timeout.ms', '2000');
    await expect
      .poll(() => config.getByTestId('config-errors').innerText())
      .toContain('IllegalArgumentException: Heartbeat must be set lower than the session timeout');
    await type(config, 'heartbeat.interval.ms', '500');
    await expect.poll(() => config.getByTestId('config-status').innerText()).toContain('Applied');
    const expected = setConfigValues(
      opening(),
      { scope: 'client', client: 'billing' },
      { 'session.timeout.ms': 2000, 'heartbeat.interval.ms': 500 },
    );
    await expect.poll(() => traceHash(page)).toBe(runScenario(expected).traceHash);
    expect(await traceHash(page)).not.toBe(original);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the documentation in Korean once the reader picks Korean, and Kafka's messages quoted in English", async () => {
    const { page, errors, config } = await open();
    await closeConfig(page);
    await page.getByRole('button', { name: '한국어' }).click();
    await openConfig(page);
    const row = config.locator('[data-key="transactional.id"]');
    await expect.poll(() => row.textContent()).toContain(DOCS_KO.producer['transactional.id']);
    expect(await config.innerText()).toContain(CONFIG_STRINGS.ko.messagesInEnglish);
    await type(config, 'linger.ms', 'soon');
    // a Korean sentence, then Kafka's own text in code, marked translate="no"
    await expect
      .poll(() => config.getByTestId('config-errors').innerText())
      .toContain('linger.ms의 값을 64비트 정수(LONG) 숫자로 읽을 수 없습니다(받은 값: "soon").');
    const quote = config.getByTestId('config-errors').getByTestId('kafka-quote');
    expect(await quote.innerText()).toBe('ConfigException: Invalid value soon for configuration linger.ms: Not a number of type LONG');
    expect(await quote.getAttribute('translate')).toBe('no');
    expect(await quote.evaluate((el) => el.tagName)).toBe('CODE');
    expect(errors).toEqual([]);
    await page.close();
  });
});
