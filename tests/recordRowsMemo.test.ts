import { describe, expect, it } from 'vitest';
import { appendMarker, appendProducerBatch, createPartitionLog, type PartitionLog } from '../src/sim/log/partitionLog';
import { truncateTo } from '../src/sim/log/replicaLog';
import { batchRows, recordRows } from '../src/sim/trace/logView';

/** Two transactional producers and one plain one, with commits and aborts: every version of the log. */
function versions(): PartitionLog[] {
  let log = createPartitionLog('t', 0);
  const out = [log];
  const seq = new Map<number, number>();
  const send = (producerId: number, transactional: boolean, n: number) => {
    const base = seq.get(producerId) ?? 0;
    seq.set(producerId, base + n);
    const records = Array.from({ length: n }, (_, i) => ({
      key: `k${base + i}`,
      value: `p${producerId}-${base + i}`,
      headers: {},
      timestamp: out.length,
    }));
    log = appendProducerBatch(
      log,
      { producerId, producerEpoch: 0, baseSequence: base, isTransactional: transactional, records },
      out.length,
    ).log;
    out.push(log);
  };
  const mark = (producerId: number, controlType: 'COMMIT' | 'ABORT') => {
    log = appendMarker(log, { producerId, producerEpoch: 0, controlType, coordinatorEpoch: 0 }, out.length).log;
    out.push(log);
  };
  send(1, true, 2);
  send(2, true, 1);
  send(3, false, 3);
  send(1, true, 1);
  mark(1, 'COMMIT');
  send(2, true, 2);
  mark(2, 'ABORT');
  send(1, true, 2);
  send(3, false, 1);
  mark(1, 'ABORT');
  send(2, true, 1);
  return out;
}

describe('recordRows from a memo of an earlier version', () => {
  it('equals reading every batch again, for every version in any order, with outcomes set by later markers', () => {
    const all = versions();
    const expected = all.map((l) => batchRows(l.batches.toArray()));
    // forwards (each extends the last), backwards (each is a prefix of a memo), then jumping around
    const order = [...all.keys(), ...[...all.keys()].reverse(), 3, 9, 1, 11, 5, 0, 7];
    for (const i of order) expect(recordRows(all[i] as PartitionLog)).toEqual(expected[i]);
    // an open transaction's rows stay open in the version that had no marker yet
    expect(recordRows(all[4] as PartitionLog).map((r) => r.txnOutcome)).toEqual(['open', 'open', 'open', null, null, null, 'open']);
    expect(
      recordRows(all[5] as PartitionLog)
        .map((r) => r.txnOutcome)
        .slice(0, 3),
    ).toEqual(['committed', 'committed', 'open']);
  });

  it('a log that shares only its first batches with one read before (a replay from a checkpoint) reads as itself', () => {
    // a long log: 3 producers, transactions of 1-3 batches closed by COMMIT or ABORT, in a fixed pattern
    const grow = (start: PartitionLog, steps: number, salt: number) => {
      let log = start;
      const out: PartitionLog[] = [];
      for (let i = 0; i < steps; i++) {
        const p = (i * 7 + salt) % 3;
        if ((i + salt) % 5 === 4)
          log = appendMarker(
            log,
            { producerId: p, producerEpoch: 0, controlType: (i + salt) % 2 ? 'COMMIT' : 'ABORT', coordinatorEpoch: 0 },
            i,
          ).log;
        else {
          const base = log.producers.get(p)?.batches.at(-1)?.lastSeq ?? -1;
          const records = [{ key: `k${i}`, value: `v${i}-${salt}`, headers: {}, timestamp: i }];
          log = appendProducerBatch(
            log,
            { producerId: p, producerEpoch: 0, baseSequence: base + 1, isTransactional: p !== 2, records },
            i,
          ).log;
        }
        out.push(log);
      }
      return out;
    };
    const a = grow(createPartitionLog('t', 0), 300, 0);
    const fork = a[200] as PartitionLog;
    const b = grow(fork, 100, 1);
    const c = grow(a[130] as PartitionLog, 50, 2);
    for (const l of [a[299], ...b, a[250], ...c, a[299], b[99], c[10]] as PartitionLog[])
      expect(recordRows(l)).toEqual(batchRows(l.batches.toArray()));
  });

  it('a truncated log and what is appended to it after read as themselves', () => {
    const all = versions();
    const last = all[all.length - 1] as PartitionLog;
    recordRows(last);
    const cut = truncateTo(last, 4);
    expect(recordRows(cut)).toEqual(batchRows(cut.batches.toArray()));
    const regrown = appendProducerBatch(
      cut,
      {
        producerId: 9,
        producerEpoch: 0,
        baseSequence: 0,
        isTransactional: false,
        records: [{ key: 'x', value: 'y', headers: {}, timestamp: 1 }],
      },
      1,
    ).log;
    expect(recordRows(regrown)).toEqual(batchRows(regrown.batches.toArray()));
    expect(recordRows(last)).toEqual(batchRows(last.batches.toArray()));
  });
});
