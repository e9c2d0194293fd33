/**
 * A batch the log cleaner kept as a header alone (LogCleaner's checkBatchRetention → RETAIN_EMPTY:
 * an active producer's last record) is still a batch of the log: kafka-dump-log
 * (DumpLogSegments.dumpLog) prints its header line with `count: 0` and no record line under it. The
 * model's dump printed batches from record rows only, so the header vanished from the text; the
 * import reads such a line back as a batch without records.
 */
import { describe, expect, it } from 'vitest';
import { analyzeDump } from '../../src/sim/dump/analyze';
import { parseDump } from '../../src/sim/dump/parse';
import { cleanLog } from '../../src/sim/log/logCleaner';
import type { PartitionLog } from '../../src/sim/log/partitionLog';
import { dumpPartition } from '../../src/sim/trace/dumpLog';
import { partitionRowsOf } from '../../src/sim/trace/logView';
import { data, emptyLog, marker } from '../log/cleanableLog';

/**
 * Producer 9: a=v1 at 0 in a transaction, its COMMIT at 1 (epoch 1); plain a=v2 at 2, c=z at 3 rolls
 * a segment. Three cleanings: a=v1 goes, the marker is stamped, then emptied but kept as the
 * producer's last record.
 */
function cleanedWithEmptyHeader(): PartitionLog {
  let log = marker(data(emptyLog(), 9, 0, 0, 'a', 'v1', 0), 9, 1, 'COMMIT', 2);
  log = data(log, -1, -1, -1, 'a', 'v2', 10, false);
  log = data(log, -1, -1, -1, 'c', 'z', 500, false);
  log = cleanLog(log, 1000).log;
  log = cleanLog(log, 2000).log;
  return cleanLog(log, 7000).log; // 2000 + delete.retention.ms
}

const rowOf = (log: PartitionLog) => {
  const actors = new Map([['broker-0', { value: 'online', context: { partitions: { 'state-0': log } } }]]);
  return partitionRowsOf(actors, new Set(['state']))[0]!;
};

describe('a batch kept as a header alone', () => {
  it('is a row of its partition, and the dump prints its header with count: 0 in offset order', () => {
    const row = rowOf(cleanedWithEmptyHeader());
    expect(row.records.map((r) => r.offset)).toEqual([2, 3]);
    expect(row.emptyBatches).toEqual([
      {
        baseOffset: 1,
        lastOffset: 1,
        producerId: 9,
        producerEpoch: 1,
        baseSequence: -1,
        lastSequence: -1,
        transactional: true,
        control: 'COMMIT',
        timestamp: 2,
      },
    ]);
    const lines = dumpPartition(row).split('\n');
    const batchLines = lines.filter((l) => l.startsWith('baseOffset: '));
    expect(batchLines.map((l) => /^baseOffset: (\d+) lastOffset: (\d+) count: (\d+)/.exec(l)?.slice(1).join(' '))).toEqual([
      '1 1 0',
      '2 2 1',
      '3 3 1',
    ]);
    expect(batchLines[0]).toContain('isTransactional: true isControl: true');
    // no record line under the empty header
    expect(lines[lines.indexOf(batchLines[0]!) + 1]).toBe(batchLines[1]);
  });

  it('a log nothing was cleaned from has none', () => {
    expect(rowOf(data(emptyLog(), -1, -1, -1, 'a', 'v1', 0, false)).emptyBatches).toBeUndefined();
  });

  it('the dump reads back: the empty header is a batch without records, no warning', () => {
    const text = dumpPartition(rowOf(cleanedWithEmptyHeader()));
    const r = parseDump(text, 'state-0.txt');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.dump.warnings).toEqual([]);
    const lane = analyzeDump(r.dump).lanes[0]!;
    expect(lane.row.records.map((x) => x.offset)).toEqual([2, 3]);
  });
});
