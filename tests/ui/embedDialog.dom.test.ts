// @vitest-environment happy-dom
/**
 * The Embed panel's Copy buttons (happy-dom): where the page may not use the clipboard, Copy says so
 * and leaves the code selected for the reader to copy — in the reader's language — rather than
 * doing nothing visible; where it may, it marks the copy.
 */
import { act, createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shareText } from '../../src/share/strings';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { EmbedDialog } from '../../src/ui/sharing/EmbedDialog';
import { pageInDom } from './pageInDom';

const page = pageInDom();
afterEach(() => {
  vi.restoreAllMocks();
});

function clipboard(writeText: (text: string) => Promise<void>): void {
  vi.spyOn(navigator, 'clipboard', 'get').mockReturnValue({ writeText } as unknown as Clipboard);
}

async function copyElementSnippet(): Promise<{ output: string; selected: boolean }> {
  const field = page.host.querySelector<HTMLTextAreaElement>('[data-testid="embed-element"]');
  const box = field?.closest('.eos-field');
  const button = box?.querySelector('button');
  if (!field || !button) throw new Error('no element snippet');
  await act(async () => button.click());
  await page.settle();
  return { output: box?.querySelector('output')?.textContent ?? '', selected: document.activeElement === field };
}

describe('the Embed panel’s Copy', () => {
  it('says the clipboard refused and selects the code, in English and in Korean', async () => {
    act(() => simStore.getState().load(findPreset('opening-story')?.scenario));
    for (const language of ['en', 'ko'] as const) {
      act(() => simStore.getState().setLanguage(language));
      clipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
      page.render(createElement(EmbedDialog, { onClose: () => {} }));
      const { output, selected } = await copyElementSnippet();
      expect(output).toBe(shareText(language).copySnippetFailed);
      expect(selected).toBe(true);
      page.render(null);
    }
  });

  it('marks a copy the clipboard took', async () => {
    act(() => simStore.getState().load(findPreset('opening-story')?.scenario));
    const copied: string[] = [];
    clipboard(async (text) => {
      copied.push(text);
    });
    page.render(createElement(EmbedDialog, { onClose: () => {} }));
    const { output } = await copyElementSnippet();
    expect(output).toBe('✓');
    expect(copied[0]).toContain('<eos-lab scenario="#s=1.');
  });
});
