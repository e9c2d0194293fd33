// @vitest-environment happy-dom
/**
 * The actors panel's billing card in at-least-once-consumer-crash: right after the crash it is down
 * with no "incarnation 2" (no second life has started; it read "down · incarnation 2"), and after
 * the restart it is "incarnation 2".
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { simStore } from '../../src/store/simStore';
import { ActorsPanel } from '../../src/ui/actors/ActorsPanel';
import { pageInDom } from './pageInDom';

const page = pageInDom();

describe('the incarnation badge', () => {
  it('names no second life while the process is down after its first crash', async () => {
    const preset = findPreset('at-least-once-consumer-crash')!;
    const trace = runScenario(preset.scenario);
    const down = [...Array(trace.steps.length + 1).keys()].find((n) => stateAt(trace, n).processes.get('billing')?.down) ?? -1;
    const up = [...Array(trace.steps.length + 1).keys()].find((n) => n > down && !stateAt(trace, n).processes.get('billing')?.down) ?? -1;
    expect(down).toBeGreaterThan(0);
    expect(up).toBeGreaterThan(down);
    act(() => simStore.getState().load(preset.scenario));
    await page.settle(30);
    page.render(createElement(ActorsPanel));
    const head = () => page.host.querySelector('[data-process="billing"] .process-head h4')?.textContent ?? '';
    act(() => simStore.getState().seek(down));
    await page.settle();
    expect(page.host.querySelector('[data-process="billing"]')?.getAttribute('data-status')).toBe('down');
    expect(head()).not.toContain('incarnation');
    act(() => simStore.getState().seek(up));
    await page.settle();
    expect(head()).toContain('incarnation 2');
  });
});
