/**
 * Horizontal pan and zoom of a timeline canvas with d3-zoom: dragging pans; ctrl/⌘ + wheel (and a
 * trackpad pinch) zooms; a plain vertical wheel scrolls the page; a horizontal (or shift +) wheel pans.
 * Both the partition lanes and the message sequence zoom only along their x axis.
 */
import { type Selection, select } from 'd3-selection';
import { type D3ZoomEvent, type ZoomBehavior, type ZoomTransform, zoom, zoomIdentity } from 'd3-zoom';

/** Whether d3-zoom takes this event: a wheel only with ctrl/⌘ (the plain wheel scrolls the page), a press only with the main button. */
export function zoomFilter(e: Pick<WheelEvent, 'type' | 'ctrlKey' | 'metaKey' | 'button'>): boolean {
  return e.type === 'wheel' ? e.ctrlKey || e.metaKey : !e.button;
}

/** How far a wheel event pans (CSS pixels, positive = towards later), or 0 when it is not a pan. */
export function wheelPan(e: Pick<WheelEvent, 'ctrlKey' | 'metaKey' | 'shiftKey' | 'deltaX' | 'deltaY'>): number {
  if (e.ctrlKey || e.metaKey) return 0; // d3-zoom zooms
  return e.shiftKey ? e.deltaY || e.deltaX : Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : 0;
}

/**
 * Which way a one-finger touch goes once it has moved `slop` CSS pixels: 'y' (mostly up or down: the
 * page scrolls), 'x' (the view pans), or null while it has not moved that far.
 */
export function touchAxis(dx: number, dy: number, slop = 8): 'x' | 'y' | null {
  if (Math.hypot(dx, dy) < slop) return null;
  return Math.abs(dy) > Math.abs(dx) ? 'y' : 'x';
}

export class PanZoom {
  private current: ZoomTransform = zoomIdentity;
  private readonly behavior: ZoomBehavior<HTMLCanvasElement, unknown>;
  private readonly target: Selection<HTMLCanvasElement, unknown, null, undefined>;
  private readonly removeTouch: () => void;

  /** `onChange` runs after every change of the transform (drag, wheel, keys, buttons, clamping). */
  constructor(canvas: HTMLCanvasElement, onChange: () => void) {
    this.behavior = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([1, 1])
      .filter((e: Event) => zoomFilter(e as WheelEvent))
      .on('zoom', (e: D3ZoomEvent<HTMLCanvasElement, unknown>) => {
        this.current = e.transform;
        onChange();
      });
    this.target = select(canvas);
    this.target.call(this.behavior).on('dblclick.zoom', null);
    this.removeTouch = passVerticalSwipes(canvas);
  }

  get transform(): ZoomTransform {
    return this.current;
  }

  /** The view is width × height CSS pixels and zooms from 1 (all of it) to maxK; the transform is clamped to that. */
  setExtent(width: number, height: number, maxK: number): void {
    this.behavior
      .extent([
        [0, 0],
        [width, height],
      ])
      .translateExtent([
        [0, 0],
        [width, height],
      ])
      .scaleExtent([1, maxK]);
    // re-apply the transform so it is clamped to the new extents
    this.behavior.transform(this.target, this.current);
  }

  /** Zooms by `factor` keeping the point at x (CSS pixels) where it is. */
  zoomBy(factor: number, x: number): void {
    this.behavior.scaleBy(this.target, factor, [x, 0]);
  }

  reset(): void {
    this.behavior.transform(this.target, zoomIdentity);
  }

  set(k: number, x: number): void {
    this.behavior.transform(this.target, zoomIdentity.translate(x, 0).scale(k));
  }

  /** Pans by dx CSS pixels (positive moves the content right). */
  panBy(dx: number): void {
    this.behavior.translateBy(this.target, dx / this.current.k, 0);
  }

  /** Centres the view on x in unzoomed coordinates. */
  centreOn(x: number): void {
    this.behavior.translateTo(this.target, x, 0);
  }

  /** The horizontal wheel pans (the listener is passive: false so it may keep the page from scrolling sideways). */
  onWheel(e: WheelEvent): void {
    const dx = wheelPan(e);
    if (dx === 0) return;
    e.preventDefault();
    this.panBy(-dx);
  }

  destroy(): void {
    this.target.on('.zoom', null);
    this.removeTouch();
  }
}

/**
 * A finger swiping up or down over a timeline scrolls the page, as it does beside it. d3-zoom cancels
 * every touchmove it is given (so a drag pans rather than scrolls), which on a phone — where the
 * timelines fill most of the screen's width — kept the page from scrolling under the finger. So a
 * one-finger move is kept from d3-zoom until its direction is known, and all along when it is
 * vertical (the canvas's `touch-action: pan-y` lets the browser scroll then); a sideways drag and a
 * two-finger pinch reach d3-zoom and pan or zoom the view. Listeners in the capture phase on the
 * canvas itself run before d3-zoom's.
 */
function passVerticalSwipes(canvas: HTMLCanvasElement): () => void {
  let start: { readonly x: number; readonly y: number } | null = null;
  let axis: 'x' | 'y' | null = null;
  const onStart = (e: TouchEvent) => {
    const t = e.touches[0];
    if (e.touches.length === 1 && t) {
      start = { x: t.clientX, y: t.clientY };
      axis = null;
    } else {
      start = null;
      axis = 'x';
    }
  };
  const onMove = (e: TouchEvent) => {
    const t = e.touches[0];
    if (e.touches.length !== 1 || !t || !start) return;
    axis ??= touchAxis(t.clientX - start.x, t.clientY - start.y);
    if (axis !== 'x') e.stopImmediatePropagation();
  };
  const options = { capture: true, passive: true } as const;
  canvas.addEventListener('touchstart', onStart, options);
  canvas.addEventListener('touchmove', onMove, options);
  return () => {
    canvas.removeEventListener('touchstart', onStart, options);
    canvas.removeEventListener('touchmove', onMove, options);
  };
}
