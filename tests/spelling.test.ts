/**
 * One spelling for one word: the page says "defense" (the gallery's "problem → the defense that
 * fits", "the defense holds"), so its other words, the README and the docs say it the same way.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareStrings } from '../src/ui/compare/compareStrings';
import { GALLERY_TEXT } from '../src/ui/gallery/defenses';

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, ext) : ext.test(name) ? [path] : [];
  });
}

describe('spelling', () => {
  it('the page says "defense", as its gallery does', () => {
    expect(GALLERY_TEXT.en.title).toContain('defense');
    expect(compareStrings('en').pairNote).toContain('defense table');
  });

  it('no "defence" in the README, the docs or the source (its words and its comments)', () => {
    const files = ['README.md', ...filesUnder('docs', /\.md$/), ...filesUnder('src', /\.(ts|tsx|css|html)$/), 'index.html', 'embed.html'];
    const found = files.filter((f) => /defence/i.test(readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
