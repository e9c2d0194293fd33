/**
 * A blog post with the embed, sized from its `resize` messages by the listener the Embed dialog gives:
 * while the reader steps through the run, the frame never gets shorter, so the post's text below it
 * does not move up and down at every step. The narration and the verdict's sentences change length
 * from step to step; the frame used to follow each of them, and on a phone the paragraph under the
 * frame jumped by up to 300 px while the run played. It still grows when a step needs more room than
 * any before (nothing inside is cut), and a host of another width starts from the content's own height.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { iframeSnippet, resizeListenerSnippet } from '../src/share/embedSnippets';
import { findPreset } from '../src/sim/presets';
import { encodeLink } from '../src/sim/scenario/link';
import { launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function blogPost(page: Page, language: 'en' | 'ko'): Promise<void> {
  const preset = findPreset('zombie-fencing');
  if (!preset) throw new Error('zombie-fencing');
  const base = inject('baseUrl');
  const link = encodeLink(preset.scenario, { step: 0, selection: null, language });
  const snippet = iframeSnippet({ pageHref: base, link, title: 'zombie fencing', step: 0, autoplay: false, theme: 'light', height: null });
  await page.setContent(
    `<main style="margin:0 8px"><h1>Kafka EOS</h1>${snippet}<p id="after">The paragraph after the frame.</p></main>${resizeListenerSnippet()}`,
  );
  await page.frameLocator('iframe').getByTestId('embed-verdict').waitFor({ timeout: 60_000 });
}

const frameHeight = async (page: Page) => Math.round((await page.locator('iframe').boundingBox())?.height ?? 0);
const paragraphTop = async (page: Page) => Math.round((await page.locator('#after').boundingBox())?.y ?? 0);

describe('the embed in a host page that sizes it', () => {
  for (const language of ['en', 'ko'] as const)
    it(`${language} at 390 px: stepping through the run never makes the frame shorter; what follows it never moves up`, async () => {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      const errors = watchErrors(page);
      await blogPost(page, language);
      const frame = page.frameLocator('iframe');
      // the first height, once the run is on screen (the listener applies it a moment after)
      await expect.poll(() => frameHeight(page), { timeout: 15_000 }).not.toBe(640);
      const next = frame.locator('.eos-embed-playback button').nth(2);
      const heights: number[] = [await frameHeight(page)];
      const tops: number[] = [await paragraphTop(page)];
      const shown = () => frame.getByTestId('embed-step').getAttribute('data-step');
      for (let i = 0; i < 90 && (await next.isEnabled()); i++) {
        // a step forward skips background steps, as the app's does
        const before = await shown();
        await next.click();
        await expect.poll(shown).not.toBe(before);
        // the frame's resize message and the host's listener: a frame later
        await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
        heights.push(await frameHeight(page));
        tops.push(await paragraphTop(page));
      }
      const shrinks = heights.flatMap((h, i) => (i > 0 && h < (heights[i - 1] ?? 0) ? [`click ${i}: ${heights[i - 1]} → ${h}`] : []));
      expect(shrinks).toEqual([]);
      const upward = tops.flatMap((y, i) => (i > 0 && y < (tops[i - 1] ?? 0) ? [`click ${i}: ${tops[i - 1]} → ${y}`] : []));
      expect(upward).toEqual([]);
      // nothing inside is cut: the frame is as tall as its content at its tallest
      const content = await frame.locator('#root').evaluate((e) => Math.ceil(e.getBoundingClientRect().height));
      expect(await frameHeight(page)).toBeGreaterThanOrEqual(content);
      await screenshot(page, `embed-steady-height-${language}`);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('a new width starts from the content’s own height again (a narrower column makes it taller, a wider one shorter)', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchErrors(page);
    await blogPost(page, 'en');
    const frame = page.frameLocator('iframe');
    const content = () => frame.locator('#root').evaluate((e) => Math.ceil(e.getBoundingClientRect().height));
    await expect.poll(async () => Math.abs((await frameHeight(page)) - (await content())), { timeout: 15_000 }).toBeLessThanOrEqual(1);
    const narrow = await frameHeight(page);
    await page.setViewportSize({ width: 1000, height: 844 });
    await expect.poll(async () => Math.abs((await frameHeight(page)) - (await content())), { timeout: 15_000 }).toBeLessThanOrEqual(1);
    expect(await frameHeight(page)).toBeLessThan(narrow);
    expect(errors).toEqual([]);
    await page.close();
  });
});
