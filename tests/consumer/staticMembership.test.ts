/**
 * Static membership (KIP-345, group.instance.id) from the consumer's side, and the lesson users ask
 * about: "we set group.instance.id — why did the restart not rebalance, and why did we still get
 * duplicates?" A static member that restarts within session.timeout.ms rejoins without a member id,
 * the coordinator gives its new member id the old member's place (GroupMetadataManager
 * .updateStaticMemberThenRebalanceOrCompleteJoin: no rebalance in a Stable group), and the restarted
 * instance reads on from the committed offsets — what it processed and had not committed is
 * processed again. The client side (AbstractCoordinator / ConsumerCoordinator): every group request
 * carries the instance id, close() sends no LeaveGroup (maybeLeaveGroup: isDynamicMember), and
 * FENCED_INSTANCE_ID is fatal. On the old code there was no group.instance.id: the scenarios are
 * refused, and the handlers below send no instance id and treat FENCED_INSTANCE_ID as a rejoin.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations } from '../../src/sim/checks/invariants';
import { onCommitSync, onOffsetCommitResponse } from '../../src/sim/consumer/commits';
import {
  onClose,
  onHeartbeatDue,
  onHeartbeatResponse,
  onJoined,
  onJoinFailed,
  onPollTimeoutExpired,
  onSyncFailed,
  syncFailure,
} from '../../src/sim/consumer/membership';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { appCall, context, replies, response, run, sent, tp0 } from './fixture';

type Config = Record<string, string | number | boolean | null>;
type ConsumerSpec = Extract<Scenario['clients'][number], { type: 'consumer' }>;

const consumer = (id: string, config: Config, extra: Partial<ConsumerSpec> = {}): ConsumerSpec => ({
  id,
  type: 'consumer',
  // the first auto-commit comes long after the crash: what c1 processed before it is not committed
  config: {
    'group.id': 'billing',
    'auto.offset.reset': 'earliest',
    'session.timeout.ms': 10000,
    'auto.commit.interval.ms': 20000,
    ...config,
  },
  topics: ['orders'],
  processing: { mode: 'auto-commit' },
  ...extra,
});
const send = (i: number, partition: number, at: number) => ({
  op: 'send' as const,
  topic: 'orders',
  partition,
  key: `k${i}`,
  value: `v${i}`,
  headers: { event_id: `evt-${i}` },
  at,
});
/** evt-0, 2, 4 to orders-0 (c1's), evt-1, 3, 5 to orders-1 (c2's), just before the group is Stable at 6001. */
const sends = [0, 1, 2, 3, 4, 5].map((i) => send(i, i % 2, 4000 + i * 100));

/** Two consumers of group billing, static (billing-1, billing-2) or dynamic; c1 crashes at 7000 for `crashMs`. */
function restart(staticIds: boolean, crashMs: number): Scenario {
  return {
    version: 1,
    seed: 1,
    topics: [{ name: 'orders', partitions: 2 }],
    clients: [
      { id: 'source', type: 'producer', script: sends },
      consumer('c1', staticIds ? { 'group.instance.id': 'billing-1' } : {}),
      consumer('c2', staticIds ? { 'group.instance.id': 'billing-2' } : {}),
    ],
    faults: [{ type: 'crash', target: 'c1', at: 7000, durationMs: crashMs }],
  };
}

function run_(s: Scenario) {
  const trace = runScenario(s);
  const summary = summarize(trace);
  const facts = trace.steps.flatMap((st) => (st.facts as Fact[]).map((f) => ({ t: st.t, f })));
  const processed = (app: string, eventId: string) => summary.verdict.events.find((e) => e.eventId === eventId)?.processed[app] ?? 0;
  const rebalances = facts.flatMap(({ t, f }) => (f.kind === 'rebalance' ? [{ t, ...f }] : []));
  const replaced = facts.flatMap(({ t, f }) => (f.kind === 'staticMemberReplaced' ? [{ t, ...f }] : []));
  const answers = (rpc: string, to: string) => trace.envelopes.filter((e) => e.rpc === rpc && e.to === `${to}.consumer`);
  return { trace, summary, facts, processed, rebalances, replaced, answers };
}

describe('a static member restarted within session.timeout.ms', () => {
  const r = run_(restart(true, 2000));

  it('is replaced without a rebalance: no rebalance after the restart, the generation unchanged', () => {
    expect(r.rebalances.map((x) => [x.generationId, x.members])).toEqual([[1, ['billing-1-0', 'billing-2-1']]]);
    expect(r.replaced).toMatchObject([
      { groupInstanceId: 'billing-1', oldMemberId: 'billing-1-0', newMemberId: 'billing-1-2', generationId: 1, state: 'Stable' },
    ]);
    expect(r.replaced[0]?.t).toBeGreaterThan(9000);
    // the restarted consumer's JoinGroup is answered at once with the current generation
    const joins = r.answers('JoinGroupResponse', 'c1').map((e) => e.payload);
    expect(joins.at(-1)).toMatchObject({ error: 'NONE', generationId: 1, memberId: 'billing-1-2' });
    expect(r.summary.groups.find((g) => g.groupId === 'billing')?.generation).toBe(1);
  });

  it('gets its old partitions back', () => {
    const syncs = r.answers('SyncGroupResponse', 'c1').map((e) => e.payload as { error: string; assignment: unknown[] });
    expect(syncs.map((s) => s.assignment)).toEqual([[tp('orders', 0)], [tp('orders', 0)]]);
    // c2 never hears of it: one JoinGroup, one SyncGroup
    expect(r.answers('JoinGroupResponse', 'c2')).toHaveLength(1);
    expect(r.answers('SyncGroupResponse', 'c2')).toHaveLength(1);
  });

  it('processes again what it had processed and not committed — the verdict says so', () => {
    for (const e of ['evt-0', 'evt-2', 'evt-4']) expect(r.processed('c1', e)).toBe(2);
    for (const e of ['evt-1', 'evt-3', 'evt-5']) expect(r.processed('c2', e)).toBe(1);
    const layer = r.summary.verdict.layers.find((l) => l.layer === 'processing' && l.sentence.includes('c1'));
    expect(layer?.status).toBe('more-than-once');
  });

  it('never sent a LeaveGroup', () => {
    expect(r.trace.envelopes.filter((e) => e.rpc === 'LeaveGroup')).toEqual([]);
  });
});

describe('the same restart on a replicated __consumer_offsets (the coordinator hosted by its leader)', () => {
  it('is replaced without a rebalance too: the JoinGroup is answered once the GroupMetadata record is written', () => {
    const s = restart(true, 2000);
    const r = run_({ ...s, cluster: { brokers: 3, 'offsets.topic.replication.factor': 3, 'min.insync.replicas': 1 } });
    expect(r.rebalances).toHaveLength(1);
    expect(r.replaced).toMatchObject([{ oldMemberId: 'billing-1-0', newMemberId: 'billing-1-2', state: 'Stable', generationId: 1 }]);
    expect(r.answers('JoinGroupResponse', 'c1').at(-1)?.payload).toMatchObject({ error: 'NONE', generationId: 1, memberId: 'billing-1-2' });
    expect(r.processed('c1', 'evt-0')).toBe(2);
  });
});

describe('the same restart of a dynamic member (control)', () => {
  it('rebalances: the new member id joins, and the old one is removed at its session expiry', () => {
    const r = run_(restart(false, 2000));
    expect(r.replaced).toEqual([]);
    const after = r.rebalances.filter((x) => x.t > 7000);
    expect(after.map((x) => [x.generationId, x.members, x.reason])).toEqual([
      [2, ['c1-2', 'c2-1'], 'member c1-0 sent no heartbeat for session.timeout.ms=10000'],
    ]);
    // reprocessed all the same: the lesson is about the rebalance, not the duplicates
    expect(r.processed('c1', 'evt-0')).toBe(2);
  });
});

describe('a static member restarted after session.timeout.ms', () => {
  it('was removed (a rebalance gives its partitions away), and joins again as a new member with a rebalance', () => {
    const r = run_(restart(true, 15000));
    expect(r.replaced).toEqual([]);
    expect(r.rebalances.map((x) => [x.generationId, x.members])).toEqual([
      [1, ['billing-1-0', 'billing-2-1']],
      [2, ['billing-2-1']],
      [3, ['billing-1-2', 'billing-2-1']],
    ]);
    const expired = r.facts.find(
      ({ f }) =>
        f.kind === 'note' && f.text === 'group billing is rebalancing: member billing-1-0 sent no heartbeat for session.timeout.ms=10000',
    );
    expect(expired?.t).toBe(16003);
  });
});

/** c1 and c3 both configured with group.instance.id billing-1: c3 starts at 11000, while c1 is alive. */
function twoInstances(mode: 'auto-commit' | 'at-least-once'): Scenario {
  return {
    version: 1,
    seed: 1,
    topics: [{ name: 'orders', partitions: 2 }],
    clients: [
      { id: 'source', type: 'producer', script: [...sends, send(10, 0, 12010), send(11, 0, 12011)] },
      // at-least-once: c1's heartbeats are rare, so its commitSync meets the fence first
      consumer(
        'c1',
        { 'group.instance.id': 'billing-1', 'session.timeout.ms': 30000, 'heartbeat.interval.ms': mode === 'auto-commit' ? 3000 : 9000 },
        { processing: { mode } },
      ),
      consumer('c2', { 'group.instance.id': 'billing-2' }),
      consumer('c3', { 'group.instance.id': 'billing-1' }, { startAt: 11000, processing: { mode } }),
    ],
  };
}

describe('a second instance with the same group.instance.id fences the first', () => {
  it("the old member id's heartbeat is answered FENCED_INSTANCE_ID: poll() throws FencedInstanceIdException and the application stops", () => {
    const r = run_(twoInstances('auto-commit'));
    expect(r.replaced).toMatchObject([{ oldMemberId: 'billing-1-0', newMemberId: 'billing-1-2', state: 'Stable' }]);
    expect(r.rebalances).toHaveLength(1);
    const heartbeats = r.answers('HeartbeatResponse', 'c1').map((e) => (e.payload as { error: string }).error);
    expect(heartbeats.at(-1)).toBe('FENCED_INSTANCE_ID');
    expect(r.facts.map(({ f }) => f)).toContainEqual({
      kind: 'clientError',
      client: 'c1',
      error: 'FENCED_INSTANCE_ID',
      during: 'Heartbeat',
      fatal: true,
    });
    expect(r.facts.map(({ f }) => f)).toContainEqual({
      kind: 'note',
      actor: 'c1.app',
      text: 'poll() threw FencedInstanceIdException: the application stops',
    });
    // the instance that took over reads orders-0 on; the fenced one closed without a LeaveGroup
    expect(r.processed('c3', 'evt-10')).toBe(1);
    expect(r.processed('c1', 'evt-10')).toBe(0);
    expect(r.trace.envelopes.filter((e) => e.rpc === 'LeaveGroup')).toEqual([]);
  });

  it("the old member id's OffsetCommit is answered FENCED_INSTANCE_ID: commitSync() throws FencedInstanceIdException and the application stops", () => {
    const r = run_(twoInstances('at-least-once'));
    const commits = r.answers('OffsetCommitResponse', 'c1').map((e) => (e.payload as { error: string }).error);
    expect(commits).toContain('FENCED_INSTANCE_ID');
    expect(r.facts.map(({ f }) => f)).toContainEqual({
      kind: 'clientError',
      client: 'c1',
      error: 'FencedInstanceIdException',
      during: 'commitSync',
      fatal: true,
    });
    expect(r.facts.map(({ f }) => f)).toContainEqual({
      kind: 'note',
      actor: 'c1.app',
      text: 'commitSync() threw FencedInstanceIdException: another instance joined with this group.instance.id, and the application stops',
    });
    // the fenced commit wrote nothing: the group's offset of orders-0 is c3's
    expect(r.summary.groups.find((g) => g.groupId === 'billing')?.committed['orders-0']).toBe(5);
    expect(r.trace.envelopes.filter((e) => e.rpc === 'LeaveGroup')).toEqual([]);
  });
});

describe('the invariants hold in every run above', () => {
  it.each([
    ['restart within the session', restart(true, 2000)],
    ['restart after the session', restart(true, 15000)],
    ['fenced by heartbeat', twoInstances('auto-commit')],
    ['fenced by commit', twoInstances('at-least-once')],
  ] as const)('%s', (_name, s) => {
    expect(formatViolations(checkInvariants(runScenario(s)))).toBe(formatViolations([]));
  });
});

const tp = (topic: string, partition: number) => ({ topic, partition });
const staticMember = { memberId: 'billing-1-0', generationId: 3 };

describe('the static member client, handler by handler', () => {
  it('JoinGroup, SyncGroup, Heartbeat and OffsetCommit carry group.instance.id', () => {
    const joined = run(context({ 'group.instance.id': 'billing-1' }), (d, out) =>
      onJoined(
        d,
        response('JoinGroupResponse', { correlationId: 0, error: 'NONE', generationId: 3, memberId: 'billing-1-0', leader: 'x' } as const),
        out,
      ),
    );
    expect(sent(joined.effects)).toMatchObject([{ rpc: 'SyncGroup', memberId: 'billing-1-0', groupInstanceId: 'billing-1' }]);
    const beat = run(context({ 'group.instance.id': 'billing-1' }, 1, { ...staticMember, sessionDeadline: 45000 }), (d, out) =>
      onHeartbeatDue(d, 0, out),
    );
    expect(sent(beat.effects)).toMatchObject([{ rpc: 'Heartbeat', memberId: 'billing-1-0', groupInstanceId: 'billing-1' }]);
    const commit = run(
      context({ 'group.instance.id': 'billing-1' }, 1, { ...staticMember, assignment: [tp0], positions: { 't-0': 2 } }),
      (d, out) => onCommitSync(d, appCall('commitSync', {}), out),
    );
    expect(sent(commit.effects)).toMatchObject([{ rpc: 'OffsetCommit', memberId: 'billing-1-0', groupInstanceId: 'billing-1' }]);
    // a dynamic member's requests carry none
    const dynamic = run(context({}, 1, { memberId: 'c-0', generationId: 3, sessionDeadline: 45000 }), (d, out) =>
      onHeartbeatDue(d, 0, out),
    );
    expect(sent(dynamic.effects)[0]?.rpc).toBe('Heartbeat');
    expect(sent(dynamic.effects)[0]).not.toHaveProperty('groupInstanceId');
  });

  it('close() and an expired max.poll.interval.ms send no LeaveGroup from a static member (maybeLeaveGroup: isDynamicMember)', () => {
    const closed = run(context({ 'group.instance.id': 'billing-1' }, 1, staticMember), (d, out) => onClose(d, appCall('close', {}), out));
    expect(sent(closed.effects)).toEqual([]);
    expect(replies(closed.effects)).toEqual([{ call: 'close', ok: true }]);
    const expired = run(context({ 'group.instance.id': 'billing-1' }, 1, staticMember), (d, out) => onPollTimeoutExpired(d, out));
    expect(sent(expired.effects)).toEqual([]);
    // resetGenerationOnLeaveGroup all the same: its next JoinGroup has no member id (and replaces itself)
    expect(expired.d).toMatchObject({ memberId: '', generationId: -1, rejoinNeeded: true });
    // control: a dynamic member leaves
    const dynamic = run(context({}, 1, { memberId: 'c-0', generationId: 3 }), (d, out) => onClose(d, appCall('close', {}), out));
    expect(sent(dynamic.effects).map((s) => s.rpc)).toEqual(['LeaveGroup']);
  });

  it('a JoinGroup answered FENCED_INSTANCE_ID is fatal: poll() throws FencedInstanceIdException, nothing is sent again', () => {
    const ctx = context({ 'group.instance.id': 'billing-1' }, 1, { pollWaiting: 'c.app' });
    const { effects } = run(ctx, (d, out) =>
      onJoinFailed(
        d,
        response('JoinGroupResponse', {
          correlationId: 0,
          error: 'FENCED_INSTANCE_ID',
          generationId: -1,
          memberId: 'billing-1-0',
          leader: '',
        } as const),
        out,
      ),
    );
    expect(sent(effects)).toEqual([]);
    expect(replies(effects)).toEqual([{ call: 'poll', ok: false, error: 'FencedInstanceIdException' }]);
  });

  it('a SyncGroup answered FENCED_INSTANCE_ID is fatal: poll() throws FencedInstanceIdException', () => {
    expect(syncFailure('FENCED_INSTANCE_ID')).toBe('throw');
    const ctx = context({ 'group.instance.id': 'billing-1' }, 1, { ...staticMember, pollWaiting: 'c.app' });
    const { effects } = run(ctx, (d, out) =>
      onSyncFailed(d, response('SyncGroupResponse', { correlationId: 0, error: 'FENCED_INSTANCE_ID', assignment: [] } as const), out),
    );
    expect(replies(effects)).toEqual([{ call: 'poll', ok: false, error: 'FencedInstanceIdException' }]);
  });

  it('a Heartbeat answered FENCED_INSTANCE_ID resets the member, stops the heartbeat thread, and poll() throws (no rejoin)', () => {
    const ctx = context({ 'group.instance.id': 'billing-1' }, 1, { ...staticMember, pollWaiting: 'c.app' });
    const { d, effects } = run(ctx, (d, out) =>
      onHeartbeatResponse(d, response('HeartbeatResponse', { correlationId: 0, error: 'FENCED_INSTANCE_ID' } as const), out),
    );
    expect(d).toMatchObject({ memberId: '', generationId: -1, pollWaiting: null });
    expect(sent(effects)).toEqual([]);
    expect(effects.some((e) => e.type === 'cancel' && e.key === 'heartbeat')).toBe(true);
    expect(replies(effects)).toEqual([{ call: 'poll', ok: false, error: 'FencedInstanceIdException' }]);
  });

  it('an auto-commit answered FENCED_INSTANCE_ID makes the next poll() throw FencedInstanceIdException (asyncCommitFenced)', () => {
    const pending = {
      correlationId: 7,
      generationId: 3,
      memberId: 'billing-1-0',
      offsets: [{ ...tp0, offset: 2 }],
      waiter: null,
      purpose: 'auto',
      attempts: 0,
      deadline: 0,
    } as const;
    const ctx = context({ 'group.instance.id': 'billing-1' }, 1, { ...staticMember, commitInFlight: pending });
    const { d } = run(ctx, (d, out) =>
      onOffsetCommitResponse(d, response('OffsetCommitResponse', { correlationId: 7, error: 'FENCED_INSTANCE_ID' } as const), out),
    );
    expect(d.pollError).toEqual({ exception: 'FencedInstanceIdException', thrown: false });
  });
});

describe('an exactly-once static member', () => {
  it("its TxnOffsetCommit carries group.instance.id (consumer.groupMetadata()'s groupInstanceId)", () => {
    const r = run_({
      version: 1,
      seed: 1,
      topics: [
        { name: 'orders', partitions: 1 },
        { name: 'out', partitions: 1 },
      ],
      clients: [
        { id: 'source', type: 'producer', script: [send(0, 0, 4000)] },
        consumer(
          'c1',
          { 'group.instance.id': 'billing-1', 'enable.auto.commit': false, 'isolation.level': 'read_committed' },
          {
            processing: { mode: 'exactly-once', outputTopic: 'out' },
          },
        ),
      ],
    });
    const commits = r.trace.envelopes.filter((e) => e.rpc === 'TxnOffsetCommit').map((e) => e.payload);
    expect(commits.length).toBeGreaterThan(0);
    expect(commits[0]).toMatchObject({ groupId: 'billing', memberId: 'billing-1-0', groupInstanceId: 'billing-1' });
    expect(r.summary.groups.find((g) => g.groupId === 'billing')?.committed).toEqual({ 'orders-0': 1 });
  });
});

describe('group.instance.id and Kafka Streams', () => {
  it('a Streams client refuses it with a clear message (static membership is modelled for plain consumers)', () => {
    const v = validateScenario({
      version: 1,
      seed: 1,
      topics: [
        { name: 'words', partitions: 1 },
        { name: 'counts', partitions: 1 },
      ],
      clients: [
        {
          id: 'counter',
          type: 'streams',
          inputTopic: 'words',
          outputTopic: 'counts',
          config: { 'application.id': 'wc', 'group.instance.id': 'counter-1' },
        },
      ],
    });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.errors).toContainEqual({
      path: 'clients[0].config["group.instance.id"]',
      ko: '정적 멤버십(group.instance.id)은 일반 컨슈머에만 구현되어 있습니다. 이 시뮬레이터의 Kafka Streams 클라이언트는 동적 멤버로 그룹에 참여합니다.',
      message:
        'group.instance.id (static membership) is modelled for plain consumers only: the simulator’s Kafka Streams clients join their group as dynamic members',
    });
  });
});
