// @vitest-environment happy-dom
/**
 * The help dialog at narrow widths: "한국어" in "Switch language (English / 한국어)" wraps between
 * words, never inside the word — also when the page is in English (where the page-wide `:lang(ko)`
 * rule does not apply). Checked on the page's own stylesheet, as the browser computes it.
 */
import { readFileSync } from 'node:fs';
import { act, createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simStore } from '../../src/store/simStore';
import { HelpDialog } from '../../src/ui/playback/HelpDialog';
import { pageInDom } from './pageInDom';

const page = pageInDom();
let style: HTMLStyleElement;
beforeAll(() => {
  style = document.createElement('style');
  style.textContent = readFileSync('src/ui/styles.css', 'utf8');
  document.head.append(style);
});
afterAll(() => {
  style.remove();
  document.documentElement.lang = '';
});

function languageRow(): HTMLElement {
  const cell = [...page.host.querySelectorAll<HTMLElement>('.help-dialog td')].find((td) => td.textContent?.includes('한국어'));
  if (!cell) throw new Error('no row naming 한국어');
  return cell;
}

describe('the help dialog keeps 한국어 whole', () => {
  for (const language of ['en', 'ko'] as const)
    it(`${language}: the language row breaks only between words`, async () => {
      act(() => simStore.getState().setLanguage(language));
      document.documentElement.lang = language;
      page.render(createElement(HelpDialog, { open: true, onClose: () => {} }));
      await page.settle();
      expect(getComputedStyle(languageRow()).wordBreak).toBe('keep-all');
    });
});
