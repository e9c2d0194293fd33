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

/** A record's cell: outlined, solid, hatched or crossed (`fill` names the pattern). */
function CellSwatch({ label, className, fill }: { label: string; className: string; fill?: string }) {
  return (
    <Swatch label={label}>
      <rect x="2" y="2" width="18" height="12" fill={fill} className={className} />
    </Swatch>
  );
}

/** A transaction marker: a diamond with its glyph (✓ or ×). */
function MarkerSwatch({ label, className, glyph }: { label: string; className: string; glyph: string }) {
  return (
    <Swatch label={label}>
      <path d="M11 1 L18 8 L11 15 L4 8 Z" className={className} />
      <path d={glyph} className="tl-sw-glyph" />
    </Swatch>
  );
}

/** A line across the lane at an offset or a time (LEO, HW, LSO, now). */
function LineSwatch({ label, className }: { label: string; className: string }) {
  return (
    <Swatch label={label}>
      <line x1="11" y1="1" x2="11" y2="15" className={className} />
    </Swatch>
  );
}

/** The replica sub-lanes' marks: shown only when some partition has more than one replica. */
function ReplicaSwatches({ text }: { readonly text: TimelineStrings }) {
  return (
    <>
      <Swatch label={text.legendLeader}>
        <rect x="2" y="6" width="14" height="5" className="tl-sw-replica" />
        <line x1="17" y1="3" x2="17" y2="14" className="tl-sw-leo" />
      </Swatch>
      <Swatch label={text.legendReplicaIsr}>
        <rect x="2" y="6" width="16" height="5" className="tl-sw-replica" />
      </Swatch>
      <Swatch label={text.legendReplicaOut}>
        <rect x="2" y="6" width="16" height="5" className="tl-sw-replica-out" />
      </Swatch>
      <Swatch label={text.legendReplicaDown}>
        <rect x="2" y="6" width="16" height="5" className="tl-sw-replica-down" />
      </Swatch>
      <Swatch label={text.legendReplicaHw}>
        <path d="M7 2 L15 2 L11 8 Z" className="tl-sw-hw-mark" />
      </Swatch>
      <Swatch label={text.legendTruncated}>
        <rect x="3" y="2" width="16" height="12" className="tl-sw-truncated" />
        <path d="M3 14 L19 2" className="tl-sw-truncated-line" />
      </Swatch>
    </>
  );
}

export function LanesLegend({
  text = timelineStrings('en'),
  replicated = false,
}: {
  readonly text?: TimelineStrings;
  /** Some partition has more than one replica: explain the replica sub-lanes too. */
  readonly replicated?: boolean;
}) {
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
        <CellSwatch label={text.legendPlain} className="tl-sw-plain" />
        <CellSwatch label={text.legendCommitted} className="tl-sw-committed" />
        <CellSwatch label={text.legendOpen} className="tl-sw-open" fill={`url(#${id}-hatch)`} />
        <CellSwatch label={text.legendAborted} className="tl-sw-aborted" fill={`url(#${id}-cross)`} />
        {replicated && (
          <Swatch label={text.legendAboveHw}>
            <rect x="2" y="2" width="18" height="12" className="tl-sw-plain" />
            <rect x="2.5" y="2.5" width="17" height="11" className="tl-sw-above-hw" />
          </Swatch>
        )}
        <MarkerSwatch label={text.legendCommitMarker} className="tl-sw-commit-marker" glyph="M8 8 L10.5 10.5 L14 6" />
        <MarkerSwatch label={text.legendAbortMarker} className="tl-sw-abort-marker" glyph="M8.5 5.5 L13.5 10.5 M13.5 5.5 L8.5 10.5" />
        <Swatch label={text.legendDuplicate}>
          <rect x="2" y="4" width="18" height="10" className="tl-sw-plain" />
          <rect x="2" y="1" width="18" height="3" className="tl-sw-duplicate" />
        </Swatch>
        <LineSwatch label={text.legendLeo} className="tl-sw-leo" />
        <LineSwatch label={text.legendHw} className="tl-sw-hw" />
        <LineSwatch label={text.legendLso} className="tl-sw-lso" />
        <Swatch label={text.legendPosition}>
          <path d="M11 3 L16 13 L6 13 Z" className="tl-sw-position" />
        </Swatch>
        <Swatch label={text.legendGroup}>
          <path d="M11 2 L17 8 L11 14 L5 8 Z" className="tl-sw-group" />
        </Swatch>
        {replicated && <ReplicaSwatches text={text} />}
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
      <LineSwatch label={text.legendNow} className="tl-sw-now" />
    </ul>
  );
}
