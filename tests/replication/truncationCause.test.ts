/**
 * Truncated records, rule by rule on hand-made facts: the verdict's index keeps a copy whose offset
 * was written again after a truncation as removed (offsets are reused only after a truncation), and
 * names the cause 'unclean-election' when the controller elected an out-of-sync replica after the
 * copy was appended ('truncated' for a clean leader change, e.g. acks=1); the log view's truncation
 * journal turns `truncated` facts into rows with their step, records and cause.
 */
import { describe, expect, it } from 'vitest';
import { computeVerdict, type LossFinding } from '../../src/sim/checks/verdict';
import { findingText } from '../../src/sim/checks/verdictText';
import type { RecordBatch } from '../../src/sim/log/recordBatch';
import type { Fact } from '../../src/sim/trace/facts';
import { TruncationJournal, truncationCause } from '../../src/sim/trace/truncationJournal';
import { append, input, partition, sendResult, step } from '../verdict/handmade';

const leaderChange = (leader: string | null, leaderEpoch: number, election: 'clean' | 'unclean' | null): Fact => ({
  kind: 'leaderChange',
  topic: 'orders',
  partition: 0,
  leader,
  leaderEpoch,
  isr: leader ? [leader] : ['broker-0'],
  election,
});

const batch = (offset: number, value: string, epoch: number): RecordBatch => ({
  baseOffset: offset,
  lastOffset: offset,
  producerId: 1000,
  producerEpoch: 0,
  baseSequence: offset,
  lastSequence: offset,
  isTransactional: false,
  isControl: false,
  controlType: null,
  records: [{ offset, key: `k${offset}`, value, headers: { event_id: `e${offset}` }, timestamp: offset }],
  appendTime: offset,
  partitionLeaderEpoch: epoch,
});

const truncated = (
  from: number,
  to: number,
  leaderEpoch: number,
  hw: number,
  batches: RecordBatch[],
): Extract<Fact, { kind: 'truncated' }> => ({
  kind: 'truncated',
  broker: 'broker-0',
  topic: 'orders',
  partition: 0,
  fromOffset: from,
  toOffset: to,
  leaderEpoch,
  eventIds: batches.flatMap((b) => b.records.map((r) => r.headers.event_id ?? null)),
  highWatermark: hw,
  batches,
});

const writers = [{ topic: 'orders', writer: 'p', kind: 'producer' as const }];
const b = { offset: 1, eventId: 'e-b', origin: { client: 'p', ref: 1 } };
const d = { offset: 1, eventId: 'e-d', origin: { client: 'p', ref: 2 } };
const a = { offset: 0, eventId: 'e-a', origin: { client: 'p', ref: 0 } };

describe('the verdict: acknowledged records truncated after an unclean election', () => {
  // b acknowledged at offset 1; an out-of-sync replica without it is elected; d is written at offset 1
  const steps = (election: 'clean' | 'unclean') => [
    step(0, 1, append('orders', a), sendResult('p', 0, 'orders', 'e-a', 0)),
    step(1, 2, append('orders', b), sendResult('p', 1, 'orders', 'e-b', 1)),
    step(2, 3, leaderChange('broker-1', 1, election)),
    step(3, 4, append('orders', d), sendResult('p', 2, 'orders', 'e-d', 1)),
  ];
  const log = [partition('orders', [a, d])];

  it('a copy whose offset holds another record now is removed (truncated), not present', () => {
    const v = computeVerdict(input({ steps: steps('clean'), partitions: log, writers }));
    const loss = v.layers.find((l) => l.layer === 'loss') as LossFinding;
    expect(loss.losses).toMatchObject([{ eventId: 'e-b', kind: 'acked-then-lost', cause: 'truncated', offset: 1 }]);
    expect(loss.sentence).toContain('then lost from the log at offset 1 when the leader changed: the new leader never had it');
  });

  it("after an unclean election the cause is 'unclean-election', in English and Korean", () => {
    const v = computeVerdict(input({ steps: steps('unclean'), partitions: log, writers }));
    const loss = v.layers.find((l) => l.layer === 'loss') as LossFinding;
    expect(loss.losses).toMatchObject([{ eventId: 'e-b', kind: 'acked-then-lost', cause: 'unclean-election', actor: 'p', offset: 1 }]);
    expect(loss.sentence).toBe(
      'Lost: e-b (orders) acknowledged to p, then lost from the log at offset 1 by an unclean leader election (an out-of-sync replica without it became leader).',
    );
    expect(findingText(loss, 'ko')).toContain(
      'p에게 확인 응답이 갔지만 언클린 리더 선출로 offset 1부터 로그에서 사라졌습니다(그 레코드가 없는 ISR 밖 복제본이 리더가 됐습니다)',
    );
  });

  it('an unclean election before the copy was appended is not its cause', () => {
    const s = [
      step(0, 1, append('orders', a), sendResult('p', 0, 'orders', 'e-a', 0)),
      step(1, 2, leaderChange('broker-1', 1, 'unclean')),
      step(2, 3, append('orders', b), sendResult('p', 1, 'orders', 'e-b', 1)),
      step(3, 4, leaderChange('broker-0', 2, 'clean')),
    ];
    const v = computeVerdict(input({ steps: s, partitions: [partition('orders', [a])], writers }));
    expect((v.layers.find((l) => l.layer === 'loss') as LossFinding).losses).toMatchObject([{ eventId: 'e-b', cause: 'truncated' }]);
  });
});

describe('the log view: truncations from the facts', () => {
  it('truncationCause: unclean when an unclean election chose a leader after the epoch the records were written in', () => {
    const cut = truncated(1, 3, 2, 3, [batch(1, 'b', 0), batch(2, 'c', 0)]);
    expect(truncationCause(cut, [{ leaderEpoch: 2, unclean: true }])).toBe('unclean-election');
    expect(truncationCause(cut, [{ leaderEpoch: 2, unclean: false }])).toBe('leader-change');
    // an unclean election older than the records did not choose a leader without them
    const later = truncated(1, 2, 3, 1, [batch(1, 'b', 1)]);
    expect(
      truncationCause(later, [
        { leaderEpoch: 1, unclean: true },
        { leaderEpoch: 3, unclean: false },
      ]),
    ).toBe('leader-change');
  });

  it('the journal gives each truncation as of a step, with its step, time, records cut (from fromOffset on) and cause', () => {
    const j = new TruncationJournal();
    j.fold(5, 100, [leaderChange(null, 1, null)]);
    j.fold(9, 200, [leaderChange('broker-1', 2, 'unclean')]);
    // the first cut batch starts below fromOffset: only the records from fromOffset on were cut
    const first: RecordBatch = { ...batch(1, 'b', 0), lastOffset: 2, records: [...batch(1, 'b', 0).records, ...batch(2, 'c', 0).records] };
    j.fold(14, 300, [truncated(2, 3, 2, 3, [first])]);
    expect(j.before(14).size).toBe(0);
    const rows = j.before(15).get('orders-0');
    expect(rows?.map(({ records, ...t }) => ({ ...t, offsets: records.map((r) => [r.offset, r.value]) }))).toEqual([
      {
        broker: 'broker-0',
        fromOffset: 2,
        toOffset: 3,
        leaderEpoch: 2,
        at: 300,
        step: 14,
        highWatermark: 3,
        cause: 'unclean-election',
        offsets: [[2, 'c']],
      },
    ]);
  });
});
