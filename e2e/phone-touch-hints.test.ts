/**
 * The timelines' hints say what a finger does on a touch screen: "Drag sideways to pan, pinch to
 * zoom, tap a record to select it" — a phone has no wheel, no Ctrl and no arrow keys, and the hints
 * spoke only of those ("Drag to pan, Ctrl + wheel to zoom. Focus the lanes: ← → …"). With a mouse the
 * hints are the keyboard's and the wheel's, as before. And what the touch hint says holds: two
 * fingers spreading over the message diagram zoom it (Chromium's own touch events).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(touch: boolean, language: 'en' | 'ko'): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const size = touch ? { width: 390, height: 844 } : { width: 1280, height: 800 };
  const context = await browser.newContext({ viewport: size, hasTouch: touch, isMobile: touch });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=zombie-fencing&step=200&lang=${language}`);
  await page.getByTestId('msc').locator('canvas[role="img"]').waitFor();
  return { context, page, errors };
}

const hint = (page: Page, panel: 'logs' | 'msc') => page.getByTestId(panel).locator('.tl-hint').innerText();

describe('timeline hints for a finger', () => {
  it('en, on a touch phone: drag, pinch and tap; no wheel, Ctrl or arrow keys', async () => {
    const { context, page, errors } = await open(true, 'en');
    const logs = await hint(page, 'logs');
    expect(logs).toBe('Drag sideways to pan, pinch to zoom, tap a record to select it.');
    const msc = await hint(page, 'msc');
    expect(msc).toContain('Drag sideways to pan, pinch to zoom, tap an arrow to select it.');
    for (const text of [logs, msc]) expect(text).not.toMatch(/Ctrl|wheel|←|Enter/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('ko, on a touch phone', async () => {
    const { context, page, errors } = await open(true, 'ko');
    expect(await hint(page, 'logs')).toBe('옆으로 끌어 이동, 두 손가락으로 확대/축소, 레코드를 누르면 선택.');
    expect(await hint(page, 'msc')).toContain('화살표를 누르면 선택.');
    expect(await hint(page, 'msc')).not.toContain('Enter');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with a mouse: the wheel and the keys, as before', async () => {
    const { context, page, errors } = await open(false, 'en');
    expect(await hint(page, 'logs')).toContain('Ctrl + wheel to zoom');
    expect(await hint(page, 'msc')).toContain('← → move between envelopes');
    expect(await hint(page, 'msc')).not.toContain('pinch');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('two fingers spreading over the message diagram zoom it', async () => {
    const { context, page, errors } = await open(true, 'en');
    const msc = page.getByTestId('msc');
    const canvas = msc.locator('canvas').last();
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no canvas');
    const ticks = () => msc.locator('.tl-msc-axis text').allTextContents();
    const before = await ticks();
    const cdp = await context.newCDPSession(page);
    const x = Math.round(box.x + box.width / 2);
    const y = Math.round(box.y + 80);
    const fingers = (d: number) => [
      { x: x - d, y, id: 0 },
      { x: x + d, y, id: 1 },
    ];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(10) });
    for (let d = 20; d <= 90; d += 10) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(d) });
      await page.waitForTimeout(16);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    // zoomed in: the axis shows fewer steps, spaced wider
    await expect.poll(ticks).not.toEqual(before);
    const span = (t: string[]) => Number(t.at(-1)?.replace(/\D/g, '')) - Number(t[0]?.replace(/\D/g, ''));
    expect(span(await ticks())).toBeLessThan(span(before));
    expect(errors).toEqual([]);
    await context.close();
  });
});
