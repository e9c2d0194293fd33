/**
 * Truncated records on the page (issue [replication]): unclean-election-loses-committed opened at its
 * end shows, under orders-0, broker-0's records cut by the unclean election (b and c at offsets 1–2)
 * in the lane's text alternative and as struck-through cells whose hover details say who cut them,
 * at which step and why; the verdict names the unclean leader election as the loss's cause.
 * acks-1-leader-failover-loss shows its cut record too, cut by a clean leader change.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { encodeLink } from '../src/sim/scenario/link';
import { LANE_GEOMETRY } from '../src/ui/timeline/laneLayout';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';
import { verdictRows, waitForStep } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const lanes = (page: Page) => page.getByRole('application', { name: 'Partition lanes' });
const laneAlt = (page: Page, key: string) => page.getByRole('img', { name: new RegExp(`^${key}: `) });

/** Opens a preset at its last step, in English. */
async function openAtEnd(id: string): Promise<{ page: Page; errors: string[]; total: number }> {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  const total = runScenario(preset.scenario).steps.length;
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(preset.scenario, { step: total, selection: null, language: 'en' })}`);
  await page.getByTestId('timeline').waitFor();
  await waitForStep(page, total);
  return { page, errors, total };
}

/** Hovers the replica row `row` of orders-0 at the cell of `offset` (found by focusing that record on the leader's row). */
async function hoverReplica(page: Page, offset: number, row: number): Promise<void> {
  const tooltip = page.getByTestId('timeline-tooltip');
  await lanes(page).focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < offset; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(() => tooltip.getAttribute('data-offset')).toBe(String(offset));
  const x = Number(await tooltip.getAttribute('data-x'));
  // the tooltip sits at the cell row's bottom; the replica rows start one axis below it
  const cellBottom = Number(await tooltip.getAttribute('data-y'));
  await page.getByRole('heading', { name: 'Partition logs' }).click();
  const box = await lanes(page).boundingBox();
  if (!box) throw new Error('no lanes box');
  await page.mouse.move(box.x + x, box.y + cellBottom + LANE_GEOMETRY.axis + row * LANE_GEOMETRY.replicaRow + LANE_GEOMETRY.replicaRow / 2);
}

describe('truncated records in the log view', () => {
  it('unclean-election-loses-committed: broker-0 cut b and c after the unclean election; the verdict names it', async () => {
    const { page, errors } = await openAtEnd('unclean-election-loses-committed');
    const alt = laneAlt(page, 'orders-0');
    await expect.poll(() => alt.innerText()).toContain('broker-0 truncated offsets 1–2 by leader epoch 2 after an unclean leader election');
    expect(await alt.innerText()).toContain('leader broker-1, leader epoch 2');

    // the struck-through cell of b on broker-0's row (row 0: replicas in assignment order)
    await hoverReplica(page, 1, 0);
    const tooltip = page.getByTestId('timeline-tooltip');
    await expect.poll(() => tooltip.getAttribute('data-replica')).toBe('broker-0');
    expect(await tooltip.getAttribute('data-offset')).toBe('1');
    const details = await tooltip.innerText();
    expect(details).toContain('truncated on broker-0');
    expect(details).toContain('an unclean leader election made a replica from outside the ISR leader, and it never had them');
    expect(details).toContain("committed: below broker-0's high watermark 3 before the cut");
    expect(details).toMatch(/by leader epoch 2 at \d+ ms, step \d+/);
    expect(details).toContain('event_id=e2');

    const rows = await verdictRows(page);
    expect(rows.find((r) => r.layer === 'loss')?.sentence).toContain(
      'e2 (orders) acknowledged to orders-service, then lost from the log at offset 1 by an unclean leader election',
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('acks-1-leader-failover-loss: broker-0 cut b after a clean leader change, above its high watermark', async () => {
    const { page, errors } = await openAtEnd('acks-1-leader-failover-loss');
    const alt = laneAlt(page, 'orders-0');
    await expect.poll(() => alt.innerText()).toContain('broker-0 truncated offset 1 by leader epoch 1');
    expect(await alt.innerText()).not.toContain('unclean');
    // the leader's log has only a (offset 0): focus it, hover one cell to the right on broker-0's row
    const tooltip = page.getByTestId('timeline-tooltip');
    await lanes(page).focus();
    await page.keyboard.press('Home');
    await expect.poll(() => tooltip.getAttribute('data-offset')).toBe('0');
    const x0 = Number(await tooltip.getAttribute('data-x'));
    const cellBottom = Number(await tooltip.getAttribute('data-y'));
    await page.getByRole('heading', { name: 'Partition logs' }).click();
    const box = await lanes(page).boundingBox();
    if (!box) throw new Error('no lanes box');
    // cells are one offset wide: walk right from a's centre until the hover lands on offset 1
    for (let dx = 4; dx < 400; dx += 4) {
      await page.mouse.move(box.x + x0 + dx, box.y + cellBottom + LANE_GEOMETRY.axis + LANE_GEOMETRY.replicaRow / 2);
      if ((await tooltip.getAttribute('data-offset')) === '1' && (await tooltip.getAttribute('data-replica')) === 'broker-0') break;
    }
    await expect.poll(() => tooltip.getAttribute('data-offset')).toBe('1');
    const details = await tooltip.innerText();
    expect(details).toContain('the new leader, elected from the ISR, never had them');
    expect(details).toContain("not committed: at or above broker-0's high watermark 1");
    const rows = await verdictRows(page);
    expect(rows.find((r) => r.layer === 'loss')?.sentence).toContain(
      'then lost from the log at offset 1 when the leader changed: the new leader never had it',
    );
    // the copy under the log row is gone from the log; it was truncated, not compacted
    const copy = page.getByTestId('verdict').locator('.copy[data-copy-state="removed"]').first();
    expect(await copy.innerText()).toBe('orders-0@1 no longer in the log');
    expect(errors).toEqual([]);
    await page.close();
  });
});
