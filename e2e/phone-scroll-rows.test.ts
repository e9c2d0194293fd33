/**
 * On a phone the playback bar's row of the switch, the speed and the jumps is one row that scrolls
 * sideways; nothing used to say that more buttons lay past the screen's edge. Now the row's edge
 * fades out while more lies past it (data-more-start / data-more-end, a mask in styles.css): at the
 * start only the right edge fades, scrolled to the end only the left one, and turning the phone into
 * a wide window, where everything fits, takes the fades away. A desktop window never shows them.
 * Every control of the row stays in it, named, for a keyboard and a screen reader alike. The header's
 * buttons were such a row too; they now wrap, all of them on the screen (e2e/phone-first-screen.test.ts),
 * and nothing of the header scrolls or fades.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The row: the playback bar's second row. */
const ROWS = ['.playback .playback-more'] as const;

async function open(
  size: { width: number; height: number },
  phone: boolean,
  preset = 'opening-story',
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: size, hasTouch: phone, isMobile: phone });
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=${preset}&step=20`);
  await page.getByTestId('verdict').waitFor();
  return { page, errors };
}

interface Edges {
  readonly start: boolean;
  readonly end: boolean;
  /** The computed mask: 'none' when no edge fades. */
  readonly mask: string;
  readonly overflow: number;
}

function edges(page: Page, row: string): Promise<Edges> {
  return page.locator(row).evaluate((el) => ({
    start: el.hasAttribute('data-more-start'),
    end: el.hasAttribute('data-more-end'),
    mask: getComputedStyle(el).maskImage,
    overflow: el.scrollWidth - el.clientWidth,
  }));
}

describe('rows that scroll sideways on a phone say there is more', () => {
  for (const size of [
    { width: 390, height: 844 },
    { width: 360, height: 740 },
  ])
    it(`${size.width}×${size.height}: the far edge fades at the start, the near one at the end`, async () => {
      const { page, errors } = await open(size, true);
      for (const row of ROWS) {
        const first = await edges(page, row);
        // the row is wider than the screen: there is more to see
        expect(first.overflow, row).toBeGreaterThan(20);
        expect({ start: first.start, end: first.end }, row).toEqual({ start: false, end: true });
        expect(first.mask, row).toContain('linear-gradient');

        // halfway: both edges
        await page.locator(row).evaluate((el) => el.scrollTo({ left: (el.scrollWidth - el.clientWidth) / 2 }));
        await expect.poll(async () => (await edges(page, row)).start, { message: row }).toBe(true);
        expect((await edges(page, row)).end, row).toBe(true);

        // at the end: only the start fades
        await page.locator(row).evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
        await expect.poll(async () => (await edges(page, row)).end, { message: row }).toBe(false);
        const last = await edges(page, row);
        expect(last.start, row).toBe(true);
        expect(last.mask, row).toContain('linear-gradient');

        // every control is still there and named (nothing hidden from a screen reader)
        const names = await page
          .locator(row)
          .locator('button, select')
          .evaluateAll((controls) =>
            controls.map((c) => ({
              name: c.getAttribute('aria-label') ?? c.closest('label')?.textContent ?? c.textContent ?? '',
              hidden: c.closest('[aria-hidden="true"]') !== null,
            })),
          );
        expect(names.length, row).toBeGreaterThan(3);
        for (const n of names) {
          expect(n.name.trim(), row).not.toBe('');
          expect(n.hidden, row).toBe(false);
        }
        await page.locator(row).evaluate((el) => el.scrollTo({ left: 0 }));
        await expect.poll(async () => (await edges(page, row)).start, { message: row }).toBe(false);
      }
      await screenshot(page, `phone-scroll-rows-${size.width}`);

      // the window widened to a desktop's: everything fits, no edge fades
      await page.setViewportSize({ width: 1280, height: 800 });
      for (const row of ROWS)
        await expect.poll(() => edges(page, row), { message: row }).toMatchObject({ start: false, end: false, mask: 'none' });
      expect(errors).toEqual([]);
      await page.close();
    });

  it('a control focused in the middle of the row is scrolled clear of the faded edge', async () => {
    // a run with a fault: its jumps to the next fault can be focused
    const { page, errors } = await open({ width: 390, height: 844 }, true, 'ctp-exactly-once-crash');
    const row = page.locator(ROWS[0]);
    // the jumps come after the switch and the speed, past the screen's right edge
    const jump = row.getByRole('button', { name: 'Next fault' });
    await jump.focus();
    await expect.poll(async () => (await edges(page, ROWS[0])).start).toBe(true);
    const [button, box, fade] = await Promise.all([
      jump.boundingBox(),
      row.boundingBox(),
      row.evaluate((el) => Number.parseFloat(getComputedStyle(el).scrollPaddingRight)),
    ]);
    if (!button || !box) throw new Error('not shown');
    expect(fade).toBeGreaterThan(30);
    expect(button.x).toBeGreaterThanOrEqual(box.x + fade - 1);
    expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width - fade + 1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the header does not scroll sideways nor fade: its buttons wrap', async () => {
    for (const size of [
      { width: 390, height: 844 },
      { width: 360, height: 740 },
    ]) {
      const { page, errors } = await open(size, true);
      const header = await page.locator('.app-header').evaluate((h) =>
        [h, ...h.querySelectorAll('*')].map((e) => {
          const style = getComputedStyle(e);
          return {
            // a box that could scroll sideways, and what lies past its edge
            scrolls: ['auto', 'scroll'].includes(style.overflowX),
            overflow: e.scrollWidth - e.clientWidth,
            mask: style.maskImage,
            faded: e.hasAttribute('data-more-start') || e.hasAttribute('data-more-end'),
          };
        }),
      );
      for (const e of header) expect(e).toMatchObject({ mask: 'none', faded: false });
      expect(header.filter((e) => e.scrolls && e.overflow > 1)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('on a desktop nothing fades', async () => {
    const { page, errors } = await open({ width: 1280, height: 800 }, false);
    for (const row of ROWS) expect(await edges(page, row), row).toMatchObject({ start: false, end: false, mask: 'none' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
