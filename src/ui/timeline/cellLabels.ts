/**
 * What a record cell says about itself when it is wide enough to hold words: the record's
 * `event_id` header (the business identity the seeds build on) or, without one, its key; and how
 * many data records of the same partition carry that event_id — the duplicate a person came to see.
 *
 * Pure: no DOM, no canvas.
 */
import type { RecordRow } from '../../sim/views';

/** The label of a data record: its event_id, else its key, else ∅ (a null key). */
export function cellLabel(row: Pick<RecordRow, 'headers' | 'key' | 'control'>): string {
  if (row.control) return row.control;
  return row.headers.event_id ?? row.key ?? '∅';
}

/**
 * For each record, how many data records of the lane share its event_id (0 when it has none or is
 * a marker). Aborted records are left out: no reader that honours transactions sees them, and the
 * verdict does not count them either. Null when the lane holds no duplicate at all.
 */
export function duplicateCounts(rows: readonly RecordRow[]): Uint16Array | null {
  const counts = new Map<string, number>();
  const counted = (r: RecordRow) => r.control === null && r.txnOutcome !== 'aborted' && r.headers.event_id !== undefined;
  for (const r of rows) if (counted(r)) counts.set(r.headers.event_id as string, (counts.get(r.headers.event_id as string) ?? 0) + 1);
  let any = false;
  for (const n of counts.values()) if (n > 1) any = true;
  if (!any) return null;
  const out = new Uint16Array(rows.length);
  rows.forEach((r, i) => {
    if (counted(r)) out[i] = Math.min(65535, counts.get(r.headers.event_id as string) ?? 0);
  });
  return out;
}

/**
 * `text` cut to fit `maxWidth` (an ellipsis marks the cut), with `suffix` (such as " ×2") kept
 * whole. Empty when not even the suffix fits.
 */
export function fitLabel(text: string, suffix: string, maxWidth: number, measure: (s: string) => number): string {
  const full = text + suffix;
  if (measure(full) <= maxWidth) return full;
  if (measure(`…${suffix}`) > maxWidth) return '';
  let lo = 0;
  let hi = text.length;
  // the longest prefix that fits with the ellipsis
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (measure(`${text.slice(0, mid)}…${suffix}`) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…${suffix}`;
}
