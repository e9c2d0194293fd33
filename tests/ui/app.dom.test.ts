// @vitest-environment happy-dom
/**
 * The page in a DOM (happy-dom): a scenario that fails validation shows its errors as text and a way
 * back to the default scenario — never a blank page; a preset's title shows in Korean, in the header
 * and the gallery, once the reader picks Korean; a long run shows a progress bar until it lands.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRESET_ID, findPreset } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { simStore } from '../../src/store/simStore';
import { App } from '../../src/ui/App';
import { Gallery } from '../../src/ui/gallery/Gallery';
import { loadNarrator } from '../../src/ui/useNarrator';
import { loadPresetTextsKo } from '../../src/ui/usePresetTexts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;

// The page loads narration and three panels lazily. Load them before the tests so that no import is
// still pending when the DOM environment is torn down (Vitest reports such a late import as an error).
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
  // let the lazily loaded panels resolve inside act() before the page goes away
  await act(() => new Promise((r) => setTimeout(r, 20)));
  act(() => root.unmount());
  host.remove();
});

const render = () => act(() => root.render(createElement(App)));
const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));

describe('a scenario that cannot run', () => {
  it('shows each error with its JSON path, and opens the default scenario on request', async () => {
    act(() => simStore.getState().load({ version: 1, seed: 1, topics: [], clients: [{ id: 'Bad Id', type: 'producer', script: [] }] }));
    render();
    const alert = host.querySelector('[role="alert"]');
    expect(alert).not.toBeNull();
    expect(alert?.textContent).toContain('This scenario cannot run');
    const items = [...(alert?.querySelectorAll('li') ?? [])].map((li) => li.textContent ?? '');
    expect(items.some((t) => t.startsWith('topics: '))).toBe(true);
    expect(items.some((t) => t.startsWith('clients[0].id: '))).toBe(true);
    expect(host.querySelector('[data-testid="verdict"]')).toBeNull();
    const open = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Open the default scenario');
    expect(open).toBeDefined();
    act(() => open?.click());
    await settle();
    expect(simStore.getState().scenario?.id).toBe(DEFAULT_PRESET_ID);
    expect(host.querySelector('[role="alert"]')).toBeNull();
    expect(host.querySelector('[data-testid="verdict"]')).not.toBeNull();
  });

  it('renders scenario text as text, never as HTML', () => {
    act(() =>
      simStore.getState().load({
        version: 1,
        seed: 1,
        title: '<img src=x onerror="window.__pwned=1">',
        topics: [{ name: 'orders' }],
        clients: [],
      }),
    );
    render();
    expect(host.querySelector('h2')?.textContent).toBe('<img src=x onerror="window.__pwned=1">');
    expect(host.querySelector('img')).toBeNull();
  });
});

describe('a preset in Korean', () => {
  it("shows the default preset's Korean title in the header, marked as Korean, and in the gallery", async () => {
    act(() => simStore.getState().load(findPreset(DEFAULT_PRESET_ID)?.scenario));
    render();
    act(() => simStore.getState().setLanguage('ko'));
    await settle();
    const heading = host.querySelector('.scenario-title');
    expect(heading?.querySelector('h2')?.textContent).toBe(PRESET_TEXT_KO[DEFAULT_PRESET_ID]?.title);
    expect(heading?.getAttribute('lang')).toBe('ko');
    act(() => root.render(createElement(Gallery, { onClose: () => {} })));
    expect(host.querySelector(`[data-testid="open-${DEFAULT_PRESET_ID}"]`)?.textContent).toBe(PRESET_TEXT_KO[DEFAULT_PRESET_ID]?.title);
    act(() => simStore.getState().setLanguage('en'));
    expect(host.querySelector(`[data-testid="open-${DEFAULT_PRESET_ID}"]`)?.textContent).toBe(findPreset(DEFAULT_PRESET_ID)?.title);
  });
});

describe('the model notes', () => {
  it('name the transaction protocol the run uses, and list the simplifications, in the page language', async () => {
    act(() => simStore.getState().load(findPreset('zombie-fencing')?.scenario));
    render();
    await settle();
    const notes = () => host.querySelector('[data-testid="model-notes"]');
    expect(host.querySelector('[data-testid="protocol-version"]')?.textContent).toMatch(/^Transaction protocol v1: .*verification is on/);
    expect(notes()?.querySelectorAll('li').length).toBeGreaterThanOrEqual(5);
    expect(notes()?.textContent).toContain('One replica per partition');
    act(() => simStore.getState().load(findPreset(DEFAULT_PRESET_ID)?.scenario));
    await settle();
    expect(host.querySelector('[data-testid="protocol-version"]')?.textContent).toMatch(/^Transaction protocol v2 \(KIP-890/);
    act(() => simStore.getState().setLanguage('ko'));
    await settle();
    expect(notes()?.getAttribute('lang')).toBe('ko');
    expect(host.querySelector('[data-testid="protocol-version"]')?.textContent).toMatch(/^트랜잭션 프로토콜 v2/);
    act(() => simStore.getState().setLanguage('en'));
  });
});

describe('a long run', () => {
  it('shows a progress bar while it is computed in slices, then the page', async () => {
    act(() =>
      simStore.getState().load({
        version: 1,
        seed: 1,
        topics: [{ name: 'metrics', partitions: 1 }],
        clients: [
          {
            id: 'agent',
            type: 'producer',
            config: { 'linger.ms': 0 },
            script: [{ op: 'send', topic: 'metrics', key: 'k{i}', value: 'v', count: 10000 }],
          },
        ],
      }),
    );
    render();
    expect(simStore.getState().status).toBe('running');
    expect(host.querySelector('[data-testid="run-progress"] progress')).not.toBeNull();
    expect(host.querySelector('[data-testid="run-progress"] output')?.textContent).toMatch(/steps computed/);
    for (let i = 0; i < 200 && simStore.getState().status === 'running'; i++) await act(() => new Promise((r) => setTimeout(r, 10)));
    expect(simStore.getState().status).toBe('ready');
    expect(simStore.getState().trace?.steps.length).toBeGreaterThan(20000);
    expect(host.querySelector('[data-testid="run-progress"]')).toBeNull();
    expect(host.querySelector('[data-testid="verdict"]')).not.toBeNull();
  }, 60000);
});
