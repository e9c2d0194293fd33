/**
 * The plumbing both timeline views (partition lanes, message sequence) share, outside React: a
 * static and an overlay canvas layer sized to the plot (devicePixelRatio included), redraws coalesced
 * into one frame, x-axis pan and zoom, the palette following the theme, pointer hover and click on
 * the overlay, keyboard focus (the focus ring shows only after a key), and the keys every view has.
 * A view says what it draws, where its marks are (hitAt) and how focus moves between them.
 */
import type { Selection } from '../../store/simStore';
import { beginFrame, type CanvasLayer, createLayer, sizeLayer } from './canvasLayer';
import { createFrameScheduler, type FrameScheduler } from './frameScheduler';
import { type Palette, readPalette, watchTheme } from './palette';
import { PanZoom } from './panZoom';
import { type TimelineStrings, timelineStrings } from './timelineText';
import { viewKeyAction } from './viewKeys';

export interface CanvasElements {
  /** The focusable element that receives keyboard input. */
  readonly root: HTMLElement;
  /** Positioned container of the layers; its width is the plot width. */
  readonly plot: HTMLElement;
  readonly staticCanvas: HTMLCanvasElement;
  readonly overlayCanvas: HTMLCanvasElement;
  readonly tooltip: HTMLElement;
  /** aria-live region announcing the focused mark. */
  readonly live: HTMLElement;
}

export interface CanvasControllerOptions {
  readonly onSelect: (selection: Selection | null) => void;
  /** Called after each drawn frame with the time it took (benchmarks). */
  readonly onFrame?: (ms: number) => void;
}

/** `M` is what the pointer can be over: a mark of the view (a record, an envelope). */
export abstract class CanvasController<M, E extends CanvasElements = CanvasElements> {
  /** Plot width in CSS pixels. */
  protected width = 0;
  protected hover: M | null = null;
  /** The view has keyboard focus. */
  protected focused = false;
  /** Focus came from the keyboard (or a key was pressed since): only then show the focus ring and its details. */
  protected keyboardMode = false;
  /** Read at the first draw (in a frame, where the browser computes styles anyway), not when made. */
  private colours: Palette | null = null;
  /** The words the canvas writes, in the reader's language. */
  protected text: TimelineStrings = timelineStrings('en');
  protected readonly staticLayer: CanvasLayer;
  protected readonly overlayLayer: CanvasLayer;
  protected readonly zoom: PanZoom;
  protected readonly scheduler: FrameScheduler;
  private needStatic = true;
  /** The overlay holds nothing: an empty frame need not clear it again. */
  private overlayClear = false;
  private readonly textWidths = new Map<string, number>();
  private readonly cleanup: (() => void)[] = [];

  constructor(
    protected readonly el: E,
    protected readonly options: CanvasControllerOptions,
  ) {
    this.staticLayer = createLayer(el.staticCanvas);
    this.overlayLayer = createLayer(el.overlayCanvas);
    this.scheduler = createFrameScheduler(() => this.draw(), options.onFrame);
    this.zoom = new PanZoom(el.overlayCanvas, () => this.invalidate());
    const canvas = el.overlayCanvas;
    this.listen(canvas, 'wheel', (e) => this.zoom.onWheel(e as WheelEvent), { passive: false });
    this.listen(canvas, 'mousemove', (e) => {
      const m = e as MouseEvent;
      if (!m.buttons) this.setHover(this.hitAt(m.offsetX, m.offsetY)); // with a button down it pans
    });
    this.listen(canvas, 'mouseleave', () => this.setHover(null));
    this.listen(canvas, 'click', (e) => {
      const hit = this.hitAt((e as MouseEvent).offsetX, (e as MouseEvent).offsetY);
      if (hit !== null) this.clickMark(hit);
    });
    this.listen(canvas, 'pointerdown', () => {
      this.keyboardMode = false;
    });
    this.listen(el.root, 'keydown', (e) => {
      this.keyboardMode = true;
      this.onKey(e as KeyboardEvent);
    });
    this.listen(el.root, 'focus', () => {
      this.focused = true;
      this.keyboardMode ||= el.root.matches(':focus-visible');
      this.onFocus();
    });
    this.listen(el.root, 'blur', () => {
      this.focused = false;
      this.onBlur();
    });
    // the plot's width is read here, after layout (its first report sizes the layers): see resize
    const ro = new ResizeObserver(() => this.resize(true));
    ro.observe(el.plot);
    this.cleanup.push(() => ro.disconnect());
    this.cleanup.push(
      watchTheme(() => {
        this.colours = readPalette(el.root);
        this.textWidths.clear();
        this.onTheme();
        this.invalidate();
      }),
    );
  }

  destroy(): void {
    this.scheduler.cancel();
    this.zoom.destroy();
    for (const f of this.cleanup) f();
    this.cleanup.length = 0;
  }

  /** The words the canvas writes, in the reader's language. */
  setText(text: TimelineStrings): void {
    if (text === this.text) return;
    this.text = text;
    this.textWidths.clear();
    this.invalidate();
  }

  zoomBy(factor: number): void {
    this.sized();
    this.zoom.zoomBy(factor, this.zoomAnchor());
  }

  resetZoom(): void {
    this.zoom.reset();
  }

  /** Pans by dx CSS pixels (positive moves the content right). */
  panBy(dx: number): void {
    this.sized();
    this.zoom.panBy(dx);
  }

  setTransform(k: number, x: number): void {
    this.sized();
    this.zoom.set(k, x);
  }

  /** Draws now, synchronously (benchmarks and tests). */
  renderNow(): void {
    this.sized();
    this.needStatic = true;
    this.scheduler.flush(true);
  }

  // ------------------------------------------------------------------ what a view says

  /** Height of the plot (CSS pixels) and the deepest zoom, for this width; `widthChanged` since the last call. */
  protected abstract plotSize(width: number, widthChanged: boolean): { readonly height: number; readonly maxZoom: number };
  protected abstract drawStatic(now: number): void;
  /** Selection, hover and focus; starts with beginOverlay. */
  protected abstract drawOverlay(): void;
  /** The mark under (x, y), or null. */
  protected abstract hitAt(x: number, y: number): M | null;
  /** A click on a mark: focus and select it. */
  protected abstract clickMark(mark: M): void;
  /** Enter or space: select the focused mark. */
  protected abstract selectFocused(): void;
  /** The view's own keys (moving focus); true if the key is one of them. */
  protected abstract navigate(e: KeyboardEvent): boolean;
  /** The view has just taken keyboard focus. */
  protected abstract onFocus(): void;

  protected onBlur(): void {
    this.scheduler.request();
  }

  /** The theme changed (the palette is already read again): drop what was made from the old one. */
  protected onTheme(): void {}

  /** Whether something is still moving at `now` (then frames keep coming and the static layer is redrawn). */
  protected animating(_now: number): boolean {
    return false;
  }

  /** Where + and − zoom around (CSS pixels). */
  protected zoomAnchor(): number {
    return this.width / 2;
  }

  protected sameMark(a: M | null, b: M | null): boolean {
    return a === b;
  }

  // ------------------------------------------------------------------ for the view

  /**
   * Sizes the layers for the plot's width and the view's height. The width is read (`measure`) only
   * when the ResizeObserver reports, after the browser's layout: a data change (every frame while
   * playing) keeps the width it knows, and a new controller waits for the observer's first report,
   * so neither forces a layout of the page in the middle of a task. Until then nothing is drawn.
   */
  protected resize(measure = false): void {
    if (!measure && this.width === 0) return;
    const width = measure ? Math.max(1, this.el.plot.clientWidth) : this.width;
    const changed = width !== this.width;
    this.width = width;
    const { height, maxZoom } = this.plotSize(width, changed);
    sizeLayer(this.staticLayer, width, height);
    sizeLayer(this.overlayLayer, width, height);
    this.zoom.setExtent(width, height, maxZoom);
    this.invalidate();
  }

  /** The theme's colours and font for the canvases. */
  protected get palette(): Palette {
    this.colours ??= readPalette(this.el.root);
    return this.colours;
  }

  /** Asked for before the ResizeObserver's first report (a script, a button): measure now. */
  private sized(): void {
    if (this.width === 0) this.resize(true);
  }

  /** Redraw both layers on the next frame. */
  protected invalidate(): void {
    this.needStatic = true;
    this.scheduler.request();
  }

  /** Width of a text in the static layer's current font, cached until the theme or the words change. */
  protected measure = (text: string): number => {
    let w = this.textWidths.get(text);
    if (w === undefined) {
      w = this.staticLayer.ctx.measureText(text).width;
      this.textWidths.set(text, w);
    }
    return w;
  };

  /** Clears the overlay for drawing; null when there is nothing to draw and it is already clear (nothing for the compositor to upload). */
  protected beginOverlay(empty: boolean): CanvasRenderingContext2D | null {
    if (empty && this.overlayClear) return null;
    const ctx = beginFrame(this.overlayLayer);
    this.overlayClear = empty;
    return ctx;
  }

  /** The keyboard focus ring: a dashed rectangle. */
  protected strokeFocusRing(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number): void {
    ctx.strokeStyle = this.palette.focus;
    ctx.lineWidth = 2;
    ctx.setLineDash([4, 3]);
    ctx.strokeRect(x, y, w, h);
    ctx.setLineDash([]);
  }

  /** Pans so that a mark focused at x (CSS pixels) is on screen, centring on worldX (unzoomed) when it is not. */
  protected keepInView(x: number, worldX: () => number): void {
    if (x < 8 || x > this.width - 8) this.zoom.centreOn(worldX());
  }

  protected listen(target: EventTarget, type: string, fn: (e: Event) => void, opts?: AddEventListenerOptions): void {
    target.addEventListener(type, fn, opts);
    this.cleanup.push(() => target.removeEventListener(type, fn, opts));
  }

  // ------------------------------------------------------------------ plumbing

  /** One frame. Returns true while something is still animating. */
  private draw(): boolean {
    if (this.width === 0) return false; // not sized yet: the ResizeObserver's first report draws
    const now = performance.now();
    if (this.needStatic || this.animating(now)) this.drawStatic(now);
    this.needStatic = false;
    this.drawOverlay();
    return this.animating(now);
  }

  private setHover(mark: M | null): void {
    if (this.sameMark(mark, this.hover)) return;
    this.hover = mark;
    this.el.overlayCanvas.style.cursor = mark !== null ? 'pointer' : '';
    this.scheduler.request();
  }

  private onKey(e: KeyboardEvent): void {
    let handled = this.navigate(e);
    if (!handled) {
      const action = viewKeyAction(e.key);
      handled = action !== null;
      if (action?.kind === 'select') this.selectFocused();
      else if (action?.kind === 'deselect') this.options.onSelect(null);
      else if (action?.kind === 'zoom') this.zoomBy(action.factor);
      else if (action?.kind === 'fit') this.resetZoom();
    }
    if (handled) e.preventDefault();
  }
}
