/**
 * Text widths for the exported figure, computed from a table rather than measured in a browser, so
 * the figure is the same file in Node (the golden tests) and in every browser. The figure names
 * Arial-metric fonts first (Liberation Sans, Arial, Helvetica), whose advance widths these are
 * (Helvetica's AFM, per 1000 em); Hangul is set in a Korean font at about one em. Widths are
 * rounded up by a margin so a fallback font a little wider than Arial still fits its box.
 *
 * Pure: no DOM.
 */

/** Advance widths of printable ASCII (U+0020–U+007E), regular weight, per 1000 em. */
const ASCII = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278,
  278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722,
  667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556,
  556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** A few non-ASCII characters the figure uses, per 1000 em. */
const OTHER: Readonly<Record<string, number>> = {
  '·': 333,
  '—': 1000,
  '–': 556,
  '…': 1000,
  '×': 584,
  '→': 1000,
  '←': 1000,
  '≤': 549,
  '∅': 713,
  '✓': 800,
  '‖': 500,
  '◇': 800,
  '◆': 800,
  '▲': 800,
  '’': 222,
  '‘': 222,
  '“': 333,
  '”': 333,
};

/** Bold Helvetica is about 6% wider than regular over the characters the figure writes. */
const BOLD = 1.07;
/** Room for a fallback font (DejaVu Sans is up to ~10% wider than Arial on lower case). */
const MARGIN = 1.08;

function charWidth(code: number, ch: string): number {
  if (code >= 0x20 && code <= 0x7e) return ASCII[code - 0x20] as number;
  const known = OTHER[ch];
  if (known !== undefined) return known;
  // Hangul syllables and jamo, CJK and full-width forms: one em
  if (
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xff00 && code <= 0xffef)
  )
    return 1000;
  return 650;
}

/** The width of `text` set at `px` pixels, in pixels. */
export function textWidth(text: string, px: number, bold = false): number {
  let units = 0;
  for (const ch of text) units += charWidth(ch.codePointAt(0) ?? 0, ch);
  return (units / 1000) * px * (bold ? BOLD : 1) * MARGIN;
}

/** Font size and weight from a CSS font shorthand such as "600 11px sans-serif". */
export function parseFont(font: string): { px: number; bold: boolean } {
  const size = font.match(/(\d+(?:\.\d+)?)px/);
  const weight = font.match(/\b(bold|[6-9]00)\b/);
  return { px: size ? Number(size[1]) : 10, bold: weight !== null };
}

/**
 * `text` broken into lines no wider than `maxWidth` at the given size: at spaces, and inside a
 * word only when the word alone is wider than a line.
 */
export function wrapText(text: string, px: number, maxWidth: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  const fits = (s: string) => textWidth(s, px, bold) <= maxWidth;
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    // a word wider than a whole line is cut where it must be
    let rest = word;
    while (!fits(rest)) {
      let n = rest.length - 1;
      while (n > 1 && !fits(rest.slice(0, n))) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}
