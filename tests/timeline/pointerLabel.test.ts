/**
 * A consumer position's or a group offset's label on a narrow plot (a phone): whole on the side of
 * its pointer where it fits; where it fits on neither side, right of the pointer with its words cut
 * and its offset kept — never laid over its own marker, as "group billing committed 1" was at 390 px.
 * Cut, the label loses letters of its consumer’s or group’s name, not the word saying what it marks:
 * at 390 px the Korean embed of zombie-fencing showed "committed-reade… 4" and "그룹 committed-r… 4",
 * without 위치 (position) or 커밋 (committed).
 */
import { describe, expect, it } from 'vitest';
import { pointerLabel } from '../../src/ui/timeline/drawLanes';

const perChar = (t: string) => t.length * 6;
const MARKER = 5; // a pointer's marker reaches 5 px either side of it

describe('pointer labels', () => {
  it('stay whole beside the pointer when they fit on either side', () => {
    expect(pointerLabel(20, 'billing position 1', 400, perChar)).toEqual({ x: 28, text: 'billing position 1' });
    // near the right edge: left of the pointer
    const left = pointerLabel(380, 'billing position 1', 400, perChar);
    expect(left.text).toBe('billing position 1');
    expect(left.x + perChar(left.text)).toBeLessThanOrEqual(380 - MARKER);
  });

  it('fitting on neither side, start right of the marker, cut, the offset kept, inside the plot', () => {
    const width = 230;
    const x = 85;
    const text = 'group billing committed 1';
    expect(perChar(text)).toBeGreaterThan(width - 2 - (x + 8)); // too long on the right
    expect(x - 8 - perChar(text)).toBeLessThan(2); // and on the left
    const label = pointerLabel(x, text, width, perChar);
    expect(label.x).toBeGreaterThan(x + MARKER);
    expect(label.x + perChar(label.text)).toBeLessThanOrEqual(width - 2);
    expect(label.text).toMatch(/^group billing.*… 1$/);
    // Korean words too
    expect(pointerLabel(x, '그룹 billing 커밋 12', 180, perChar).text).toMatch(/… 12$/);
  });

  it('with too little room right of the pointer to cut usefully, keep the whole text inside the plot', () => {
    const label = pointerLabel(200, 'group billing committed 1', 230, perChar);
    expect(label.text).toBe('group billing committed 1');
    expect(label.x).toBeGreaterThanOrEqual(2);
  });

  it('cut, keep what the pointer marks and its offset whole, and shorten its owner’s name', () => {
    const width = 230;
    const x = 105;
    for (const [text, owner, kept] of [
      ['committed-reader 위치 4', 'committed-reader', / 위치 4$/],
      ['그룹 committed-reader 커밋 4', 'committed-reader', /^그룹 .+ 커밋 4$/],
      ['group committed-reader pending 4', 'committed-reader', /^group .+ pending 4$/],
    ] as const) {
      const label = pointerLabel(x, text, width, perChar, owner);
      expect(label.text).toMatch(kept);
      expect(label.text).toMatch(/^(그룹 |group )?co[^ ]*… /);
      expect(label.x).toBeGreaterThan(x + MARKER);
      expect(label.x + perChar(label.text)).toBeLessThanOrEqual(width - 2);
    }
  });

  it('with room for no letter of the owner’s name, its ellipsis alone stands for it', () => {
    // at 390 px in English: "group committe… 4" read as a group called committe…
    const label = pointerLabel(85, 'group billing committed 1', 210, perChar, 'billing');
    expect(label.text).toBe('group … committed 1');
    expect(label.x + perChar(label.text)).toBeLessThanOrEqual(208);
  });

  it('with no room even for the ellipsis, without the owner’s name: what it marks and its offset', () => {
    // at 390 px in English on zombie-fencing: "group committed… 4", its group named committed-reader
    expect(pointerLabel(85, 'group billing committed 1', 200, perChar, 'billing').text).toBe('group committed 1');
    expect(pointerLabel(85, '그룹 billing 커밋 1', 147, perChar, 'billing').text).toBe('그룹 커밋 1');
  });

  it('with no room for that either, cut its words from the end as before', () => {
    const label = pointerLabel(85, 'group billing committed 1', 180, perChar, 'billing');
    expect(label.text).toMatch(/^group.*… 1$/);
    expect(label.x + perChar(label.text)).toBeLessThanOrEqual(178);
  });
});
