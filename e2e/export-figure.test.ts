/**
 * The exported figure in Chromium: for each golden case (preset, step, theme, language, width) the
 * Export dialog's SVG parses with the browser's strict XML parser (DOMParser, image/svg+xml) and,
 * normalised, equals its golden file in tests/golden/figures — the same file Node makes; the PNG is
 * the same drawing at 2× (its IHDR says twice the SVG's size); and, rendered by Chromium with its
 * real fonts, no label is wider than the box the figure measured for it, so no two labels overlap.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { encodeLink } from '../src/sim/scenario/link';
import { GOLDEN_FIGURES, goldenFigureName, normalizeSvg } from '../src/ui/export/figure/normalize';
import { textWidth } from '../src/ui/export/figure/textMetrics';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function download(page: Page, name: string): Promise<Buffer> {
  const dialog = page.getByTestId('export-dialog');
  const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name }).click()]);
  return readFileSync(await file.path());
}

describe('the exported figure', () => {
  it.each(GOLDEN_FIGURES.map((g) => [goldenFigureName(g), g] as const))(
    '%s: parses, equals its golden file, PNG at 2×',
    async (name, g) => {
      const preset = findPreset(g.preset);
      if (!preset) throw new Error(g.preset);
      const link = encodeLink(preset.scenario, { step: g.step === 'end' ? 3_000_000 : g.step, selection: null, language: g.language });
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}${link}`);
      await page.getByTestId('verdict').waitFor();
      await page.getByTestId('open-export').click();
      const dialog = page.getByTestId('export-dialog');
      await dialog.getByTestId('figure-width').selectOption(String(g.width));
      await dialog.getByTestId('figure-theme').selectOption(g.theme);
      // a Korean figure's title is the preset's Korean one, which loads with the Korean texts
      if (g.language === 'ko')
        await expect.poll(() => dialog.getByTestId('figure-preview').getAttribute('src')).toContain(encodeURIComponent('멱등성'));
      const buttons = g.language === 'ko' ? ['그림 SVG', '그림 PNG (2배)'] : ['Figure as SVG', 'Figure as PNG (2×)'];

      const svg = (await download(page, buttons[0] as string)).toString('utf8');
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        return { error: doc.getElementsByTagName('parsererror')[0]?.textContent ?? null, root: doc.documentElement.localName };
      }, svg);
      expect(parsed).toEqual({ error: null, root: 'svg' });
      expect(normalizeSvg(svg)).toBe(readFileSync(`tests/golden/figures/${name}`, 'utf8'));

      const png = await download(page, buttons[1] as string);
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const [w, h] = [Number(svg.match(/ width="(\d+)"/)?.[1]), Number(svg.match(/ height="(\d+)"/)?.[1])];
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2 * w, 2 * h]);

      // Chromium's own text widths: each label fits the width the figure measured for it (textMetrics.ts)
      const rendered = await page.evaluate((text) => {
        const host = document.createElement('div');
        host.innerHTML = text;
        document.body.append(host);
        const out = [...host.querySelectorAll('text')].map((t) => ({
          text: t.textContent ?? '',
          px: Number(t.getAttribute('font-size')),
          bold: t.getAttribute('font-weight') !== null,
          actual: (t as SVGTextElement).getComputedTextLength(),
        }));
        host.remove();
        return out;
      }, svg);
      expect(rendered.length).toBeGreaterThan(20);
      expect(rendered.filter((r) => r.actual > textWidth(r.text, r.px, r.bold) + 1).map((r) => `${r.text}: ${r.actual}`)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
