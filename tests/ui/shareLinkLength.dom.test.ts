// @vitest-environment happy-dom
/**
 * The Share panel's length (happy-dom): it counts the whole link the person copies — the page's
 * address, path and query, then the fragment — not the fragment alone, and says so in English and
 * Korean.
 */
import { act, createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { linkOf } from '../../src/share/hashSync';
import { shareText } from '../../src/share/strings';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { ShareDialog } from '../../src/ui/sharing/ShareDialog';
import { pageInDom } from './pageInDom';

const page = pageInDom();
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the Share panel’s length', () => {
  it('is the length of the whole link in the field, in English and Korean', () => {
    vi.spyOn(navigator, 'clipboard', 'get').mockReturnValue({ writeText: () => Promise.resolve() } as unknown as Clipboard);
    // a page served under a path and with a query: the link copied carries both before the fragment
    history.replaceState(null, '', '/tools/eos-lab/index.html?from=docs');
    act(() => simStore.getState().load(findPreset('opening-story')?.scenario));
    for (const language of ['en', 'ko'] as const) {
      act(() => simStore.getState().setLanguage(language));
      // the link carries the language: the fragment as it is now
      const fragment = linkOf(simStore.getState()) as string;
      page.render(createElement(ShareDialog, { onClose: () => {} }));
      const url = page.host.querySelector<HTMLTextAreaElement>('[data-testid="share-link"]')?.value ?? '';
      expect(url.endsWith(fragment)).toBe(true);
      expect(url.length).toBeGreaterThan(fragment.length);
      const said = page.host.querySelector('[data-testid="share-dialog"] p.eos-muted')?.textContent ?? '';
      expect(Number(said.match(/[\d,]+/)?.[0]?.replaceAll(',', '')), said).toBe(url.length);
      expect(said).toBe(shareText(language).chars(url.length));
      page.render(null);
    }
    expect(shareText('en').chars(1234)).toBe('The link is 1,234 characters long, the whole address you copy.');
  });
});
