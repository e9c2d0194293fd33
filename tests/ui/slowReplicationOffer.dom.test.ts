// @vitest-environment happy-dom
/**
 * The Inject panel offers "Slow replication link" for a broker only when the cluster has another
 * broker: with a single broker there is no follower and no replica fetch to slow, and the action
 * changed nothing.
 */
import { act, createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { InjectPanel } from '../../src/ui/inject/InjectPanel';
import { pageInDom } from './pageInDom';

const page = pageInDom();

async function pickBroker(presetId: string, broker: string): Promise<void> {
  const preset = findPreset(presetId);
  if (!preset) throw new Error(`no preset ${presetId}`);
  act(() => simStore.getState().load(preset.scenario));
  await page.settle(30);
  act(() => simStore.getState().seek(5));
  page.render(createElement(InjectPanel));
  await page.settle();
  const pick = page.host.querySelector<HTMLSelectElement>('.process-pick select');
  if (!pick) throw new Error('no process picker');
  act(() => {
    pick.value = broker;
    pick.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.settle();
  expect(page.host.querySelector('[data-testid="actor-actions"] h3')?.textContent).toContain(broker);
}

describe('Slow replication link in the Inject panel', () => {
  it('is not offered for the only broker of a cluster', async () => {
    await pickBroker('opening-story', 'broker-0');
    expect(page.host.querySelector('[data-testid="replication-actions"]')).toBeNull();
    // the broker's own actions are there
    expect(page.host.querySelector('[data-testid="actor-actions"]')?.textContent).toContain('Crash broker');
  });

  it('is offered for a broker of a cluster of three', async () => {
    await pickBroker('acks-1-leader-failover-loss', 'broker-1');
    expect(page.host.querySelector('[data-testid="replication-actions"]')?.textContent).toContain('Slow replication link');
  });
});
