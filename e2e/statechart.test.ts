/**
 * The statechart view in the page, on zombie-fencing: select the producer, the group coordinator and
 * the transaction coordinator, scrub, and see the highlighted state (and the instance's state) be
 * what the trace says — the engine in Node computes the expected states. Also: keyboard reach, the
 * text alternative, Korean.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario, stateAt } from '../src/sim/run';
import { launchBrowser, watchErrors } from './browser';
import { axe, loadScenario, openPage, waitForStep } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const preset = findPreset('zombie-fencing');
if (!preset) throw new Error('zombie-fencing is missing');
const trace = runScenario(preset.scenario);

const seek = async (page: Page, step: number) => {
  await page.evaluate((s) => window.__eosLab?.store.getState().seek(s), step);
  await waitForStep(page, step);
};
const selectActor = (page: Page, id: string) => page.locator(`li[data-actor="${id}"] > button.actor-head`).click();
const actorChart = (page: Page) => page.getByTestId('statechart-actor');
const instanceChart = (page: Page) => page.getByTestId('statechart-instance');
const highlighted = (chart: ReturnType<typeof actorChart>) =>
  chart.locator('.statechart-state.leaf[data-current="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state-path')));

type Groups = { groups: Record<string, { state: string }> };
type Txns = { txns: Record<string, { state: string }> };

describe('statechart view (zombie-fencing)', () => {
  it("highlights the producer's state as the trace says, and moves with the scrubber", async () => {
    const page = await openPage(browser);
    const errors = watchErrors(page);
    await loadScenario(page, preset.scenario);
    await selectActor(page, 'instance-a.producer');
    const fenced = trace.steps.findIndex((s) => s.actor === 'instance-a.producer' && s.after === 'FATAL_ERROR');
    expect(fenced).toBeGreaterThan(0);
    const before = trace.steps.at(fenced)?.before as string;

    await seek(page, fenced);
    await expect.poll(() => actorChart(page).getAttribute('data-state')).toBe(before);
    expect(await highlighted(actorChart(page))).toEqual([before]);

    await seek(page, fenced + 1);
    await expect.poll(() => actorChart(page).getAttribute('data-state')).toBe('FATAL_ERROR');
    expect(await highlighted(actorChart(page))).toEqual(['FATAL_ERROR']);
    expect(await actorChart(page).getAttribute('data-last')).toBe(`${before}>FATAL_ERROR`);
    await expect.poll(() => actorChart(page).locator('.statechart-edge[data-last="true"] title').textContent()).toContain('FATAL_ERROR');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("highlights the consumer's active state in each parallel region (membership, fetching), and both transitions of a step that changed both", async () => {
    const page = await openPage(browser);
    await loadScenario(page, preset.scenario);
    await selectActor(page, 'committed-reader.consumer');
    const synced = trace.steps.findIndex((s) => s.actor === 'committed-reader.consumer' && s.label === 'SyncGroupResponse');
    expect(synced).toBeGreaterThan(0);
    const step = trace.steps.at(synced);
    // before the step: COMPLETING_REBALANCE and STOPPED; after it: STABLE and ASSIGNED.…
    for (const [k, expected] of [
      [synced, step?.before],
      [synced + 1, step?.after],
    ] as const) {
      if (!expected) throw new Error('no state');
      await seek(page, k);
      await expect.poll(() => actorChart(page).getAttribute('data-state')).toBe(expected);
      // one highlighted leaf per region
      expect((await highlighted(actorChart(page))).sort()).toEqual(expected.split('|').sort());
    }
    expect(await actorChart(page).locator('.statechart-edge[data-last="true"]').count()).toBe(2);
    await page.close();
  });

  it("shows each group's ClassicGroupState for the group coordinator, as the trace says", async () => {
    const page = await openPage(browser);
    await loadScenario(page, preset.scenario);
    await selectActor(page, 'group-coordinator');
    const stateOf = (k: number) => (stateAt(trace, k).actors.get('group-coordinator')?.context as Groups).groups['committed-reader']?.state;
    // two steps at which the group was in different states
    const changes: number[] = [];
    for (let k = 1; k <= trace.steps.length && changes.length < 2; k++)
      if (trace.steps.at(k - 1)?.actor === 'group-coordinator' && stateOf(k) && stateOf(k) !== stateOf(k - 1)) changes.push(k);
    expect(changes.length).toBe(2);
    for (const k of changes) {
      await seek(page, k);
      const expected = stateOf(k);
      await expect.poll(() => instanceChart(page).getAttribute('data-state')).toBe(expected);
      expect(await highlighted(instanceChart(page))).toEqual([expected]);
    }
    expect(await actorChart(page).getAttribute('data-state')).toBe('serving');
    await page.close();
  });

  it("shows the transactional.id's TransactionState for the transaction coordinator, with its last transition", async () => {
    const page = await openPage(browser);
    await loadScenario(page, preset.scenario);
    await selectActor(page, 'txn-coordinator');
    const facts = trace.steps.flatMap((s, i) =>
      (s.facts as { kind: string; from?: string; to?: string }[]).filter((f) => f.kind === 'txnState').map((f) => ({ i, ...f })),
    );
    const fence = facts.find((f) => f.to === 'PrepareEpochFence') ?? facts.find((f) => f.to === 'PrepareAbort');
    const commit = facts.find((f) => f.to === 'CompleteCommit');
    expect(fence && commit).toBeTruthy();
    for (const f of [fence, commit]) {
      if (!f) continue;
      await seek(page, f.i + 1);
      const expected = (stateAt(trace, f.i + 1).actors.get('txn-coordinator')?.context as Txns).txns['order-processor-0']?.state;
      await expect.poll(() => instanceChart(page).getAttribute('data-state')).toBe(expected);
      expect(await highlighted(instanceChart(page))).toEqual([expected]);
      expect(await instanceChart(page).getAttribute('data-last')).toBe(`${f.from}>${f.to}`);
    }
    await page.close();
  });

  it('is reachable by keyboard, has a text alternative, and speaks Korean', async () => {
    const page = await openPage(browser);
    await loadScenario(page, preset.scenario);
    await selectActor(page, 'instance-b.producer');
    const frame = actorChart(page).locator('.statechart-frame');
    await frame.focus();
    expect(await page.evaluate(() => document.activeElement?.classList.contains('statechart-frame'))).toBe(true);
    await page.keyboard.press('Tab');
    // the next stop is inside the view (the text alternative's summary)
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="statechart-view"]'))).toBe(true);
    const text = actorChart(page).locator('.statechart-text');
    await text.locator('summary').click();
    expect(await text.innerText()).toContain('live.IN_TRANSACTION → live.COMMITTING_TRANSACTION on commitTransaction');
    expect(await actorChart(page).getByRole('img').getAttribute('aria-label')).toMatch(/Current state: /);
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    await expect.poll(() => actorChart(page).getByRole('img').getAttribute('aria-label')).toMatch(/현재 상태: /);
    expect(await actorChart(page).getByRole('button', { name: 'Mermaid로 복사' }).count()).toBe(1);
    expect(await actorChart(page).locator('.statechart-mermaid pre').textContent()).toMatch(/^stateDiagram-v2\n/);
    // the whole page, the view open with its text alternative expanded: no axe violations
    expect(await axe(page)).toEqual([]);
    await page.close();
  });
});
