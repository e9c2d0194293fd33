/**
 * What the page hands the dump worker (src/ui/dump/dumpInput.ts): a file small enough for a link is
 * read on the page (its text makes the link); a larger one goes to the worker unread, as the File,
 * and is read there; a dump holding such a file has no link.
 */
import { describe, expect, it } from 'vitest';
import { fileInput, isDumpFile, linkableSources, readInputs } from '../../src/ui/dump/dumpInput';
import { MAX_LINKABLE_TEXT } from '../../src/ui/dump/dumpLink';

describe('dump inputs', () => {
  it('reads a small file on the page and leaves a large one for the worker', async () => {
    const small = await fileInput(new File(['baseOffset: 0'], 'small.txt'));
    expect(small).toEqual({ name: 'small.txt', text: 'baseOffset: 0' });
    const bigText = 'x'.repeat(MAX_LINKABLE_TEXT + 1);
    const big = await fileInput(new File([bigText], 'big.txt'));
    expect(isDumpFile(big)).toBe(true);
    expect('text' in big).toBe(false);
    expect(linkableSources([small])).toEqual([small]);
    expect(linkableSources([small, big])).toBeNull();
    const read = await readInputs([small, big]);
    expect(read.map((s) => [s.name, s.text.length])).toEqual([
      ['small.txt', 13],
      ['big.txt', MAX_LINKABLE_TEXT + 1],
    ]);
  });
});
