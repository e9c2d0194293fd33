// @vitest-environment happy-dom
/**
 * The Details of a consumer application picked as a process (the injector's process list selects
 * `billing`, whose actors are `billing.app` and `billing.consumer`): each actor's state from the
 * trace, named by its role, in English and Korean — not "state —".
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const rows = () =>
  [...page.host.querySelectorAll('[data-testid="details"] .details-actor > dl.fields > div')].map(
    (d) => [d.querySelector('dt')?.textContent ?? '', d.querySelector('dd')?.textContent ?? ''] as const,
  );

describe('Details of a consumer application', () => {
  it("shows its application's and its KafkaConsumer's states, never a dash", async () => {
    const story = findPreset('at-least-once-consumer-crash');
    if (!story) throw new Error('no preset');
    act(() => simStore.getState().load(story.scenario));
    page.render();
    await page.settle();
    act(() => simStore.getState().seek(34));
    act(() => simStore.getState().select({ kind: 'actor', id: 'billing' }));
    await page.settle();
    const shown = new Map(rows());
    expect(shown.has('state')).toBe(false);
    expect(shown.get('application state')).toMatch(/polling/);
    expect(shown.get('KafkaConsumer state')).toMatch(/STABLE/);
    for (const [label, value] of rows()) expect(value, label).not.toBe('—');
    act(() => simStore.getState().setLanguage('ko'));
    const ko = new Map(rows());
    expect(ko.get('애플리케이션 상태')).toMatch(/polling/);
    expect(ko.get('KafkaConsumer 상태')).toMatch(/STABLE/);
    // an actor selected by itself keeps its one state row
    act(() => simStore.getState().select({ kind: 'actor', id: 'billing.app' }));
    await page.settle();
    expect(new Map(rows()).get('상태')).toMatch(/polling/);
  });
});
