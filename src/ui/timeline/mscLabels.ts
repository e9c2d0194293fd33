/**
 * Where the message view's labels go (fault notes and RPC names). Busy traffic asks for far more
 * labels than fit: each is tried at its place, then a line above and a line below, kept inside the
 * plot, and dropped when every place overlaps a label already placed. Labels are placed in the
 * order given, so the caller puts the important ones (faults) first.
 *
 * Pure: no DOM, no canvas.
 */

export interface LabelRequest {
  /** Left edge and baseline wanted. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly text: string;
  readonly color: string;
}

export interface LabelBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export interface PlacedLabel {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  readonly color: string;
  readonly box: LabelBox;
}

/** A label's box around its baseline (11 px text). */
export const LABEL_ASCENT = 10;
export const LABEL_DESCENT = 3;
/** Vertical places tried, relative to the wanted baseline. */
const SHIFTS = [0, -13, 13] as const;
const BUCKET_PX = 64;

export interface LabelArea {
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
}

function overlaps(a: LabelBox, b: LabelBox): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** Places labels without overlap inside `area`; at most `max` of them. */
export function placeLabels(requests: Iterable<LabelRequest>, area: LabelArea, max = 300): PlacedLabel[] {
  const placed: PlacedLabel[] = [];
  const buckets = new Map<number, LabelBox[]>();
  const free = (box: LabelBox): boolean => {
    for (let b = Math.floor(box.x0 / BUCKET_PX); b <= Math.floor(box.x1 / BUCKET_PX); b++)
      for (const other of buckets.get(b) ?? []) if (overlaps(box, other)) return false;
    return true;
  };
  const keep = (box: LabelBox) => {
    for (let b = Math.floor(box.x0 / BUCKET_PX); b <= Math.floor(box.x1 / BUCKET_PX); b++) {
      const list = buckets.get(b);
      if (list) list.push(box);
      else buckets.set(b, [box]);
    }
  };
  for (const r of requests) {
    if (placed.length >= max) break;
    if (r.width > area.x1 - area.x0) continue;
    // a label that would run off the right edge ends at it; one off the left starts at it
    const x = Math.max(area.x0, Math.min(r.x, area.x1 - r.width));
    // a label whose arrow is out of view is not drawn at all
    if (r.x > area.x1 || r.x + r.width < area.x0) continue;
    for (const dy of SHIFTS) {
      const y = r.y + dy;
      const box = { x0: x - 1, y0: y - LABEL_ASCENT, x1: x + r.width + 1, y1: y + LABEL_DESCENT };
      if (box.y0 < area.y0 || box.y1 > area.y1 || !free(box)) continue;
      keep(box);
      placed.push({ x, y, text: r.text, color: r.color, box });
      break;
    }
  }
  return placed;
}
