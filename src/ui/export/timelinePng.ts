/**
 * The figure as a PNG: its SVG (figure/figure.ts) drawn onto a canvas at 2× its size — for retina
 * screens and slides — so the PNG is the same drawing as the SVG. Made in the page: nothing is
 * uploaded.
 */

function toBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode a PNG'))), 'image/png'),
  );
}

/** Rasterises an SVG document at `scale`× its size. */
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
