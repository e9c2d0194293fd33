// @vitest-environment happy-dom
/**
 * The readiness checklist as a person sees it (happy-dom): it speaks for the step on screen ("as of
 * step N", answers that depend on the run "not yet" at step 0), reaches its final answers at the
 * end, never offers to open the scenario that is already open, names the one it offers by its title, and says what a missing preset would show.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { simStore } from '../../src/store/simStore';
import { loadPresetTextsKo } from '../../src/ui/usePresetTexts';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const sinkTitle = findPreset('db-sink-duplicate')?.title ?? 'db-sink-duplicate is missing';

const item = (id: string) => page.host.querySelector(`[data-testid="checklist"] [data-check="${id}"]`);
const asOf = () => page.host.querySelector('[data-testid="checklist-as-of"]')?.textContent ?? '';

async function open(id: string): Promise<number> {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  act(() => simStore.getState().load(preset.scenario));
  page.render();
  await page.settle(30);
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
    // replication: one replica everywhere, and the internal topics said to be not modelled, each part with its status
    expect(item('replication')?.getAttribute('data-status')).toBe('not-applicable');
    const parts = [...(item('replication')?.querySelectorAll('[data-part]') ?? [])];
    expect(parts.map((p) => [p.getAttribute('data-part'), p.getAttribute('data-status')])).toEqual([
      ['transaction-state', 'not-applicable'],
      ['consumer-offsets', 'not-applicable'],
    ]);
    expect(parts[0]?.textContent).toContain('Not modelled: __transaction_state keeps one replica in the simulator');
    act(() => simStore.getState().seek(total));
    await page.settle(30);
    expect(asOf()).toBe(`At the end of the run (step ${total}).`);
    expect(item('observed')?.getAttribute('data-status')).toBe('fail');
    // transaction-timeout is itself the example: no button opens it again
    expect(item('observed')?.querySelector('.shows-here')?.textContent).toBe('This scenario shows it.');
    expect(item('observed')?.querySelector('button')).toBeNull();
    act(() => simStore.getState().setLanguage('ko'));
    await page.settle(30);
    expect(asOf()).toBe(`실행이 끝난 시점(${total}단계) 기준.`);
    expect(item('observed')?.querySelector('.shows-here')?.textContent).toBe('이 시나리오가 바로 그 예입니다.');
  });

  it('db-sink-duplicate offers no button to open itself; opening-story links to it', async () => {
    const total = await open('db-sink-duplicate');
    act(() => simStore.getState().seek(total));
    await page.settle(30);
    const buttons = [...page.host.querySelectorAll('[data-testid="checklist"] button')].map((b) => b.textContent);
    expect(buttons.filter((b) => b?.includes(sinkTitle))).toEqual([]);
    expect(item('side-effects')?.querySelector('.shows-here')).not.toBeNull();
    const end = await open('opening-story');
    act(() => simStore.getState().seek(end));
    await page.settle(30);
    const link = item('dedup-memory')?.querySelector('button');
    // named by its title, in the page's language, not by its id
    expect(link?.textContent).toBe(`Open “${sinkTitle}”`);
    expect(link?.getAttribute('data-preset')).toBe('db-sink-duplicate');
    act(() => simStore.getState().setLanguage('ko'));
    await loadPresetTextsKo();
    await page.settle(30);
    expect(item('dedup-memory')?.querySelector('button')?.textContent).toBe(`‘${PRESET_TEXT_KO['db-sink-duplicate']?.title}’ 열기`);
    act(() => simStore.getState().setLanguage('en'));
    await page.settle(30);
    act(() => link?.click());
    await page.settle(30);
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
    page.render();
    await page.settle(30);
    act(() => simStore.getState().seek(simStore.getState().trace?.steps.length ?? 0));
    await page.settle(30);
    expect(item('event-id')?.getAttribute('data-status')).toBe('fail');
    expect(item('event-id')?.querySelector('.would-show')?.textContent).toContain('No shipped scenario shows it yet');
    expect(item('event-id')?.querySelector('button')).toBeNull();
  });
});
