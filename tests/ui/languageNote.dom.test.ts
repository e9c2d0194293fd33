// @vitest-environment happy-dom
/**
 * An address with a language EOS Lab does not speak (`lang=fr`): a short note, not a block, in the
 * language the page opened in, beside any other note of the link; the value shown as text.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LanguageNotSupportedNote } from '../../src/share/LanguageNote';
import { LinkErrorPanel } from '../../src/share/LinkErrorPanel';
import { shareStore } from '../../src/share/shareState';
import { simStore } from '../../src/store/simStore';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  act(() => {
    simStore.getState().setLanguage('en');
    shareStore.getState().setLanguageNotSupported(null);
    shareStore.getState().setStepNotAStep(null);
    shareStore.getState().setLinkError(null);
  });
});

const note = () => host.querySelector('[data-testid="language-not-supported"]');

describe('a language EOS Lab does not speak', () => {
  it("the page's header says so in its language, beside a step note, as text; Dismiss removes it", () => {
    act(() => {
      shareStore.getState().setLanguageNotSupported('<b>fr</b>');
      shareStore.getState().setStepNotAStep({ asked: '-3', opened: 0 });
    });
    act(() => root.render(createElement(LinkErrorPanel)));
    expect(note()?.tagName).toBe('OUTPUT');
    expect(note()?.textContent).toContain('This link asks for language “<b>fr</b>”, which EOS Lab does not have');
    expect(note()?.querySelector('b')).toBeNull();
    expect(host.querySelector('[data-testid="step-not-a-step"]')).not.toBeNull();
    act(() => simStore.getState().setLanguage('ko'));
    expect(note()?.textContent).toContain('영어(lang=en)와 한국어(lang=ko)만 있습니다');
    act(() => (note()?.querySelector('button') as HTMLButtonElement).click());
    expect(note()).toBeNull();
    expect(shareStore.getState().languageNotSupported).toBeNull();
  });

  it('gives way to a link that cannot be opened (the error says what matters)', () => {
    act(() => {
      shareStore.getState().setLanguageNotSupported('fr');
      shareStore.getState().setLinkError({ kind: 'corrupt', message: 'broken', ko: '손상' });
    });
    act(() => root.render(createElement(LanguageNotSupportedNote, { language: 'en' })));
    expect(note()).toBeNull();
  });
});
