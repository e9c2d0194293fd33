/**
 * The timelines' gutter labels on a phone (390×844, touch), in English and Korean: a process's kind
 * under its name in the message diagram ("transaction coordinator") and a replicated partition's
 * leader under its name in the partition logs ("leader broker-1 · epoch 1") are whole on the screen
 * — they wrap onto a second line where they used to end in an ellipsis, with the whole text only in
 * a `title` tooltip a phone cannot show. Wrapped, each label still sits beside its own line: a
 * message row's label inside its 38 px row, centred on the line the canvas draws; a partition's
 * label inside its lane. A replica row's label on the canvas is shortened, in whole words, to the
 * plot's width (e2e/phone-replica-labels.test.ts); a tap on the row shows all of it in its details,
 * and those details lie inside the screen, a value a readable column (they were squeezed to one
 * letter a line and ran off the panel's right edge).
 *
 * A partition's name is whole, on one line or two broken after a `-` or `_`, or shortened in the
 * middle with `…` — its end (`changelog-0`) whole — with the whole name in the label's title and at
 * the head of its lane's text alternative. A long name used to be cut: `order-counter-count-store-
 * changelog-0` went to the browser's own wrapping around the ellipsis, three lines, the third hidden.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { laneY, MSC_GEOMETRY } from '../src/ui/timeline/mscLayout';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };

async function open(language: 'en' | 'ko'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: PHONE, hasTouch: true, isMobile: true });
  const errors = watchErrors(page);
  // a replicated partition (three replicas, a leader epoch) and a transaction coordinator's row
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=acks-1-leader-failover-loss&step=1000000&lang=${language}`);
  await page.getByTestId('msc').locator('canvas[role="img"]').waitFor();
  await page.getByTestId('logs').locator('.tl-lane-alt').first().waitFor();
  return { page, errors };
}

interface Span {
  readonly text: string;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/** Each gutter label of a panel: its spans' extents and its box relative to the panel's plot. */
function gutterLabels(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((panel) => {
    const plot = panel.querySelector('.tl-plot') as HTMLElement;
    const top = plot.getBoundingClientRect().top;
    return [...panel.querySelectorAll('.tl-gutter .tl-lane-label')].map((label) => {
      const r = label.getBoundingClientRect();
      const spans = [...label.querySelectorAll('span')].map((s) => ({
        text: s.textContent ?? '',
        scrollWidth: s.scrollWidth,
        clientWidth: s.clientWidth,
        scrollHeight: s.scrollHeight,
        clientHeight: s.clientHeight,
      }));
      return { spans, top: r.top - top, bottom: r.bottom - top, scrollHeight: label.scrollHeight, clientHeight: label.clientHeight };
    });
  });
}

function cut(spans: readonly Span[]): string[] {
  return spans.filter((s) => s.scrollWidth > s.clientWidth + 1 || s.scrollHeight > s.clientHeight + 1).map((s) => s.text);
}

describe('timeline labels on a phone: whole, and beside their lines', () => {
  for (const language of ['en', 'ko'] as const)
    it(`${language}: the message rows' kinds and the partitions' leaders are not cut, and each label stays in its row`, async () => {
      const { page, errors } = await open(language);
      const msc = await gutterLabels(page, 'msc');
      expect(msc.length).toBeGreaterThanOrEqual(8);
      const kinds = msc.map((l) => l.spans[1]?.text);
      expect(kinds).toContain(language === 'en' ? 'transaction coordinator' : '트랜잭션 코디네이터');
      expect(msc.flatMap((l) => cut(l.spans))).toEqual([]);
      for (const [i, label] of msc.entries()) {
        expect(label.scrollHeight, `row ${i}`).toBeLessThanOrEqual(label.clientHeight + 1);
        // inside its row, centred on the line the canvas draws for it (laneY)
        const rowTop = MSC_GEOMETRY.axis + i * MSC_GEOMETRY.row;
        expect(label.top, `row ${i}: ${label.spans[0]?.text}`).toBeGreaterThanOrEqual(rowTop - 1);
        expect(label.bottom, `row ${i}: ${label.spans[0]?.text}`).toBeLessThanOrEqual(rowTop + MSC_GEOMETRY.row + 1);
        expect(Math.abs((label.top + label.bottom) / 2 - laneY(i)), `row ${i}`).toBeLessThanOrEqual(1.5);
      }

      const lanes = await gutterLabels(page, 'logs');
      const leader = lanes[0]?.spans[1];
      expect(leader?.text).toBe(language === 'en' ? 'leader broker-1 · epoch 1' : '리더 broker-1 · epoch 1');
      // each partition's label lies inside its lane (the lane's text alternative spans its height)
      const laneBoxes = await page
        .getByTestId('logs')
        .locator('.tl-lane-alt')
        .evaluateAll((alts) =>
          alts.map((a) => {
            const top = (a.closest('.tl-plot') as HTMLElement).getBoundingClientRect().top;
            const r = a.getBoundingClientRect();
            return { top: r.top - top, bottom: r.bottom - top };
          }),
        );
      expect(laneBoxes.length).toBe(lanes.length);
      for (const [i, label] of lanes.entries()) {
        expect(cut(label.spans), `lane ${i}`).toEqual([]);
        expect(label.top).toBeGreaterThanOrEqual((laneBoxes[i]?.top ?? 0) - 1);
        expect(label.bottom).toBeLessThanOrEqual((laneBoxes[i]?.bottom ?? 0) + 1);
      }
      await screenshot(page, `phone-labels-${language}`);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('a tap on a replica row shows all of it inside the screen, each value in a readable column', async () => {
    const { page, errors } = await open('en');
    const alt = page.getByTestId('logs').locator('.tl-lane-alt').first();
    await alt.scrollIntoViewIfNeeded();
    const lane = await alt.boundingBox();
    if (!lane) throw new Error('no lane');
    // the leader's row: the second replica row (broker-0, broker-1, broker-2), under label band, cells and axis
    const rowMid = 18 + 26 + 20 + 18 + 9;
    await page.touchscreen.tap(lane.x + lane.width / 2, lane.y + rowMid);
    const tooltip = page.getByTestId('timeline-tooltip');
    await expect.poll(() => tooltip.isVisible()).toBe(true);
    expect(await tooltip.getAttribute('data-replica')).toBe('broker-1');
    const box = await tooltip.boundingBox();
    if (!box) throw new Error('no tooltip box');
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    const values = await tooltip.locator('dd').evaluateAll((dds) => dds.map((d) => ({ text: d.textContent ?? '', width: d.clientWidth })));
    expect(values[0]?.text).toBe('leader · leader epoch 1 · in ISR');
    for (const v of values) expect(v.width, v.text).toBeGreaterThanOrEqual(100);
    await screenshot(page, 'phone-labels-replica-tap');
    expect(errors).toEqual([]);
    await page.close();
  });

  for (const id of ['upstream-duplicate-event-id', 'streams-eos-crash-restore', 'transaction-state-under-replicated'])
    for (const language of ['en', 'ko'] as const)
      it(`${id} (${language}): each partition’s name is whole or shortened with the whole name in its title`, async () => {
        const page = await browser.newPage({ viewport: PHONE, hasTouch: true, isMobile: true });
        const errors = watchErrors(page);
        await gotoWorkspace(page, `${inject('baseUrl')}#preset=${id}&step=1000000&lang=${language}`);
        const logs = page.getByTestId('logs');
        await logs.locator('.tl-lane-alt').first().waitFor();
        // the internal topics too (__transaction_state-0 and the like)
        await logs.locator('.tl-group-toggle').click();
        await expect.poll(() => logs.locator('.tl-lane-alt').count()).toBeGreaterThanOrEqual(5);
        const labels = await logs.evaluate((panel) =>
          [...panel.querySelectorAll('.tl-gutter .tl-lane-label')].map((label) => {
            const name = label.querySelector('.tl-lane-name') as HTMLElement;
            const gutter = (label.closest('.tl-gutter') as HTMLElement).getBoundingClientRect();
            const r = name.getBoundingClientRect();
            return {
              title: label.getAttribute('title') ?? '',
              text: name.textContent ?? '',
              lines: name.innerText.split('\n'),
              cut:
                name.scrollWidth > name.clientWidth + 1 ||
                name.scrollHeight > name.clientHeight + 1 ||
                label.scrollHeight > label.clientHeight + 1,
              inside: r.left >= gutter.left - 1 && r.right <= gutter.right + 1,
            };
          }),
        );
        const alts = await logs.locator('.tl-lane-alt').evaluateAll((as) => as.map((a) => a.getAttribute('aria-label') ?? ''));
        expect(labels.length).toBe(alts.length);
        for (const [i, l] of labels.entries()) {
          expect(l.cut, l.title).toBe(false);
          expect(l.inside, l.title).toBe(true);
          expect(l.lines.length, l.title).toBeLessThanOrEqual(2);
          // the whole name, or its head and end around an ellipsis
          if (l.text !== l.title) {
            expect(l.text, l.title).toContain('…');
            const [head, end] = l.text.split('…');
            expect(l.title.startsWith(head ?? '?'), l.title).toBe(true);
            expect(l.title.endsWith(end ?? '?'), l.title).toBe(true);
          }
          // a screen reader hears the whole name first
          expect(alts[i]?.startsWith(`${l.title}:`), l.title).toBe(true);
        }
        if (id === 'upstream-duplicate-event-id') expect(labels.map((l) => l.title)).toContain('order-counter-count-store-changelog-0');
        await screenshot(page, `phone-lane-names-${id}-${language}`);
        expect(errors).toEqual([]);
        await page.close();
      });
});
