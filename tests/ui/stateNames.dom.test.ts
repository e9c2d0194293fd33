// @vitest-environment happy-dom
/**
 * States and events in the actors panel and the details (happy-dom): Kafka's names without the
 * model's prefix, the model's own in words, the exact path or name kept beside them (a tooltip, a
 * second line) — while the statechart panel keeps the exact paths.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const actorState = (id: string) => page.host.querySelector<HTMLElement>(`li[data-actor="${id}"] .actor-head .state`);
const detailsRows = () =>
  new Map(
    [...page.host.querySelectorAll('[data-testid="details"] dl.fields > div')].map((d) => [
      d.querySelector('dt')?.textContent ?? '',
      d.querySelector('dd') as HTMLElement,
    ]),
  );

async function openStory() {
  const story = findPreset('opening-story');
  if (!story) throw new Error('no preset');
  act(() => simStore.getState().load(story.scenario));
  page.render();
  await page.settle(100);
}

describe('states and events, as people read them', () => {
  it('the actors panel shows READY and STABLE, not live.READY or membership STABLE, fetching ASSIGNED.…; the path in the tooltip', async () => {
    await openStory();
    const trace = simStore.getState().trace;
    if (!trace) throw new Error('no trace');
    // a step after which the producer is READY and the consumer is in its group, neither of them the step's actor
    let at = 0;
    for (let i = 1; i <= trace.steps.length && at === 0; i++) {
      const v = simStore.getState();
      act(() => v.seek(i));
      const s = simStore.getState();
      const actor = trace.steps.at(i - 1)?.actor;
      const p = page.host.querySelector('li[data-actor="orders-service.producer"]')?.getAttribute('data-state');
      const c = page.host.querySelector('li[data-actor="billing.consumer"]')?.getAttribute('data-state') ?? '';
      if (p === 'live.READY' && c.includes('STABLE') && actor !== 'orders-service.producer' && actor !== 'billing.consumer') at = s.step;
    }
    expect(at).toBeGreaterThan(0);
    await page.settle(300);
    expect(actorState('orders-service.producer')?.textContent).toBe('READY');
    expect(actorState('orders-service.producer')?.title).toBe('live.READY');
    const consumer = actorState('billing.consumer');
    expect(consumer?.textContent).toMatch(/^STABLE · /);
    expect(consumer?.textContent).not.toMatch(/membership|ASSIGNED|running\./);
    expect(consumer?.title).toMatch(/^running\.membership\.STABLE\|running\.fetching\./);
    act(() => simStore.getState().setLanguage('ko'));
    await page.settle(300);
    expect(actorState('billing.app')?.textContent).not.toMatch(/running\./);
  });

  it('the details say a timer in words (linger.ms elapsed) with its name under it, and the state by its Kafka name', async () => {
    await openStory();
    const trace = simStore.getState().trace;
    if (!trace) throw new Error('no trace');
    let index = -1;
    for (let i = 0; i < trace.steps.length && index < 0; i++) if (trace.steps.at(i)?.label === 'lingerExpired') index = i;
    expect(index).toBeGreaterThanOrEqual(0);
    act(() => simStore.getState().select({ kind: 'step', index }));
    await page.settle();
    const rows = detailsRows();
    const event = rows.get('event');
    expect(event?.firstChild?.textContent).toBe('linger.ms elapsed');
    expect(event?.querySelector('[data-testid="exact-name"]')?.textContent).toBe('lingerExpired');
    const state = rows.get('state');
    expect(state?.textContent).not.toMatch(/^live\./);
    expect(state?.querySelector('[data-testid="exact-name"]')?.textContent).toMatch(/^live\./);
    act(() => simStore.getState().setLanguage('ko'));
    await page.settle();
    expect(detailsRows().get('이벤트')?.firstChild?.textContent).toBe('linger.ms 경과');

    // an actor's details: its state by Kafka's name, the exact path under it
    act(() => simStore.getState().setLanguage('en'));
    act(() => simStore.getState().seek(trace.steps.length));
    act(() => simStore.getState().select({ kind: 'actor', id: 'orders-service.producer' }));
    await page.settle();
    const actor = page.host.querySelector('[data-testid="details"] .details-actor > dl.fields > div dd') as HTMLElement;
    expect(actor.firstChild?.textContent).toBe('READY');
    expect(actor.querySelector('[data-testid="exact-name"]')?.textContent).toBe('live.READY');
  });
});
