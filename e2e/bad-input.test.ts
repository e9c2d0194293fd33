/**
 * Text from a scenario is rendered as text, never as HTML. Scenarios whose titles, questions, keys,
 * values, header names and values, notes — and, in invalid ones, topic names, config keys and
 * unknown field names that end up in error messages — carry HTML and script are loaded into the
 * real App through the store (the share-link fragment is not on main yet; see docs/proof.md), the
 * run is played to its end, and: no payload script runs (a window flag stays unset), no injected
 * element exists, no request for an injected image is made, and the payloads are visible as text.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Scenario } from '../src/sim/scenario/schema';
import { launchBrowser, screenshot } from './browser';
import { openHarness } from './harness/build';

const PAYLOADS = [
  `<img src=x-img onerror="window.__xss='img'">`,
  `<script>window.__xss='script'</script>`,
  `"><svg onload="window.__xss='svg'"></svg>`,
  `<iframe srcdoc="<script>parent.__xss='iframe'</script>"></iframe>`,
  `<a href="javascript:window.__xss='href'">x</a>`,
  `{{constructor.constructor('window.__xss=1')()}}`,
];
const [IMG, SCRIPT, SVG, IFRAME, LINK, TEMPLATE] = PAYLOADS as [string, string, string, string, string, string];

const valid: Scenario = {
  version: 1,
  seed: 1,
  title: IMG,
  question: PAYLOADS.join(' '),
  expected: SCRIPT,
  description: SVG,
  topics: [{ name: 'orders', partitions: 1 }],
  clients: [
    {
      id: 'p1',
      type: 'producer',
      script: [
        { op: 'send', topic: 'orders', key: IMG, value: SCRIPT, headers: { event_id: SVG, [IFRAME]: LINK }, note: TEMPLATE },
        { op: 'send', topic: 'orders', key: LINK, value: IFRAME, headers: { [IMG]: SCRIPT }, note: IMG },
      ],
    },
    { id: 'c1', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['orders'] },
  ],
  faults: [{ type: 'drop', rpc: 'ProduceResponse', nth: 1, note: SVG }],
};

/** Invalid on purpose: the offending names come back in error messages. */
const invalid = {
  version: 1,
  seed: 1,
  title: SCRIPT,
  [IMG]: 1,
  topics: [{ name: IMG }],
  clients: [{ id: 'p1', type: 'producer', config: { [SVG]: IFRAME }, script: [{ op: 'send', topic: LINK, key: null, value: null }] }],
};

let browser: Browser;
let page: Page;
const injectedRequests: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on('request', (r) => {
    if (/x-img|javascript:/.test(r.url())) injectedRequests.push(r.url());
  });
  await openHarness(page, inject('baseUrl'));
});
afterAll(async () => {
  await browser?.close();
});

type H = {
  __eosHarness: { load(s: unknown): void; seek(n: number): void; state(): { steps: number; errors: number; title: string | null } };
};

async function loadAndPlay(scenario: unknown): Promise<{ steps: number; errors: number; title: string | null }> {
  const scripts = await page.evaluate(() => document.scripts.length);
  await page.evaluate((s) => (window as unknown as H).__eosHarness.load(s), scenario);
  const state = await page.evaluate(() => (window as unknown as H).__eosHarness.state());
  // play it: every step to the end, so every label, record and error the run produces is drawn
  for (let i = 1; i <= state.steps; i += Math.max(1, Math.floor(state.steps / 25))) {
    await page.evaluate((n) => (window as unknown as H).__eosHarness.seek(n), i);
  }
  await page.evaluate((n) => (window as unknown as H).__eosHarness.seek(n), state.steps);
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.evaluate(() => document.scripts.length)).toBe(scripts);
  const injected = await page.evaluate(
    () => document.querySelectorAll('img, iframe, [onerror], [onload], a[href^="javascript:"], svg[onload]').length,
  );
  expect(injected).toBe(0);
  expect(injectedRequests).toEqual([]);
  return state;
}

describe('HTML and script in a scenario render as text', () => {
  it('a valid scenario: title, question, keys, values, headers and notes', async () => {
    const state = await loadAndPlay(valid);
    expect(state.errors).toBe(0);
    expect(state.title).toBe(IMG);
    expect(state.steps).toBeGreaterThan(10);
    const text = await page.locator('body').innerText();
    expect(text).toContain(IMG);
    expect(text).toContain(SCRIPT);
    await screenshot(page, 'bad-input-valid');
  });

  it('an invalid scenario: names carrying HTML come back in error messages, as text', async () => {
    const state = await loadAndPlay(invalid);
    expect(state.errors).toBeGreaterThan(0);
    const alert = await page.getByRole('alert').innerText();
    expect(alert).toContain('<img src=x-img');
    await screenshot(page, 'bad-input-invalid');
  });

  it('malformed values of every type do not break the page', async () => {
    for (const bad of [null, 42, 'text', [], { version: 1 }, { ...valid, clients: IMG }, { ...valid, topics: [{ name: SCRIPT }] }]) {
      const state = await loadAndPlay(bad);
      expect(state.errors).toBeGreaterThan(0);
      expect(await page.getByRole('alert').isVisible()).toBe(true);
    }
  });
});
