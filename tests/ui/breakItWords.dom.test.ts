// @vitest-environment happy-dom
/**
 * The Break it panel in the reader's language (happy-dom): a counterexample's faults are described in
 * Korean when the page is, as the page's own list of faults describes them — not in the engine's English.
 */
import { act, createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Counterexample, FaultSpec } from '../../src/sim';
import { describeFault } from '../../src/sim';
import { describeFaultKo } from '../../src/sim/narration';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { BreakItPanel } from '../../src/ui/search/BreakItPanel';
import { breakItStore } from '../../src/ui/search/breakItStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
afterEach(() => {
  act(() => breakItStore.getState().hide());
});

const drop: FaultSpec = { type: 'drop', rpc: 'ProduceResponse', nth: 1 };
const crash: FaultSpec = { type: 'crash', target: 'orders-service', at: 120 };

/** A counterexample as the search's workers report one (its fields as search.ts gives them). */
function found(faults: readonly FaultSpec[]): Counterexample {
  return {
    faults,
    k: faults.length,
    steps: faults.map((_, i) => 10 + i),
    violation: {
      property: 'any',
      layer: 'log',
      subject: 'orders',
      status: 'more-than-once',
      eventIds: ['evt-789'],
      sentence: 'Topic orders: evt-789 written twice.',
    },
    traceHash: 'x',
    runSteps: 80,
    order: [faults.length],
    via: 'exhaustive',
  };
}

function showFound(faults: readonly FaultSpec[]): void {
  const scenario = findPreset('opening-story')?.scenario;
  if (!scenario) throw new Error('opening-story');
  act(() => {
    breakItStore.getState().show(scenario);
    breakItStore.setState({ found: [{ counterexample: found(faults), link: '#s=1.x' }] });
  });
}

const faultLine = () => page.host.querySelector('[data-testid="break-it-found"] li p')?.textContent;

describe('Break it: a counterexample in the reader’s language', () => {
  it('describes its faults in Korean when the page is in Korean', async () => {
    act(() => simStore.getState().setLanguage('ko'));
    showFound([drop, crash]);
    page.render(createElement(BreakItPanel));
    await page.settle();
    expect(faultLine()).toBe(`${describeFaultKo(drop)}; ${describeFaultKo(crash)}`);
    expect(faultLine()).not.toContain(describeFault(drop));
  });

  it('in English as the engine words them', async () => {
    showFound([drop]);
    page.render(createElement(BreakItPanel));
    await page.settle();
    expect(faultLine()).toBe(describeFault(drop));
  });
});
