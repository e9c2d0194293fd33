// @vitest-environment happy-dom
/**
 * The readiness checklist as a person sees it (happy-dom): it speaks for the step on screen ("as of
 * step N", answers that depend on the run "not yet" at step 0), reaches its final answers at the
 * end, never offers to open the scenario that is already open, and says what a missing preset would show.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { App } from '../../src/ui/App';
import { loadNarrator } from '../../src/ui/useNarrator';
import { loadPresetTextsKo } from '../../src/ui/usePresetTexts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;

beforeAll(async () => {
  await Promise.all([
    loadNarrator(),
    loadPresetTextsKo(),
    import('../../src/ui/checklist/ChecklistPanel'),
    import('../../src/ui/config'),
    import('../../src/ui/inject'),
  ]);
});
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(async () => {
  await act(() => new Promise((r) => setTimeout(r, 20)));
  act(() => root.unmount());
  host.remove();
  act(() => simStore.getState().setLanguage('en'));
});

const settle = () => act(() => new Promise((r) => setTimeout(r, 30)));
const item = (id: string) => host.querySelector(`[data-testid="checklist"] [data-check="${id}"]`);
const asOf = () => host.querySelector('[data-testid="checklist-as-of"]')?.textContent ?? '';

async function open(id: string): Promise<number> {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  act(() => simStore.getState().load(preset.scenario));
  act(() => root.render(createElement(App)));
  await settle();
  return simStore.getState().trace?.steps.length ?? 0;
}

describe('the readiness checklist on the page', () => {
  it('at step 0 says so and does not fail what has not happened; at the end it fails it', async () => {
    const total = await open('transaction-timeout');
    expect(asOf()).toBe(`As of step 0 of ${total}: answers about what the run does are not final until its end.`);
    expect(item('observed')?.getAttribute('data-status')).toBe('pending');
    expect(item('observed')?.querySelector('.check-status')?.textContent).toBe('not yet');
    expect(item('observed')?.querySelector('.check-reason')?.textContent).toMatch(/^As of step 0: /);
    // configuration answers are final from the start
    expect(item('read-committed')?.getAttribute('data-status')).toBe('pass');
    act(() => simStore.getState().seek(total));
    await settle();
    expect(asOf()).toBe(`At the end of the run (step ${total}).`);
    expect(item('observed')?.getAttribute('data-status')).toBe('fail');
    // transaction-timeout is itself the example: no button opens it again
    expect(item('observed')?.querySelector('.shows-here')?.textContent).toBe('This scenario shows it.');
    expect(item('observed')?.querySelector('button')).toBeNull();
    act(() => simStore.getState().setLanguage('ko'));
    await settle();
    expect(asOf()).toBe(`실행이 끝난 시점(${total}단계) 기준.`);
    expect(item('observed')?.querySelector('.shows-here')?.textContent).toBe('이 시나리오가 바로 그 예입니다.');
  });

  it('db-sink-duplicate offers no button to open itself; opening-story links to it', async () => {
    const total = await open('db-sink-duplicate');
    act(() => simStore.getState().seek(total));
    await settle();
    const buttons = [...host.querySelectorAll('[data-testid="checklist"] button')].map((b) => b.textContent);
    expect(buttons).not.toContain('Open db-sink-duplicate');
    expect(item('side-effects')?.querySelector('.shows-here')).not.toBeNull();
    const end = await open('opening-story');
    act(() => simStore.getState().seek(end));
    await settle();
    const link = item('dedup-memory')?.querySelector('button');
    expect(link?.textContent).toBe('Open db-sink-duplicate');
    act(() => link?.click());
    await settle();
    expect(simStore.getState().scenario?.id).toBe('db-sink-duplicate');
  });

  it('a failure no shipped preset shows says what one would show, and links nothing', async () => {
    act(() =>
      simStore.getState().load({
        version: 1,
        seed: 1,
        topics: [{ name: 'in' }],
        clients: [{ id: 'p', type: 'producer', script: [{ op: 'send', topic: 'in', key: 'k', value: 'v' }] }],
      }),
    );
    act(() => root.render(createElement(App)));
    await settle();
    act(() => simStore.getState().seek(simStore.getState().trace?.steps.length ?? 0));
    await settle();
    expect(item('event-id')?.getAttribute('data-status')).toBe('fail');
    expect(item('event-id')?.querySelector('.would-show')?.textContent).toContain('No shipped scenario shows it yet');
    expect(item('event-id')?.querySelector('button')).toBeNull();
  });
});
