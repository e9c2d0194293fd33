/**
 * The page's address loses what a sentence put after a link (a full stop, a closing bracket or
 * quote) before either stage reads it (src/shell/boot.tsx `cleanAddress`); a link without them, and
 * any other fragment, is left as it is.
 */
import { describe, expect, it } from 'vitest';
import { cleanAddress } from '../../src/shell/boot';

function fakeWindow(hash: string) {
  const replaced: string[] = [];
  const win = {
    location: { hash } as Location,
    history: {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => {
        replaced.push(url);
      },
    } as unknown as History,
  };
  return { win, replaced };
}

describe('the address a link was opened with', () => {
  it('loses a trailing full stop, comma or closing bracket', () => {
    for (const [hash, clean] of [
      ['#s=1.abcDEF_-.', '#s=1.abcDEF_-'],
      ['#preset=zombie-fencing&step=7).', '#preset=zombie-fencing&step=7'],
      ['#ab=1.xyz,', '#ab=1.xyz'],
    ]) {
      const { win, replaced } = fakeWindow(hash as string);
      cleanAddress(win);
      expect(replaced).toEqual([clean]);
    }
  });

  it('is left alone when nothing is around the link, or it is no link', () => {
    for (const hash of ['#s=1.abcDEF_-', '#preset=zombie-fencing&step=7', '#gallery', '', '#dump=x', '#something.']) {
      const { win, replaced } = fakeWindow(hash);
      cleanAddress(win);
      expect(replaced, hash).toEqual([]);
    }
  });
});
