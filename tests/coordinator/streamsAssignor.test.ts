/**
 * Kafka Streams' COOPERATIVE assignment (StreamsPartitionAssignor.assign → populateActiveTaskAndPartitionsLists):
 * sticky and balanced, and a task whose partition another member still owns is held back ("Removing
 * task … until it is safely revoked in followup rebalance") — given once its owner has revoked it.
 * The coordinator uses it when every member sent its owned partitions (classicGroup.ts assign); a
 * member whose owned partitions changed starts a rebalance with its next JoinGroup
 * (ClassicGroupMember.matches compares the subscription, which carries them).
 */
import { describe, expect, it } from 'vitest';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import { assign, type GroupMember } from '../../src/sim/coordinator/classicGroup';
import { stickyTarget, streamsAssign, withheldTasks } from '../../src/sim/coordinator/streamsAssignor';

const meta = { topics: { t: { partitions: 2 }, r: { partitions: 3 } } } as unknown as ClusterMetadata;
const tp = (topic: string, partition: number) => ({ topic, partition });

describe('the sticky, balanced target', () => {
  it('a member keeps what it owns up to its share; the rest goes to the one with the fewest', () => {
    const target = stickyTarget(
      [
        { memberId: 'a-0', topics: ['t'], ownedPartitions: [tp('t', 0), tp('t', 1)] },
        { memberId: 'b-1', topics: ['t'], ownedPartitions: [] },
      ],
      meta,
    );
    expect(target).toEqual({ 'a-0': [tp('t', 0)], 'b-1': [tp('t', 1)] });
  });

  it('an owner that is no longer in the group holds nothing back: its tasks are spread at once', () => {
    expect(streamsAssign([{ memberId: 'b-1', topics: ['r'], ownedPartitions: [tp('r', 1)] }], meta)).toEqual({
      'b-1': [tp('r', 0), tp('r', 1), tp('r', 2)],
    });
  });

  it('nobody owns anything (the first rebalance): balanced, in partition order', () => {
    const members = ['a-0', 'b-1'].map((memberId) => ({ memberId, topics: ['r'], ownedPartitions: [] }));
    expect(streamsAssign(members, meta)).toEqual({ 'a-0': [tp('r', 0), tp('r', 2)], 'b-1': [tp('r', 1)] });
  });
});

describe('two phases: a task still owned by another member is withheld', () => {
  const members = [
    { memberId: 'a-0', topics: ['t'], ownedPartitions: [tp('t', 0), tp('t', 1)] },
    { memberId: 'b-1', topics: ['t'], ownedPartitions: [] },
  ];

  it('first rebalance: t-1 is removed from b-1 (a-0 owns it) and from a-0 (the target moved it)', () => {
    expect(streamsAssign(members, meta)).toEqual({ 'a-0': [tp('t', 0)], 'b-1': [] });
    expect(withheldTasks(members, meta)).toEqual([tp('t', 1)]);
  });

  it('follow-up rebalance, a-0 having revoked t-1: b-1 gets it', () => {
    const after = [
      { memberId: 'a-0', topics: ['t'], ownedPartitions: [tp('t', 0)] },
      { memberId: 'b-1', topics: ['t'], ownedPartitions: [] },
    ];
    expect(streamsAssign(after, meta)).toEqual({ 'a-0': [tp('t', 0)], 'b-1': [tp('t', 1)] });
    expect(withheldTasks(after, meta)).toEqual([]);
  });

  it('the coordinator takes this assignment only when every member sent owned partitions; else the range one', () => {
    const member = (memberId: string, owned?: ReturnType<typeof tp>[]) =>
      ({ memberId, topics: ['t'], ...(owned ? { ownedPartitions: owned } : {}) }) as unknown as GroupMember;
    expect(assign([member('a-0', [tp('t', 0), tp('t', 1)]), member('b-1', [])], meta)).toEqual({ 'a-0': [tp('t', 0)], 'b-1': [] });
    // EAGER members (no owned partitions sent): range
    expect(assign([member('a-0'), member('b-1')], meta)).toEqual({ 'a-0': [tp('t', 0)], 'b-1': [tp('t', 1)] });
  });
});
