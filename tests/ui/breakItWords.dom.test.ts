// @vitest-environment happy-dom
/**
 * The Break it panel in the reader's language (happy-dom): a counterexample's faults are described in
 * Korean when the page is, as the page's own list of faults describes them — not in the engine's English;
 * and what it broke names the layer and the status as the verdict table does, for every status.
 */
import { act, createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { allowList, englishWords } from '../../e2e/korean-words';
import type { Counterexample, FaultSpec } from '../../src/sim';
import { describeFault } from '../../src/sim';
import { describeFaultKo } from '../../src/sim/narration';
import { findPreset } from '../../src/sim/presets';
import { STATUS_NAMES } from '../../src/sim/views';
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

type Status = Counterexample['violation']['status'];

/** A counterexample as the search's workers report one (its fields as search.ts gives them). */
function found(faults: readonly FaultSpec[], status: Status = 'more-than-once'): Counterexample {
  return {
    faults,
    k: faults.length,
    steps: faults.map((_, i) => 10 + i),
    violation: {
      property: 'any',
      layer: 'log',
      subject: 'orders',
      status,
      eventIds: ['evt-789'],
      sentence: 'Topic orders: evt-789 written twice.',
    },
    traceHash: 'x',
    runSteps: 80,
    order: [faults.length],
    via: 'exhaustive',
  };
}

function showFound(faults: readonly FaultSpec[], status?: Status): void {
  const scenario = findPreset('opening-story')?.scenario;
  if (!scenario) throw new Error('opening-story');
  act(() => {
    breakItStore.getState().show(scenario);
    breakItStore.setState({ found: [{ counterexample: found(faults, status), link: '#s=1.x' }] });
  });
}

const faultLine = () => page.host.querySelector('[data-testid="break-it-found"] li p')?.textContent;
const brokeLine = () => page.host.querySelector('[data-testid="break-it-found"] li p.eos-muted')?.textContent ?? '';

describe('Break it: a counterexample in the reader’s language', () => {
  it('describes its faults in Korean when the page is in Korean', async () => {
    act(() => simStore.getState().setLanguage('ko'));
    showFound([drop, crash]);
    page.render(createElement(BreakItPanel));
    await page.settle();
    expect(faultLine()).toBe(`${describeFaultKo(drop)}; ${describeFaultKo(crash)}`);
    expect(faultLine()).not.toContain(describeFault(drop));
  });

  it('says what broke with the verdict’s Korean names of the layer and status, for every status', async () => {
    act(() => simStore.getState().setLanguage('ko'));
    page.render(createElement(BreakItPanel));
    for (const status of Object.keys(STATUS_NAMES) as Status[]) {
      showFound([drop], status);
      await page.settle();
      expect(brokeLine()).toBe(`Kafka 로그 (orders): ${STATUS_NAMES[status][1]} — evt-789`);
      expect(englishWords(brokeLine(), allowList(['orders', 'evt-789']))).toEqual([]);
    }
  });

  it('in English as the engine words them', async () => {
    showFound([drop]);
    page.render(createElement(BreakItPanel));
    await page.settle();
    expect(faultLine()).toBe(describeFault(drop));
    expect(brokeLine()).toBe('log layer, orders: Topic orders: evt-789 written twice.');
  });
});
