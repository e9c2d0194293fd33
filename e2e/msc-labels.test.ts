/**
 * The message diagram's labels as Chromium draws them (its canvas, its fonts), at 1280×800 and on a
 * phone, in English and Korean: no two labels meet, two lines of labels keep a clear gap between
 * them, and the same RPC name sent again close by (ProduceResponse twice, AddPartitionsToTxnResponse
 * four times) is written once with its count ("ProduceResponse ×2") instead of stacked a line apart —
 * stacked, busy transactions read as labels drawn over each other. The texts drawn are the labels
 * the layout (mscLabels.ts placeLabels) placed, and no two of its boxes intersect.
 *
 * Every fillText on the diagram's canvas is recorded (an init script wraps the 2D context), with the
 * glyphs' own extent (measureText's actual bounding box), so the check is of what is on screen.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Drawn {
  readonly text: string;
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** Records each frame's fillText calls per canvas (a frame starts with clearRect). */
function recordCanvasText(): void {
  const w = window as unknown as { __drawnText: Map<HTMLCanvasElement, Drawn[]> };
  w.__drawnText = new Map();
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText;
  const clearRect = proto.clearRect;
  proto.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number, maxWidth?: number) {
    const m = this.measureText(text);
    const list = w.__drawnText.get(this.canvas) ?? [];
    w.__drawnText.set(this.canvas, list);
    list.push({
      text,
      x0: x - m.actualBoundingBoxLeft,
      x1: x + m.actualBoundingBoxRight,
      y0: y - m.actualBoundingBoxAscent,
      y1: y + m.actualBoundingBoxDescent,
    });
    return maxWidth === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, maxWidth);
  };
  proto.clearRect = function (this: CanvasRenderingContext2D, ...args: [number, number, number, number]) {
    w.__drawnText.set(this.canvas, []);
    return clearRect.apply(this, args);
  };
}

async function open(id: string, language: 'en' | 'ko', size: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: size });
  const errors = watchErrors(page);
  await page.addInitScript(recordCanvasText);
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=${id}&step=1000000&lang=${language}`);
  await page.getByTestId('msc').locator('canvas[role="img"]').waitFor();
  // drawn (the labels are there) and settled (two frames with the same texts)
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid="msc"] canvas[role="img"]') as
      | (HTMLCanvasElement & { eosPlacedLabels?: unknown[] })
      | null;
    return (c?.eosPlacedLabels?.length ?? 0) > 3;
  });
  await page.waitForTimeout(300);
  return { page, errors };
}

/** The texts on the diagram's canvas now, and the labels its layout placed. */
function onCanvas(page: Page) {
  return page.evaluate(() => {
    const c = document.querySelector('[data-testid="msc"] canvas[role="img"]') as HTMLCanvasElement & {
      eosPlacedLabels?: { text: string; count?: number; box: { x0: number; y0: number; x1: number; y1: number } }[];
    };
    const drawn = (window as unknown as { __drawnText: Map<HTMLCanvasElement, Drawn[]> }).__drawnText.get(c) ?? [];
    return { drawn, placed: c.eosPlacedLabels ?? [] };
  });
}

const across = (a: Drawn, b: Drawn) => a.x0 < b.x1 && b.x0 < a.x1;
const gapY = (a: Drawn, b: Drawn) => Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);

/** Pairs of drawn labels that meet, or that lie over each other with less than `clear` px between their lines. */
function crowded(drawn: readonly Drawn[], clear: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < drawn.length; i++)
    for (let j = i + 1; j < drawn.length; j++) {
      const a = drawn[i] as Drawn;
      const b = drawn[j] as Drawn;
      if (across(a, b) && gapY(a, b) < clear) out.push(`"${a.text}" / "${b.text}" ${gapY(a, b).toFixed(1)} px apart`);
    }
  return out;
}

/** The same text drawn twice, one over the other on the next line (closer than a process row's 38 px). */
function stacked(drawn: readonly Drawn[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < drawn.length; i++)
    for (let j = i + 1; j < drawn.length; j++) {
      const a = drawn[i] as Drawn;
      const b = drawn[j] as Drawn;
      if (a.text === b.text && across(a, b) && Math.abs(a.y0 - b.y0) < 30)
        out.push(`"${a.text}" at ${Math.round(a.y0)} and ${Math.round(b.y0)}`);
    }
  return out;
}

describe('message diagram labels in Chromium', () => {
  for (const [id, language, size] of [
    ['zombie-fencing', 'en', { width: 1280, height: 800 }],
    ['ctp-exactly-once-crash', 'en', { width: 1280, height: 800 }],
    ['ctp-exactly-once-crash', 'ko', { width: 1280, height: 800 }],
    ['zombie-fencing', 'en', { width: 390, height: 844 }],
    ['hanging-transaction', 'ko', { width: 390, height: 844 }],
  ] as const)
    it(`${id} (${language}, ${size.width}×${size.height}): labels apart, lines clear, the same name counted not stacked`, async () => {
      const { page, errors } = await open(id, language, size);
      const { drawn, placed } = await onCanvas(page);
      expect(drawn.length).toBeGreaterThan(3);
      // what is drawn is what the layout placed, and no two of its boxes intersect
      expect(drawn.map((d) => d.text).sort()).toEqual(placed.map((p) => p.text).sort());
      for (let i = 0; i < placed.length; i++)
        for (let j = i + 1; j < placed.length; j++) {
          const a = placed[i]?.box;
          const b = placed[j]?.box;
          if (a && b)
            expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1, `${placed[i]?.text} / ${placed[j]?.text}`).toBe(false);
        }
      // on screen: no two labels meet, and lines one over the other keep at least 5 px between them
      expect(crowded(drawn, 5)).toEqual([]);
      expect(stacked(drawn)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('zombie-fencing at 1280×800: the repeated transaction calls are counted (AddPartitionsToTxnResponse, ProduceResponse)', async () => {
    const { page, errors } = await open('zombie-fencing', 'en', { width: 1280, height: 800 });
    const { drawn, placed } = await onCanvas(page);
    const texts = drawn.map((d) => d.text);
    expect(texts.some((t) => /^AddPartitionsToTxnResponse ×\d+$/.test(t))).toBe(true);
    expect(texts.some((t) => /^ProduceResponse ×\d+$/.test(t))).toBe(true);
    expect(placed.find((p) => p.text.startsWith('ProduceResponse ×'))?.count).toBeGreaterThan(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
