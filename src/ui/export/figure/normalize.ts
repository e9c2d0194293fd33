/**
 * An exported SVG in a form that compares across runs and machines (golden files): ids numbered in
 * order of appearance, numbers rounded to one decimal, and the traceHash (which changes with any
 * change to the engine, even one that moves nothing on the figure) masked.
 */
export function normalizeSvg(svg: string): string {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    let n = ids.get(id);
    if (n === undefined) {
      n = `id${ids.size}`;
      ids.set(id, n);
    }
    return n;
  };
  return svg
    .replace(/\bid="([^"]+)"/g, (_, id: string) => `id="${idOf(id)}"`)
    .replace(/url\(#([^)]+)\)/g, (_, id: string) => `url(#${idOf(id)})`)
    .replace(/-?\d+\.\d+/g, (n) => {
      const r = Math.round(Number(n) * 10) / 10;
      return Object.is(r, -0) ? '0' : String(r);
    })
    .replace(/traceHash [0-9a-f]+/g, 'traceHash …')
    .replace(/\r\n/g, '\n')
    .trim()
    .concat('\n');
}

/** The figures kept as golden files: preset, step ('end' = the last), and the options. */
export const GOLDEN_FIGURES = [
  { preset: 'zombie-fencing', step: 'end', theme: 'light', language: 'en', width: 1280 },
  { preset: 'hanging-transaction', step: 'end', theme: 'dark', language: 'en', width: 960 },
  { preset: 'opening-story', step: 'end', theme: 'light', language: 'ko', width: 1280 },
  { preset: 'opening-story', step: 20, theme: 'light', language: 'en', width: 640 },
] as const;

export function goldenFigureName(g: (typeof GOLDEN_FIGURES)[number]): string {
  return `${g.preset}-${g.step}-${g.theme}-${g.language}-${g.width}.svg`;
}
