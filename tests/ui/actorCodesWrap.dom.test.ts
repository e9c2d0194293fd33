// @vitest-environment happy-dom
/**
 * Kafka's error codes and state names in the actor cards break between their words, not inside one
 * ("OUT_OF_ORDER_SEQU / ENCE_NUMBER"): a <wbr> follows every underscore of a card's state and of its
 * fields' values, and the text reads the same.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const CODE = /[A-Z]+(?:_[A-Z]+)+/;

describe('error codes in the actor cards', () => {
  it.each([
    ['sequence-gap', 'OUT_OF_ORDER_SEQUENCE_NUMBER'],
    ['eos-auto-commit-rebalance', null],
  ] as const)('%s: every code breaks only after its underscores', async (id, expected) => {
    const preset = findPreset(id);
    if (!preset) throw new Error(id);
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    await page.settle();
    const codes: string[] = [];
    const total = simStore.getState().trace?.steps.length ?? 0;
    for (const step of [Math.floor(total / 3), Math.floor((2 * total) / 3), total]) {
      act(() => simStore.getState().seek(step));
      await page.settle();
      for (const el of page.host.querySelectorAll('.actors-panel .state, .actors-panel .fields dd')) {
        const text = el.textContent ?? '';
        if (!CODE.test(text)) continue;
        codes.push(text);
        // each underscore is followed by a break opportunity, and nothing else was added
        const html = el.innerHTML;
        expect(html.split('_').length, text).toBe(html.split('_<wbr>').length);
        expect(html.replace(/<wbr>/g, '')).not.toContain('<');
      }
    }
    expect(codes.length, id).toBeGreaterThan(0);
    if (expected) expect(codes.join(' ')).toContain(expected);
  });
});
