/**
 * An operator's kafka-transactions.sh abort from the page: on hanging-transaction, the record of the
 * hanging transaction (orders-0@1) offers "Abort its transaction as an operator"; clicking it forks
 * the run with an abortTransaction fault, and the read_committed reader is no longer stalled. In
 * Korean the action and its warning are Korean.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { abortTransactionNow } from '../src/sim/scenario/edits';
import type { Scenario } from '../src/sim/scenario/schema';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';
import { verdictRows } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const hanging = (): Scenario => {
  const p = findPreset('hanging-transaction');
  if (!p) throw new Error('hanging-transaction is missing');
  return p.scenario;
};
const seek = (page: Page, step: number) => page.evaluate((s) => window.__eosLab?.store.getState().seek(s), step);
const traceHash = (page: Page) => page.getByTestId('trace-hash').getAttribute('data-trace-hash');

describe('abort a hanging transaction as an operator', () => {
  it('from the record of the hanging transaction: the LSO is released and the read_committed reader receives evt-click-1', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}#preset=hanging-transaction`);
    await page.getByTestId('verdict').waitFor();
    const s = hanging();
    const trace = runScenario(s);
    const end = trace.steps.length;
    await seek(page, end);
    await expect.poll(async () => (await verdictRows(page)).map((r) => r.status)).toContain('stalled');
    const panel = page.getByRole('region', { name: 'Inject a failure' });

    // a plain record offers no abort
    await page.evaluate(() => window.__eosLab?.store.getState().select({ kind: 'record', topic: 'orders', partition: 0, offset: 2 }));
    await panel.getByTestId('record-actions').waitFor();
    await expect(panel.getByRole('button', { name: /Abort its transaction as an operator/ }).count()).resolves.toBe(0);

    await page.evaluate(() => window.__eosLab?.store.getState().select({ kind: 'record', topic: 'orders', partition: 0, offset: 1 }));
    const button = panel.getByRole('button', {
      name: 'Abort its transaction as an operator (kafka-transactions.sh abort --start-offset 1)',
    });
    await button.waitFor();
    await panel.getByText('For hanging transactions only').waitFor();
    await button.click();
    await expect
      .poll(() => panel.getByTestId('inject-status').innerText())
      .toContain('abort the transaction starting at offset 1 of orders-0');
    const expected = abortTransactionNow(s, { trace, step: end, topic: 'orders', partition: 0, startOffset: 1 });
    if (!expected.ok) throw new Error(expected.reason);
    const after = runScenario(expected.scenario);
    await expect.poll(() => traceHash(page)).toBe(after.traceHash);
    await seek(page, after.steps.length);
    await expect
      .poll(async () => (await verdictRows(page)).filter((r) => r.subject === 'committed-reader').map((r) => `${r.layer}:${r.status}`))
      .toEqual(['delivery:once', 'processing:once']);

    // the abort's own step says what the tool did
    const abortStep = after.steps.findIndex((x) => x.kind === 'fault' && x.label === 'operatorAbortTransaction') + 1;
    await seek(page, abortStep);
    await expect
      .poll(() => page.getByTestId('narration').innerText())
      .toContain('An operator ran kafka-transactions.sh abort --topic orders --partition 0 --start-offset 1');

    // in Korean, the action and its warning are Korean
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage?.('ko'));
    await page.evaluate(() => window.__eosLab?.store.getState().select({ kind: 'record', topic: 'orders', partition: 0, offset: 1 }));
    await page.evaluate((n) => window.__eosLab?.store.getState().seek(n), end);
    const ko = page.getByRole('region', { name: '장애 주입' });
    await ko.getByRole('button', { name: '운영자로서 이 트랜잭션 중단하기 (kafka-transactions.sh abort --start-offset 1)' }).waitFor();
    await ko.getByText('행잉 트랜잭션에만 쓰세요').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
