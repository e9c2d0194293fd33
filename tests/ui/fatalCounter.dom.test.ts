// @vitest-environment happy-dom
/**
 * The verdict panel lists "producers failed fatally, not fenced" only where a producer did
 * (transactional-id-expired: its transactional.id expired), with its count and a link to the step,
 * in English and Korean; elsewhere (zombie-fencing) the row is not there and "producers fenced" is.
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { VerdictPanel } from '../../src/ui/verdict/VerdictPanel';
import { pageInDom } from './pageInDom';

const page = pageInDom();

async function atEnd(presetId: string, language: 'en' | 'ko'): Promise<void> {
  act(() => simStore.getState().setLanguage(language));
  act(() => simStore.getState().load(findPreset(presetId)?.scenario));
  await page.settle(50);
  const trace = simStore.getState().trace;
  act(() => simStore.getState().seek(trace?.steps.length ?? 0));
  page.render(createElement(VerdictPanel));
  await page.settle(300);
}

const row = (id: string) => page.host.querySelector<HTMLElement>(`[data-counter="${id}"]`);

describe('the counter of producers failed fatally, not fenced', () => {
  it('transactional-id-expired: one, named, with a link to its step', async () => {
    await atEnd('transactional-id-expired', 'en');
    const fatal = row('producersFatal');
    expect(fatal?.getAttribute('data-value')).toBe('1');
    expect(fatal?.querySelector('dt')?.textContent).toBe('producers failed fatally, not fenced');
    expect(fatal?.querySelectorAll('a, button').length).toBeGreaterThan(0);
    expect(row('producersFenced')?.getAttribute('data-value')).toBe('0');
  });

  it('in Korean', async () => {
    await atEnd('transactional-id-expired', 'ko');
    expect(row('producersFatal')?.querySelector('dt')?.textContent).toBe('펜싱 없이 치명적 오류로 멈춘 프로듀서');
  });

  it('zombie-fencing: no such row; the fenced producer is counted as fenced', async () => {
    await atEnd('zombie-fencing', 'en');
    expect(row('producersFatal')).toBeNull();
    expect(Number(row('producersFenced')?.getAttribute('data-value'))).toBeGreaterThan(0);
  });
});
