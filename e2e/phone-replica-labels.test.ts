/**
 * A replicated partition's replica rows on a narrow phone (360×740), in English and Korean: each
 * row's label on the canvas is whole words that fit the plot — the longest of its forms (whole, then
 * without the LEO and HW, the leader epoch, the truncation's words, the ISR: replicaLabelForms) that
 * fits — where it used to be cut mid-phrase with an ellipsis ("★ broker-1 leader …", "broker-2
 * follower ·…"). The whole label is a tap away (the row's details, e2e/phone-labels.test.ts) and in
 * the lane's text alternative.
 *
 * Every fillText on the lanes' canvas is recorded (an init script wraps the 2D context), with the
 * glyphs' own extent, so the check is of what Chromium draws; the lanes hand the labels they placed
 * to the test on the canvas element (eosReplicaLabels), and the two agree.
 */

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PlacedReplicaLabel } from '../src/ui/timeline/drawReplicas';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

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
  readonly x1: number;
}

type Placed = PlacedReplicaLabel;

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
    list.push({ text, x0: x - m.actualBoundingBoxLeft, x1: x + m.actualBoundingBoxRight });
    return maxWidth === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, maxWidth);
  };
  proto.clearRect = function (this: CanvasRenderingContext2D, ...args: [number, number, number, number]) {
    w.__drawnText.set(this.canvas, []);
    return clearRect.apply(this, args);
  };
}

const PHONE = { width: 360, height: 740 };

async function open(preset: string, language: 'en' | 'ko'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: PHONE, hasTouch: true, isMobile: true });
  const errors = watchErrors(page);
  await page.addInitScript(recordCanvasText);
  await gotoWorkspace(page, `${inject('baseUrl')}#preset=${preset}&step=1000000&lang=${language}`);
  await page.getByTestId('logs').locator('.tl-lane-alt').first().waitFor();
  // drawn, and settled (the LEO / HW tweens of a seek are over)
  await page.waitForTimeout(1200);
  return { page, errors };
}

/** What the lanes' canvas shows now: the replica rows' texts as drawn, the labels placed, the plot's width. */
function onCanvas(page: Page) {
  return page.getByTestId('logs').evaluate((panel) => {
    const c = panel.querySelector('canvas[role="img"]') as HTMLCanvasElement & { eosReplicaLabels?: Placed[] };
    const drawn = (window as unknown as { __drawnText: Map<HTMLCanvasElement, Drawn[]> }).__drawnText.get(c) ?? [];
    const alts = [...panel.querySelectorAll('.tl-lane-alt')].map((a) => a.getAttribute('aria-label') ?? '');
    return { drawn, placed: c.eosReplicaLabels ?? null, width: c.clientWidth, alts };
  });
}

/** A replica row's label starts with its marks and its broker's name. */
const REPLICA_LABEL = /^(★ |✕ )?broker-\d+( |$)/;

describe('replica rows on a narrow phone: labels in whole words that fit', () => {
  for (const [preset, language, replicas] of [
    ['acks-1-leader-failover-loss', 'en', 3],
    ['acks-1-leader-failover-loss', 'ko', 3],
    ['unclean-election-loses-committed', 'en', 2],
    ['unclean-election-loses-committed', 'ko', 2],
  ] as const)
    it(`${preset} (${language}): every replica label is whole words inside the plot`, async () => {
      const { page, errors } = await open(preset, language);
      const { drawn, placed, width, alts } = await onCanvas(page);
      const labels = drawn.filter((d) => REPLICA_LABEL.test(d.text));
      expect(labels.length).toBe(replicas);
      for (const l of labels) {
        // not cut mid-phrase
        expect(l.text, l.text).not.toContain('…');
        // inside the plot: from its left edge to its right
        expect(l.x0, l.text).toBeGreaterThanOrEqual(0);
        expect(l.x1, l.text).toBeLessThanOrEqual(width);
      }
      // what is drawn is what the lanes placed; each a form of its whole label, with its name and role
      expect(placed?.map((p) => p.text).sort()).toEqual(labels.map((l) => l.text).sort());
      for (const p of placed ?? []) {
        expect(p.x + p.width, p.text).toBeLessThanOrEqual(width);
        const head = p.full.split(' · ')[0] as string;
        if (p.text !== p.full) expect(p.text.startsWith(head), `${p.text} / ${p.full}`).toBe(true);
        // the whole label's words are in the lane's text alternative: the replica and its role
        const alt = alts.find((a) => a.startsWith(p.lane)) ?? alts.join(' ');
        expect(alt, p.broker).toContain(head.replace(/^(★ |✕ )/, ''));
      }
      // on this phone at least one label had to be shortened, and none was cut to the name alone
      expect(placed?.some((p) => p.text !== p.full)).toBe(true);
      expect(placed?.every((p) => p.text.includes(' '))).toBe(true);
      await screenshot(page, `phone-replica-labels-${preset}-${language}`);
      expect(errors).toEqual([]);
      await page.close();
    });
});
