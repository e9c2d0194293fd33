/**
 * The focusable plot of a canvas view: what the panel puts in it (the static canvas, an axis, text
 * alternatives), then the overlay canvas for hover, focus and selection, and the tooltip.
 */
import type { ReactNode } from 'react';
import type { CanvasRefs } from './useCanvasController';

export function CanvasPlot({
  refs,
  label,
  describedBy,
  tooltipTestId,
  children,
}: {
  readonly refs: CanvasRefs;
  readonly label: string;
  readonly describedBy: string;
  readonly tooltipTestId: string;
  readonly children: ReactNode;
}) {
  return (
    <div
      ref={refs.root}
      className="tl-plot"
      role="application"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard widget: arrow keys move between the marks (records, envelopes)
      tabIndex={0}
      aria-label={label}
      aria-describedby={describedBy}
    >
      {children}
      <canvas ref={refs.overlayCanvas} className="tl-canvas tl-overlay" />
      <div ref={refs.tooltip} className="tl-tooltip" role="tooltip" hidden data-testid={tooltipTestId} />
    </div>
  );
}
