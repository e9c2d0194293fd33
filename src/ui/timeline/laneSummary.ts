/**
 * One sentence per lane for the text alternative — what a sighted reader sees in the lane: its
 * records by transaction outcome, the log end offset / HW / LSO, a replicated partition's leader,
 * leader epoch, ISR and replicas, the event_ids it holds more than once, and the consumer and group
 * pointers. In English or Korean; Kafka's terms stay in Latin script.
 */
import { CellKind } from './cellKind';
import type { LaneModel, PointerKind } from './laneModel';
import { replicationSummary } from './replicaText';
import type { TimelineLanguage } from './timelineText';

interface SummaryWords {
  readonly noRecords: string;
  readonly records: (n: number, first: number, last: number) => string;
  /** [kind, one, many] */
  readonly kinds: readonly [CellKind, string, string][];
  readonly count: (n: number, word: string) => string;
  readonly bounds: (leo: number, hw: number, lso: number) => string;
  readonly duplicate: (eventId: string, offsets: readonly number[]) => string;
  readonly moreDuplicates: (n: number) => string;
  readonly pointer: (kind: PointerKind, owner: string, offset: number) => string;
}

const EN: SummaryWords = {
  noRecords: 'no records',
  records: (n, first, last) => (n === 1 ? `1 record at offset ${first}` : `${n} records at offsets ${first}–${last}`),
  kinds: [
    [CellKind.plain, 'non-transactional', 'non-transactional'],
    [CellKind.committed, 'committed', 'committed'],
    [CellKind.open, 'open', 'open'],
    [CellKind.aborted, 'aborted', 'aborted'],
    [CellKind.commitMarker, 'COMMIT marker', 'COMMIT markers'],
    [CellKind.abortMarker, 'ABORT marker', 'ABORT markers'],
  ],
  count: (n, word) => `${n} ${word}`,
  bounds: (leo, hw, lso) => `log end offset ${leo}, HW ${hw}, LSO ${lso}`,
  duplicate: (id, offsets) => `event_id ${id} ${offsets.length} times, at offsets ${offsets.join(', ')}`,
  moreDuplicates: (n) => `${n} more event_ids more than once`,
  pointer: (kind, owner, offset) =>
    kind === 'position'
      ? `consumer ${owner} position ${offset}`
      : `group ${owner} ${kind === 'committed' ? 'committed offset' : 'pending transactional offset'} ${offset}`,
};

const KO: SummaryWords = {
  noRecords: '레코드 없음',
  records: (n, first, last) => (n === 1 ? `offset ${first}에 레코드 1개` : `offset ${first}–${last}에 레코드 ${n}개`),
  kinds: [
    [CellKind.plain, '트랜잭션 아님', '트랜잭션 아님'],
    [CellKind.committed, '커밋됨', '커밋됨'],
    [CellKind.open, '열린 트랜잭션', '열린 트랜잭션'],
    [CellKind.aborted, '취소됨', '취소됨'],
    [CellKind.commitMarker, 'COMMIT 마커', 'COMMIT 마커'],
    [CellKind.abortMarker, 'ABORT 마커', 'ABORT 마커'],
  ],
  count: (n, word) => `${word} ${n}개`,
  bounds: (leo, hw, lso) => `LEO(로그 끝 offset) ${leo}, HW ${hw}, LSO ${lso}`,
  duplicate: (id, offsets) => `event_id ${id} ${offsets.length}번 (offset ${offsets.join(', ')})`,
  moreDuplicates: (n) => `그 밖에 두 번 이상 나온 event_id ${n}개`,
  pointer: (kind, owner, offset) =>
    kind === 'position'
      ? `컨슈머 ${owner} 위치 ${offset}`
      : `그룹 ${owner} ${kind === 'committed' ? '커밋 offset' : '대기 중인 트랜잭션 offset'} ${offset}`,
};

/** The event_ids a lane holds more than once, each with its offsets, in log order. */
function duplicatedEventIds(lane: LaneModel): [string, number[]][] {
  const dups = lane.duplicates;
  if (!dups) return [];
  const at = new Map<string, number[]>();
  lane.rows.forEach((r, i) => {
    const id = r.headers.event_id;
    if ((dups[i] ?? 0) > 1 && id !== undefined) at.set(id, [...(at.get(id) ?? []), r.offset]);
  });
  return [...at];
}

export function laneSummary(lane: LaneModel, language: TimelineLanguage = 'en'): string {
  const w = language === 'ko' ? KO : EN;
  const n = lane.offsets.length;
  const records = n === 0 ? w.noRecords : w.records(n, lane.offsets[0] as number, lane.offsets[n - 1] as number);
  const kinds = w.kinds
    .filter(([k]) => (lane.counts[k] ?? 0) > 0)
    .map(([k, one, many]) => {
      const count = lane.counts[k] ?? 0;
      return w.count(count, count === 1 ? one : many);
    });
  const dups = duplicatedEventIds(lane);
  const duplicates = dups.slice(0, 5).map(([id, offsets]) => w.duplicate(id, offsets));
  if (dups.length > 5) duplicates.push(w.moreDuplicates(dups.length - 5));
  return [
    `${lane.key}: ${records}${kinds.length ? ` (${kinds.join(', ')})` : ''}`,
    w.bounds(lane.logEndOffset, lane.highWatermark, lane.lastStableOffset),
    ...(lane.replication ? replicationSummary(lane.replication, language) : []),
    ...duplicates,
    ...lane.pointers.map((p) => w.pointer(p.kind, p.owner, p.offset)),
  ].join('; ');
}
