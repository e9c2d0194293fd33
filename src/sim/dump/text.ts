/**
 * Words about a dump, in English and Korean: each input issue (line, what was found, what was
 * expected) and the findings of the analysis, and the plain-text report `npm run sim -- --import`
 * prints. Every piece of text taken from the input is passed through `esc` by the caller's choice
 * (the terminal escapes control characters; the page renders text as text).
 */

import { textTable } from '../trace/textTable';
import type { DumpAnalysis, OpenTxn } from './analyze';
import type { DumpIssue } from './types';

export type DumpLanguage = 'en' | 'ko';

const EXPECTED = {
  en: {
    'unrecognised-line':
      'expected a line of kafka-dump-log.sh output: "Dumping <file>", "Log starting offset: N", a batch line "baseOffset: …" or a record line "| offset: …"',
    'record-without-batch': 'a record line ("| offset: …") must follow its batch line ("baseOffset: …")',
    'missing-field': (d: string) => `expected the field "${d}: …" on this line`,
    'not-a-number': (d: string) => `expected a whole number in "${d}"`,
    'not-a-boolean': (d: string) => `expected true or false in "${d}"`,
    'offset-outside-batch': (d: string) => `expected an offset within its batch (${d})`,
    'offsets-backwards': (d: string) => `expected offsets to increase (${d})`,
    'legacy-format': (d: string) => `a message-format v0/v1 batch (${d}): transactions and producer ids need magic 2`,
    'not-a-log-segment': (d: string) =>
      `this is a dump of ${d === 'index' ? 'an offset or time index' : d === 'snapshot' ? 'a producer snapshot' : 'a KRaft metadata snapshot'}; expected the dump of a .log segment`,
    empty: 'no batches found: expected the output of kafka-dump-log.sh --files <segment>.log',
    'count-mismatch': (d: string) => `the batch's count and the record lines listed differ (${d}); the dump may be cut`,
    'trailing-bytes': (d: string) => `${d} bytes at the end of the segment are not a valid batch (a torn write)`,
  },
  ko: {
    'unrecognised-line':
      'kafka-dump-log.sh 출력 줄이어야 합니다: "Dumping <파일>", "Log starting offset: N", 배치 줄 "baseOffset: …" 또는 레코드 줄 "| offset: …"',
    'record-without-batch': '레코드 줄("| offset: …")은 자기 배치 줄("baseOffset: …") 뒤에 와야 합니다',
    'missing-field': (d: string) => `이 줄에 "${d}: …" 필드가 있어야 합니다`,
    'not-a-number': (d: string) => `"${d}"에는 정수가 와야 합니다`,
    'not-a-boolean': (d: string) => `"${d}"에는 true 또는 false가 와야 합니다`,
    'offset-outside-batch': (d: string) => `offset은 자기 배치 범위 안에 있어야 합니다 (${d})`,
    'offsets-backwards': (d: string) => `offset은 증가해야 합니다 (${d})`,
    'legacy-format': (d: string) => `메시지 포맷 v0/v1 배치입니다 (${d}): 트랜잭션과 producer id는 magic 2가 필요합니다`,
    'not-a-log-segment': (d: string) =>
      `${d === 'index' ? 'offset/시간 인덱스' : d === 'snapshot' ? '프로듀서 스냅샷' : 'KRaft 메타데이터 스냅샷'}의 덤프입니다; .log 세그먼트의 덤프가 필요합니다`,
    empty: '배치가 없습니다: kafka-dump-log.sh --files <세그먼트>.log 의 출력이 필요합니다',
    'count-mismatch': (d: string) => `배치의 count와 나열된 레코드 줄 수가 다릅니다 (${d}); 덤프가 잘렸을 수 있습니다`,
    'trailing-bytes': (d: string) => `세그먼트 끝의 ${d}바이트는 올바른 배치가 아닙니다 (찢어진 쓰기)`,
  },
} as const;

/** "pasted, line 12: expected …" — the line number, what was expected, and (separately) the line itself. */
export function describeIssue(issue: DumpIssue, language: DumpLanguage = 'en'): string {
  const e = EXPECTED[language][issue.code];
  const what = typeof e === 'function' ? e(issue.detail) : e;
  const where = language === 'ko' ? `${issue.source} ${issue.line}번째 줄` : `${issue.source}, line ${issue.line}`;
  return `${where}: ${what}`;
}

export function describeOpenTxn(o: OpenTxn, language: DumpLanguage = 'en'): string {
  if (language === 'ko')
    return `producerId ${o.producerId} (epoch ${o.producerEpoch})의 트랜잭션이 offset ${o.startOffset}부터 열려 있습니다 (레코드 ${o.records}개, 마지막 offset ${o.lastOffset})`;
  return `producerId ${o.producerId} (epoch ${o.producerEpoch}) has a transaction open since offset ${o.startOffset} (${o.records} record(s), last at ${o.lastOffset})`;
}

/** The findings as `npm run sim -- --import` prints them. `esc` escapes input text for the terminal. */
export function renderDumpReport(a: DumpAnalysis, esc: (s: string) => string = (s) => s): string {
  const out: string[] = [];
  out.push(
    `Imported ${a.lanes.length} partition(s), ${a.records} record(s)${a.deep ? '' : ' (batch lines only: no --deep-iteration)'}${a.data ? '' : ' — no keys or payloads (no --print-data-log)'}`,
  );
  for (const l of a.lanes) {
    const r = l.row;
    const lines = [
      `${esc(l.key)}: ${l.batches} batch(es), ${l.dataRecords} data record(s), ${l.controlRecords} marker(s); files ${l.files.map((f) => esc(f.file)).join(', ')}`,
      `  logStartOffset=${r.logStartOffset} highWatermark=${r.highWatermark}${l.highWatermarkKnown ? '' : ' (taken as the log end: the dump does not show it)'} lastStableOffset=${r.lastStableOffset} logEndOffset=${r.logEndOffset}`,
    ];
    if (l.lsoPin)
      lines.push(`  LSO pinned at ${l.lsoPin.startOffset} by producerId ${l.lsoPin.producerId}, epoch ${l.lsoPin.producerEpoch}`);
    else lines.push('  LSO not pinned: no open transaction');
    if (l.openTxns.length) {
      lines.push('  open transactions (as kafka-transactions.sh find-hanging lists them):');
      const rows = [['Topic', 'Partition', 'ProducerId', 'ProducerEpoch', 'StartOffset', 'LastTimestamp']];
      for (const o of l.openTxns)
        rows.push([
          esc(o.topic),
          String(o.partition),
          String(o.producerId),
          String(o.producerEpoch),
          String(o.startOffset),
          String(o.lastTimestamp ?? '-'),
        ]);
      lines.push(
        textTable(rows)
          .split('\n')
          .map((x) => `    ${x}`)
          .join('\n'),
      );
      if (l.openTxns.some((o) => o.mayEndLater)) lines.push('    (a later segment, not given, may hold their markers)');
    }
    for (const g of l.sequenceGaps)
      lines.push(
        `  sequence gap: producerId ${g.producerId} epoch ${g.producerEpoch} at offset ${g.offset}: expected sequence ${g.expected}, found ${g.found}${g.mayBeCompaction ? ' (offsets are missing: compaction may have removed the batches between)' : ''}`,
      );
    for (const e of l.epochChanges)
      lines.push(
        `  epoch change: producerId ${e.producerId} ${e.from} → ${e.to} at offset ${e.offset}${e.byMarker ? ' (on a marker)' : ''}`,
      );
    if (l.missingOffsets) lines.push(`  ${l.missingOffsets} offset(s) missing (a compacted segment, or segments not given)`);
    for (const m of l.orphanMarkers)
      lines.push(
        `  marker ${m.marker ?? '(type unknown)'} at offset ${m.offset} for producerId ${m.producerId} with no data of its transaction before it in the dump (in a segment not given, or a marker for a partition that held none)`,
      );
    if (l.unknownMarkers.length)
      lines.push(`  ${l.unknownMarkers.length} marker(s) of unknown type (dump with --deep-iteration to see COMMIT/ABORT)`);
    out.push(lines.join('\n'));
  }
  if (a.duplicates.length) {
    const lines = [`Stored more than once (${a.duplicates.length}):`];
    for (const d of a.duplicates.slice(0, 50))
      lines.push(
        `  ${esc(d.topic)} ${d.by} ${esc(d.id)}: ${d.copies.length} copies (${d.visibleCopies} visible to read_committed) at ${d.copies.map((c) => `${c.partition}@${c.offset}${c.outcome ? ` ${c.outcome}` : ''}`).join(', ')}`,
      );
    if (a.duplicates.length > 50) lines.push(`  … and ${a.duplicates.length - 50} more`);
    out.push(lines.join('\n'));
  } else
    out.push(
      a.data
        ? 'Stored more than once: nothing (by event_id header, else key and value).'
        : 'Duplicates: unknown (no keys or payloads in the dump).',
    );
  for (const w of a.warnings) out.push(`warning: ${describeIssue(w)}`);
  return out.join('\n\n');
}
