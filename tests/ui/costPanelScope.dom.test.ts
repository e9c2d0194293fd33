// @vitest-environment happy-dom
/**
 * The cost panel's scope (happy-dom): its figures are the whole run's (percentiles, requests per
 * committed record), and — unlike the panels beside it, which follow the step — it says so under its
 * title, with the run's steps and virtual time, in English and Korean; at step 0 the same.
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { CostPanel } from '../../src/ui/cost/CostPanel';
import { pageInDom } from './pageInDom';

const page = pageInDom();

describe('the cost panel', () => {
  it("is titled and labelled as the whole run's figures, whatever step is on screen", () => {
    act(() => simStore.getState().load(findPreset('lost-ack-idempotent')?.scenario));
    const trace = simStore.getState().trace;
    if (!trace) throw new Error('no run');
    act(() => simStore.getState().seek(0));
    page.render(createElement(CostPanel));
    const panel = () => page.host.querySelector('[data-testid="cost-panel"]');
    const steps = trace.steps.length.toLocaleString('en-US');
    const ms = trace.endTime.toLocaleString('en-US');
    expect(panel()?.querySelector('h2')?.textContent).toBe('What the whole run costs');
    expect(panel()?.textContent).toContain(
      `Totals for the whole run — all ${steps} steps, ${ms} ms of virtual time — whatever step is on screen.`,
    );
    act(() => simStore.getState().setLanguage('ko'));
    expect(panel()?.querySelector('h2')?.textContent).toBe('실행 전체의 비용');
    expect(panel()?.textContent).toContain(`실행 전체(${steps}단계, 가상 시간 ${ms} ms)의 합계입니다.`);
  });
});
