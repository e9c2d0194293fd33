/**
 * What the marks mean: each with a shape or pattern as well as a colour, so the legend (like the
 * timeline) reads without colour.
 */
import { useId } from 'react';
import { type TimelineStrings, timelineStrings } from './timelineText';

function Swatch({ children, label }: { children: React.ReactNode; label: string }) {
  return (
    <li>
      <svg width="22" height="16" viewBox="0 0 22 16" aria-hidden="true">
        {children}
      </svg>
      {label}
    </li>
  );
}

export function LanesLegend({ text = timelineStrings('en') }: { readonly text?: TimelineStrings }) {
  const id = useId().replace(/:/g, '');
  return (
    <div className="tl-legend-wrap">
      <svg width="0" height="0" aria-hidden="true" className="tl-defs">
        <defs>
          <pattern id={`${id}-hatch`} width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
            <line x1="0" y1="0" x2="0" y2="5" className="tl-sw-open-line" />
          </pattern>
          <pattern id={`${id}-cross`} width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" y2="5" className="tl-sw-aborted-line" />
            <line x1="0" y1="0" x2="5" y2="0" className="tl-sw-aborted-line" />
          </pattern>
        </defs>
      </svg>
      <ul className="tl-legend" aria-label={text.lanesLegend}>
        <Swatch label={text.legendPlain}>
          <rect x="2" y="2" width="18" height="12" className="tl-sw-plain" />
        </Swatch>
        <Swatch label={text.legendCommitted}>
          <rect x="2" y="2" width="18" height="12" className="tl-sw-committed" />
        </Swatch>
        <Swatch label={text.legendOpen}>
          <rect x="2" y="2" width="18" height="12" fill={`url(#${id}-hatch)`} className="tl-sw-open" />
        </Swatch>
        <Swatch label={text.legendAborted}>
          <rect x="2" y="2" width="18" height="12" fill={`url(#${id}-cross)`} className="tl-sw-aborted" />
        </Swatch>
        <Swatch label={text.legendCommitMarker}>
          <path d="M11 1 L18 8 L11 15 L4 8 Z" className="tl-sw-commit-marker" />
          <path d="M8 8 L10.5 10.5 L14 6" className="tl-sw-glyph" />
        </Swatch>
        <Swatch label={text.legendAbortMarker}>
          <path d="M11 1 L18 8 L11 15 L4 8 Z" className="tl-sw-abort-marker" />
          <path d="M8.5 5.5 L13.5 10.5 M13.5 5.5 L8.5 10.5" className="tl-sw-glyph" />
        </Swatch>
        <Swatch label={text.legendDuplicate}>
          <rect x="2" y="4" width="18" height="10" className="tl-sw-plain" />
          <rect x="2" y="1" width="18" height="3" className="tl-sw-duplicate" />
        </Swatch>
        <Swatch label={text.legendLeo}>
          <line x1="11" y1="1" x2="11" y2="15" className="tl-sw-leo" />
        </Swatch>
        <Swatch label={text.legendHw}>
          <line x1="11" y1="1" x2="11" y2="15" className="tl-sw-hw" />
        </Swatch>
        <Swatch label={text.legendLso}>
          <line x1="11" y1="1" x2="11" y2="15" className="tl-sw-lso" />
        </Swatch>
        <Swatch label={text.legendPosition}>
          <path d="M11 3 L16 13 L6 13 Z" className="tl-sw-position" />
        </Swatch>
        <Swatch label={text.legendGroup}>
          <path d="M11 2 L17 8 L11 14 L5 8 Z" className="tl-sw-group" />
        </Swatch>
      </ul>
    </div>
  );
}

export function MscLegend({ text = timelineStrings('en') }: { readonly text?: TimelineStrings }) {
  return (
    <ul className="tl-legend" aria-label={text.messagesLegend}>
      <Swatch label={text.legendDelivered}>
        <path d="M2 8 H16" className="tl-sw-arrow" />
        <path d="M20 8 L14 5 L14 11 Z" className="tl-sw-arrow-head" />
      </Swatch>
      <Swatch label={text.legendInFlight}>
        <path d="M2 8 H15" className="tl-sw-arrow tl-sw-dashed" />
        <circle cx="18" cy="8" r="3" className="tl-sw-arrow-open" />
      </Swatch>
      <Swatch label={text.legendLost}>
        <path d="M2 8 H16" className="tl-sw-fault" />
        <circle cx="18" cy="8" r="3.5" className="tl-sw-fault-dot" />
      </Swatch>
      <Swatch label={text.legendDropped}>
        <path d="M2 8 H14 M11 4 L19 12 M19 4 L11 12" className="tl-sw-fault" />
      </Swatch>
      <Swatch label={text.legendNow}>
        <line x1="11" y1="1" x2="11" y2="15" className="tl-sw-now" />
      </Swatch>
    </ul>
  );
}
