/** The kinds of cell a partition lane draws, and which kind a record is. */
import type { RecordRow } from '../../sim/views';

/** Cell kinds, ordered by how much they matter when several share a pixel (higher wins). */
export const CellKind = {
  plain: 0,
  committed: 1,
  open: 2,
  aborted: 3,
  commitMarker: 4,
  abortMarker: 5,
} as const;
export type CellKind = (typeof CellKind)[keyof typeof CellKind];

export const DATA_KINDS = [CellKind.plain, CellKind.committed, CellKind.open, CellKind.aborted] as const;

export function isMarker(kind: number): boolean {
  return kind === CellKind.commitMarker || kind === CellKind.abortMarker;
}

export function cellKindOf(r: Pick<RecordRow, 'control' | 'txnOutcome'>): CellKind {
  if (r.control === 'COMMIT') return CellKind.commitMarker;
  if (r.control === 'ABORT') return CellKind.abortMarker;
  switch (r.txnOutcome) {
    case 'committed':
      return CellKind.committed;
    case 'open':
      return CellKind.open;
    case 'aborted':
      return CellKind.aborted;
    default:
      return CellKind.plain;
  }
}
