// @vitest-environment happy-dom
/**
 * The cost chart's figures group their thousands as every other count and time on screen does
 * ("2 / 27,101 ms"); they were written bare ("27101 ms") beside "61,736 ms of virtual time".
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { CostPanel } from '../../src/ui/cost/CostPanel';
import { pageInDom } from './pageInDom';

const page = pageInDom();

describe('the cost chart', () => {
  it('producer-state-expired: a p99 over a second is written with its thousands grouped', () => {
    act(() => simStore.getState().load(findPreset('producer-state-expired')?.scenario));
    page.render(createElement(CostPanel));
    const numbers = [...page.host.querySelectorAll('.cost-number')].map((e) => e.textContent ?? '');
    const latency = numbers.find((n) => n.endsWith(' ms'));
    expect(latency).toMatch(/^\d+ \/ \d{1,3}(,\d{3})+ ms$/);
    expect(numbers.filter((n) => /\d{4}/.test(n))).toEqual([]);
  });
});
