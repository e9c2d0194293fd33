/**
 * Every preset, played to the end on the page: the verdict on screen is the engine's verdict,
 * computed here in Node from the same scenario — row by row (layer, subject, status, sentence) and
 * counter by counter; and the facts under the rows (what pins an LSO, what each copy is, each
 * loss's kind) in English and Korean.
 */
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../src/sim/checks/verdict';
import { findingText } from '../src/sim/checks/verdictText';
import { PRESETS, type Preset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { summarize } from '../src/sim/trace/summary';
import { appSession, counters, loadScenario, position, verdictRows, waitForStep } from './ui-helpers';

const app = appSession();

function presetById(id: string): Preset {
  const preset = PRESETS.find((p) => p.id === id);
  if (!preset) throw new Error(`no preset ${id}`);
  return preset;
}

/** Loads a preset in English and plays it at the fastest speed to its end: the last step, and the engine's verdict there. */
async function playToEnd(preset: Preset): Promise<{ total: number; engine: Verdict }> {
  await app.page.evaluate(() => window.__eosLab?.store.getState().setLanguage('en'));
  await loadScenario(app.page, preset.scenario);
  await app.page.getByRole('heading', { level: 2, name: preset.title }).waitFor();
  await app.page.getByLabel('Speed').selectOption('2000');
  await app.page.getByRole('button', { name: 'Play' }).click();
  const { total } = await position(app.page);
  await waitForStep(app.page, total);
  await expect.poll(() => app.page.getByRole('button', { name: 'Play' }).count()).toBe(1);
  return { total, engine: summarize(runScenario(preset.scenario)).verdict };
}

describe('verdict on screen = engine verdict, for every preset', () => {
  for (const preset of PRESETS)
    it(`${preset.id}: played to the end`, async () => {
      const { total, engine } = await playToEnd(preset);
      expect(await app.page.getByTestId('verdict').getAttribute('data-step')).toBe(String(total));
      expect(await verdictRows(app.page)).toEqual(
        engine.layers.map((f) => ({ layer: f.layer, subject: f.subject ?? '', status: f.status, sentence: f.sentence })),
      );
      const c = engine.counters;
      expect(await counters(app.page)).toEqual({
        transactionsCommitted: c.transactionsCommitted,
        transactionsAborted: c.transactionsAborted,
        producersFenced: c.producersFenced,
        // listed only when it counted something
        ...(c.producersFatal > 0 ? { producersFatal: c.producersFatal } : {}),
        commitFailures: c.commitFailures,
        retryDuplicates: c.retryDuplicates,
        duplicateEventIdsSeenByApplications: c.duplicateEventIdsSeenByApplications,
        inboxConflicts: c.inboxConflicts,
        ...Object.fromEntries(Object.entries(c.consumerLag).map(([g, n]) => [`consumerLag:${g}`, n])),
      });
      expect(app.errors).toEqual([]);
    });
});

describe('the verdict panel shows stalls, copies and loss kinds, in English and Korean', () => {
  const row = (layer: string, subject: string) =>
    app.page.locator(`[data-testid="verdict"] tr[data-layer="${layer}"][data-subject="${subject}"]`);

  it('hanging-transaction: the reader is stalled, with what pins the LSO', async () => {
    const engine = (await playToEnd(presetById('hanging-transaction'))).engine;
    const stalled = row('delivery', 'committed-reader');
    expect(await stalled.getAttribute('data-status')).toBe('stalled');
    expect(await stalled.locator('.status-cell').innerText()).toContain('stalled');
    const pinned = await stalled.locator('[data-stall="orders-0"]').innerText();
    expect(pinned).toContain('producerId 1001');
    expect(pinned).toContain('StartOffset 1');
    expect(pinned).toContain('transactional.id orders-service-1');
    expect(await row('loss', '').locator('[data-loss-kind="open-only"]').count()).toBe(1);
    // the same rows in Korean: the engine's Korean sentences, and the status names
    await app.page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    const f = engine.layers.find((l) => l.layer === 'delivery' && l.subject === 'committed-reader');
    if (!f) throw new Error('no stalled finding');
    await expect.poll(() => stalled.locator('.sentence').innerText()).toBe(findingText(f, 'ko'));
    expect(await stalled.locator('.status-cell').innerText()).toContain('멈춤');
    expect(await stalled.locator('[data-stall="orders-0"]').innerText()).toContain('LSO를 붙잡은 트랜잭션');
    await app.page.evaluate(() => window.__eosLab?.store.getState().setLanguage('en'));
    expect(app.errors).toEqual([]);
  });

  it('zombie-fencing and outbox-cdc: what each copy is, and the kind of each loss', async () => {
    await playToEnd(presetById('zombie-fencing'));
    const orders = row('log', 'orders');
    expect(await orders.locator('[data-copy-state="aborted"]').count()).toBe(1);
    expect(await orders.locator('[data-copy-state="committed"][data-copy-cause="other-writer"]').count()).toBe(1);
    expect(await row('loss', '').locator('[data-loss-kind="not-acked"]').innerText()).toContain('evt-2');
    // instance-a's commitTransaction() is refused in this run: the counter of CommitFailedException says it counts
    // consumers' offset commits, so its 0 does not read as "no commit failed"
    const commitFailures = app.page.locator('[data-testid="verdict"] [data-counter="commitFailures"]');
    expect(await commitFailures.getAttribute('data-value')).toBe('0');
    expect(await commitFailures.locator('dt').innerText()).toBe('offset commits failed (CommitFailedException)');
    await playToEnd(presetById('outbox-cdc'));
    const events = row('output', 'order-events');
    expect(await events.getAttribute('data-status')).toBe('more-than-once');
    expect(await events.locator('[data-copy-cause="new-session"]').count()).toBe(2);
    expect(app.errors).toEqual([]);
  });
});
