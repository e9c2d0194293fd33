/**
 * The timeline as a PNG. When the timeline draws on canvas, its canvases (found inside its root,
 * `[data-testid="timeline"]`, or the partition logs `[data-testid="logs"]`) are composited at their
 * on-screen positions, at device-pixel resolution; otherwise the SVG export is rasterised. Either
 * way the picture is made in the page: nothing is uploaded.
 */
const ROOTS = ['[data-testid="timeline"]', '[data-testid="logs"]'];

export function timelineRoot(doc: Document = document): HTMLElement | null {
  for (const sel of ROOTS) {
    const el = doc.querySelector<HTMLElement>(sel);
    if (el) return el;
  }
  return null;
}

function toBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode a PNG'))), 'image/png'),
  );
}

/** Composites the canvases under `root`, or returns null when it has none worth drawing. */
export async function canvasesToPng(root: HTMLElement, background: string): Promise<Blob | null> {
  const canvases = [...root.querySelectorAll('canvas')].filter((c) => c.width > 0 && c.height > 0);
  if (canvases.length === 0) return null;
  const box = root.getBoundingClientRect();
  const scale = Math.max(1, ...canvases.map((c) => c.width / Math.max(1, c.getBoundingClientRect().width)));
  const out = document.createElement('canvas');
  out.width = Math.ceil(box.width * scale);
  out.height = Math.ceil(box.height * scale);
  const ctx = out.getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, out.width, out.height);
  for (const c of canvases) {
    const r = c.getBoundingClientRect();
    ctx.drawImage(c, (r.left - box.left) * scale, (r.top - box.top) * scale, r.width * scale, r.height * scale);
  }
  return toBlob(out);
}

/** Rasterises an SVG document (from timelineSvg) at `scale`× its size. */
export async function svgToPng(svg: string, scale = 2): Promise<Blob> {
  const img = new Image();
  const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('the browser could not draw the SVG'));
    img.src = url;
  });
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(img.naturalWidth * scale);
  canvas.height = Math.ceil(img.naturalHeight * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas in this browser');
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return toBlob(canvas);
}
