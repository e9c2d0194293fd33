/**
 * Text from a link is rendered as text, never as HTML. Scenarios whose titles, questions, keys,
 * values, header names and values and notes — and, in invalid ones, topic names, config keys and
 * unknown field names that come back in error messages — carry HTML and script are opened in the
 * production app through the URL fragment (share links, src/sim/scenario/link.ts), with a record
 * selected so its details are drawn, and played to the end. No payload script runs (a window flag
 * stays unset), no injected element exists, no injected image is requested, and the payloads are
 * visible as text.
 */
import { deflateSync, strToU8 } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toBase64Url } from '../src/sim/scenario/base64url';
import { encodeLink, type LinkView } from '../src/sim/scenario/link';
import { LINK_DICTIONARY_V1 } from '../src/sim/scenario/linkDictionary';
import type { Scenario } from '../src/sim/scenario/schema';
import { gotoWorkspace, launchBrowser, screenshot } from './browser';

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

const view = (over: Partial<LinkView> = {}): LinkView => ({ step: 0, selection: null, language: 'en', ...over });

/** A link carrying any JSON document — what a hostile page could hand out. */
function rawLink(doc: unknown): string {
  return `#s=1.${toBase64Url(deflateSync(strToU8(JSON.stringify(doc)), { level: 9, dictionary: strToU8(LINK_DICTIONARY_V1) }))}`;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens the app on a fragment, plays the run to its end, and checks that nothing was injected. */
async function openAndPlay(fragment: string): Promise<Page> {
  const page = await browser.newPage();
  const injectedRequests: string[] = [];
  page.on('request', (r) => {
    if (/x-img|javascript:/.test(r.url())) injectedRequests.push(r.url());
  });
  await gotoWorkspace(page, `${inject('baseUrl')}${fragment}`);
  await page.waitForFunction(() => {
    const status = window.__eosLab?.store.getState().status;
    return status === 'ready' || status === 'error' || document.querySelector('[data-testid="link-error"]') !== null;
  });
  const scripts = await page.evaluate(() => document.scripts.length);
  const steps = await page.evaluate(() => window.__eosLab?.store.getState().trace?.steps.length ?? 0);
  for (let i = 1; i <= steps; i += Math.max(1, Math.floor(steps / 25)))
    await page.evaluate((n) => window.__eosLab?.store.getState().seek(n), i);
  await page.evaluate((n) => window.__eosLab?.store.getState().seek(n), steps);
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.evaluate(() => document.scripts.length)).toBe(scripts);
  const injected = await page.evaluate(
    () => document.querySelectorAll('img, iframe, [onerror], [onload], a[href^="javascript:"], svg[onload]').length,
  );
  expect(injected).toBe(0);
  expect(injectedRequests).toEqual([]);
  return page;
}

describe('HTML and script in a shared scenario render as text', () => {
  it('a valid scenario: title, question, keys, values, headers and notes, with a record selected', async () => {
    const page = await openAndPlay(
      encodeLink(valid, view({ step: 3, selection: { kind: 'record', topic: 'orders', partition: 0, offset: 0 } })),
    );
    expect(await page.evaluate(() => window.__eosLab?.store.getState().scenario?.title)).toBe(IMG);
    const text = await page.locator('body').innerText();
    expect(text).toContain(IMG);
    await screenshot(page, 'bad-input-valid');
    await page.close();
  });

  it('an invalid scenario: names carrying HTML come back in the error details, as text', async () => {
    const page = await openAndPlay(rawLink({ scenario: invalid, view: view() }));
    const alert = await page.getByTestId('link-error').innerText();
    expect(alert).toContain('<img src=x-img');
    await screenshot(page, 'bad-input-invalid');
    await page.close();
  });

  it('malformed documents of every type show a message, not a blank page', async () => {
    const docs = [
      null,
      42,
      'text',
      [],
      { scenario: null, view: null },
      { scenario: { ...valid, clients: IMG }, view: view() },
      { scenario: valid, view: { step: IMG } },
    ];
    for (const doc of docs) {
      const page = await openAndPlay(rawLink(doc));
      expect(await page.getByTestId('link-error').isVisible()).toBe(true);
      await page.close();
    }
    // not a link at all, and a fragment that is pure markup
    for (const fragment of [`#s=1.${encodeURIComponent(IMG)}`, `#${encodeURIComponent(SCRIPT)}`, '#garbage']) {
      const page = await openAndPlay(fragment);
      expect(await page.locator('body').innerText()).not.toBe('');
      // said to be a link that cannot be opened, never replaced by another scenario in silence
      expect(await page.getByTestId('link-error').isVisible(), fragment).toBe(true);
      expect(await page.evaluate(() => window.__eosLab?.store.getState().scenario ?? null), fragment).toBeNull();
      await page.close();
    }
  });
});
