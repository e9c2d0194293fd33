// @vitest-environment happy-dom
/**
 * The partition lanes' legend names transactions, not "committed" alone (the verdict's word for below
 * the high watermark), and for replicated lanes explains records above the high watermark.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const legend = () => [...page.host.querySelectorAll('.tl-legend li')].map((li) => li.textContent ?? '');

describe('the partition lanes legend', () => {
  it('min-insync-blocks-writes: transactions named as such, and the high watermark entry', async () => {
    const preset = findPreset('min-insync-blocks-writes');
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    await page.settle();
    expect(legend()).toContain('in a committed transaction (solid)');
    expect(legend()).toContain('in an aborted transaction (crossed)');
    expect(legend()).toContain('above the high watermark: not committed (faded, dashed)');
    expect(legend()).not.toContain('committed (solid)');
    act(() => simStore.getState().setLanguage('ko'));
    await page.settle();
    expect(legend()).toContain('커밋된 트랜잭션 안 (채움)');
    expect(legend()).toContain('하이 워터마크 위: 커밋되지 않음 (흐리게, 점선)');
  });

  it('a run without replicas has no high watermark entry', async () => {
    const preset = findPreset('opening-story');
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    await page.settle();
    expect(legend()).toContain('not in a transaction (outlined)');
    expect(legend().some((l) => l.includes('high watermark:'))).toBe(false);
  });
});
