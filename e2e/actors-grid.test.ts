/**
 * The Actors panel's fields line up: each actor's labels are one column as wide as its widest label
 * and its values the rest, so every value starts at the same left edge and a long value
 * ("LEO 8 · HW 8 · LSO 8") wraps inside its own cell, never the label beside it. Each row used to be a
 * grid of its own, its label column as wide as that row's label (up to 55%): the values of one actor
 * started at different places, and "order-results-0 producers" broke onto two lines.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { appSession, loadScenario, waitForStep } from './ui-helpers';

const preset = findPreset('ctp-exactly-once-crash');
if (!preset) throw new Error('ctp-exactly-once-crash is missing');
const total = runScenario(preset.scenario).steps.length;

interface FieldList {
  readonly actor: string;
  /** Each row: its label, the left edge of its value cell, and how many lines its label takes. */
  readonly rows: readonly { label: string; valueLeft: number; labelLines: number }[];
}

/** Every actor's field list in the Actors panel, read off the screen. */
function fieldLists(page: Page): Promise<FieldList[]> {
  return page.$$eval('.actors-panel li[data-actor] > dl.fields', (lists) =>
    lists.map((dl) => ({
      actor: dl.closest('li')?.getAttribute('data-actor') ?? '',
      rows: [...dl.children].map((row) => {
        const dt = row.querySelector('dt') as HTMLElement;
        const dd = row.querySelector('dd') as HTMLElement;
        // the lines of the label's text (its box is stretched to the row's height, so count line tops)
        const range = document.createRange();
        range.selectNodeContents(dt);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        return { label: dt.textContent ?? '', valueLeft: Math.round(dd.getBoundingClientRect().left), labelLines: tops.size };
      }),
    })),
  );
}

describe('Actors panel fields (ctp-exactly-once-crash at its end)', () => {
  const s = appSession();

  for (const [language, size] of [
    ['en', { width: 1280, height: 800 }],
    ['ko', { width: 1280, height: 800 }],
    ['en', { width: 390, height: 844 }],
  ] as const)
    it(`${language} at ${size.width}×${size.height}: one value column per actor, no label broken over two lines`, async () => {
      const page = s.page;
      await page.setViewportSize(size);
      await page.evaluate((l) => window.__eosLab?.store.getState().setLanguage(l), language);
      await loadScenario(page, preset.scenario);
      await page.evaluate((n) => window.__eosLab?.store.getState().seek(n), total);
      await waitForStep(page, total);
      await page.locator('.actors-panel li[data-actor="broker-0"] dl.fields').waitFor();
      const lists = await fieldLists(page);
      // the broker's rows: its partitions' offsets and their producers (the rows the user saw misaligned)
      const broker = lists.find((l) => l.actor === 'broker-0');
      expect(broker?.rows.map((r) => r.label)).toContain(language === 'en' ? 'order-results-0 producers' : 'order-results-0 프로듀서');
      expect(broker?.rows.length).toBeGreaterThanOrEqual(4);
      const misaligned = lists
        .filter((l) => new Set(l.rows.map((r) => r.valueLeft)).size > 1)
        .map((l) => `${l.actor}: ${l.rows.map((r) => `${r.label}@${r.valueLeft}`).join(', ')}`);
      expect(misaligned).toEqual([]);
      const broken = lists.flatMap((l) => l.rows.filter((r) => r.labelLines > 1).map((r) => `${l.actor}: ${r.label}`));
      expect(broken).toEqual([]);
      expect(s.errors).toEqual([]);
    });
});
