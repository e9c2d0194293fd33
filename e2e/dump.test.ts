/**
 * Importing a kafka-dump-log.sh dump in Chromium: a file dropped on the import panel (a real
 * broker's 4.0 shape) shows one lane and the LSO pinned by producerId 4003 at offset 5; the two
 * segments of a partition whose transaction spans them show as one lane; a malformed paste names
 * its line; the dump's link reopens it in a fresh page; an imported dump is a history entry, its
 * link in the address.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bigDump } from '../bench/dumpData';
import { findPreset } from '../src/sim';
import { MAX_LINKABLE_TEXT } from '../src/ui/dump/dumpLink';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const fixture = (name: string) => readFileSync(new URL(`../tests/fixtures/dumps/${name}`, import.meta.url), 'utf8');

async function dropFiles(page: Page, files: { name: string; text: string }[]): Promise<void> {
  const zone = page.getByTestId('dump-import');
  const dt = await page.evaluateHandle((fs) => {
    const d = new DataTransfer();
    for (const f of fs) d.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    return d;
  }, files);
  await zone.dispatchEvent('drop', { dataTransfer: dt });
}

describe('dump import', () => {
  it('one view at a time: over the dump form Configuration, Share and Embed say why they wait; Compare A/B replaces the dump and closes to the simulator', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}#preset=zombie-fencing`);
    await page.getByTestId('timeline').waitFor();
    const title = findPreset('zombie-fencing')!.title;
    await page.getByTestId('import-dump').click();
    await page.getByTestId('dump-import').waitFor();

    // (a) the configuration belongs to the hidden run: the button waits, and says why
    const config = page.getByTestId('open-config');
    expect(await config.isDisabled()).toBe(true);
    expect(await config.getAttribute('title')).toContain('close the dump view');
    await config.click({ force: true });
    // (d) Share and Embed would link the hidden run
    for (const id of ['open-share', 'open-embed']) {
      const button = page.getByTestId(id);
      expect(await button.isDisabled()).toBe(true);
      expect(await button.getAttribute('title')).toContain('dump view hides');
    }
    await page.getByTestId('open-share').click({ force: true });
    expect(await page.getByTestId('share-link').count()).toBe(0);
    // Break it would search the hidden run (it stayed enabled, and opened over the dump form)
    const breakIt = page.getByTestId('open-break-it');
    expect(await breakIt.isDisabled()).toBe(true);
    expect(await breakIt.getAttribute('title')).toContain('dump view hides');
    await breakIt.click({ force: true });
    expect(await page.getByTestId('break-it').count()).toBe(0);
    // Cancel: the simulator, and no sheet pops up unasked
    await page.getByTestId('dump-import').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('timeline').waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByTestId('config-editor').count()).toBe(0);
    expect(await page.getByTestId('open-config').isDisabled()).toBe(false);
    expect(await page.getByTestId('open-break-it').isDisabled()).toBe(false);

    // (b) Compare A/B over the dump form: the comparison replaces it, and the header names the run
    await page.getByTestId('import-dump').click();
    await page.getByTestId('dump-import').waitFor();
    await page.getByTestId('open-compare').click();
    await page.getByTestId('compare-view').waitFor();
    expect(await page.getByTestId('dump-heading').count()).toBe(0);
    expect(await page.getByTestId('dump-import').count()).toBe(0);
    await expect.poll(() => page.locator('.scenario-title h2').innerText()).toBe(title);
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#ab=1\./);
    // (c) Back to the simulator: the simulator, its own address
    await page.getByTestId('compare-close').click();
    await page.getByTestId('timeline').waitFor();
    expect(await page.getByTestId('dump-import').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1\./);
    expect(await page.evaluate(() => window.__eosLab?.store.getState().scenario?.id)).toBe('zombie-fencing');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a dropped dump shows its lane and the LSO pinned by the right producer', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('import-dump').click();
    await dropFiles(page, [{ name: '00000000000000000000.log.txt', text: fixture('kafka/kafka-4.0-print-data-log.txt') }]);
    await page.getByTestId('dump-view').waitFor();
    await expect
      .poll(() => page.getByTestId('lso-payments-0').innerText())
      .toBe('LSO 5: pinned by producerId 4003, epoch 0, open since offset 5');
    const lane = page.getByRole('img', { name: /^payments-0: / });
    await expect.poll(() => lane.getAttribute('data-offsets')).toBe('0 1 2 3 4 5 6 7 8');
    expect(await page.getByTestId('findings-payments-0').innerText()).toContain('4001');
    expect(await page.getByTestId('dump-duplicates').innerText()).toContain('pay-1');
    await screenshot(page, 'dump-import');

    // the link carries the dump: a fresh page opens it
    await page.getByTestId('dump-copy-link').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#dump=1\./);
    const url = page.url();
    const again = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await gotoWorkspace(again, url);
    await expect
      .poll(() =>
        again
          .getByTestId('lso-payments-0')
          .innerText()
          .catch(() => ''),
      )
      .toContain('producerId 4003');
    await again.close();

    await page.getByTestId('dump-close').click();
    await page.getByTestId('timeline').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an imported dump is a history entry named by its link: Back returns to the run it was imported over, Forward reopens it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}#preset=zombie-fencing&step=7`);
    await page.getByTestId('timeline').waitFor();
    // the run's own address, once hashSync has written it
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1\./);
    const runAddress = await page.evaluate(() => location.hash);
    const entries = await page.evaluate(() => history.length);
    await page.getByTestId('import-dump').click();
    await dropFiles(page, [{ name: '00000000000000000000.log.txt', text: fixture('kafka/kafka-4.0-print-data-log.txt') }]);
    await page.getByTestId('dump-view').waitFor();
    // the address says where the person is (no Copy link needed), in an entry of its own
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#dump=1\./);
    expect(await page.evaluate(() => history.length)).toBe(entries + 1);
    const dumpAddress = await page.evaluate(() => location.hash);
    await page.goBack();
    await page.getByTestId('timeline').waitFor();
    expect(await page.getByTestId('dump-view').count()).toBe(0);
    expect(await page.evaluate(() => location.hash)).toBe(runAddress);
    expect(await page.evaluate(() => window.__eosLab?.store.getState().scenario?.id)).toBe('zombie-fencing');
    expect(await page.evaluate(() => window.__eosLab?.store.getState().step)).toBe(7);
    await page.goForward();
    await expect
      .poll(() =>
        page
          .getByTestId('lso-payments-0')
          .innerText()
          .catch(() => ''),
      )
      .toContain('producerId 4003');
    expect(await page.evaluate(() => location.hash)).toBe(dumpAddress);

    // a dump too large for a link: its entry keeps the run's address, and Back still closes it
    await page.goBack();
    await page.getByTestId('timeline').waitFor();
    await page.getByTestId('import-dump').click();
    await dropFiles(page, [{ name: 'big.log.txt', text: bigDump(5000) }]);
    await page.getByRole('img', { name: /^bench-0: / }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe(runAddress);
    await page.goBack();
    await page.getByTestId('timeline').waitFor();
    expect(await page.getByTestId('dump-view').count()).toBe(0);
    expect(await page.evaluate(() => window.__eosLab?.store.getState().scenario?.id)).toBe('zombie-fencing');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a dump too large for a link is read by the worker, drawn, and says it has no link', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('import-dump').click();
    const text = bigDump(5000);
    expect(text.length).toBeGreaterThan(MAX_LINKABLE_TEXT);
    await dropFiles(page, [{ name: 'big.log.txt', text }]);
    const lane = page.getByRole('img', { name: /^bench-0: / });
    await lane.waitFor();
    const link = page.getByTestId('dump-copy-link');
    expect(await link.isDisabled()).toBe(true);
    expect(await link.innerText()).toMatch(/too (long|large)/i);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('two segments of one partition are one lane; a malformed paste names the line', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('import-dump').click();
    await page.getByTestId('dump-text').fill(fixture('malformed/bad-number.txt'));
    await page.getByTestId('dump-open').click();
    await expect
      .poll(() => page.getByTestId('dump-errors').innerText())
      .toContain('pasted, line 3: expected a whole number in "producerId: abc"');
    // in Korean the pasted text is named in Korean too (it said "pasted 3번째 줄")
    await page.getByRole('button', { name: '한국어', exact: true }).click();
    await expect.poll(() => page.getByTestId('dump-errors').innerText()).toContain('붙여 넣은 텍스트 3번째 줄');
    expect(await page.getByTestId('dump-errors').innerText()).not.toContain('pasted');
    await page.getByRole('button', { name: 'English', exact: true }).click();
    await dropFiles(page, [
      { name: 'seg-3.txt', text: fixture('kafka/spanning-segment-3.txt') },
      { name: 'seg-0.txt', text: fixture('kafka/spanning-segment-0.txt') },
    ]);
    await page.getByTestId('dump-view').waitFor();
    await expect
      .poll(() => page.getByTestId('lso-ledger-0').innerText())
      .toContain('pinned by producerId 3200, epoch 0, open since offset 2');
    expect(await page.getByRole('img', { name: /^ledger-/ }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
