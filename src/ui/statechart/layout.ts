/**
 * Lays a chart out as nested boxes, from the chart's own nodes: a compound state is a box holding its
 * children in a grid (in the order the flow reaches them from its initial state), a parallel
 * state stacks its regions; edges join box borders. Pure: tested without a DOM.
 */
import type { Chart, ChartEdge, ChartNode } from '../../sim/views';

export interface Box {
  readonly path: string;
  readonly key: string;
  readonly leaf: boolean;
  readonly parallel: boolean;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface Line {
  readonly edge: ChartEdge;
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  /** A transition from a state to itself, drawn as a loop above its box. */
  readonly self: boolean;
}

export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly boxes: readonly Box[];
  readonly lines: readonly Line[];
}

const LEAF_H = 30;
const PAD = 14;
const GAP = 26;
const HEADER = 18;
const charWidth = 7;

/** The children of `n` in the order the flow reaches them: breadth first from the initial state along sibling edges. */
function ordered(n: ChartNode, edges: readonly ChartEdge[]): ChartNode[] {
  const byPath = new Map(n.children.map((c) => [c.path, c]));
  const childOf = (p: string) => n.children.find((c) => p === c.path || p.startsWith(`${c.path}.`))?.path;
  const out: ChartNode[] = [];
  const seen = new Set<string>();
  const queue = [n.initial ?? n.children[0]?.path].filter((p): p is string => !!p);
  while (queue.length) {
    const p = queue.shift() as string;
    if (seen.has(p)) continue;
    seen.add(p);
    const c = byPath.get(p);
    if (c) out.push(c);
    for (const e of edges) {
      const from = childOf(e.source);
      const to = childOf(e.target);
      if (from === p && to && !seen.has(to)) queue.push(to);
    }
  }
  for (const c of n.children) if (!seen.has(c.path)) out.push(c);
  return out;
}

interface Sized {
  readonly node: ChartNode;
  readonly w: number;
  readonly h: number;
  readonly place: (x: number, y: number, out: Box[]) => void;
}

function size(n: ChartNode, edges: readonly ChartEdge[], isRoot: boolean): Sized {
  if (n.children.length === 0) {
    const w = Math.max(70, n.key.length * charWidth + 20);
    return {
      node: n,
      w,
      h: LEAF_H,
      place: (x, y, out) => out.push({ path: n.path, key: n.key, leaf: true, parallel: false, x, y, w, h: LEAF_H }),
    };
  }
  const kids = ordered(n, edges).map((c) => size(c, edges, false));
  const cols = n.type === 'parallel' ? 1 : Math.min(kids.length, kids.length > 6 ? 4 : 3);
  const rows = Math.ceil(kids.length / cols);
  const colW = Array.from({ length: cols }, (_, c) => Math.max(0, ...kids.filter((_, i) => i % cols === c).map((k) => k.w)));
  const rowH = Array.from({ length: rows }, (_, r) => Math.max(0, ...kids.slice(r * cols, r * cols + cols).map((k) => k.h)));
  const top = isRoot ? PAD : HEADER + PAD;
  const innerW = colW.reduce((a, b) => a + b, 0) + GAP * (cols - 1);
  const innerH = rowH.reduce((a, b) => a + b, 0) + GAP * (rows - 1);
  const w = Math.max(innerW + 2 * PAD, n.key.length * charWidth + 2 * PAD);
  const h = top + innerH + PAD;
  return {
    node: n,
    w,
    h,
    place: (x, y, out) => {
      if (!isRoot) out.push({ path: n.path, key: n.key, leaf: false, parallel: n.type === 'parallel', x, y, w, h });
      kids.forEach((k, i) => {
        const c = i % cols;
        const r = Math.floor(i / cols);
        const kx = x + PAD + colW.slice(0, c).reduce((a, b) => a + b, 0) + GAP * c + (colW[c] ?? 0) / 2 - k.w / 2;
        const ky = y + top + rowH.slice(0, r).reduce((a, b) => a + b, 0) + GAP * r + (rowH[r] ?? 0) / 2 - k.h / 2;
        k.place(kx, ky, out);
      });
    },
  };
}

/** Where the segment from the centre of `a` towards `(tx, ty)` leaves `a`'s border. */
function border(a: Box, tx: number, ty: number): [number, number] {
  const cx = a.x + a.w / 2;
  const cy = a.y + a.h / 2;
  const dx = tx - cx;
  const dy = ty - cy;
  if (dx === 0 && dy === 0) return [cx, cy];
  const s = Math.min(
    dx === 0 ? Number.POSITIVE_INFINITY : a.w / 2 / Math.abs(dx),
    dy === 0 ? Number.POSITIVE_INFINITY : a.h / 2 / Math.abs(dy),
  );
  return [cx + dx * s, cy + dy * s];
}

export function layoutChart(chart: Chart): Layout {
  const root = size(chart.root, chart.edges, true);
  const boxes: Box[] = [];
  root.place(0, 0, boxes);
  const byPath = new Map(boxes.map((b) => [b.path, b]));
  const lines: Line[] = [];
  for (const e of chart.edges) {
    const a = byPath.get(e.source);
    const b = byPath.get(e.target);
    if (!a || !b) continue;
    if (a === b) {
      lines.push({ edge: e, x1: a.x + a.w - 18, y1: a.y, x2: a.x + a.w - 6, y2: a.y, self: true });
      continue;
    }
    const [x1, y1] = border(a, b.x + b.w / 2, b.y + b.h / 2);
    const [x2, y2] = border(b, a.x + a.w / 2, a.y + a.h / 2);
    lines.push({ edge: e, x1, y1, x2, y2, self: false });
  }
  return { width: root.w, height: root.h, boxes, lines };
}
