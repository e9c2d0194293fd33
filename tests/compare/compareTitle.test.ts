/**
 * The A/B view names B by what it changes, in words in both languages: "+ 0" read as a number,
 * not as "nothing changed yet" (the new-user pass, at 390 px and 1280 px).
 */
import { describe, expect, it } from 'vitest';
import { compareStrings } from '../../src/ui/compare/compareStrings';

describe('the A/B title', () => {
  it('says how many settings B changes, none included, in English and Korean', () => {
    const en = compareStrings('en');
    const ko = compareStrings('ko');
    expect(en.withChanges('x', 0)).toBe('x + no change yet');
    expect(en.withChanges('x', 1)).toBe('x + 1 change');
    expect(en.withChanges('x', 3)).toBe('x + 3 changes');
    expect(ko.withChanges('x', 0)).toBe('x + 아직 바꾼 설정 없음');
    expect(ko.withChanges('x', 3)).toBe('x + 바꾼 설정 3개');
    expect(en.title('a', en.withChanges('a', 2))).toBe('A/B: a vs a + 2 changes');
  });
});
