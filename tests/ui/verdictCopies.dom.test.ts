// @vitest-environment happy-dom
/**
 * The verdict panel's copies of an event: a record without an event_id is named by its address, so
 * its copy is not named again ("account-tier-0@0: account-tier-0@0 no longer in the log" before).
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();

describe('copies of a record without an event_id', () => {
  it('say its state once, after its address (compaction-is-not-dedup)', async () => {
    const preset = findPreset('compaction-is-not-dedup');
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    await page.settle();
    const state = simStore.getState();
    const last = (state.trace?.steps.length ?? 1) - 1;
    act(() => state.seek(last));
    await page.settle();
    const item = page.host.querySelector('[data-testid="verdict"] li[data-event="account-tier-0@0"]');
    expect(item).not.toBeNull();
    expect(item?.textContent).toBe('account-tier-0@0: no longer in the log');
  });
});
