// @vitest-environment happy-dom
/**
 * The verdict's "Caused at" steps read in step order, arrows between them: the engine lists a loss
 * cause first (the election and the truncation, then the append), and the list showed that as
 * "#236 #449 #69", which read as unordered.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();

describe('Caused at', () => {
  it('shows a loss’s steps in step order with arrows between them (acks-1-leader-failover-loss)', async () => {
    const preset = findPreset('acks-1-leader-failover-loss');
    if (!preset) throw new Error('no preset');
    act(() => simStore.getState().load(preset.scenario));
    page.render();
    await page.settle();
    const state = simStore.getState();
    act(() => state.seek(state.trace?.steps.length ?? 0));
    await page.settle();
    const causes = page.host.querySelector('[data-testid="verdict"] tr[data-layer="loss"] .causes');
    expect(causes).not.toBeNull();
    const links = [...(causes?.querySelectorAll('.step-link') ?? [])].map((b) => Number(b.textContent?.replace('#', '')));
    expect(links).toEqual([71, 240, 454]);
    expect(causes?.querySelectorAll('.step-arrow').length).toBe(2);
    expect(causes?.textContent).toContain('#71→#240→#454');
  });
});
