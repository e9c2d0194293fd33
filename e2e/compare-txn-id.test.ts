/**
 * A/B has no transactional.id select, and says why: a transactional.id is the application's choice,
 * not a setting alone — with one, the producer is idempotent with acks=all and KafkaProducer refuses
 * every send() outside a transaction, so a script that begins none would only fail; a script that
 * begins transactions cannot run without one. For each producer of A the comparison says which case
 * it is, and a button closes A/B and opens that client in Configuration, where the change is made.
 * In English and Korean (the Korean words checked against the page's allow-list of Latin words), at
 * 1280×800 and on a phone.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { allowList, englishWords, scenarioWords } from './korean-words';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openCompare(
  preset: string,
  language: 'en' | 'ko',
  size = { width: 1280, height: 800 },
): Promise<{ page: Page; errors: string[] }> {
  const phone = size.width < 700;
  const page = await browser.newPage({ viewport: size, hasTouch: phone, isMobile: phone });
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=${preset}&lang=${language}`);
  await page.getByTestId('verdict').waitFor();
  await page.getByTestId('open-compare').click();
  await page.getByTestId('compare-view').getByTestId('compare-settings').waitFor();
  return { page, errors };
}

describe('A/B: why there is no transactional.id switch', () => {
  it('en: a transactional producer — the script needs it; the button opens Configuration at the client', async () => {
    const { page, errors } = await openCompare('zombie-fencing', 'en');
    const settings = page.getByTestId('compare-settings');
    // no B select for transactional.id: the selects are the settings A/B may change
    expect(await settings.locator('[data-testid$=":transactional.id"]').count()).toBe(0);
    const note = settings.getByTestId('compare-txn-id');
    await note.getByText('Why B has no transactional.id switch').click();
    const producer = note.locator('p[data-client]').first();
    const id = await producer.getAttribute('data-client');
    expect(await producer.innerText()).toMatch(/has transactional\.id=\S+, and its script begins and commits transactions/);
    expect(await note.innerText()).toContain('processing.mode exactly-once');
    await screenshot(page, 'compare-txn-id-en');
    await note.getByTestId(`compare-config-${id}`).click();
    // A/B closed, the configuration open at that client
    await page.getByTestId('config-editor').waitFor();
    expect(await page.getByTestId('compare-view').count()).toBe(0);
    expect(await page.getByTestId('config-section').inputValue()).toBe(`client:${id}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('en: a producer without transactions — a transactional.id would only have its sends refused', async () => {
    const { page, errors } = await openCompare('lost-ack-idempotent', 'en');
    const note = page.getByTestId('compare-settings').getByTestId('compare-txn-id');
    await note.locator('summary').click();
    const text = await note.locator('p[data-client]').first().innerText();
    expect(text).toContain('begins no transaction');
    expect(text).toContain('IllegalStateException');
    expect(text).toContain('idempotent, acks=all');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('ko, on a phone: Korean words only, the note and its button inside the screen', async () => {
    const { page, errors } = await openCompare('zombie-fencing', 'ko', { width: 390, height: 844 });
    const note = page.getByTestId('compare-settings').getByTestId('compare-txn-id');
    await note.locator('summary').click();
    expect(await note.locator('summary').innerText()).toBe('B에 transactional.id 스위치가 없는 이유');
    const all = await note.innerText();
    expect(all).toContain('스크립트가 트랜잭션을 시작하고 커밋합니다');
    // no English word outside Kafka's names and the run's identifiers
    const preset = findPreset('zombie-fencing');
    if (!preset) throw new Error('no zombie-fencing');
    expect(englishWords(all, allowList(scenarioWords(preset.scenario)))).toEqual([]);
    const button = note.locator('button').first();
    const box = await button.boundingBox();
    if (!box) throw new Error('no button');
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'compare-txn-id-ko-phone');
    expect(errors).toEqual([]);
    await page.close();
  });
});
