/** A canvas sized in CSS pixels and drawn in device pixels (devicePixelRatio), with its 2D context. */
export interface CanvasLayer {
  readonly canvas: HTMLCanvasElement;
  readonly ctx: CanvasRenderingContext2D;
  width: number;
  height: number;
  dpr: number;
}

/** Whether this browser can draw on the canvas at all. */
export function hasCanvas2d(canvas: HTMLCanvasElement): boolean {
  try {
    return canvas.getContext('2d') !== null;
  } catch {
    return false;
  }
}

export function createLayer(canvas: HTMLCanvasElement): CanvasLayer {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas 2D context unavailable');
  return { canvas, ctx, width: 0, height: 0, dpr: 1 };
}

/** Resizes the backing store when the CSS size or the pixel ratio changed. Returns true if it did. */
export function sizeLayer(layer: CanvasLayer, width: number, height: number): boolean {
  const dpr = Math.max(1, Math.min(window.devicePixelRatio || 1, 3));
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  if (layer.width === w && layer.height === h && layer.dpr === dpr) return false;
  layer.width = w;
  layer.height = h;
  layer.dpr = dpr;
  layer.canvas.width = Math.round(w * dpr);
  layer.canvas.height = Math.round(h * dpr);
  layer.canvas.style.width = `${w}px`;
  layer.canvas.style.height = `${h}px`;
  return true;
}

/** Clears the layer and sets the transform so drawing is in CSS pixels. */
export function beginFrame(layer: CanvasLayer): CanvasRenderingContext2D {
  const { ctx, dpr } = layer;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, layer.canvas.width, layer.canvas.height);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}
