/**
 * The embed's language, for a blog post in Korean: `<eos-lab lang="ko">` opens a shipped scenario in
 * Korean whatever the reader's browser says (the loader passed step, theme and height, not lang, so
 * the frame followed the reader: English for an English-speaking reader of a Korean post), and
 * `lang="en"` the other way. The frame's document says the language it shows (embed.html said `en`
 * around a Korean run, whose <main> alone said `ko`).
 */
import type { Frame, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { watchErrors } from './browser';
import { browserSession } from './ui-helpers';

const session = browserSession();
const KO_TITLE = PRESET_TEXT_KO['zombie-fencing']?.title ?? '';
const EN_TITLE = /^Zombie fencing/;

/** A host page (a blog post in Korean), its `<eos-lab>` elements loaded from the build. */
async function host(locale: string, body: string): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 900, height: 900 }, locale });
  const errors = watchErrors(page);
  const html = `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>블로그</title>
    <script src="${inject('baseUrl')}eos-lab.js" defer></script></head><body>${body}</body></html>`;
  // served beside the build (a page on another host may not load a script from 127.0.0.1: Chromium's
  // private network access); the frame is sandboxed, an opaque origin, either way
  const url = `${inject('baseUrl')}blog-post.html`;
  await page.route(url, (r) => r.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }));
  await page.goto(url);
  return { page, errors };
}

/** The embed frames of the page, once each shows its run's title. */
async function frames(page: Page, count: number): Promise<Frame[]> {
  await expect.poll(() => page.frames().filter((f) => f.url().includes('embed.html')).length, { timeout: 30_000 }).toBe(count);
  const list = page.frames().filter((f) => f.url().includes('embed.html'));
  for (const f of list) await f.locator('h1').waitFor({ timeout: 60_000 });
  return list;
}

const title = (f: Frame) => f.locator('h1').innerText();
const documentLanguage = (f: Frame) => f.evaluate(() => document.documentElement.lang);

describe('the language of an embedded scenario', () => {
  it('lang="ko" opens a preset in Korean for a reader whose browser speaks English; lang="en" in English for a Korean one', async () => {
    for (const [locale, lang, expected] of [
      ['en-US', 'ko', KO_TITLE],
      ['ko-KR', 'en', EN_TITLE],
    ] as const) {
      const { page, errors } = await host(locale, `<eos-lab scenario="zombie-fencing" lang="${lang}"></eos-lab>`);
      const [frame] = await frames(page, 1);
      if (!frame) throw new Error('no frame');
      await expect.poll(() => title(frame), { timeout: 30_000 }).toMatch(expected);
      expect(await documentLanguage(frame)).toBe(lang);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('without lang the frame follows the reader, and its document says the language it shows', async () => {
    const { page, errors } = await host('ko-KR', '<eos-lab scenario="zombie-fencing"></eos-lab>');
    const [frame] = await frames(page, 1);
    if (!frame) throw new Error('no frame');
    await expect.poll(() => title(frame), { timeout: 30_000 }).toBe(KO_TITLE);
    expect(await documentLanguage(frame)).toBe('ko');
    expect(errors).toEqual([]);
    await page.close();
  });
});
