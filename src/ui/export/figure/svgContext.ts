/**
 * A stand-in for CanvasRenderingContext2D that writes SVG: the timeline's drawing code (drawLane,
 * drawArrows …) runs against it unchanged, so the exported figure is the drawing on screen, with
 * text as text. Only what that code uses is implemented: paths (moveTo, lineTo, rect, arc,
 * closePath), fill and stroke, fillRect/strokeRect, fillText with its alignment, line dashes, alpha,
 * save/restore and measureText (from the figure's own metrics, textMetrics.ts).
 *
 * Every shape and text it writes is also recorded with its bounding box, so tests can check that no
 * two labels overlap and that nothing is cut at the figure's edges.
 *
 * Pure: no DOM.
 */

import { parseFont, textWidth } from './textMetrics';
import { escapeXml } from './xml';

export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export type DrawnItem =
  | { readonly type: 'text'; readonly text: string; readonly box: Box; readonly clip: Box | null; readonly role: string }
  | {
      readonly type: 'shape';
      readonly box: Box;
      readonly fill: string | null;
      readonly stroke: string | null;
      /** Number of path commands: a marker diamond is M + 3 L + Z. */
      readonly commands: string;
      readonly clip: Box | null;
      readonly role: string;
    };

/** Ascent and descent of Arial-metric fonts, per em (for text boxes and baselines). */
export const ASCENT = 0.75;
export const DESCENT = 0.22;

interface State {
  fillStyle: string;
  strokeStyle: string;
  lineWidth: number;
  globalAlpha: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  lineCap: CanvasLineCap;
  dash: number[];
}

/** A number as SVG writes it: at most two decimals, no "-0". */
export function num(n: number): string {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

export class SvgContext {
  fillStyle = '#000000';
  strokeStyle = '#000000';
  lineWidth = 1;
  globalAlpha = 1;
  font = '10px sans-serif';
  textAlign: CanvasTextAlign = 'start';
  textBaseline: CanvasTextBaseline = 'alphabetic';
  lineCap: CanvasLineCap = 'butt';
  /** What the next items are (a test's handle on "lane label", "pointer label" …). */
  role = '';

  private dash: number[] = [];
  private readonly stack: State[] = [];
  private readonly out: string[] = [];
  private readonly drawn: DrawnItem[] = [];
  private path = '';
  private commands = '';
  private bounds: [number, number, number, number] | null = null;
  private tx = 0;
  private ty = 0;
  private clip: Box | null = null;
  private clips = 0;

  /** Draws what follows with its origin at (x, y) of the figure. */
  setOrigin(x: number, y: number): void {
    this.tx = x;
    this.ty = y;
  }

  /** Clips what follows to a rectangle (figure coordinates) until endClip. */
  beginClip(box: Box, idPrefix: string): void {
    const id = `${idPrefix}-clip-${this.clips++}`;
    this.out.push(
      `<clipPath id="${id}"><rect x="${num(box.x0)}" y="${num(box.y0)}" width="${num(box.x1 - box.x0)}" height="${num(box.y1 - box.y0)}"/></clipPath><g clip-path="url(#${id})">`,
    );
    this.clip = box;
  }

  endClip(): void {
    this.out.push('</g>');
    this.clip = null;
  }

  /** Raw SVG markup (definitions, a group), written as is. */
  raw(markup: string): void {
    this.out.push(markup);
  }

  get items(): readonly DrawnItem[] {
    return this.drawn;
  }

  markup(): string {
    return this.out.join('\n');
  }

  // ---------------------------------------------------------------- state

  save(): void {
    this.stack.push({
      fillStyle: this.fillStyle,
      strokeStyle: this.strokeStyle,
      lineWidth: this.lineWidth,
      globalAlpha: this.globalAlpha,
      font: this.font,
      textAlign: this.textAlign,
      textBaseline: this.textBaseline,
      lineCap: this.lineCap,
      dash: this.dash,
    });
  }

  restore(): void {
    const s = this.stack.pop();
    if (!s) return;
    this.fillStyle = s.fillStyle;
    this.strokeStyle = s.strokeStyle;
    this.lineWidth = s.lineWidth;
    this.globalAlpha = s.globalAlpha;
    this.font = s.font;
    this.textAlign = s.textAlign;
    this.textBaseline = s.textBaseline;
    this.lineCap = s.lineCap;
    this.dash = s.dash;
  }

  setLineDash(segments: number[]): void {
    this.dash = [...segments];
  }

  measureText(text: string): { width: number } {
    const { px, bold } = parseFont(this.font);
    return { width: textWidth(text, px, bold) };
  }

  // ---------------------------------------------------------------- paths

  beginPath(): void {
    this.path = '';
    this.commands = '';
    this.bounds = null;
  }

  private grow(x: number, y: number): void {
    const b = this.bounds;
    if (!b) this.bounds = [x, y, x, y];
    else {
      b[0] = Math.min(b[0], x);
      b[1] = Math.min(b[1], y);
      b[2] = Math.max(b[2], x);
      b[3] = Math.max(b[3], y);
    }
  }

  moveTo(x: number, y: number): void {
    const [ax, ay] = [x + this.tx, y + this.ty];
    this.path += `M${num(ax)} ${num(ay)}`;
    this.commands += 'M';
    this.grow(ax, ay);
  }

  lineTo(x: number, y: number): void {
    const [ax, ay] = [x + this.tx, y + this.ty];
    this.path += `L${num(ax)} ${num(ay)}`;
    this.commands += 'L';
    this.grow(ax, ay);
  }

  closePath(): void {
    this.path += 'Z';
    this.commands += 'Z';
  }

  rect(x: number, y: number, w: number, h: number): void {
    const [ax, ay] = [x + this.tx, y + this.ty];
    this.path += `M${num(ax)} ${num(ay)}h${num(w)}v${num(h)}h${num(-w)}Z`;
    this.commands += 'R';
    this.grow(ax, ay);
    this.grow(ax + w, ay + h);
  }

  /** Full circles (all the timeline draws); a partial arc is drawn as its chord's arc. */
  arc(x: number, y: number, r: number, start: number, end: number): void {
    const [cx, cy] = [x + this.tx, y + this.ty];
    if (Math.abs(end - start) >= Math.PI * 2 - 1e-9) {
      this.path += `M${num(cx + r)} ${num(cy)}A${num(r)} ${num(r)} 0 1 0 ${num(cx - r)} ${num(cy)}A${num(r)} ${num(r)} 0 1 0 ${num(cx + r)} ${num(cy)}`;
    } else {
      const [sx, sy] = [cx + r * Math.cos(start), cy + r * Math.sin(start)];
      const [ex, ey] = [cx + r * Math.cos(end), cy + r * Math.sin(end)];
      const large = Math.abs(end - start) > Math.PI ? 1 : 0;
      this.path += `${this.path ? 'L' : 'M'}${num(sx)} ${num(sy)}A${num(r)} ${num(r)} 0 ${large} 1 ${num(ex)} ${num(ey)}`;
    }
    this.commands += 'C';
    this.grow(cx - r, cy - r);
    this.grow(cx + r, cy + r);
  }

  private opacity(attr: 'fill-opacity' | 'stroke-opacity'): string {
    return this.globalAlpha < 1 ? ` ${attr}="${num(this.globalAlpha)}"` : '';
  }

  private strokeAttrs(): string {
    let a = ` stroke="${escapeXml(this.strokeStyle)}" stroke-width="${num(this.lineWidth)}"`;
    if (this.dash.length) a += ` stroke-dasharray="${this.dash.map(num).join(' ')}"`;
    if (this.lineCap !== 'butt') a += ` stroke-linecap="${this.lineCap}"`;
    return a + this.opacity('stroke-opacity');
  }

  private record(fill: string | null, stroke: string | null): void {
    if (!this.bounds) return;
    const [x0, y0, x1, y1] = this.bounds;
    const pad = stroke ? this.lineWidth / 2 : 0;
    this.drawn.push({
      type: 'shape',
      box: { x0: x0 - pad, y0: y0 - pad, x1: x1 + pad, y1: y1 + pad },
      fill,
      stroke,
      commands: this.commands,
      clip: this.clip,
      role: this.role,
    });
  }

  fill(): void {
    if (!this.path) return;
    this.out.push(`<path d="${this.path}" fill="${escapeXml(this.fillStyle)}"${this.opacity('fill-opacity')}/>`);
    this.record(this.fillStyle, null);
  }

  stroke(): void {
    if (!this.path) return;
    this.out.push(`<path d="${this.path}" fill="none"${this.strokeAttrs()}/>`);
    this.record(null, this.strokeStyle);
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    const [ax, ay] = [x + this.tx, y + this.ty];
    this.out.push(
      `<rect x="${num(ax)}" y="${num(ay)}" width="${num(w)}" height="${num(h)}" fill="${escapeXml(this.fillStyle)}"${this.opacity('fill-opacity')}/>`,
    );
    this.drawn.push({
      type: 'shape',
      box: { x0: ax, y0: ay, x1: ax + w, y1: ay + h },
      fill: this.fillStyle,
      stroke: null,
      commands: 'R',
      clip: this.clip,
      role: this.role,
    });
  }

  strokeRect(x: number, y: number, w: number, h: number): void {
    this.beginPath();
    this.rect(x, y, w, h);
    this.stroke();
  }

  // ---------------------------------------------------------------- text

  /** Where a text drawn at (x, y) with the current font, alignment and baseline goes. */
  private placeText(text: string, x: number, y: number) {
    const { px, bold } = parseFont(this.font);
    const w = textWidth(text, px, bold);
    const ax = x + this.tx;
    let baseline = y + this.ty;
    // the canvas's baselines, as offsets from the alphabetic one (Arial's metrics)
    if (this.textBaseline === 'middle') baseline += ((ASCENT + DESCENT) / 2 - DESCENT) * px;
    else if (this.textBaseline === 'top' || this.textBaseline === 'hanging') baseline += ASCENT * px;
    else if (this.textBaseline === 'bottom' || this.textBaseline === 'ideographic') baseline -= DESCENT * px;
    const align = this.textAlign;
    const anchor = align === 'center' ? 'middle' : align === 'right' || align === 'end' ? 'end' : 'start';
    const left = anchor === 'middle' ? ax - w / 2 : anchor === 'end' ? ax - w : ax;
    const attrs = `x="${num(ax)}" y="${num(baseline)}" font-size="${num(px)}"${bold ? ' font-weight="600"' : ''}${
      anchor === 'start' ? '' : ` text-anchor="${anchor}"`
    }`;
    return { px, w, baseline, left, attrs };
  }

  /**
   * The outline of a text: the message labels' halo, drawn just before their fillText. Not recorded
   * among the drawn items: it is that text's own background, not another label.
   */
  strokeText(text: string, x: number, y: number): void {
    const { attrs } = this.placeText(text, x, y);
    this.out.push(
      `<text ${attrs} fill="none" stroke="${escapeXml(this.strokeStyle)}" stroke-width="${num(this.lineWidth)}" stroke-linejoin="round"${this.opacity('stroke-opacity')}>${escapeXml(text)}</text>`,
    );
  }

  fillText(text: string, x: number, y: number): void {
    const { px, w, baseline, left, attrs } = this.placeText(text, x, y);
    this.out.push(`<text ${attrs} fill="${escapeXml(this.fillStyle)}"${this.opacity('fill-opacity')}>${escapeXml(text)}</text>`);
    this.drawn.push({
      type: 'text',
      text,
      box: { x0: left, y0: baseline - ASCENT * px, x1: left + w, y1: baseline + DESCENT * px },
      clip: this.clip,
      role: this.role,
    });
  }
}

/** Whether two boxes overlap (touching edges do not count). */
export function intersects(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}
