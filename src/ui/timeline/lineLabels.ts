/**
 * The LEO / HW / LSO lines of a lane and their labels. Lines at the same offset share one label
 * ("LSO = HW = LEO 102"); labels are then pushed right so they never overlap, and kept inside the plot.
 */
export type OffsetLineKind = 'lso' | 'hw' | 'leo';

export const LINE_NAMES: Record<OffsetLineKind, string> = { lso: 'LSO', hw: 'HW', leo: 'LEO' };

export interface OffsetLineGroup {
  readonly offset: number;
  readonly kinds: readonly OffsetLineKind[];
  readonly text: string;
}

/** Groups a lane's lines by offset, lowest first (LSO ≤ HW ≤ LEO in Kafka). */
export function groupOffsetLines(lines: { lso: number; hw: number; leo: number }): OffsetLineGroup[] {
  const order: OffsetLineKind[] = ['lso', 'hw', 'leo'];
  const byOffset = new Map<number, OffsetLineKind[]>();
  for (const k of order) {
    const o = Math.round(lines[k]);
    byOffset.set(o, [...(byOffset.get(o) ?? []), k]);
  }
  return [...byOffset.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([offset, kinds]) => ({ offset, kinds, text: `${kinds.map((k) => LINE_NAMES[k]).join(' = ')} ${offset}` }));
}

/**
 * Left edges for labels anchored at xs (ascending) with the given widths: each starts at its anchor
 * plus `pad`, or after the previous label; the last ones shift left to stay before maxX.
 */
export function placeLabels(xs: readonly number[], widths: readonly number[], maxX: number, pad = 3, gap = 8): number[] {
  const out: number[] = [];
  let end = Number.NEGATIVE_INFINITY;
  xs.forEach((x, i) => {
    const left = Math.max(x + pad, end + gap);
    out.push(left);
    end = left + (widths[i] ?? 0);
  });
  // pull back from the right edge, keeping order
  let limit = maxX;
  for (let i = out.length - 1; i >= 0; i--) {
    const w = widths[i] ?? 0;
    if ((out[i] as number) + w > limit) out[i] = limit - w;
    limit = (out[i] as number) - gap;
  }
  return out;
}
