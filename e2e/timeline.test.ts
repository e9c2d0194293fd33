/**
 * The timeline in Chromium: opening-story stepped to its end shows orders-0 with the two records at
 * offsets 100 and 101, keyboard focus and hover show a record's details (event_id=evt-789), click and
 * Enter select, the message-sequence view shows the Produce / ProduceResponse envelopes, the internal
 * topics expand and collapse, and axe finds no violations in light or dark.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { everyStep } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const totalSteps = runScenario(findPreset('opening-story')?.scenario).steps.length;

async function openAtEnd(page: Page): Promise<void> {
  await gotoWorkspace(page, inject('baseUrl'));
  await page.getByTestId('timeline').waitFor();
  await everyStep(page);
  const step = page.getByRole('button', { name: /Step/ });
  for (let i = 0; i < totalSteps; i++) await step.click();
  await expect.poll(() => page.getByTestId('step-counter').innerText()).toContain(`step ${totalSteps}`);
}

const lanes = (page: Page) => page.getByRole('application', { name: 'Partition lanes' });
/** The text alternative of one lane (an image over the lane, named by what it shows). */
const laneAlt = (page: Page, key: string) => page.getByRole('img', { name: new RegExp(`^${key}: `) });
const messages = (page: Page) => page.getByRole('application', { name: 'Message sequence' });

async function runAxe(page: Page): Promise<{ id: string; nodes: number }[]> {
  const require = createRequire(import.meta.url);
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: string) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
    const r = await axe.run('[data-testid=timeline]');
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.length }));
  });
}

describe('timeline', () => {
  it('shows orders-0 at offsets 100 and 101, with details on focus and hover, and selects', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('timeline').waitFor();
    // before anything was produced the lane is empty
    await expect.poll(() => laneAlt(page, 'orders-0').innerText()).toContain('orders-0: no records');
    await openAtEnd(page);

    const lane = laneAlt(page, 'orders-0');
    await expect.poll(() => lane.getAttribute('data-offsets')).toBe('100 101');
    expect(await lane.innerText()).toContain('orders-0: 2 records at offsets 100–101');
    expect(await lane.innerText()).toContain('log end offset 102, HW 102, LSO 102');
    // the business duplicate is named in the lane's text alternative (and drawn as a bar with ×2)
    expect(await lane.innerText()).toContain('event_id evt-789 2 times, at offsets 100, 101');
    expect(await lane.innerText()).toContain('consumer billing position 102');
    expect(await lane.innerText()).toContain('group billing committed offset 102');

    // keyboard: Tab into the lanes (from the internal-topics toggle just before them) focuses the
    // first record; → moves to the next
    const tooltip = page.getByTestId('timeline-tooltip');
    await page.getByRole('button', { name: /Internal topics/ }).focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => lanes(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => tooltip.getAttribute('data-offset')).toBe('100');
    expect(await tooltip.innerText()).toContain('event_id=evt-789');
    expect(await page.getByTestId('timeline-focus-detail').innerText()).toContain('orders-0 offset 100');
    const at100 = { x: Number(await tooltip.getAttribute('data-x')), y: Number(await tooltip.getAttribute('data-y')) };
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tooltip.getAttribute('data-offset')).toBe('101');
    const details = await tooltip.innerText();
    for (const text of ['orders-0 @ 101', 'order-123', 'event_id=evt-789', 'producerId', '1000', 'sequence', 'origin', 'send() #'])
      expect(details).toContain(text);
    await page.keyboard.press('Enter');
    await expect.poll(() => lanes(page).getAttribute('data-selected')).toBe('orders-0@101');
    await screenshot(page, 'timeline-record-focus');

    // + zooms in around the focused record: the cells get wider; 0 fits the run again
    const cellWidth = Number(await tooltip.getAttribute('data-x')) - at100.x;
    await page.keyboard.press('+');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tooltip.getAttribute('data-offset')).toBe('100');
    const zoomed100 = Number(await tooltip.getAttribute('data-x'));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tooltip.getAttribute('data-offset')).toBe('101');
    expect(Number(await tooltip.getAttribute('data-x')) - zoomed100).toBeGreaterThan(cellWidth * 1.3);
    await page.keyboard.press('0');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tooltip.getAttribute('data-x')).toBe(String(at100.x));

    // mouse: hovering the cell of offset 100 shows its details; clicking selects it
    await page.getByRole('heading', { name: 'Partition logs' }).click();
    const box = await lanes(page).boundingBox();
    if (!box) throw new Error('no lanes box');
    await page.mouse.move(box.x + at100.x, box.y + at100.y - 8);
    await expect.poll(() => tooltip.getAttribute('data-offset')).toBe('100');
    expect(await tooltip.innerText()).toContain('event_id=evt-789');
    await page.mouse.click(box.x + at100.x, box.y + at100.y - 8);
    await expect.poll(() => lanes(page).getAttribute('data-selected')).toBe('orders-0@100');
    await page.mouse.move(box.x + 2, box.y + box.height + 200);
    await expect.poll(() => tooltip.isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws the Produce and ProduceResponse envelopes and their details', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await openAtEnd(page);
    const summary = page.getByTestId('msc-summary');
    expect(await summary.innerText()).toMatch(/Produce ×2, ProduceResponse ×2/);
    expect(await summary.innerText()).toMatch(/\d+ background messages \(heartbeats, idle fetches\) hidden/);

    // keyboard: walk the envelopes until the first Produce
    const tooltip = page.getByTestId('msc-tooltip');
    await messages(page).focus();
    // each key moves the focus to another envelope; wait for the tooltip to follow
    const press = async (key: string) => {
      const before = await tooltip.getAttribute('data-envelope');
      await page.keyboard.press(key);
      await expect.poll(() => tooltip.getAttribute('data-envelope')).not.toBe(before);
      return tooltip.getAttribute('data-rpc');
    };
    let rpc = await press('Home');
    for (let i = 0; i < 20 && rpc !== 'Produce'; i++) rpc = await press('ArrowRight');
    expect(rpc).toBe('Produce');
    const produce = await tooltip.innerText();
    expect(produce).toContain('orders-service.producer → broker-0');
    expect(produce).toContain('delivered');
    expect(produce).toContain('batch(producerId=1000, epoch=0, baseSequence=0, 1 record)');
    expect(await press('ArrowRight')).toBe('ProduceResponse');
    expect(await tooltip.innerText()).toContain('broker-0 → orders-service.producer');
    await page.keyboard.press('Enter');
    await expect.poll(() => messages(page).getAttribute('data-selected')).toMatch(/^\d+$/);

    // background traffic toggles; the axis switches between steps and virtual time
    const background = page.getByRole('button', { name: /Background messages/ });
    await background.click();
    await expect.poll(() => background.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => summary.innerText()).not.toMatch(/hidden/);
    expect(await summary.innerText()).toMatch(/Fetch ×\d+/);
    const time = page.getByRole('button', { name: 'Virtual time' });
    await time.click();
    await expect.poll(() => time.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.locator('.tl-msc-axis').textContent()).toMatch(/\d ms/);
    await screenshot(page, 'timeline-messages');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows only what exists at the current step', async () => {
    const page = await browser.newPage();
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('timeline').waitFor();
    const summary = page.getByTestId('msc-summary');
    expect(await summary.innerText()).toMatch(/^0 envelopes sent by step 0/);
    await everyStep(page);
    const step = page.getByRole('button', { name: /Step/ });
    for (let i = 0; i < 5; i++) await step.click();
    await expect.poll(() => summary.innerText()).toMatch(/sent by step 5/);
    expect(await summary.innerText()).not.toContain('Produce ×');
    expect(await laneAlt(page, 'orders-0').innerText()).toContain('no records');
    await page.close();
  });

  it('speaks Korean when the page does: titles, buttons, hints and legends', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('timeline').waitFor();
    await page.getByRole('button', { name: '한국어' }).click();
    await page.getByRole('heading', { name: '파티션 로그' }).waitFor();
    await page.getByRole('heading', { name: '프로세스 사이의 메시지' }).waitFor();
    expect(await page.getByRole('application', { name: '파티션 레인' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /내부 토픽/ }).count()).toBe(1);
    expect(await page.getByRole('list', { name: '파티션 로그 범례' }).innerText()).toContain('같은 event_id가 두 번 이상');
    expect(await page.getByRole('button', { name: '단계별' }).getAttribute('aria-pressed')).toBe('true');
    // the lanes' text alternative too
    expect(await laneAlt(page, 'orders-0').innerText()).toContain('orders-0: 레코드 없음; LEO(로그 끝 offset) 100');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('expands and collapses the internal topics with a button', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await openAtEnd(page);
    const toggle = page.getByRole('button', { name: /Internal topics/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('timeline-summary').innerText()).toContain(
      'Internal topics collapsed: __consumer_offsets (3 partitions)',
    );
    await expect.poll(() => page.locator('.tl-lane-alt[data-lane^="__consumer_offsets"]').count()).toBe(0);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.locator('.tl-lane-alt[data-lane^="__"]').count()).toBe(6);
    // the group's commit went to __consumer_offsets
    expect(await page.getByTestId('timeline-summary').innerText()).toMatch(/__consumer_offsets-\d: 1 record at offset 0/);
    await screenshot(page, 'timeline-opening-story');
    // ↓ moves the keyboard focus from orders-0 to the next lane holding records
    const tooltip = page.getByTestId('timeline-tooltip');
    await page.keyboard.press('Tab');
    await expect.poll(() => tooltip.getAttribute('data-lane')).toBe('orders-0');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => tooltip.getAttribute('data-lane')).toMatch(/^__consumer_offsets-\d$/);
    expect(await tooltip.innerText()).toContain('origin');
    await toggle.click();
    await expect.poll(() => page.locator('.tl-lane-alt[data-lane^="__"]').count()).toBe(0);
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fits a phone-width screen', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 2 });
    const errors = watchErrors(page);
    await openAtEnd(page);
    const panel = await page.getByTestId('logs').boundingBox();
    expect(panel && panel.x + panel.width).toBeLessThanOrEqual(390);
    const canvas = page.locator('.tl-lanes-panel canvas').first();
    const size = await canvas.evaluate((c: HTMLCanvasElement) => ({ w: c.width, css: c.getBoundingClientRect().width }));
    expect(size.w).toBe(Math.round(size.css) * 2);
    await screenshot(page, 'timeline-phone');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('has no axe violations, in light and in dark with reduced motion', async () => {
    const backgrounds: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: scheme, reducedMotion: 'reduce' });
      const errors = watchErrors(page);
      await openAtEnd(page);
      await page.getByRole('button', { name: /Internal topics/ }).click();
      expect(await runAxe(page)).toEqual([]);
      // the canvases read their colours from the theme
      const bg = await page
        .locator('.tl-panel')
        .first()
        .evaluate((el) => getComputedStyle(el).getPropertyValue('--tl-bg').trim());
      backgrounds.push(bg);
      if (scheme === 'dark') await screenshot(page, 'timeline-dark');
      expect(errors).toEqual([]);
      await page.close();
    }
    expect(backgrounds[0]).not.toBe(backgrounds[1]);
  });
});
