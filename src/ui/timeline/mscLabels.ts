/**
 * Where the message view's labels go (fault notes and RPC names). Busy traffic asks for far more
 * labels than fit: each is tried at its place, then a line above and a line below, kept inside the
 * plot, and dropped when every place overlaps a label already placed (or comes closer to one than
 * LABEL_GAP across, LABEL_GAP_Y up and down: lines of text packed tighter read as one pile, "drawn
 * over each other"). An RPC name already placed on its line or the next (ProduceResponse twice, one
 * arrow after the other) is not written again: the label placed counts it ("ProduceResponse ×2")
 * when the longer text still fits, and each arrow's tooltip names its own message. Labels are placed
 * in the order given, so the caller puts the important ones (faults) first. A label wider than the
 * plot (a fault note on a phone) is cut to fit with an ellipsis rather than left out; the arrow's
 * tooltip says it whole.
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
  /**
   * Heights the label's box must stay between (its arrow's row in the message view): every place
   * tried is moved inside them, so a label never lands in another process's row than its arrow.
   */
  readonly band?: { readonly y0: number; readonly y1: number };
  /** The caller's handle on what the label names (an arrow's position), carried to the placed label. */
  readonly ref?: number;
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
  readonly ref?: number;
  /** The text was cut with an ellipsis to fit the area. */
  readonly cut?: boolean;
  /** How many arrows this label names (more than one: the same RPC name sent again close by). */
  readonly count?: number;
}

/** A label's box around its baseline (11 px text). */
export const LABEL_ASCENT = 10;
export const LABEL_DESCENT = 3;
/** Space kept clear left and right of each label, so two labels never touch. */
export const LABEL_GAP = 2;
/** Space kept clear above and below each label: two lines of labels 2 × LABEL_GAP_Y apart, not touching. */
export const LABEL_GAP_Y = 3;
/** Vertical places tried, relative to the wanted baseline: a line (and its gap) above, then below. */
export const LABEL_LINE = LABEL_ASCENT + LABEL_DESCENT + 2 * LABEL_GAP_Y;
const LINE = LABEL_LINE;
const SHIFTS = [0, -LINE, LINE] as const;
const BUCKET_PX = 64;

export interface LabelArea {
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
}

export function overlaps(a: LabelBox, b: LabelBox): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** The text of a label that names `count` arrows. */
export function countedText(text: string, count: number): string {
  return count > 1 ? `${text} ×${count}` : text;
}

/**
 * The text cut with an ellipsis to at most `maxWidth` as `measure` reports it (the whole text when it
 * fits, '' when not even the ellipsis does).
 */
export function fitText(text: string, maxWidth: number, measure: (t: string) => number): string {
  if (measure(text) <= maxWidth) return text;
  const chars = [...text];
  // the longest prefix that fits with the ellipsis (binary search on the character count)
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${chars.slice(0, mid).join('').trimEnd()}…`) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return measure('…') <= maxWidth ? '…' : '';
  return `${chars.slice(0, lo).join('').trimEnd()}…`;
}

/**
 * Places labels without overlap inside `area`; at most `max` of them. With `measure`, a label wider
 * than the area is cut to fit (fitText); without it, it is left out.
 */
export function placeLabels(
  requests: Iterable<LabelRequest>,
  area: LabelArea,
  max = 300,
  measure?: (text: string) => number,
): PlacedLabel[] {
  const placed: PlacedLabel[] = [];
  // per placed label: how many arrows it names, and its request's width (for the counted text)
  const counts: number[] = [];
  const widths: number[] = [];
  const bands: (LabelRequest['band'] | undefined)[] = [];
  const sameBand = (a: LabelRequest['band'] | undefined, b: LabelRequest['band'] | undefined) =>
    a === b || (a !== undefined && b !== undefined && a.y0 === b.y0 && a.y1 === b.y1);
  const buckets = new Map<number, number[]>();
  const bucketsOf = (box: LabelBox) => {
    const out: number[] = [];
    for (let b = Math.floor(box.x0 / BUCKET_PX); b <= Math.floor(box.x1 / BUCKET_PX); b++) out.push(b);
    return out;
  };
  /** The first placed label (other than `except`) whose box meets `box`, or -1. */
  const hit = (box: LabelBox, except = -1, match?: (i: number) => boolean): number => {
    for (const b of bucketsOf(box))
      for (const i of buckets.get(b) ?? [])
        if (i !== except && overlaps(box, (placed[i] as PlacedLabel).box) && (!match || match(i))) return i;
    return -1;
  };
  const keep = (box: LabelBox, i: number) => {
    for (const b of bucketsOf(box)) {
      const list = buckets.get(b);
      if (list) list.push(i);
      else buckets.set(b, [i]);
    }
  };
  const boxAt = (x: number, y: number, width: number): LabelBox => ({
    x0: x - LABEL_GAP,
    y0: y - LABEL_ASCENT - LABEL_GAP_Y,
    x1: x + width + LABEL_GAP,
    y1: y + LABEL_DESCENT + LABEL_GAP_Y,
  });
  const room = area.x1 - area.x0 - 2 * LABEL_GAP;
  for (const request of requests) {
    if (placed.length >= max) break;
    let r = request;
    if (r.width > room) {
      const text = measure ? fitText(r.text, room, measure) : '';
      if (text === '' || text === '…') continue;
      r = { ...r, text, width: (measure as (t: string) => number)(text) };
    }
    // a label that would run off the right edge ends at it; one off the left starts at it
    const x = Math.max(area.x0 + LABEL_GAP, Math.min(r.x, area.x1 - LABEL_GAP - r.width));
    // a label whose arrow is out of view is not drawn at all
    if (r.x > area.x1 || r.x + r.width < area.x0) continue;
    // inside its band (when it has one): from the wanted baseline moved in until the box fits, a line
    // above and below are tried only where they fit too
    const band = r.band;
    const base = band ? Math.max(band.y0 + LABEL_ASCENT + LABEL_GAP_Y, Math.min(r.y, band.y1 - LABEL_DESCENT - LABEL_GAP_Y)) : r.y;
    // the same RPC name already on this line or the next, over the same stretch and in the same row (the
    // same sender): counted, not written again
    if (r.ref === undefined) {
      const wanted = boxAt(x, base, r.width);
      const near = { ...wanted, y0: wanted.y0 - LINE, y1: wanted.y1 + LINE };
      const same = hit(near, -1, (i) => {
        const p = placed[i] as PlacedLabel;
        return p.ref === undefined && p.text === r.text && p.color === r.color && sameBand(bands[i], band);
      });
      if (same >= 0) {
        counts[same] = (counts[same] ?? 1) + 1;
        continue;
      }
    }
    for (const dy of SHIFTS) {
      const y = base + dy;
      if (band && (y - LABEL_ASCENT - LABEL_GAP_Y < band.y0 || y + LABEL_DESCENT + LABEL_GAP_Y > band.y1)) continue;
      // the box holds the gap on every side: boxes that do not overlap leave 2 × the gap between texts
      const box = boxAt(x, y, r.width);
      if (box.y0 < area.y0 || box.y1 > area.y1 || hit(box) >= 0) continue;
      keep(box, placed.length);
      counts.push(1);
      widths.push(r.width);
      bands.push(band);
      placed.push({
        x,
        y,
        text: r.text,
        color: r.color,
        box,
        ...(r.ref !== undefined ? { ref: r.ref } : {}),
        ...(r !== request ? { cut: true } : {}),
      });
      break;
    }
  }
  // a counted label says how many arrows it names where the longer text fits (else its tooltip does)
  for (let i = 0; i < placed.length; i++) {
    const n = counts[i] ?? 1;
    if (n < 2) continue;
    const p = placed[i] as PlacedLabel;
    const text = countedText(p.text, n);
    const width = measure ? measure(text) : (widths[i] as number);
    const box = boxAt(p.x, p.y, width);
    const fits = measure !== undefined && box.x1 <= area.x1 && hit(box, i) < 0;
    if (fits) keep(box, i);
    placed[i] = fits ? { ...p, text, box, count: n } : { ...p, count: n };
  }
  return placed;
}
