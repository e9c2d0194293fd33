/**
 * The dump parser and its analysis on hand-made files in the shapes Kafka's DumpLogSegments prints
 * (3.0 with per-record batch fields, 3.2 with deleteHorizonMs and "Starting offset", 4.0 with
 * "Log starting offset"; batch lines only, --deep-iteration, --print-data-log, --skip-record-metadata;
 * a .txnindex dump; a compacted segment; a transaction spanning two segments) and on malformed input.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeDump } from '../../src/sim/dump/analyze';
import { parseDump, parseDumps, partitionOfPath } from '../../src/sim/dump/parse';
import { describeIssue } from '../../src/sim/dump/text';

const dir = new URL('../fixtures/dumps/', import.meta.url);
const read = (p: string) => readFileSync(new URL(p, dir), 'utf8');
function analyze(...files: string[]) {
  const r = parseDumps(files.map((f) => ({ name: f, text: read(`kafka/${f}`) })));
  if (!r.ok) throw new Error(r.errors.map((e) => describeIssue(e)).join('\n'));
  return analyzeDump(r.dump);
}

describe('real-broker-shaped dumps', () => {
  it('reads every hand-made fixture without an error', () => {
    for (const f of readdirSync(new URL('kafka/', dir))) expect(parseDump(read(`kafka/${f}`), f).ok, f).toBe(true);
  });

  it('4.0 --print-data-log: markers, outcomes, the LSO pinned by the earliest open transaction, key+value duplicates', () => {
    const a = analyze('kafka-4.0-print-data-log.txt');
    const lane = a.lanes[0]!;
    expect(lane.key).toBe('payments-0');
    const outcome = (o: number) => lane.row.records.find((r) => r.offset === o)!;
    expect([0, 1].map((o) => outcome(o).txnOutcome)).toEqual(['committed', 'committed']);
    expect(outcome(2).control).toBe('COMMIT');
    // the marker's coordinator epoch (endTxnMarker: COMMIT coordinatorEpoch: 7) reaches its row
    expect(outcome(2).coordinatorEpoch).toBe(7);
    expect(outcome(4).coordinatorEpoch).toBe(7);
    expect(outcome(0).coordinatorEpoch).toBeUndefined();
    expect(outcome(3).txnOutcome).toBe('aborted');
    expect(outcome(4).control).toBe('ABORT');
    expect(outcome(5).txnOutcome).toBe('open');
    expect(outcome(6).txnOutcome).toBeNull();
    expect(outcome(7).key).toBeNull();
    expect(outcome(7).value).toBe('hello');
    expect(lane.row.highWatermark).toBe(9);
    expect(lane.highWatermarkKnown).toBe(false);
    expect(lane.row.lastStableOffset).toBe(5);
    expect(lane.lsoPin).toMatchObject({ producerId: 4003, producerEpoch: 0, startOffset: 5, lastTimestamp: 1718000000100 });
    expect(lane.openTxns.map((o) => [o.producerId, o.startOffset])).toEqual([
      [4003, 5],
      [4001, 8],
    ]);
    expect(lane.epochChanges).toEqual([
      { producerId: 4001, offset: 2, from: 0, to: 1, byMarker: true },
      { producerId: 4002, offset: 4, from: 5, to: 6, byMarker: true },
    ]);
    expect(lane.sequenceGaps).toEqual([]);
    expect(a.duplicates).toEqual([
      expect.objectContaining({
        by: 'key+value',
        id: 'pay-1 → {"amount":100}',
        visibleCopies: 2,
        copies: [expect.objectContaining({ offset: 0 }), expect.objectContaining({ offset: 6 })],
      }),
    ]);
  });

  it('3.0 --deep-iteration (record lines carrying batch fields): a sequence gap and an epoch change, no data', () => {
    const a = analyze('kafka-3.0-deep-iteration.txt');
    const lane = a.lanes[0]!;
    expect(lane.key).toBe('orders-2');
    expect(lane.row.logStartOffset).toBe(40);
    expect(a.data).toBe(false);
    expect(a.deep).toBe(true);
    expect(lane.sequenceGaps).toEqual([{ producerId: 77, producerEpoch: 3, offset: 42, expected: 12, found: 14, mayBeCompaction: false }]);
    expect(lane.epochChanges).toEqual([{ producerId: 77, offset: 43, from: 3, to: 4, byMarker: false }]);
    expect(lane.row.records.map((r) => r.sequence)).toEqual([10, 11, 14, 0]);
  });

  it('3.2 batch lines only with a .txnindex dump: the index decides an ABORT, a marker it does not name stays unknown', () => {
    const a = analyze('kafka-3.2-batches-only.txt');
    const lane = a.lanes[0]!;
    expect(a.deep).toBe(false);
    expect(lane.row.records.filter((r) => r.offset <= 2).map((r) => r.txnOutcome)).toEqual(['aborted', 'aborted', 'aborted']);
    expect(lane.row.records.find((r) => r.offset === 3)?.control).toBe('ABORT');
    expect(lane.unknownMarkers).toEqual([6]);
    expect(lane.row.records.filter((r) => r.offset === 4 || r.offset === 5).map((r) => r.txnOutcome)).toEqual([null, null]);
    expect(lane.lsoPin).toBeNull();
  });

  it('a compacted segment: missing offsets counted, its sequence gap marked as possibly compaction, offsets kept', () => {
    const lane = analyze('compacted-segment.txt').lanes[0]!;
    expect(lane.row.records.map((r) => r.offset)).toEqual([2, 4, 5, 10]);
    expect(lane.missingOffsets).toBe(7);
    expect(lane.sequenceGaps).toEqual([expect.objectContaining({ producerId: 12, expected: 6, found: 9, mayBeCompaction: true })]);
    expect(lane.row.records.find((r) => r.offset === 5)?.value).toBeNull();
  });

  it('a transaction spanning two segments: one lane; its COMMIT in the later segment commits the earlier records', () => {
    const only0 = analyze('spanning-segment-0.txt').lanes[0]!;
    expect(only0.lsoPin).toMatchObject({ producerId: 3100, startOffset: 0, mayEndLater: true });
    const only3 = analyze('spanning-segment-3.txt').lanes[0]!;
    expect(only3.orphanMarkers).toEqual([{ offset: 3, producerId: 3100, marker: 'COMMIT' }]);
    // given in either order
    const both = analyze('spanning-segment-3.txt', 'spanning-segment-0.txt');
    expect(both.lanes).toHaveLength(1);
    const lane = both.lanes[0]!;
    expect(lane.files.map((f) => f.baseOffset)).toEqual([0, 3]);
    expect(lane.row.records.filter((r) => r.producerId === 3100 && !r.control).map((r) => r.txnOutcome)).toEqual([
      'committed',
      'committed',
    ]);
    expect(lane.lsoPin).toMatchObject({ producerId: 3200, producerEpoch: 0, startOffset: 2 });
    expect(lane.row.lastStableOffset).toBe(2);
    expect(lane.orphanMarkers).toEqual([]);
  });

  it('--skip-record-metadata: offsets follow the batch', () => {
    const a = analyze('skip-record-metadata.txt');
    expect(a.lanes[0]!.row.records.map((r) => [r.offset, r.key])).toEqual([
      [0, 'u-1'],
      [1, 'u-2'],
      [2, 'u-1'],
    ]);
    expect(a.duplicates.map((d) => d.id)).toEqual(['u-1 → click']);
  });

  it('names the partition from the segment path', () => {
    expect(partitionOfPath('/var/lib/kafka/data/my-topic-12/00000000000000000000.log')).toEqual({ topic: 'my-topic', partition: 12 });
    expect(partitionOfPath('C:\\kafka\\orders-3\\00000000000000000100.log')).toEqual({ topic: 'orders', partition: 3 });
    expect(partitionOfPath('00000000000000000000.log')).toBeNull();
  });
});

describe('malformed input: an error with the line number and what was expected, never a throw', () => {
  const cases: [string, number, string, RegExp][] = [
    ['bad-number.txt', 3, 'not-a-number', /expected a whole number in "producerId: abc"/],
    ['bad-boolean.txt', 3, 'not-a-boolean', /expected true or false in "isTransactional: maybe"/],
    ['missing-field.txt', 3, 'missing-field', /expected the field "producerId: …"/],
    ['record-before-batch.txt', 3, 'record-without-batch', /must follow its batch line/],
    ['garbage-line.txt', 3, 'unrecognised-line', /expected a line of kafka-dump-log.sh output/],
    ['index-dump.txt', 2, 'not-a-log-segment', /offset or time index/],
    ['legacy-magic.txt', 3, 'legacy-format', /magic 2/],
    ['offset-outside-batch.txt', 4, 'offset-outside-batch', /5 ∉ \[0, 1\]/],
    ['empty.txt', 1, 'empty', /no batches found/],
  ];
  it.each(cases)('%s → line %i, %s', (file, line, code, message) => {
    const r = parseDump(read(`malformed/${file}`), file);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ line, code, source: file });
    expect(describeIssue(r.errors[0]!)).toMatch(new RegExp(`^${file.replace('.', '\\.')}, line ${line}: `));
    expect(describeIssue(r.errors[0]!)).toMatch(message);
    expect(describeIssue(r.errors[0]!, 'ko')).toContain(`${line}번째 줄`);
  });

  it('every malformed fixture is covered above', () => {
    expect(readdirSync(new URL('malformed/', dir)).sort()).toEqual(cases.map((c) => c[0]).sort());
  });

  it('offsets going backwards between batches, and a cut dump (count ≠ records) as a warning', () => {
    const back = parseDump(
      'baseOffset: 5 lastOffset: 5 count: 1 baseSequence: 0 lastSequence: 0 producerId: 1 producerEpoch: 0 isTransactional: false isControl: false\n' +
        'baseOffset: 3 lastOffset: 3 count: 1 baseSequence: 1 lastSequence: 1 producerId: 1 producerEpoch: 0 isTransactional: false isControl: false\n',
    );
    expect(back.ok ? null : back.errors[0]).toMatchObject({ line: 2, code: 'offsets-backwards' });
    const cut = parseDump(
      'baseOffset: 0 lastOffset: 1 count: 2 baseSequence: 0 lastSequence: 1 producerId: 1 producerEpoch: 0 isTransactional: false isControl: false\n| offset: 0 CreateTime: 1 keySize: -1 valueSize: 1 sequence: 0 headerKeys: []\n',
    );
    expect(cut.ok && cut.dump.warnings[0]).toMatchObject({ line: 1, code: 'count-mismatch' });
  });

  it('random bytes and truncated lines never throw', () => {
    const good = read('kafka/kafka-4.0-print-data-log.txt');
    for (let cut = 0; cut < good.length; cut += 37) {
      const r = parseDump(good.slice(0, cut) + '\u0000\u001b[31m' + good.slice(cut + 5));
      expect(typeof r.ok).toBe('boolean');
    }
  });
});
