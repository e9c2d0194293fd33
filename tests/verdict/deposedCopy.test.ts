/**
 * The verdict's copies (src/sim/checks/indexJournal.ts) after a leader change: a deposed leader that
 * has not heard of the election appends in its old epoch, in its own log only, and cuts it when it
 * follows (Partition.appendRecordsToLeader stamps its own epoch; AbstractFetcherThread truncates on
 * DivergingEpoch). Its copy never takes the offset from the new leader's copy, whichever was folded
 * first; a newer epoch's copy still takes it from an older one's.
 */
import { describe, expect, it } from 'vitest';
import { IndexJournal } from '../../src/sim/checks/indexJournal';
import type { Fact } from '../../src/sim/trace/facts';
import type { PartitionRow, RecordRow } from '../../src/sim/trace/logView';

const append = (eventId: string, leaderEpoch: number): Fact => ({
  kind: 'append',
  topic: 't',
  partition: 0,
  baseOffset: 0,
  lastOffset: 0,
  producerId: 1,
  producerEpoch: 0,
  baseSequence: -1,
  lastSequence: -1,
  transactional: false,
  control: null,
  eventIds: [eventId],
  origins: [null],
  leaderEpoch,
});
/** The leader's log now: `eventId` at offset 0. */
const rows = (eventId: string): PartitionRow[] => [
  {
    topic: 't',
    partition: 0,
    leader: 'broker-1',
    internal: false,
    logStartOffset: 0,
    highWatermark: 1,
    lastStableOffset: 1,
    logEndOffset: 1,
    records: [
      {
        offset: 0,
        control: null,
        key: null,
        value: null,
        headers: { event_id: eventId },
        producerId: 1,
        producerEpoch: 0,
        sequence: -1,
        transactional: false,
        txnOutcome: null,
        baseOffset: 0,
        timestamp: 0,
        origin: null,
      } satisfies RecordRow,
    ],
  },
];
const states = (facts: Fact[], leaderLog: string) => {
  const j = new IndexJournal(new Set());
  for (const [i, f] of facts.entries()) j.fold(i + 1, 1000, [f]);
  return j.indexAt(Number.POSITIVE_INFINITY, rows(leaderLog)).allCopies.map((c) => `${c.key}:${c.state}`);
};

describe("a deposed leader's copy never takes the new leader's offset", () => {
  it("new leader's epoch-1 copy first, the deposed epoch-0 copy after: the epoch-1 copy stays, the deposed one is removed", () => {
    expect(states([append('new', 1), append('old', 0)], 'new')).toEqual(['new:plain', 'old:removed']);
  });

  it('epoch 0 first, epoch 1 after (the old leader cut it, the new one wrote the offset): the newer copy takes it', () => {
    expect(states([append('old', 0), append('new', 1)], 'new')).toEqual(['old:removed', 'new:plain']);
  });
});
