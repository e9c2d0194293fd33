/**
 * A refused OffsetCommit makes a member waiting in poll() rejoin at once. Kafka:
 * ConsumerCoordinator.OffsetCommitResponseHandler, on UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION with the
 * generation unchanged (or the member not PREPARING_REBALANCE), calls resetStateOnResponseError →
 * AbstractCoordinator.resetStateAndRejoin: UNJOINED, NO_GENERATION (the member id kept for
 * ILLEGAL_GENERATION), rejoinNeeded, needsJoinPrepare; on REBALANCE_IN_PROGRESS requestRejoin. The
 * answer is read inside poll()'s loop (ClassicKafkaConsumer.poll → pollForFetches → client.poll),
 * whose next pass runs updateAssignmentMetadataIfNeeded → ConsumerCoordinator.poll →
 * rejoinNeededOrPending → ensureActiveGroup → joinGroupIfNeeded → onJoinPrepare: with no generation
 * its auto-commit fails locally (sendOffsetCommitRequest: generationIfStable() null), its partitions
 * are given up as lost (invokePartitionsLost, assignFromSubscribed(empty)), and JoinGroup goes out —
 * so poll() returns no more records from them. An UNJOINED member sends no heartbeat
 * (HeartbeatThread.run: state.hasNotJoinedGroup() → disable). Outside poll() (the application
 * processing) nothing happens until the next poll(), which rejoins before it returns anything; a
 * commitSync meanwhile throws CommitFailedException.
 *
 * On the old code the member stayed STABLE: it kept its partitions, fetched, returned records from
 * them and heartbeated with member id "" and generation −1 until poll() returned or a heartbeat
 * answer came — in the audit's scenario it processed late-1, which the partition's new owner
 * processed too.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, fetchingState, membershipState } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { pausedMemberScenario } from '../fixtures/groupAudit';
import { plainBatch } from '../fixtures/plainBatch';
import { answer, fetchAnswered, joinedAsLeader, oneRecordOf, positionsFetched, sent, synced } from '../machines/consumerDriver';
import { type Driven, inputOf, sends } from '../machines/harness';

const call = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'c.app', args });
const scenario = (config: Record<string, unknown> = {}) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest', ...config }, topics: ['t'] }],
});
const stopsHeartbeats = (fx: readonly Effect[]) => fx.some((e) => e.type === 'cancel' && e.key === 'heartbeat');
const replies = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' && e.name === 'reply' ? [e.args] : []));

/**
 * An auto-commit member (the leader of generation 1, member c-0) STABLE with t-0, its position moved
 * to 3 past the committed 0: its first poll() (the one that joined) returned records 0..2 at 100, and
 * the application is processing them (outside poll()).
 */
function consumed(config: Record<string, unknown> = {}): Driven {
  const { m, sync } = joinedAsLeader(inputOf(scenario(config), 'c.consumer'));
  const offsets = sent(synced(m, sync, [{ topic: 't', partition: 0 }]), 'OffsetFetch');
  const fetch = sent(positionsFetched(m, offsets, 30), 'Fetch');
  const records = {
    ...oneRecordOf(),
    highWatermark: 3,
    lastStableOffset: 3,
    batches: [plainBatch([{ offset: 0 }, { offset: 1 }, { offset: 2 }])],
  };
  fetchAnswered(m, fetch, 100, records);
  expect(m.context<ConsumerContext>()).toMatchObject({ pollWaiting: null, positions: { 't-0': 3 } });
  return m;
}

/** …then the application waits in poll() past auto.commit.interval.ms: the auto-commit goes out. */
function autoCommitInPoll() {
  const m = consumed();
  const commit = sent(m.send(call('poll'), 6000), 'OffsetCommit');
  expect(commit?.payload).toMatchObject({ generationId: 1, memberId: 'c-0', offsets: [{ topic: 't', partition: 0, offset: 3 }] });
  expect(m.context<ConsumerContext>().pollWaiting).toBe('c.app');
  return { m, commit };
}

const refuse = (m: Driven, commit: ReturnType<typeof sent>, error: string, at = 6002) =>
  m.send(answer('OffsetCommitResponse', commit?.payload.correlationId as number, { error }), at);

describe('a refused commit while the application waits in poll(): the member rejoins at once', () => {
  it('UNKNOWN_MEMBER_ID: partitions given up, no heartbeats, JoinGroup with an empty member id in the same step, no onJoinPrepare commit', () => {
    const { m, commit } = autoCommitInPoll();
    const fx = refuse(m, commit, 'UNKNOWN_MEMBER_ID');
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    expect(fetchingState(m.state())).toBe('STOPPED');
    expect(sent(fx, 'JoinGroup')?.payload).toMatchObject({ groupId: 'g', memberId: '' });
    expect(sends(fx)).not.toContain('OffsetCommit→group-coordinator');
    expect(stopsHeartbeats(fx)).toBe(true);
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: '', assignment: [], rejoinNeeded: false });
    // poll() keeps waiting (it returns once the member has joined again and has records)
    expect(replies(fx)).toEqual([]);
    expect(m.context<ConsumerContext>().pollWaiting).toBe('c.app');
  });

  it('ILLEGAL_GENERATION: the same, JoinGroup keeping the member id', () => {
    const { m, commit } = autoCommitInPoll();
    const fx = refuse(m, commit, 'ILLEGAL_GENERATION');
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    expect(sent(fx, 'JoinGroup')?.payload).toMatchObject({ memberId: 'c-0' });
    expect(stopsHeartbeats(fx)).toBe(true);
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: 'c-0', assignment: [] });
  });

  it('REBALANCE_IN_PROGRESS (requestRejoin, the generation kept): onJoinPrepare commits the consumed positions first', () => {
    const { m, commit } = autoCommitInPoll();
    const fx = refuse(m, commit, 'REBALANCE_IN_PROGRESS');
    expect(membershipState(m.state())).toBe('JOIN_PREPARE');
    expect(sent(fx, 'OffsetCommit')?.payload).toMatchObject({ generationId: 1, memberId: 'c-0', offsets: [{ offset: 3 }] });
    expect(sent(fx, 'JoinGroup')).toBeUndefined();
    // still in its generation: heartbeats go on while onJoinPrepare waits
    expect(stopsHeartbeats(fx)).toBe(false);
  });
});

describe('a refused commit while the application processes: the next poll() rejoins first', () => {
  it('commitSync refused UNKNOWN_MEMBER_ID: CommitFailedException, heartbeats stop at once, partitions kept until poll(), which sends JoinGroup and returns nothing', () => {
    const m = consumed();
    const commit = sent(m.send(call('commitSync'), 200), 'OffsetCommit');
    const fx = refuse(m, commit, 'UNKNOWN_MEMBER_ID', 202);
    expect(replies(fx)).toEqual([{ call: 'commitSync', ok: false, error: 'CommitFailedException' }]);
    // UNJOINED: the heartbeat thread sends nothing (the old code heartbeated on with member id "" and generation -1)
    expect(stopsHeartbeats(fx)).toBe(true);
    expect(membershipState(m.state())).toBe('STABLE');
    expect(m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: '', rejoinNeeded: true });
    expect(m.context<ConsumerContext>().assignment).toHaveLength(1);

    // a second commitSync has no generation: it fails at once, nothing sent (sendOffsetCommitRequest)
    const again = m.send(call('commitSync'), 210);
    expect(sent(again, 'OffsetCommit')).toBeUndefined();
    expect(replies(again)).toEqual([{ call: 'commitSync', ok: false, error: 'CommitFailedException' }]);

    const poll = m.send(call('poll'), 300);
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    expect(sent(poll, 'JoinGroup')?.payload).toMatchObject({ memberId: '' });
    expect(replies(poll)).toEqual([]);
    expect(m.context<ConsumerContext>().assignment).toEqual([]);
  });
});

/** The steps at which `app` processed `eventId`. */
const processed = (t: Trace, eventId: string) =>
  t.steps.flatMap((s) =>
    (s.facts as Fact[]).flatMap((f) => (f.kind === 'processed' && f.eventId === eventId ? [{ app: f.app, t: s.t }] : [])),
  );
/** The requests c1's consumer sent of `rpc`. */
const fromC1 = (t: Trace, rpc: string) => [...t.envelopes].filter((e) => e && e.rpc === rpc && e.from === 'c1.consumer');

describe("the audit's scenario: c1, removed during a pause, learns it from its auto-commit's refusal", () => {
  it('the audit scenario (f1-commit-refused): late-1, written after the refusal, is processed once, by c2', () => {
    const t = runScenario(pausedMemberScenario());
    expect(processed(t, 'late-1')).toEqual([{ app: 'c2', t: expect.any(Number) }]);
  });

  it("with c1's heartbeats failing on (10 resets), the refusal is the first answer c1 gets: it rejoins in that step, sends no heartbeat without a member id, and late-1 is processed once", () => {
    const t = runScenario(pausedMemberScenario({ resets: 10 }));
    const refusal = t.steps.find(
      (s) => s.actor === 'c1.consumer' && (s.facts as Fact[]).some((f) => f.kind === 'clientError' && f.during === 'OffsetCommit'),
    );
    expect(refusal).toBeDefined();
    expect((refusal?.facts as Fact[]).find((f) => f.kind === 'clientError')).toMatchObject({ error: 'UNKNOWN_MEMBER_ID' });
    // Kafka's next pass of the poll loop: JoinGroup in the same step, no heartbeat, nothing fetched
    const rejoin = fromC1(t, 'JoinGroup').find((e) => e.sentAt >= (refusal?.t as number));
    expect(rejoin?.sentAt).toBe(refusal?.t);
    expect(rejoin?.payload).toMatchObject({ memberId: '' });
    expect(fromC1(t, 'Heartbeat').filter((e) => (e.payload as { memberId: string }).memberId === '')).toEqual([]);
    expect(membershipState(refusal?.after as string)).toBe('PREPARING_REBALANCE');
    // late-0 came before the refusal (c1 did not know it was out yet); late-1 only to c2
    expect(processed(t, 'late-0').map((p) => p.app)).toEqual(['c1', 'c2']);
    expect(processed(t, 'late-1')).toEqual([{ app: 'c2', t: expect.any(Number) }]);
  });
});
