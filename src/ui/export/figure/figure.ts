/**
 * The exported figure: one drawing that stands alone in an article or a slide — the scenario's
 * title, its id, the step and the virtual time, a one-line verdict, the partition lanes with their
 * names and the legend, the message diagram with its process names and legend, and a footer with
 * the seed and traceHash that reproduce it.
 *
 * The lanes and the message diagram are drawn by the timeline's own drawing code (drawLane,
 * drawArrows) onto an SvgContext, so the figure is the screen's drawing at the chosen width, with
 * text as text: its message labels placed by the page's layout (mscLabels.ts placeLabels), a fault
 * in the page's words (`translateFault`, useFaultText); the PNG is this SVG rasterised at 2×. Text is measured with fixed metrics
 * (textMetrics.ts) and colours come from a fixed palette (figurePalette.ts): the same inputs give
 * the same file in Node and in every browser.
 *
 * Pure: no DOM.
 */
import type { ScaleLinear } from 'd3-scale';
import { scaleLinear } from 'd3-scale';
import {
  groupDigits,
  LAYER_NAMES,
  mostTimes,
  type ReplicationRow,
  type SimView,
  statusNameOf,
  type Trace,
  truncationsAt,
  type VerdictView,
} from '../../../sim/views';
import { ABOVE_HW_VEIL, diamondPath, drawLane, LABEL_FONT_PX, type LaneDrawContext } from '../../timeline/drawLanes';
import { drawArrows, faultText, type MscDrawContext } from '../../timeline/drawMsc';
import { replicaRowText } from '../../timeline/drawReplicas';
import { LaneCache } from '../../timeline/laneCache';
import { runExtents } from '../../timeline/laneExtents';
import { layoutLanes } from '../../timeline/laneLayout';
import type { LanePointer } from '../../timeline/laneModel';
import { laneLeaderText, shortLaneName } from '../../timeline/laneName';
import { createMarkLayout } from '../../timeline/markLayout';
import type { PlacedLabel } from '../../timeline/mscLabels';
import { laneY, MSC_GEOMETRY, mscHeight } from '../../timeline/mscLayout';
import { type AxisMode, buildMscModel, sentBefore, visibleEnvelopes } from '../../timeline/mscModel';
import { baseScale, mergeExtent, PLOT_PAD } from '../../timeline/offsetScale';
import type { Palette } from '../../timeline/palette';
import { replicaWords } from '../../timeline/replicaText';
import { type TimelineLanguage, timelineStrings } from '../../timeline/timelineText';
import { FIGURE_FONT, FIGURE_PALETTES, type FigureTheme } from './figurePalette';
import { type Box, type DrawnItem, SvgContext } from './svgContext';
import { textWidth, wrapText } from './textMetrics';
import { escapeXml } from './xml';

export interface FigureOptions {
  /** Width in CSS pixels (clamped to 480–2400). */
  readonly width: number;
  readonly theme: FigureTheme;
  readonly language: TimelineLanguage;
  /** The scenario's title as the page shows it (in the reader's language). */
  readonly title: string;
  /** The verdict at the figure's step (verdictViewAt(trace, view), or summarize(trace, step, view).verdict). */
  readonly verdict: VerdictView;
  /** Draw __consumer_offsets and __transaction_state too (default: user topics only). */
  readonly includeInternal?: boolean;
  /** The message diagram's axis (default: by step). */
  readonly axis?: AxisMode;
  /** Draw heartbeats and idle fetches too (default: left out, as on screen). */
  readonly showBackground?: boolean;
  /**
   * An envelope fault's label in the figure's language, as the page's message diagram writes it
   * (useFaultText: narration's envelopeFaultText; default: the kernel's English label).
   */
  readonly translateFault?: (label: string) => string;
}

export interface Figure {
  readonly svg: string;
  readonly width: number;
  readonly height: number;
  /** Every text and shape with its box (tests check overlaps and edges). */
  readonly items: readonly DrawnItem[];
  /** The message diagram's labels as the page's layout placed them (drawArrows, mscLabels.ts placeLabels), in the diagram's pixels. */
  readonly messageLabels: readonly PlacedLabel[];
}

export const FIGURE_WIDTHS = [640, 960, 1280, 1600] as const;
export const DEFAULT_FIGURE_WIDTH = 1280;

const MARGIN = 20;
const TITLE_PX = 20;
const META_PX = 12;
const HEAD_PX = 14;
const NAME_PX = 12;
const SUB_PX = 10;
const LEGEND_PX = 11;
const GAP = 14;
/** Widest record cell in the figure: room for "evt-789 ×2". */
const FIGURE_CELL_PX = 96;

/** Writes a line of text at a left edge and baseline; returns the text's width. */
function line(ctx: SvgContext, text: string, x: number, y: number, px: number, color: string, bold = false, role = ''): number {
  ctx.save();
  ctx.role = role;
  ctx.font = `${bold ? '600 ' : ''}${px}px sans-serif`;
  ctx.fillStyle = color;
  ctx.textAlign = 'start';
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(text, x, y);
  ctx.restore();
  return textWidth(text, px, bold);
}

/** Wrapped text from `y` (the first baseline); returns the y below its last line. */
function paragraph(
  ctx: SvgContext,
  text: string,
  x: number,
  y: number,
  maxWidth: number,
  px: number,
  color: string,
  bold = false,
  role = '',
): number {
  const lh = Math.round(px * 1.3);
  const lines = wrapText(text, px, maxWidth, bold);
  lines.forEach((l, i) => {
    line(ctx, l, x, y + i * lh, px, color, bold, role);
  });
  return y + (lines.length - 1) * lh + Math.round(px * 0.45);
}

// ---------------------------------------------------------------- legends

type Swatch = (ctx: SvgContext, p: Palette) => void;

function vline(ctx: SvgContext, color: string, width: number, dash: number[]): void {
  ctx.beginPath();
  ctx.moveTo(11, 1);
  ctx.lineTo(11, 15);
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.stroke();
  ctx.setLineDash([]);
}

function cellSwatch(ctx: SvgContext, fill: string, alpha: number, pattern: string | null, stroke: string | null): void {
  ctx.beginPath();
  ctx.rect(2, 2, 18, 12);
  ctx.globalAlpha = alpha;
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.globalAlpha = 1;
  if (pattern) {
    ctx.fillStyle = pattern;
    ctx.fill();
  }
  if (stroke) {
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 1;
    ctx.stroke();
  }
}

function markerSwatch(ctx: SvgContext, p: Palette, commit: boolean): void {
  diamondPath(ctx, 11, 8, 7);
  ctx.fillStyle = commit ? p.committed : p.aborted;
  ctx.fill();
  ctx.strokeStyle = p.fg;
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.beginPath();
  if (commit) {
    ctx.moveTo(8, 8);
    ctx.lineTo(10.5, 10.5);
    ctx.lineTo(14, 6);
  } else {
    ctx.moveTo(8.5, 5.5);
    ctx.lineTo(13.5, 10.5);
    ctx.moveTo(13.5, 5.5);
    ctx.lineTo(8.5, 10.5);
  }
  ctx.strokeStyle = p.bg;
  ctx.lineWidth = 1.8;
  ctx.lineCap = 'round';
  ctx.stroke();
  ctx.lineCap = 'butt';
}

function arrowSwatch(ctx: SvgContext, color: string, dashed: boolean, end: 'head' | 'open' | 'dot' | 'cross'): void {
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = end === 'dot' || end === 'cross' ? 1.8 : 1.2;
  ctx.beginPath();
  ctx.moveTo(2, 8);
  ctx.lineTo(end === 'cross' ? 14 : 15, 8);
  if (dashed) ctx.setLineDash([4, 3]);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  if (end === 'head') {
    ctx.moveTo(20, 8);
    ctx.lineTo(14, 5);
    ctx.lineTo(14, 11);
    ctx.closePath();
    ctx.fill();
  } else if (end === 'open') {
    ctx.arc(18, 8, 3, 0, Math.PI * 2);
    ctx.lineWidth = 1.5;
    ctx.stroke();
  } else if (end === 'dot') {
    ctx.arc(18, 8, 3.5, 0, Math.PI * 2);
    ctx.fill();
  } else {
    ctx.moveTo(11, 4);
    ctx.lineTo(19, 12);
    ctx.moveTo(19, 4);
    ctx.lineTo(11, 12);
    ctx.lineWidth = 2;
    ctx.stroke();
  }
}

function lanesLegend(text: ReturnType<typeof timelineStrings>, aboveHw: boolean): [string, Swatch][] {
  return [
    [text.legendPlain, (c, p) => cellSwatch(c, p.plain, 0.35, null, p.plain)],
    [text.legendCommitted, (c, p) => cellSwatch(c, p.committed, 1, null, null)],
    [text.legendOpen, (c, p) => cellSwatch(c, p.open, 0.25, 'url(#eos-hatch)', p.open)],
    [text.legendAborted, (c, p) => cellSwatch(c, p.aborted, 0.2, 'url(#eos-cross)', p.aborted)],
    ...(aboveHw
      ? [
          [
            text.legendAboveHw,
            (c: SvgContext, p: Palette) => {
              cellSwatch(c, p.plain, 0.35, null, p.plain);
              c.globalAlpha = ABOVE_HW_VEIL;
              c.fillStyle = p.bg;
              c.fillRect(2, 2, 18, 12);
              c.globalAlpha = 1;
              c.beginPath();
              c.rect(2.5, 2.5, 17, 11);
              c.setLineDash([3, 2]);
              c.strokeStyle = p.muted;
              c.lineWidth = 1;
              c.stroke();
              c.setLineDash([]);
            },
          ] as [string, Swatch],
        ]
      : []),
    [text.legendCommitMarker, (c, p) => markerSwatch(c, p, true)],
    [text.legendAbortMarker, (c, p) => markerSwatch(c, p, false)],
    [
      text.legendDuplicate,
      (c, p) => {
        cellSwatch(c, p.plain, 0.35, null, p.plain);
        c.fillStyle = p.fault;
        c.fillRect(2, 0, 18, 3);
      },
    ],
    [text.legendLeo, (c, p) => vline(c, p.leo, 1, [])],
    [text.legendHw, (c, p) => vline(c, p.hw, 2, [])],
    [text.legendLso, (c, p) => vline(c, p.lso, 2, [4, 3])],
    [
      text.legendPosition,
      (c, p) => {
        c.beginPath();
        c.moveTo(11, 3);
        c.lineTo(16, 13);
        c.lineTo(6, 13);
        c.closePath();
        c.fillStyle = p.position;
        c.fill();
      },
    ],
    [
      text.legendGroup,
      (c, p) => {
        diamondPath(c, 11, 8, 6);
        c.fillStyle = p.groupOffset;
        c.fill();
      },
    ],
  ];
}

function mscLegend(text: ReturnType<typeof timelineStrings>): [string, Swatch][] {
  return [
    [text.legendDelivered, (c, p) => arrowSwatch(c, p.arrow, false, 'head')],
    [text.legendInFlight, (c, p) => arrowSwatch(c, p.arrow, true, 'open')],
    [text.legendLost, (c, p) => arrowSwatch(c, p.fault, false, 'dot')],
    [text.legendDropped, (c, p) => arrowSwatch(c, p.fault, false, 'cross')],
    [text.legendNow, (c, p) => vline(c, p.now, 1.5, [3, 3])],
  ];
}

/** Legend entries flowing in rows across `width`; returns the y below the last row. */
function legend(ctx: SvgContext, entries: readonly [string, Swatch][], palette: Palette, x0: number, y: number, width: number): number {
  const rowH = 20;
  let x = x0;
  let top = y;
  for (const [label, swatch] of entries) {
    const w = 22 + 5 + textWidth(label, LEGEND_PX) + 16;
    if (x > x0 && x + w - 16 > x0 + width) {
      x = x0;
      top += rowH;
    }
    ctx.save();
    ctx.role = 'legend';
    ctx.setOrigin(x, top);
    swatch(ctx, palette);
    ctx.setOrigin(0, 0);
    ctx.restore();
    line(ctx, label, x + 27, top + 12, LEGEND_PX, palette.fg, false, 'legend');
    x += w;
  }
  return top + rowH;
}

// ---------------------------------------------------------------- verdict

// stalled is ‖, not the pause symbol U+23F8: a figure is opened with whatever fonts the reader has, and many (Debian's, phones') lack it
const GLYPH: Record<string, string> = {
  once: '✓',
  'more-than-once': '×2',
  lost: '∅',
  stalled: '‖',
  'above-hw': '↑',
  'not-applicable': '–',
};

/** The verdict in one line: each layer's name, subject, status and the events concerned. */
export function verdictLine(verdict: VerdictView, language: TimelineLanguage): string {
  const k = language === 'ko' ? 1 : 0;
  return verdict.layers
    .map((f) => {
      const name = LAYER_NAMES[f.layer]?.[k] ?? f.layer;
      const glyph = f.status === 'more-than-once' ? `×${mostTimes(f) ?? 2}` : (GLYPH[f.status] ?? '');
      const status = `${glyph} ${statusNameOf(f.layer, f.status)?.[k] ?? f.status}`;
      const events =
        f.status !== 'once' && f.eventIds.length ? ` (${f.eventIds.slice(0, 3).join(', ')}${f.eventIds.length > 3 ? ' …' : ''})` : '';
      return `${name}${f.subject ? ` ${f.subject}` : ''}: ${status}${events}`;
    })
    .join(' · ');
}

// ---------------------------------------------------------------- the figure

export function buildFigure(trace: Trace, view: SimView, options: FigureOptions): Figure {
  const W = Math.round(Math.max(480, Math.min(2400, options.width)));
  const palette = FIGURE_PALETTES[options.theme];
  const text = timelineStrings(options.language);
  const inner = W - 2 * MARGIN;
  const ctx = new SvgContext();
  const measure = (s: string) => textWidth(s, LABEL_FONT_PX);

  // -------- header: title, where in the run, the verdict
  let y = MARGIN + TITLE_PX;
  y = paragraph(ctx, options.title || trace.scenario.id || 'EOS Lab', MARGIN, y, inner, TITLE_PX, palette.fg, true, 'title');
  y += META_PX + 6;
  const where = text.figureMeta(view.step, trace.steps.length, groupDigits(view.time));
  y = paragraph(
    ctx,
    trace.scenario.id ? `${trace.scenario.id} · ${where}` : where,
    MARGIN,
    y,
    inner,
    META_PX,
    palette.muted,
    false,
    'meta',
  );
  y += META_PX + 4;
  y = paragraph(
    ctx,
    `${text.figureVerdict(view.step)} ${verdictLine(options.verdict, options.language)}`,
    MARGIN,
    y,
    inner,
    META_PX,
    palette.fg,
    false,
    'verdict',
  );

  // -------- the partition lanes
  y += GAP + HEAD_PX;
  line(ctx, text.logsTitle, MARGIN, y, HEAD_PX, palette.fg, true, 'heading');
  y += 10;
  const all = new LaneCache().lanes(view.actors, truncationsAt(trace, view.step));
  const lanes = all.filter((l) => options.includeInternal || !l.internal);
  const layout = layoutLanes(
    lanes.map((l) => ({ ...l, internal: false })),
    true,
    Number.POSITIVE_INFINITY,
  );
  const gutter = Math.round(
    Math.min(
      inner * 0.3,
      Math.max(96, ...lanes.map((l) => Math.max(textWidth(l.key, NAME_PX, true), textWidth(laneLeaderText(l, text), SUB_PX)) + 14)),
    ),
  );
  const plotX = MARGIN + gutter;
  const words = replicaWords(text.language);
  const pointerLabel = (p: LanePointer) =>
    p.kind === 'position' ? text.pointerPosition(p.owner, p.offset) : text.pointerGroup(p.owner, p.kind, p.offset);
  const extents = runExtents(trace);
  const ext = new Map(lanes.map((l) => [l.key, mergeExtent(extents.get(l.key), l.logStartOffset, l.logEndOffset)]));
  // the offsets the run reaches, no more: a short log gets wide cells (up to FIGURE_CELL_PX), not empty slots
  const span = Math.max(1, ...[...ext.values()].map((e) => e.end - e.start));
  const room = W - MARGIN - plotX;
  // and room right of the log end for the pointers' and the offset lines' labels
  const labelRoom = Math.max(
    0,
    ...lanes.flatMap((l) => l.pointers.map((p) => measure(pointerLabel(p)) + 12)),
    ...lanes.map((l) => measure(`LSO = HW = LEO ${l.logEndOffset}`) + 8),
    // a replicated lane's replica labels go right of each replica's log end offset
    ...lanes.flatMap((l) =>
      l.replication ? l.replication.replicas.map((r) => measure(replicaRowText(r, l.replication as ReplicationRow, words)) + 12) : [],
    ),
  );
  const plotW = Math.min(room, Math.ceil(span * FIGURE_CELL_PX + 2 * PLOT_PAD + labelRoom));
  const lanesTop = y;
  const patterns = { hatch: 'url(#eos-hatch)', cross: 'url(#eos-cross)' };
  const dc: LaneDrawContext = {
    ctx: ctx as unknown as CanvasRenderingContext2D,
    width: plotW,
    palette,
    patterns,
    marks: createMarkLayout(),
    dpr: 1,
    bins: null as unknown as LaneDrawContext['bins'],
    binColors: null as unknown as LaneDrawContext['binColors'],
    animated: (_key, target) => target,
    measure,
    pointerLabel,
    replicaWords: words,
    vectorBins: true,
  };
  ctx.beginClip({ x0: plotX, y0: lanesTop - 2, x1: plotX + plotW, y1: lanesTop + layout.height }, 'eos-lanes');
  ctx.setOrigin(plotX, lanesTop);
  ctx.role = 'lanes';
  ctx.font = `${LABEL_FONT_PX}px sans-serif`;
  for (const box of layout.boxes) {
    const lane = lanes[box.lane];
    if (!lane) continue;
    const e = ext.get(lane.key) ?? { start: lane.logStartOffset, end: lane.logEndOffset + 1 };
    drawLane(dc, lane, box, baseScale(e.start, span, plotW));
  }
  ctx.setOrigin(0, 0);
  ctx.endClip();
  ctx.role = '';
  // lane names in the gutter, as the page shows them
  const fitsGutter = (s: string) => textWidth(s, NAME_PX, true) <= gutter - 10;
  for (const b of layout.boxes) {
    const lane = lanes[b.lane];
    if (!lane) continue;
    const top = lanesTop + b.y + 14;
    line(ctx, shortLaneName(b.key, fitsGutter), MARGIN, top + NAME_PX, NAME_PX, palette.fg, true, 'lane-name');
    line(ctx, laneLeaderText(lane, text), MARGIN, top + NAME_PX + SUB_PX + 3, SUB_PX, palette.muted, false, 'lane-name');
  }
  ctx.fillStyle = palette.grid;
  ctx.fillRect(plotX - 1, lanesTop, 1, layout.height);
  y = lanesTop + layout.height + 8;
  y = legend(
    ctx,
    lanesLegend(
      text,
      lanes.some((l) => l.highWatermark < l.logEndOffset),
    ),
    palette,
    MARGIN,
    y,
    inner,
  );

  // -------- the message diagram
  const model = buildMscModel(trace);
  const mode = options.axis ?? 'step';
  const shown = visibleEnvelopes(model, view.step, options.showBackground ?? false);
  const hidden = (options.showBackground ?? false) ? 0 : sentBefore(model, view.step) - shown.length;
  y += GAP + HEAD_PX;
  const headW = line(ctx, text.messagesTitle, MARGIN, y, HEAD_PX, palette.fg, true, 'heading');
  const note = `(${text.figureAxis(mode === 'step', hidden)})`;
  if (MARGIN + headW + 8 + textWidth(note, SUB_PX + 1) <= W - MARGIN)
    line(ctx, note, MARGIN + headW + 8, y, SUB_PX + 1, palette.muted, false, 'meta');
  else {
    y += 16;
    line(ctx, note, MARGIN, y, SUB_PX + 1, palette.muted, false, 'meta');
  }
  y += 6;
  const mscTop = y;
  const mscH = mscHeight(model.lanes.length);
  const mGutter = Math.round(
    Math.min(
      inner * 0.3,
      Math.max(
        96,
        ...model.lanes.map((l) => Math.max(textWidth(l.id, NAME_PX, true), textWidth(text.kinds[l.kind] ?? l.kind, SUB_PX)) + 14),
      ),
    ),
  );
  const mX = MARGIN + mGutter;
  const mW = W - MARGIN - mX;
  const end = Math.max(1, mode === 'time' ? model.endTime : model.endStep);
  const scale: ScaleLinear<number, number> = scaleLinear()
    .domain([0, end])
    .range([PLOT_PAD, Math.max(PLOT_PAD + 1, mW - PLOT_PAD)]);
  ctx.beginClip({ x0: mX, y0: mscTop, x1: mX + mW, y1: mscTop + mscH }, 'eos-msc');
  ctx.setOrigin(mX, mscTop);
  ctx.role = 'messages';
  ctx.font = `${LABEL_FONT_PX}px sans-serif`;
  ctx.fillStyle = palette.grid;
  model.lanes.forEach((_, i) => {
    ctx.fillRect(0, Math.round(laneY(i)), mW, 1);
  });
  const nowX = scale(mode === 'time' ? view.time : view.step);
  ctx.strokeStyle = palette.now;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([3, 3]);
  ctx.beginPath();
  ctx.moveTo(nowX, MSC_GEOMETRY.axis - 2);
  ctx.lineTo(nowX, mscH);
  ctx.stroke();
  ctx.setLineDash([]);
  const messageLabels: PlacedLabel[] = [];
  const mdc: MscDrawContext = {
    ctx: ctx as unknown as CanvasRenderingContext2D,
    width: mW,
    palette,
    model,
    mode,
    step: view.step,
    now: view.time,
    scale,
    measure,
    top: MSC_GEOMETRY.axis,
    bottom: mscH,
    // the page's words for a fault (MscController's faultText, the same translation)
    faultText: (e, span) => faultText(text, e, span, options.translateFault),
    placedLabels: messageLabels,
  };
  drawArrows(mdc, shown, 0, shown.length);
  // the axis: ticks and their labels above the rows, none cut at the edges
  ctx.role = 'axis';
  const count = Math.max(2, Math.floor(mW / 100));
  const ticks = mode === 'time' ? scale.ticks(count) : scale.ticks(count).filter(Number.isInteger);
  const fmt = scale.tickFormat(count);
  ctx.fillStyle = palette.muted;
  ctx.fillRect(0, MSC_GEOMETRY.axis - 4, mW, 1);
  ctx.font = `${SUB_PX}px sans-serif`;
  ctx.textAlign = 'center';
  for (const t of ticks) {
    const x = scale(t);
    ctx.fillStyle = palette.muted;
    ctx.fillRect(x - 0.5, MSC_GEOMETRY.axis - 8, 1, 4);
    const label = mode === 'time' ? `${fmt(t)} ms` : String(t);
    const half = textWidth(label, SUB_PX) / 2;
    ctx.fillText(label, Math.max(half + 1, Math.min(mW - half - 1, x)), MSC_GEOMETRY.axis - 11);
  }
  ctx.textAlign = 'start';
  ctx.setOrigin(0, 0);
  ctx.endClip();
  ctx.role = '';
  const fitsMscGutter = (s: string) => textWidth(s, NAME_PX, true) <= mGutter - 10;
  model.lanes.forEach((l, i) => {
    const top = mscTop + laneY(i) - 15;
    line(ctx, shortLaneName(l.id, fitsMscGutter), MARGIN, top + NAME_PX, NAME_PX, palette.fg, true, 'process-name');
    line(ctx, text.kinds[l.kind] ?? l.kind, MARGIN, top + NAME_PX + SUB_PX + 3, SUB_PX, palette.muted, false, 'process-name');
  });
  ctx.fillStyle = palette.grid;
  ctx.fillRect(mX - 1, mscTop + MSC_GEOMETRY.axis, 1, mscH - MSC_GEOMETRY.axis);
  y = mscTop + mscH + 8;
  y = legend(ctx, mscLegend(text), palette, MARGIN, y, inner);

  // -------- footer
  y += 10;
  line(ctx, text.figureFooter(trace.scenario.seed ?? 0, trace.traceHash), MARGIN, y + SUB_PX, SUB_PX, palette.muted, false, 'footer');
  const H = Math.ceil(y + SUB_PX + MARGIN - 4);

  const label = `${options.title} — ${where}`;
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${escapeXml(FIGURE_FONT)}" role="img" aria-label="${escapeXml(label)}">`,
    `<title>${escapeXml(label)}</title>`,
    '<defs>',
    hatchPattern('eos-hatch', palette.open, false),
    hatchPattern('eos-cross', palette.aborted, true),
    '</defs>',
    `<rect width="${W}" height="${H}" fill="${palette.bg}"/>`,
    ctx.markup(),
    '</svg>',
  ].join('\n');
  return { svg, width: W, height: H, items: ctx.items, messageLabels };
}

/** The page's hatch (open) and cross-hatch (aborted) patterns (patterns.ts), at one CSS pixel. */
function hatchPattern(id: string, color: string, cross: boolean): string {
  const s = 6;
  let d = `M-1 ${s + 1}L${s + 1} -1M-1 1L1 -1M${s - 1} ${s + 1}L${s + 1} ${s - 1}`;
  if (cross) d += `M-1 -1L${s + 1} ${s + 1}M${s - 1} -1L${s + 1} 1M-1 ${s - 1}L1 ${s + 1}`;
  return `<pattern id="${id}" width="${s}" height="${s}" patternUnits="userSpaceOnUse"><path d="${d}" stroke="${color}" stroke-width="1.3" fill="none"/></pattern>`;
}

/** The box a clip region keeps, for tests: whether a drawn item lies inside the figure and its clip. */
export function insideOf(item: DrawnItem, width: number, height: number): boolean {
  const b: Box = item.box;
  const c = item.clip ?? { x0: 0, y0: 0, x1: width, y1: height };
  return (
    b.x0 >= Math.max(0, c.x0) - 0.5 &&
    b.y0 >= Math.max(0, c.y0) - 0.5 &&
    b.x1 <= Math.min(width, c.x1) + 0.5 &&
    b.y1 <= Math.min(height, c.y1) + 0.5
  );
}
