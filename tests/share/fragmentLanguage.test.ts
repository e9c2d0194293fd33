/**
 * A language written in the fragment where the page's other fragments have no place for one:
 * `#lang=ko` alone opens the default scenario in Korean, and `&lang=ko` after a share link opens that
 * link in Korean — in both stages (src/shell/boot.tsx `shellSource`, src/share/hashSync.ts), instead of
 * an English “this link cannot be opened” or “this link is damaged”; `&lang=ko` after `#gallery` opens
 * the gallery in Korean.
 */
import { describe, expect, it, vi } from 'vitest';
import { startHashSync } from '../../src/share/hashSync';
import { fragmentLanguage } from '../../src/share/linkLanguage';
import { shareStore } from '../../src/share/shareState';
import { shellSource } from '../../src/shell/boot';
import { DEFAULT_PRESET_ID, encodeLink, findPreset } from '../../src/sim';
import { createSimStore } from '../../src/store/simStore';
import { fakeWindow, withFakeTimersAndFreshShare } from '../ui/fakeWindow';

const zombieLink = () => {
  const preset = findPreset('zombie-fencing');
  if (!preset) throw new Error('no zombie-fencing');
  return encodeLink(preset.scenario, { step: 5, selection: null, language: 'en', skipIdle: true });
};

describe('a language in the fragment', () => {
  withFakeTimersAndFreshShare();

  it('is read off #lang=… alone and off a share link’s end; other fragments keep theirs', () => {
    expect(fragmentLanguage('#lang=ko')).toEqual({ hash: '', lang: { language: 'ko' } });
    expect(fragmentLanguage('#lang=fr')).toEqual({ hash: '', lang: { unsupported: 'fr' } });
    expect(fragmentLanguage('#s=1.abc&lang=ko-KR')).toEqual({ hash: '#s=1.abc', lang: { language: 'ko' } });
    expect(fragmentLanguage('#gallery&lang=ko')).toEqual({ hash: '#gallery', lang: { language: 'ko' } });
    for (const hash of ['#preset=zombie-fencing&lang=ko', '#s=1.abc', '#gallery', '', '#language=ko'])
      expect(fragmentLanguage(hash)).toEqual({ hash, lang: null });
  });

  it('#lang=ko opens the default scenario in Korean in both stages, not a link that cannot be opened', () => {
    expect(shellSource('', '#lang=ko')).toEqual({ text: DEFAULT_PRESET_ID, language: 'ko' });
    const w = fakeWindow('#lang=ko');
    const store = createSimStore();
    const stop = startHashSync(store, w.win, { delayMs: 50 });
    expect(shareStore.getState().linkError).toBeNull();
    expect(store.getState().scenario?.id).toBe(DEFAULT_PRESET_ID);
    expect(store.getState().language).toBe('ko');
    // the address becomes the run's own link
    vi.advanceTimersByTime(100);
    expect(w.location.hash.startsWith('#s=1.')).toBe(true);
    stop();
  });

  it('#gallery&lang=ko opens the gallery over the default scenario in Korean in both stages, not a link that cannot be opened', () => {
    expect(shellSource('', '#gallery&lang=ko')).toEqual({ text: DEFAULT_PRESET_ID, language: 'ko' });
    expect(shellSource('', '#gallery&lang=fr')).toEqual({ text: DEFAULT_PRESET_ID, language: null });
    const w = fakeWindow('#gallery&lang=ko');
    const store = createSimStore();
    const stop = startHashSync(store, w.win, { delayMs: 50 });
    expect(shareStore.getState().linkError).toBeNull();
    expect(shareStore.getState().panel).toBe('gallery');
    expect(store.getState().scenario?.id).toBe(DEFAULT_PRESET_ID);
    expect(store.getState().language).toBe('ko');
    // while the gallery is on screen the address keeps naming it
    vi.advanceTimersByTime(100);
    expect(w.location.hash).toBe('#gallery&lang=ko');
    stop();

    shareStore.getState().open(null);
    shareStore.getState().setHoldHash(false);
    const fr = fakeWindow('#gallery&lang=fr');
    const other = createSimStore();
    const stopFr = startHashSync(other, fr.win, { delayMs: 50 });
    expect(shareStore.getState().linkError).toBeNull();
    expect(shareStore.getState().panel).toBe('gallery');
    expect(shareStore.getState().languageNotSupported).toBe('fr');
    stopFr();
  });

  it('#lang=fr opens the default scenario and says the language is not one EOS Lab speaks', () => {
    const w = fakeWindow('#lang=fr');
    const store = createSimStore();
    const stop = startHashSync(store, w.win, { delayMs: 50 });
    expect(shareStore.getState().linkError).toBeNull();
    expect(store.getState().scenario?.id).toBe(DEFAULT_PRESET_ID);
    expect(shareStore.getState().languageNotSupported).toBe('fr');
    stop();
  });

  it('&lang=ko after a share link opens that link in Korean; a damaged one says so in Korean', () => {
    const link = zombieLink();
    expect(shellSource('', `${link}&lang=ko`)).toEqual({ text: link, language: 'ko', overridesLink: true });
    const w = fakeWindow(`${link}&lang=ko`);
    const store = createSimStore();
    const stop = startHashSync(store, w.win, { delayMs: 50 });
    expect(shareStore.getState().linkError).toBeNull();
    expect(store.getState().scenario?.id).toBe('zombie-fencing');
    expect(store.getState().step).toBe(5);
    expect(store.getState().language).toBe('ko');
    stop();

    shareStore.getState().setLinkError(null);
    const bad = fakeWindow('#s=garbage&lang=ko');
    const other = createSimStore();
    const stopBad = startHashSync(other, bad.win, { delayMs: 50 });
    expect(shareStore.getState().linkError?.kind).toBe('corrupt');
    expect(other.getState().language).toBe('ko');
    stopBad();
  });
});
