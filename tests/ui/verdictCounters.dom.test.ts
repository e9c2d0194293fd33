// @vitest-environment happy-dom
/**
 * The verdict panel's counters say what they count: the retry counter counts records a producer's
 * retry wrote a second time ("duplicates written by producer retries"), not duplicates of any
 * kind — "duplicates from producer retries 0" read as if retries had been counted.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();

const counter = (id: string) => page.host.querySelector(`[data-testid="verdict"] [data-counter="${id}"]`);

describe('the verdict counters', () => {
  it('lost-ack-no-idempotence: the retry wrote the record twice, said in English and Korean', async () => {
    const preset = findPreset('lost-ack-no-idempotence');
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    await page.settle();
    const state = simStore.getState();
    act(() => state.seek(state.trace?.steps.length ?? 0));
    await page.settle();
    expect(counter('retryDuplicates')?.querySelector('dt')?.textContent).toBe('duplicates written by producer retries');
    expect(counter('retryDuplicates')?.querySelector('.count')?.textContent).toBe('1');
    act(() => simStore.getState().setLanguage('ko'));
    await page.settle();
    expect(counter('retryDuplicates')?.querySelector('dt')?.textContent).toBe('프로듀서 재시도로 중복 기록된 레코드');
    expect(page.host.querySelector('[data-testid="verdict"] .counters')?.textContent).not.toContain('producer retries');
  });
});
