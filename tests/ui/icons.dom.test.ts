// @vitest-environment happy-dom
/**
 * Icons are drawn, not typed (happy-dom): Debian's fonts (and many phones') have no ⏸ and its
 * media-control neighbours, which Chromium shows as a missing-glyph box, and emoji look different on
 * every system. So the page's and the embed's sources type none of them; the verdict's "stalled"
 * mark and the embed's playback buttons are inline SVG, each button keeping its words for its name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { VerdictPanel } from '../../src/ui/verdict/VerdictPanel';
import { pageInDom } from './pageInDom';

const page = pageInDom();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(p) && !/\.test\./.test(p) ? [p] : [];
  });
}

/** Media-control symbols (⏩…⏺: ⏮ ⏭ ⏯ ⏸ ⏹ …), emoji and the emoji variation selector. */
const NO_GLYPH = /[\u23E9-\u23FA]|[\u{1F300}-\u{1FAFF}]|\uFE0F/u;

describe('icons', () => {
  it('no page or embed source types a media-control symbol or an emoji', () => {
    const bad = [...sources('src/ui'), ...sources('src/embed'), 'src/page.tsx', 'src/main.tsx'].flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (NO_GLYPH.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(bad).toEqual([]);
  });

  it('the verdict marks a stalled finding with a drawn pause sign, its status in words', async () => {
    // hanging-transaction: the open transaction pins the LSO, so read_committed delivery stalls
    act(() => simStore.getState().load(findPreset('hanging-transaction')?.scenario));
    await page.settle(50);
    const trace = simStore.getState().trace;
    act(() => simStore.getState().seek((trace?.steps.length ?? 1) - 1));
    page.render(createElement(VerdictPanel));
    await page.settle(300);
    const rows = [...page.host.querySelectorAll<HTMLElement>('tr[data-status="stalled"]')];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const glyph = row.querySelector('.glyph');
      expect(glyph?.querySelector('svg path')).not.toBeNull();
      expect(glyph?.getAttribute('aria-hidden')).toBe('true');
      expect(row.querySelector('.status-cell')?.textContent).toContain('stalled');
    }
  });
});
