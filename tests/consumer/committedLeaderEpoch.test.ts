/**
 * KIP-320: committed offsets carry the leader epoch of the last record consumed. The consumer commits
 * its position's offsetEpoch as committedLeaderEpoch (SubscriptionState.allConsumed → OffsetAndMetadata
 * → OffsetCommit), the group coordinator stores it with the offset (OffsetCommitValue.leaderEpoch, also
 * for TxnOffsetCommit) and OffsetFetch returns it; the consumer seeks to the committed offset with it
 * (ConsumerUtils.refreshCommittedOffsets → SubscriptionState.seekUnvalidated), so the position is
 * validated with OffsetsForLeaderEpoch before anything is fetched. On the old model no epoch went
 * anywhere and a position from a committed offset was fetched at once.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { maybeAutoCommit, onOffsetFetchResponse } from '../../src/sim/consumer/commits';
import type { ConsumerContext, ConsumerInput } from '../../src/sim/consumer/consumerContext';
import { initialContext } from '../../src/sim/consumer/consumerContext';
import type { EventOf } from '../../src/sim/consumer/events';
import { onOffsetsForLeaderEpochResponse } from '../../src/sim/consumer/positionValidation';
import { emptyGroup } from '../../src/sim/coordinator/classicGroup';
import {
  type GroupCoordinatorContext,
  groupCoordinatorMachine,
  onOffsetCommit,
  onOffsetFetch,
} from '../../src/sim/coordinator/groupCoordinator.machine';
import { addPendingTxnOffsets, completePendingTxnOffsets } from '../../src/sim/coordinator/groupOffsets';
import { replayOffsets } from '../../src/sim/coordinator/hostedGroupCoordinator.machine';
import { narrate } from '../../src/sim/narration';
import { runScenario } from '../../src/sim/run';
import { drive, inputOf } from '../machines/harness';
import { response, run, sent, tp0 } from './fixture';

/** A member of generation 2 reading `t` (one partition, two replicas: leader epochs), polling. */
function member(overrides: Partial<ConsumerContext> = {}): ConsumerContext {
  const scenario = {
    version: 1,
    seed: 1,
    cluster: { brokers: 3 },
    topics: [{ name: 't', partitions: 1, replicationFactor: 2 }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g' }, topics: ['t'] }],
  };
  const ctx = initialContext(inputOf(scenario, 'c.consumer') as ConsumerInput);
  return {
    ...ctx,
    memberId: 'c-0',
    generationId: 2,
    assignment: [tp0],
    pollWaiting: 'c.app',
    nextAutoCommitAt: 0,
    offsetsRequest: 4,
    ...overrides,
  };
}

const fetched = (offsets: Record<string, unknown>[]) =>
  response('OffsetFetchResponse', { correlationId: 4, error: 'NONE', offsets }, 10) as unknown as EventOf<'OffsetFetchResponse'>;

function coordinator(): GroupCoordinatorContext {
  const scenario = { version: 1, seed: 1, topics: [{ name: 't', partitions: 1 }], clients: [] };
  const m = drive(groupCoordinatorMachine, inputOf(scenario, 'group-coordinator'));
  m.send({ type: 'boot' }, 0);
  return { ...m.context<GroupCoordinatorContext>(), groups: { g: emptyGroup('g') } };
}

const rpc = (type: string, payload: Record<string, unknown>) =>
  ({ type, from: 'c.consumer', envelopeId: 1, inReplyTo: null, now: 5, payload }) as never;

describe('the consumer commits its position with the leader epoch of the last record consumed', () => {
  it('OffsetCommit carries committedLeaderEpoch = the position’s offsetEpoch; none once the position moved without one', () => {
    const validation = { offsetEpochs: { 't-0': { offset: 3, epoch: 1 } }, leaderEpochs: { 't-0': 1 }, awaiting: {}, fetched: {} };
    const read = run(member({ positions: { 't-0': 3 }, validation }), (d, out) => maybeAutoCommit(d, 0, out));
    expect(sent(read.effects)).toMatchObject([{ rpc: 'OffsetCommit', offsets: [{ ...tp0, offset: 3, committedLeaderEpoch: 1 }] }]);
    // a seek moved it: the offsetEpoch belonged to offset 3
    const sought = run(member({ positions: { 't-0': 7 }, validation }), (d, out) => maybeAutoCommit(d, 0, out));
    expect(sent(sought.effects)[0]?.offsets).toEqual([{ ...tp0, offset: 7 }]);
  });
});

describe('the group coordinator stores the epoch with the offset and OffsetFetch returns it', () => {
  it('OffsetCommit → OffsetFetch: the committedLeaderEpoch comes back; a later commit without one clears it', () => {
    const commit = (ctx: GroupCoordinatorContext, offset: Record<string, unknown>) =>
      onOffsetCommit(
        ctx,
        rpc('OffsetCommit', { correlationId: 1, groupId: 'g', generationId: -1, memberId: '', offsets: [offset] }),
        new Out(),
      );
    const fetch = (ctx: GroupCoordinatorContext) => {
      const out = new Out();
      onOffsetFetch(ctx, rpc('OffsetFetch', { correlationId: 2, groupId: 'g', partitions: [tp0], requireStable: true }), out);
      const reply = out.effects.find((e) => e.type === 'send');
      return reply?.type === 'send' ? (reply.payload.offsets as unknown[]) : [];
    };
    const withEpoch = commit(coordinator(), { ...tp0, offset: 3, committedLeaderEpoch: 1 });
    expect(fetch(withEpoch)).toEqual([{ ...tp0, offset: 3, committedLeaderEpoch: 1, error: 'NONE' }]);
    expect(fetch(commit(withEpoch, { ...tp0, offset: 5 }))).toEqual([{ ...tp0, offset: 5, error: 'NONE' }]);
  });

  it('a TxnOffsetCommit’s epoch waits with its offset and is committed by the COMMIT marker', () => {
    const pending = addPendingTxnOffsets(emptyGroup('g'), 1001, { 't-0': 9 }, { 't-0': 2 });
    const done = completePendingTxnOffsets(pending, 1001, 'COMMIT');
    expect(done?.group).toMatchObject({ committed: { 't-0': 9 }, committedEpochs: { 't-0': 2 } });
  });

  it('the epoch is in the offset record, so a coordinator that loads __consumer_offsets has it again', () => {
    const groups = replayOffsets([
      { producerId: -1, transactional: false, control: null, records: [{ key: 'g/t-0', value: '3 leaderEpoch=1' }] },
    ]);
    expect(groups.g).toMatchObject({ committed: { 't-0': 3 }, committedEpochs: { 't-0': 1 } });
  });
});

describe('a position from a committed offset with its epoch is validated at once (seekUnvalidated)', () => {
  it('AWAIT_VALIDATION: OffsetsForLeaderEpoch to the leader, no Fetch, nothing committed meanwhile', () => {
    const { d, effects } = run(member(), (d, out) =>
      onOffsetFetchResponse(d, fetched([{ ...tp0, offset: 6, committedLeaderEpoch: 0, error: 'NONE' }]), out),
    );
    expect(d.positions).toEqual({ 't-0': 6 });
    expect(sent(effects)).toMatchObject([
      { rpc: 'OffsetsForLeaderEpoch', partitions: [{ ...tp0, currentLeaderEpoch: 0, leaderEpoch: 0 }] },
    ]);
    expect(sent(run(d, (d2, out) => maybeAutoCommit(d2, 100, out)).effects)).toEqual([]);
  });

  it('a committed offset past the leader’s end of that epoch (an unclean election cut it) goes back to the end offset before any fetch', () => {
    const v = run(member(), (d, out) =>
      onOffsetFetchResponse(d, fetched([{ ...tp0, offset: 6, committedLeaderEpoch: 0, error: 'NONE' }]), out),
    );
    const correlationId = v.d.validation.awaiting['t-0']?.correlationId as number;
    const answer = response(
      'OffsetsForLeaderEpochResponse',
      { correlationId, partitions: [{ ...tp0, error: 'NONE', leaderEpoch: 0, endOffset: 4 }] },
      20,
    ) as unknown as EventOf<'OffsetsForLeaderEpochResponse'>;
    const { d, effects } = run(v.d, (d, out) => onOffsetsForLeaderEpochResponse(d, answer, out));
    expect(d.positions).toEqual({ 't-0': 4 });
    expect(sent(effects).map((s) => s.rpc)).toEqual(['Fetch']);
  });

  it('without an epoch the committed offset is fetched from at once, as before', () => {
    const { effects } = run(member(), (d, out) => onOffsetFetchResponse(d, fetched([{ ...tp0, offset: 6, error: 'NONE' }]), out));
    expect(sent(effects).map((s) => s.rpc)).toEqual(['Fetch']);
  });
});

describe('narration', () => {
  it('OffsetFetchResponse names the committed offset’s leader epoch (en, ko)', () => {
    const t = runScenario({
      version: 1,
      seed: 1,
      cluster: { brokers: 3 },
      topics: [{ name: 't', partitions: 1, replicationFactor: 2 }],
      clients: [
        { id: 'p', type: 'producer', script: [{ op: 'send', topic: 't', key: 'k', value: 'v' }] },
        // b's joining makes a commit its position before the rebalance; the partition's owner then fetches it
        { id: 'a', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['t'] },
        { id: 'b', type: 'consumer', config: { 'group.id': 'g' }, topics: ['t'], startAt: 20000 },
      ],
    } as never);
    const s = t.steps.find(
      (st) =>
        st.label === 'OffsetFetchResponse' && JSON.stringify(t.envelopes.at(st.envelope ?? -1)?.payload).includes('committedLeaderEpoch'),
    );
    if (!s) throw new Error('no OffsetFetchResponse with an epoch');
    expect(narrate(t, s.i, 'en')).toContain('=1 (leader epoch 0: checked with the leader first)');
    expect(narrate(t, s.i, 'ko')).toContain('=1(리더 epoch 0: 먼저 리더에게 확인)');
  });
});
