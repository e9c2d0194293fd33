import { describe, expect, it } from 'vitest';
import { preferredLanguage } from '../../src/ui/preferredLanguage';

describe('the language a page opens in without a link', () => {
  it('is the first of the browser’s languages EOS Lab speaks', () => {
    expect(preferredLanguage(['ko-KR', 'en-US'])).toBe('ko');
    expect(preferredLanguage(['ko'])).toBe('ko');
    expect(preferredLanguage(['fr-FR', 'ko-KR', 'en'])).toBe('ko');
    expect(preferredLanguage(['en-GB', 'ko-KR'])).toBe('en');
    expect(preferredLanguage(['de-DE', 'fr'])).toBe('en');
    expect(preferredLanguage([])).toBe('en');
    expect(preferredLanguage(undefined)).toBe('en');
  });
});

describe('the language the person chose on the page', () => {
  it('comes before the browser’s languages', () => {
    expect(preferredLanguage(['en-US'], 'ko')).toBe('ko');
    expect(preferredLanguage(['ko-KR'], 'en')).toBe('en');
    expect(preferredLanguage(['ko-KR'], null)).toBe('ko');
  });
});
