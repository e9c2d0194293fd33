/**
 * Fill patterns so a cell's transaction outcome reads without colour: open records are hatched,
 * aborted ones cross-hatched. Built once per theme and pixel ratio, in device pixels.
 */
export interface Patterns {
  readonly hatch: CanvasPattern | string;
  readonly cross: CanvasPattern | string;
}

function make(ctx: CanvasRenderingContext2D, dpr: number, color: string, cross: boolean): CanvasPattern | string {
  const size = Math.round(6 * dpr);
  const c = document.createElement('canvas');
  c.width = size;
  c.height = size;
  const g = c.getContext('2d');
  if (!g) return color;
  g.strokeStyle = color;
  g.lineWidth = Math.max(1, 1.3 * dpr);
  g.beginPath();
  // diagonals drawn past the tile edges so the tiles join seamlessly
  g.moveTo(-1, size + 1);
  g.lineTo(size + 1, -1);
  g.moveTo(-1, 1);
  g.lineTo(1, -1);
  g.moveTo(size - 1, size + 1);
  g.lineTo(size + 1, size - 1);
  if (cross) {
    g.moveTo(-1, -1);
    g.lineTo(size + 1, size + 1);
    g.moveTo(size - 1, -1);
    g.lineTo(size + 1, 1);
    g.moveTo(-1, size - 1);
    g.lineTo(1, size + 1);
  }
  g.stroke();
  const p = ctx.createPattern(c, 'repeat');
  if (!p) return color;
  // tiles are in device pixels; the context draws in CSS pixels
  p.setTransform(new DOMMatrix([1 / dpr, 0, 0, 1 / dpr, 0, 0]));
  return p;
}

export function createPatterns(ctx: CanvasRenderingContext2D, dpr: number, open: string, aborted: string): Patterns {
  return { hatch: make(ctx, dpr, open, false), cross: make(ctx, dpr, aborted, true) };
}
