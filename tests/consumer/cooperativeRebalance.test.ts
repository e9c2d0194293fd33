/**
 * Kafka Streams' main consumer rebalances COOPERATIVELY (StreamsPartitionAssignor.supportedProtocols
 * includes COOPERATIVE, so ConsumerCoordinator.protocol is COOPERATIVE): onJoinPrepare revokes nothing
 * unless the generation is gone; the JoinGroup's subscription carries the owned partitions; the member
 * reads them on through the rebalance; onJoinComplete revokes only the owned partitions the new
 * assignment lacks — before taking it — and then requests a rejoin: the follow-up rebalance.
 * A plain consumer (default assignors [RangeAssignor, CooperativeStickyAssignor]) stays EAGER.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, fetchingState, membershipState } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { plainBatch } from '../fixtures/plainBatch';
import { answer, joinedAsLeader, sent, synced } from '../machines/consumerDriver';
import { inputOf } from '../machines/harness';

const callsOf = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' ? [{ to: e.to, name: e.name, args: e.args }] : []));

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 2 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'enable.auto.commit': false }, topics: ['t'] }],
};
const T0 = { topic: 't', partition: 0 };
const T1 = { topic: 't', partition: 1 };

/** STABLE with t-0 and t-1 at known positions, its app's first poll() (the one that joined) waiting; `streams`: the main consumer's listener. */
function stable(streams: boolean) {
  const { m, sync } = joinedAsLeader({
    ...(inputOf(scenario, 'c.consumer') as object),
    revocationListener: streams,
    rebalanceListener: streams,
  });
  synced(m, sync, [T0, T1]);
  // the listener seeks (a plain consumer's positions would come from an OffsetFetch)
  if (streams) m.send({ type: 'partitionsAssignedDone', from: 'c.app', args: { offsets: { 't-0': 5, 't-1': 7 } } }, 21);
  expect(m.context<ConsumerContext>().pollWaiting).toBe('c.app');
  return m;
}

/** A rebalance asked for by the coordinator, then the JoinGroup answered: the SyncGroup to answer. */
function rejoin(m: ReturnType<typeof stable>) {
  const fx = m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000);
  const join = sent(fx, 'JoinGroup');
  const joined = m.send(
    answer('JoinGroupResponse', join?.payload.correlationId as number, { error: 'NONE', generationId: 2, memberId: 'c-0', leader: 'c-0' }),
    3010,
  );
  return { fx, join, sync: sent(joined, 'SyncGroup') };
}

/** A rebalance asked for by the coordinator: the JoinGroup, not yet answered. */
function rejoin0(m: ReturnType<typeof stable>) {
  const fx = m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000);
  return { fx, join: sent(fx, 'JoinGroup') };
}

const syncWith = (m: ReturnType<typeof stable>, sync: ReturnType<typeof sent>, assignment: readonly object[]) =>
  m.send(answer('SyncGroupResponse', sync?.payload.correlationId as number, { error: 'NONE', assignment }), 3020);

describe('COOPERATIVE JoinGroup (ConsumerCoordinator.onJoinPrepare, metadata)', () => {
  it('the Streams main consumer keeps its partitions: JoinGroup carries them, and it keeps fetching through the rebalance', () => {
    const m = stable(true);
    const { fx, join } = rejoin(m);
    expect(join?.payload).toMatchObject({ ownedPartitions: [T0, T1] });
    expect(callsOf(fx).map((c) => c.name)).toEqual(['onRebalanceStart']);
    const ctx = m.context<ConsumerContext>();
    expect(ctx.assignment).toEqual([T0, T1]);
    expect(ctx.positions).toMatchObject({ 't-0': 5, 't-1': 7 });
    expect(membershipState(m.state())).toBe('COMPLETING_REBALANCE');
    expect(fetchingState(m.state())).not.toBe('STOPPED');
  });

  it('a plain consumer stays EAGER: no owned partitions in its JoinGroup, every partition given up', () => {
    const m = stable(false);
    const { join } = rejoin(m);
    expect(join?.payload).not.toHaveProperty('ownedPartitions');
    expect(m.context<ConsumerContext>().assignment).toEqual([]);
    expect(fetchingState(m.state())).toBe('STOPPED');
  });
});

describe('COOPERATIVE onJoinComplete: only the partitions that moved are revoked, then a follow-up rebalance', () => {
  it('an assignment without t-1: onPartitionsRevoked([t-1]) before the assignment is taken; then a rejoin is requested', () => {
    const m = stable(true);
    const { sync } = rejoin(m);
    const fx = syncWith(m, sync, [T0]);
    expect(membershipState(m.state())).toBe('REVOKING');
    expect(callsOf(fx)).toEqual([
      {
        to: 'c.app',
        name: 'onPartitionsRevoked',
        args: { partitions: [T1], lost: false, groupMetadata: { groupId: 'g', generationId: 2, memberId: 'c-0' } },
      },
    ]);
    // the listener still sees t-1 as owned while it commits
    expect(m.context<ConsumerContext>().assignment).toEqual([T0, T1]);
    const done = m.send({ type: 'partitionsRevokedDone', from: 'c.app', args: {} }, 3100);
    const ctx = m.context<ConsumerContext>();
    expect(ctx.assignment).toEqual([T0]);
    // t-0 keeps its position; t-1's is gone
    expect(ctx.positions).toEqual({ 't-0': 5 });
    // requestRejoin("need to revoke partitions and re-join"), inside a poll() with nothing to return:
    // its loop's next pass sends the follow-up JoinGroup (the model: at once)
    expect(callsOf(done).map((c) => c.name)).toEqual(['onPartitionsAssigned', 'onRebalanceStart']);
    expect(callsOf(done)[0]).toEqual({ to: 'c.app', name: 'onPartitionsAssigned', args: { partitions: [T0] } });
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    expect(sent(done, 'JoinGroup')?.payload).toMatchObject({ ownedPartitions: [T0] });
  });

  it('the listener runs inside poll(): a Fetch answered meanwhile is not returned and nothing is fetched until it returns — then only the partitions kept, and the next poll() rejoins', () => {
    const m = stable(true);
    // the Fetch the waiting poll() sent (t-0 from 5, t-1 from 7)
    const { sync } = rejoin(m);
    syncWith(m, sync, [T0]);
    expect(membershipState(m.state())).toBe('REVOKING');
    const inFlight = m.context<ConsumerContext>().fetching;
    const correlationId = inFlight['t-0'] as number;
    expect(inFlight['t-1']).toBe(correlationId);
    const during = m.send(
      answer(
        'FetchResponse',
        correlationId,
        {
          partitions: [
            {
              ...T0,
              error: 'NONE',
              highWatermark: 6,
              lastStableOffset: 6,
              logStartOffset: 0,
              batches: [plainBatch([{ offset: 5 }])],
              abortedTransactions: [],
            },
            {
              ...T1,
              error: 'NONE',
              highWatermark: 8,
              lastStableOffset: 8,
              logStartOffset: 0,
              batches: [plainBatch([{ offset: 7 }])],
              abortedTransactions: [],
            },
          ],
        },
        'broker-0',
      ),
      3050,
    );
    // before: poll() returned t-1's record (of a task being revoked) and the next Fetch went out
    expect(callsOf(during)).toEqual([]);
    expect(sent(during, 'Fetch')).toBeUndefined();
    expect(membershipState(m.state())).toBe('REVOKING');
    const done = m.send({ type: 'partitionsRevokedDone', from: 'c.app', args: {} }, 3100);
    // the assignment taken (t-1's buffered record dropped), poll() returns t-0's record only
    const replies = callsOf(done).filter((c) => c.name === 'reply');
    expect(replies).toHaveLength(1);
    expect((replies[0]?.args as { records: { partition: number; offset: number }[] }).records.map((r) => [r.partition, r.offset])).toEqual([
      [0, 5],
    ]);
    expect(membershipState(m.state())).toBe('STABLE');
    expect(m.context<ConsumerContext>().rejoinNeeded).toBe(true);
    // …and the next poll() sends the follow-up JoinGroup
    const next = sent(m.send({ type: 'poll', from: 'c.app', args: {} }, 3200), 'JoinGroup');
    expect(next?.payload).toMatchObject({ ownedPartitions: [T0] });
  });

  it('an assignment that keeps everything: nothing revoked, no follow-up rebalance', () => {
    const m = stable(true);
    const { sync } = rejoin(m);
    const fx = syncWith(m, sync, [T0, T1]);
    expect(membershipState(m.state())).toBe('STABLE');
    expect(callsOf(fx).map((c) => c.name)).toEqual(['onPartitionsAssigned']);
    expect(m.context<ConsumerContext>().rejoinNeeded).toBe(false);
    expect(m.context<ConsumerContext>().positions).toMatchObject({ 't-0': 5, 't-1': 7 });
  });

  it('a JoinGroup refused UNKNOWN_MEMBER_ID to a member that kept its partitions: they are given away as lost before the next JoinGroup (resetStateOnResponseError → needsJoinPrepare → onJoinPrepare with NO_GENERATION)', () => {
    const m = stable(true);
    const { join } = rejoin0(m);
    // COOPERATIVE: the member kept t-0 and t-1 through the rebalance it started
    expect(m.context<ConsumerContext>().assignment).toEqual([T0, T1]);
    const fx = m.send(answer('JoinGroupResponse', join?.payload.correlationId as number, { error: 'UNKNOWN_MEMBER_ID' }), 3010);
    // no JoinGroup yet: the listener runs first, with lost = true
    expect(sent(fx, 'JoinGroup')).toBeUndefined();
    expect(membershipState(m.state())).toBe('REVOKING');
    expect(callsOf(fx)).toContainEqual(
      expect.objectContaining({ name: 'onPartitionsRevoked', args: expect.objectContaining({ partitions: [T0, T1], lost: true }) }),
    );
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: '' });
    const done = m.send({ type: 'partitionsRevokedDone', from: 'c.app', args: {} }, 3100);
    // the JoinGroup of a new member: no member id, nothing owned
    expect(sent(done, 'JoinGroup')?.payload).toMatchObject({ memberId: '', ownedPartitions: [] });
    expect(m.context<ConsumerContext>().assignment).toEqual([]);
  });

  it.each(['UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION'])(
    'a SyncGroup refused %s to a member that kept its partitions: they are given away as lost before it joins again',
    (error) => {
      const m = stable(true);
      const { sync } = rejoin(m);
      const fx = m.send(answer('SyncGroupResponse', sync?.payload.correlationId as number, { error, assignment: [] }), 3020);
      expect(sent(fx, 'JoinGroup')).toBeUndefined();
      expect(membershipState(m.state())).toBe('REVOKING');
      expect(callsOf(fx)).toContainEqual(
        expect.objectContaining({ name: 'onPartitionsRevoked', args: expect.objectContaining({ partitions: [T0, T1], lost: true }) }),
      );
      // ILLEGAL_GENERATION keeps the member id ("might still be valid"); UNKNOWN_MEMBER_ID forgets it
      expect(m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: error === 'UNKNOWN_MEMBER_ID' ? '' : 'c-0' });
      const done = m.send({ type: 'partitionsRevokedDone', from: 'c.app', args: {} }, 3100);
      expect(sent(done, 'JoinGroup')?.payload).toMatchObject({ ownedPartitions: [] });
      expect(m.context<ConsumerContext>().assignment).toEqual([]);
    },
  );

  it('a member without partitions refused UNKNOWN_MEMBER_ID joins again at once, as a new member', () => {
    const m = stable(false);
    const { join } = rejoin0(m);
    const fx = m.send(answer('JoinGroupResponse', join?.payload.correlationId as number, { error: 'UNKNOWN_MEMBER_ID' }), 3010);
    expect(callsOf(fx).filter((c) => c.name === 'onPartitionsRevoked')).toEqual([]);
    expect(sent(fx, 'JoinGroup')?.payload).toMatchObject({ memberId: '' });
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: '' });
  });

  it('the generation gone (UNKNOWN_MEMBER_ID): onPartitionsLost at onJoinPrepare, as before, and JoinGroup owns nothing', () => {
    const m = stable(true);
    const fx = m.send(answer('HeartbeatResponse', 99, { error: 'UNKNOWN_MEMBER_ID' }), 3000);
    expect(membershipState(m.state())).toBe('REVOKING');
    expect(callsOf(fx)[0]).toMatchObject({ name: 'onPartitionsRevoked', args: { partitions: [T0, T1], lost: true } });
    const done = m.send({ type: 'partitionsRevokedDone', from: 'c.app', args: {} }, 3100);
    expect(sent(done, 'JoinGroup')?.payload).toMatchObject({ ownedPartitions: [] });
    expect(m.context<ConsumerContext>().assignment).toEqual([]);
  });
});
