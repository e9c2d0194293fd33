// @vitest-environment happy-dom
/**
 * After an injection the run is forked and a new trace lands; the process the reader picked in the
 * Inject panel stays picked (its picker and the details keep it), so a second fault on the same
 * process is one click away.
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { InjectPanel } from '../../src/ui/inject/InjectPanel';
import { pageInDom } from './pageInDom';

const page = pageInDom();

describe('the Inject panel after a crash', () => {
  it('keeps the process the reader picked', async () => {
    const preset = findPreset('opening-story');
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    await page.settle(30);
    act(() => simStore.getState().seek(10));
    page.render(createElement(InjectPanel));
    await page.settle();
    const picker = () => page.host.querySelector<HTMLSelectElement>('.process-pick select');
    const pick = picker();
    if (!pick) throw new Error('no process picker');
    act(() => {
      pick.value = 'orders-service';
      pick.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.settle();
    expect(picker()?.value).toBe('orders-service');
    const before = simStore.getState().trace;
    const crash = [...page.host.querySelectorAll<HTMLButtonElement>('[data-testid="actor-actions"] button')].find(
      (b) => b.textContent === 'Crash',
    );
    if (!crash) throw new Error('no Crash button');
    act(() => crash.click());
    await page.settle(30);
    expect(simStore.getState().trace).not.toBe(before);
    expect(simStore.getState().scenario?.faults?.length ?? 0).toBeGreaterThan(0);
    expect(picker()?.value).toBe('orders-service');
    expect(simStore.getState().selection).toEqual({ kind: 'actor', id: 'orders-service' });
    expect(page.host.querySelector('[data-testid="actor-actions"] h3')?.textContent).toContain('orders-service');
  });
});
