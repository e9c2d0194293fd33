/**
 * A canvas view's zoom buttons (−, +, Fit), the same steps as its − + 0 keys: one piece in its
 * toolbar, so a toolbar that wraps moves all three (Fit used to be left alone on a line of its own).
 */
import type { RefObject } from 'react';
import { ZOOM_STEP } from './viewKeys';

export interface Zoomable {
  zoomBy(factor: number): void;
  resetZoom(): void;
}

export function ZoomButtons({
  view,
  zoomOut,
  zoomIn,
  fit,
  fitText,
}: {
  readonly view: RefObject<Zoomable | null>;
  /** Accessible names of the three buttons. */
  readonly zoomOut: string;
  readonly zoomIn: string;
  readonly fit: string;
  /** What the fit button shows. */
  readonly fitText: string;
}) {
  return (
    <span className="tl-zoom">
      <button type="button" onClick={() => view.current?.zoomBy(1 / ZOOM_STEP)} aria-label={zoomOut}>
        −
      </button>
      <button type="button" onClick={() => view.current?.zoomBy(ZOOM_STEP)} aria-label={zoomIn}>
        +
      </button>
      <button type="button" onClick={() => view.current?.resetZoom()} aria-label={fit}>
        {fitText}
      </button>
    </span>
  );
}
