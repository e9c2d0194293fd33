/**
 * An edited run says it is edited, in the real page: drop an ack by clicking, and the header marks the
 * preset's title "edited" (the title once: e2e/edited-header.test.ts) and marks "What you should see"
 * as not describing this run; the address (a share link) opens as edited elsewhere; Korean too;
 * removing the injected fault undoes it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { decodeLink } from '../src/sim/scenario/link';
import { presetOrigin } from '../src/sim/scenario/origin';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { axe, closeConfig, openConfig } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const story = findPreset('opening-story')!;

async function open(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = watchErrors(page);
  await gotoWorkspace(page, url);
  await page.getByRole('heading', { name: story.title }).waitFor();
  return { page, errors };
}

const editedFrom = (page: Page) => page.getByTestId('edited-from');
/** The header's title and its edited badge, as read. */
const titleLine = (page: Page) => page.locator('.scenario-title').innerText();
const applies = (page: Page) => page.getByTestId('expected').getAttribute('data-applies');

describe('an edited run', () => {
  it('marks the preset\'s title "edited", carries it in its link, and stops saying it when the change is undone', async () => {
    const { page, errors } = await open(inject('baseUrl'));
    expect(await editedFrom(page).count()).toBe(0);
    expect(await applies(page)).toBe('true');

    // drop the first ProduceResponse in flight, by clicking
    const trace = runScenario(story.scenario);
    const ack = trace.envelopes.find((e) => e.rpc === 'ProduceResponse');
    if (!ack) throw new Error('no ProduceResponse');
    await page.evaluate((s) => window.__eosLab?.store.getState().seek(s), ack.sentStep + 1);
    const panel = page.getByRole('region', { name: 'Inject a failure' });
    await panel.getByRole('button', { name: new RegExp(`#${ack.id} ProduceResponse`) }).click();
    await panel.getByRole('button', { name: 'Drop', exact: true }).click();

    await expect.poll(() => titleLine(page)).toMatch(new RegExp(`^${story.title}\\s+edited\\s+Back to the preset$`));
    expect(await applies(page)).toBe('false');
    await page.getByTestId('expected').locator('summary').click();
    expect(await page.getByTestId('expected').locator('summary').innerText()).toContain('does not describe this edited run');
    await screenshot(page, 'edited-run');
    // the badge, the note and the struck-through text pass axe (contrast included)
    expect(await axe(page)).toEqual([]);

    // the address is the share link of what is on screen: it opens as edited
    await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(/^#s=1\./);
    await expect
      .poll(async () => {
        const d = decodeLink(await page.evaluate(() => window.location.hash));
        return d.ok ? presetOrigin(d.scenario)?.edited : null;
      })
      .toBe(true);
    const shared = await open(page.url());
    await expect.poll(() => titleLine(shared.page)).toMatch(new RegExp(`^${story.title}\\s+edited\\s+Back to the preset$`));
    expect(await applies(shared.page)).toBe('false');
    // in Korean
    await shared.page.getByRole('button', { name: '한국어' }).click();
    await expect.poll(() => titleLine(shared.page)).toMatch(/\s수정됨\s+프리셋으로 되돌리기$/);
    await expect
      .poll(() => shared.page.getByTestId('expected').locator('summary').innerText())
      .toContain('수정한 이 실행에는 맞지 않습니다');
    expect(shared.errors).toEqual([]);
    await shared.page.close();

    // undo: take the injected fault out again
    await page
      .getByTestId('scenario-faults')
      .getByRole('button', { name: /^Remove/ })
      .click();
    await expect.poll(() => editedFrom(page).count()).toBe(0);
    expect(await applies(page)).toBe('true');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('"Back to the preset" returns to the preset as shipped', async () => {
    const { page, errors } = await open(inject('baseUrl'));
    const config = await openConfig(page);
    await config.getByRole('checkbox', { name: 'enable.idempotence' }).uncheck();
    await closeConfig(page);
    await expect.poll(() => editedFrom(page).count()).toBe(1);
    await page.getByTestId('reset-to-preset').click();
    await expect.poll(() => editedFrom(page).count()).toBe(0);
    expect(await page.getByTestId('trace-hash').getAttribute('data-trace-hash')).toBe(runScenario(story.scenario).traceHash);
    expect(errors).toEqual([]);
    await page.close();
  });
});
