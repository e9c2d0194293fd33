/**
 * Level of detail for a lane's records, so a zoomed-out frame costs the same at 1k and at 100k
 * records: level 0 is one node per record; level l merges 2^l consecutive records (by index) into a
 * node holding the most important data kind among them and which markers they contain. Drawing
 * walks the largest aligned nodes that fit in a pixel instead of every record.
 */
import { CellKind } from './cellKind';

export const NO_DATA = 255;
export const MARK_COMMIT = 1;
export const MARK_ABORT = 2;

export interface LodLevel {
  /** Highest data CellKind among the node's records, or NO_DATA when the node holds only markers. */
  readonly data: Uint8Array;
  /** MARK_COMMIT | MARK_ABORT bits. */
  readonly markers: Uint8Array;
}

export type Lod = readonly LodLevel[];

export function buildLod(kinds: Uint8Array): Lod {
  const n = kinds.length;
  const data = new Uint8Array(n);
  const markers = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const k = kinds[i] as number;
    if (k === CellKind.commitMarker) {
      data[i] = NO_DATA;
      markers[i] = MARK_COMMIT;
    } else if (k === CellKind.abortMarker) {
      data[i] = NO_DATA;
      markers[i] = MARK_ABORT;
    } else data[i] = k;
  }
  const levels: LodLevel[] = [{ data, markers }];
  let prev = levels[0] as LodLevel;
  while (prev.data.length > 1) {
    const m = Math.ceil(prev.data.length / 2);
    const d = new Uint8Array(m);
    const mk = new Uint8Array(m);
    for (let j = 0; j < m; j++) {
      const a = prev.data[2 * j] as number;
      const b = 2 * j + 1 < prev.data.length ? (prev.data[2 * j + 1] as number) : NO_DATA;
      d[j] = a === NO_DATA ? b : b === NO_DATA ? a : Math.max(a, b);
      mk[j] = (prev.markers[2 * j] as number) | (2 * j + 1 < prev.markers.length ? (prev.markers[2 * j + 1] as number) : 0);
    }
    prev = { data: d, markers: mk };
    levels.push(prev);
  }
  return levels;
}
