/**
 * The leader's answer to a consumer's OffsetsForLeaderEpoch (KIP-320): Partition.lastOffsetForLeaderEpoch
 * checks the currentLeaderEpoch (getLocalLog: FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH), then
 * leadership (NOT_LEADER_OR_FOLLOWER), then answers UnifiedLog.endOffsetForEpoch from the leader
 * epoch cache. The old model had no such RPC: a broker ignored it.
 */
import { describe, expect, it } from 'vitest';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { epochEndOffset } from '../../src/sim/broker/offsetsForLeaderEpoch';
import type { PartitionLog } from '../../src/sim/log/partitionLog';
import { runScenario } from '../../src/sim/run';

// broker-1 leads t-0 in epoch 2; its cache: epoch 0 from offset 0, epoch 2 from offset 1; LEO 4
const log = {
  topic: 't',
  partition: 0,
  logEndOffset: 4,
  epochs: [
    { epoch: 0, startOffset: 0 },
    { epoch: 2, startOffset: 1 },
  ],
};
const ctx = (leading: boolean, l: Partial<PartitionLog> = log) =>
  ({
    partitions: { 't-0': l },
    replication: { registrations: { 't-0': { leaderEpoch: 2 } }, leading: leading ? { 't-0': {} } : {} },
  }) as unknown as BrokerContext;
const ask = (currentLeaderEpoch: number, leaderEpoch: number, partition = 0) => ({
  topic: 't',
  partition,
  currentLeaderEpoch,
  leaderEpoch,
});

describe('OffsetsForLeaderEpoch on the broker', () => {
  it.each([
    ['an older epoch ends where the next starts', 0, { error: 'NONE', leaderEpoch: 0, endOffset: 1 }],
    ['the latest epoch ends at the log end offset', 2, { error: 'NONE', leaderEpoch: 2, endOffset: 4 }],
    [
      'an epoch the cache skipped: the largest epoch below it, ending where the next starts',
      1,
      { error: 'NONE', leaderEpoch: 0, endOffset: 1 },
    ],
    ['an epoch above every epoch here: none (−1, −1)', 5, { error: 'NONE', leaderEpoch: -1, endOffset: -1 }],
  ] as const)('%s', (_what, leaderEpoch, expected) => {
    expect(epochEndOffset(ctx(true), ask(2, leaderEpoch))).toEqual({ topic: 't', partition: 0, ...expected });
  });

  it('a stale or future currentLeaderEpoch is refused first, then a broker that does not lead', () => {
    expect(epochEndOffset(ctx(true), ask(1, 0)).error).toBe('FENCED_LEADER_EPOCH');
    expect(epochEndOffset(ctx(true), ask(3, 0)).error).toBe('UNKNOWN_LEADER_EPOCH');
    expect(epochEndOffset(ctx(false), ask(2, 0)).error).toBe('NOT_LEADER_OR_FOLLOWER');
    expect(epochEndOffset(ctx(true), ask(2, 0, 1)).error).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('a log without an epoch cache (one replica) ends the epoch asked for at its log end offset', () => {
    const single = { topic: 't', partition: 0, logEndOffset: 7 };
    expect(epochEndOffset(ctx(true, single), ask(0, 0))).toMatchObject({ error: 'NONE', leaderEpoch: 0, endOffset: 7 });
  });

  it('a broker answers the RPC in a run (after an unclean election: epoch 0 ends at offset 1 on the new leader)', () => {
    const trace = runScenario({
      version: 1,
      seed: 1,
      cluster: { brokers: 3 },
      topics: [{ name: 'orders', replicationFactor: 2, config: { 'unclean.leader.election.enable': true } }],
      clients: [
        {
          id: 'p',
          type: 'producer',
          config: { acks: 'all' },
          script: [
            { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
            { op: 'send', at: 12000, topic: 'orders', key: 'k', value: 'b', headers: { event_id: 'e2' } },
            { op: 'send', at: 25000, topic: 'orders', key: 'k', value: 'c', headers: { event_id: 'e3' } },
          ],
        },
        { id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['orders'] },
      ],
      faults: [
        { type: 'crash', target: 'broker-1', at: 1000, durationMs: 30000 },
        { type: 'crash', target: 'broker-0', at: 14000, durationMs: 40000 },
      ],
    });
    const answers = [...trace.envelopes].filter((e) => e?.rpc === 'OffsetsForLeaderEpochResponse');
    expect(answers.map((e) => e?.payload)).toEqual([
      { correlationId: expect.any(Number), partitions: [{ topic: 'orders', partition: 0, error: 'NONE', leaderEpoch: 0, endOffset: 1 }] },
    ]);
  });
});
