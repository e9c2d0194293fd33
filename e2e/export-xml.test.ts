/**
 * Every export format parses, even from a scenario whose title, keys, header names and values and
 * group id carry control characters (U+0001–U+001F, DEL, C1): the SVG through Chromium's XML parser
 * (DOMParser, image/svg+xml — strict, unlike happy-dom's), the PNG by its signature, the scenario and
 * trace JSON through JSON.parse (the scenario unchanged). Importing bad input back says what is wrong.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scenario } from '../src/sim/scenario/schema';
import { launchBrowser, watchErrors } from './browser';
import { loadScenario, openPage } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CONTROLS = `${Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('')}\u007f\u0085\u009b`;

const hostile: Scenario = {
  version: 1,
  seed: 4,
  title: `bad title ${CONTROLS}`,
  topics: [{ name: 'orders' }],
  clients: [
    {
      id: 'p',
      type: 'producer',
      script: [
        {
          op: 'send',
          topic: 'orders',
          key: `key ${CONTROLS}`,
          value: `value ${CONTROLS}`,
          headers: { event_id: `evt ${CONTROLS}`, [`name ${CONTROLS}`]: `header ${CONTROLS}` },
        },
      ],
    },
    { id: 'c', type: 'consumer', config: { 'group.id': `group ${CONTROLS}`, 'auto.offset.reset': 'earliest' }, topics: ['orders'] },
  ],
};

async function save(page: Page, name: string): Promise<Buffer> {
  const dialog = page.getByTestId('export-dialog');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name }).click()]);
  return readFileSync(await download.path());
}

describe('exports of a scenario full of control characters', () => {
  it('SVG parses as XML in Chromium, PNG is a PNG, both JSON files parse', async () => {
    const page = await openPage(browser);
    const errors = watchErrors(page);
    await loadScenario(page, hostile);
    await page.evaluate(() => window.__eosLab?.store.getState().seek(Number.MAX_SAFE_INTEGER));
    await page.getByTestId('open-export').click();

    const svg = (await save(page, 'Figure as SVG')).toString('utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const error = doc.getElementsByTagName('parsererror')[0];
      return {
        error: error?.textContent ?? null,
        root: doc.documentElement.localName,
        title: doc.querySelector('title')?.textContent ?? '',
      };
    }, svg);
    expect(parsed).toMatchObject({ error: null, root: 'svg' });
    expect(parsed.title).toContain('bad title');
    expect(svg).toContain('orders-0');

    const png = await save(page, 'Figure as PNG (2×)');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(JSON.parse((await save(page, 'Scenario as JSON')).toString('utf8'))).toEqual(hostile);
    const trace = JSON.parse((await save(page, 'Trace as JSON')).toString('utf8'));
    expect(trace.summary.scenario.title).toBe(hostile.title);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('imports a scenario with a byte order mark, and says what is wrong with an array or a __proto__ key', async () => {
    const page = await openPage(browser);
    const errors = watchErrors(page);
    await page.getByTestId('open-export').click();
    const dialog = page.getByTestId('export-dialog');
    const paste = dialog.getByTestId('import-text');
    const open = () => dialog.getByRole('button', { name: 'Open it' }).click();

    await paste.fill(`[${JSON.stringify(hostile)}]`);
    await open();
    await expect.poll(() => dialog.getByTestId('import-errors').innerText()).toContain('a scenario is a JSON object');
    await paste.fill(JSON.stringify(hostile).replace('"config":{', '"config":{"__proto__":"x",'));
    await open();
    await expect.poll(() => dialog.getByTestId('import-errors').innerText()).toContain('clients[1].config["__proto__"]');
    await paste.fill(`\uFEFF${JSON.stringify(hostile)}`);
    await open();
    // it opens: the dialog closes on the imported scenario
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.scenario-title h2').innerText()).toContain('bad title');
    expect(errors).toEqual([]);
    await page.close();
  });
});
