/**
 * Two `<eos-lab>` elements side by side in a post, neither given a `title`: each frame is named by
 * the scenario it shows, in the frame's language ("EOS Lab: 좀비 펜싱: …"). Both used to be
 * "EOS Lab: Kafka exactly-once simulation", in English, so a screen reader's list of frames could
 * not tell them apart. A `title` the host gives is kept.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { watchErrors } from './browser';
import { browserSession } from './ui-helpers';

const session = browserSession();

async function post(body: string): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 900, height: 900 }, locale: 'en-US' });
  const errors = watchErrors(page);
  const html = `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>블로그</title>
    <script src="${inject('baseUrl')}eos-lab.js" defer></script></head>
    <body><div style="display:flex;gap:12px">${body}</div></body></html>`;
  // served beside the build: a page on another host may not load a script from 127.0.0.1 (Chromium's private network access)
  const url = `${inject('baseUrl')}blog-titles.html`;
  await page.route(url, (r) => r.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }));
  await page.goto(url);
  return { page, errors };
}

const frameTitles = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll('eos-lab')].map((e) => e.shadowRoot?.querySelector('iframe')?.title ?? ''));

describe('the frames’ accessible names', () => {
  it('two frames without a title are named by their scenarios, in their language; a title given is kept', async () => {
    const { page, errors } = await post(
      '<eos-lab scenario="lost-ack-no-idempotence" lang="ko" style="flex:1"></eos-lab>' +
        '<eos-lab scenario="lost-ack-idempotent" lang="ko" style="flex:1"></eos-lab>' +
        '<eos-lab scenario="zombie-fencing" title="좀비 펜싱 예제" style="flex:1"></eos-lab>',
    );
    const expected = [
      `EOS Lab: ${PRESET_TEXT_KO['lost-ack-no-idempotence']?.title}`,
      `EOS Lab: ${PRESET_TEXT_KO['lost-ack-idempotent']?.title}`,
      '좀비 펜싱 예제',
    ];
    await expect.poll(() => frameTitles(page), { timeout: 60_000 }).toEqual(expected);
    expect(errors).toEqual([]);
    await page.close();
  });
});
