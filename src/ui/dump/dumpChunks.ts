/**
 * The worker's analysis crosses to the page in pieces: first the analysis with its lanes' records
 * left out, then the records a few thousand at a time, each its own message. Receiving one large
 * message would copy every record in one task on the page's thread — seconds for 100,000 records —
 * while each piece is copied in a task of its own, and the page stays responsive in between.
 */
import type { DumpAnalysis } from '../../sim';
import type { RecordRow } from '../../sim/views';

export const RECORDS_PER_CHUNK = 2000;

export interface RecordChunk {
  readonly lane: number;
  readonly records: readonly RecordRow[];
}

/** The analysis without its records, and the records in order, RECORDS_PER_CHUNK at a time. */
export function splitAnalysis(a: DumpAnalysis, size = RECORDS_PER_CHUNK): { shell: DumpAnalysis; chunks: RecordChunk[] } {
  const chunks: RecordChunk[] = [];
  a.lanes.forEach((l, lane) => {
    for (let i = 0; i < l.row.records.length; i += size) chunks.push({ lane, records: l.row.records.slice(i, i + size) });
  });
  return { shell: { ...a, lanes: a.lanes.map((l) => ({ ...l, row: { ...l.row, records: [] } })) }, chunks };
}

/** Puts the analysis back together from its shell and its chunks, in the order they were sent. */
export function joinAnalysis(shell: DumpAnalysis, chunks: readonly RecordChunk[]): DumpAnalysis {
  const records: RecordRow[][] = shell.lanes.map(() => []);
  for (const c of chunks) {
    const into = records[c.lane];
    if (into) for (const r of c.records) into.push(r);
  }
  return { ...shell, lanes: shell.lanes.map((l, i) => ({ ...l, row: { ...l.row, records: records[i] ?? [] } })) };
}
