/**
 * max.poll.interval.ms as a poll timeout (classic protocol). Heartbeat.poll, which every
 * KafkaConsumer.poll() calls (ConsumerCoordinator.poll → pollHeartbeat), resets the poll timer;
 * AbstractCoordinator.HeartbeatThread.run finds heartbeat.pollTimeoutExpired and calls
 * handlePollTimeoutExpiry → maybeLeaveGroup("consumer poll timeout has expired."): LeaveGroup, then
 * resetGenerationOnLeaveGroup (UNJOINED, NO_GENERATION, member id cleared, a rejoin needed). A
 * commitSync() then has no generation and is not rebalancing: CommitFailedException. The next poll()
 * runs onJoinPrepare without a generation (onPartitionsLost) and joins with an empty member id, and
 * the records it had not committed are processed again. On the old code poll() was not timed: the
 * slow consumer stayed in its group and processed each record once.
 */
import { describe, expect, it } from 'vitest';
import type { ConsumerContext } from '../../src/sim/consumer/consumerContext';
import { narrate } from '../../src/sim/narration/narrate';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { firstPollReturned, joinedAsLeader, sent, synced } from '../machines/consumerDriver';
import { inputOf } from '../machines/harness';

const NOTE = 'poll() was not called for max.poll.interval.ms (1000 ms): the consumer leaves the group (consumer poll timeout has expired)';

const scenario = (maxPollIntervalMs: number) => ({
  version: 1,
  seed: 1,
  run: { maxTimeMs: 20000 },
  topics: [{ name: 'orders', partitions: 1 }],
  clients: [
    {
      id: 'orders-service',
      type: 'producer',
      script: [
        ...[1, 2, 3].map((i) => ({
          op: 'send',
          topic: 'orders',
          key: `order-${i}`,
          value: `OrderCreated #${i}`,
          headers: { event_id: `evt-${i}` },
        })),
        { op: 'flush' },
      ],
    },
    {
      id: 'billing',
      type: 'consumer',
      config: {
        'group.id': 'billing',
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
        'max.poll.interval.ms': maxPollIntervalMs,
      },
      topics: ['orders'],
      processing: { mode: 'at-least-once', processingMs: 2000 },
    },
  ],
});

const envelopes = (t: Trace) => [...t.envelopes].filter((e) => e !== undefined && e !== null);
const fromBilling = (t: Trace, rpc: string) => envelopes(t).filter((e) => e.rpc === rpc && e.from === 'billing.consumer');
/** When the consumer answered the application's poll() with records. */
const pollReturns = (t: Trace) =>
  t.steps
    .filter(
      (s) =>
        s.kind === 'call' &&
        s.label === 'reply' &&
        s.from === 'billing.consumer' &&
        (s.detail as { call?: string; records?: unknown[] } | null)?.call === 'poll' &&
        ((s.detail as { records?: unknown[] }).records?.length ?? 0) > 0,
    )
    .map((s) => s.t);

describe('max.poll.interval.ms: a consumer that does not poll in time leaves its group', () => {
  it('processing longer than max.poll.interval.ms: LeaveGroup at the last poll + 1000, commitSync fails, it rejoins and processes again', () => {
    const t = runScenario(scenario(1000));
    const [firstReturn] = pollReturns(t);
    expect(firstReturn).toBeDefined();
    const [leave] = fromBilling(t, 'LeaveGroup');
    expect(leave?.sentAt).toBe((firstReturn as number) + 1000);
    expect(leave?.payload).toMatchObject({ groupId: 'billing', memberId: 'billing-0' });

    // the step that leaves says why, in English and Korean
    const step = t.steps.find((s) => (s.facts as Fact[]).some((f) => f.kind === 'note' && f.text === NOTE));
    expect(step?.kind).toBe('timer');
    expect(step?.t).toBe(leave?.sentAt);
    // the narration groups the note's duration by thousands, as every time on screen
    expect(narrate(t, step?.i as number, 'en')).toContain(NOTE.replace('(1000 ms)', '(1,000 ms)'));
    expect(narrate(t, step?.i as number, 'ko')).toContain('poll()이 max.poll.interval.ms(1,000 ms) 동안 호출되지 않았습니다');

    // the commitSync after the batch: no generation, not rebalancing → CommitFailedException; nothing was sent
    const failed = t.steps.flatMap((s) =>
      (s.facts as Fact[]).filter((f) => f.kind === 'clientError' && f.during === 'commitSync').map((f) => ({ at: s.t, f })),
    );
    expect(failed[0]?.f).toMatchObject({ error: 'CommitFailedException' });
    expect((failed[0]?.at as number) > (leave?.sentAt as number)).toBe(true);
    expect(fromBilling(t, 'OffsetCommit').filter((e) => e.sentAt < (failed[0]?.at as number))).toEqual([]);

    // the next poll() rejoins with an empty member id (its generation is gone: onJoinPrepare's lost path)
    // (each join as a new member: a JoinGroup without a member id, answered MEMBER_ID_REQUIRED, then one with it)
    const joins = fromBilling(t, 'JoinGroup').filter((e) => (e.payload as { memberId: string }).memberId === '');
    expect(joins.length).toBeGreaterThan(1);
    expect(joins[1]?.payload).toMatchObject({ memberId: '' });
    expect((joins[1]?.sentAt as number) >= (failed[0]?.at as number)).toBe(true);

    // …and processes the uncommitted records again
    const processing = summarize(t).verdict.layers.find((l) => l.layer === 'processing' && l.subject === 'billing');
    expect(processing?.status).toBe('more-than-once');
    expect(processing?.eventIds).toEqual(expect.arrayContaining(['evt-1', 'evt-2', 'evt-3']));
  });

  it('a consumer that polls within max.poll.interval.ms never leaves, commits, and processes each record once', () => {
    const t = runScenario(scenario(10000));
    expect(fromBilling(t, 'LeaveGroup')).toEqual([]);
    // one join: the JoinGroup without a member id (MEMBER_ID_REQUIRED) and the one with it
    expect(fromBilling(t, 'JoinGroup').map((e) => (e.payload as { memberId: string }).memberId)).toEqual(['', 'billing-0']);
    expect(t.steps.some((s) => (s.facts as Fact[]).some((f) => f.kind === 'clientError'))).toBe(false);
    expect(summarize(t).verdict.layers.find((l) => l.layer === 'processing' && l.subject === 'billing')?.status).toBe('once');
  });

  it('the poll timer acts only with the application outside poll() and the member in its generation', () => {
    const input = inputOf(scenario(1000), 'billing.consumer');
    const inPoll = joinedAsLeader(input);
    synced(inPoll.m, inPoll.sync, [{ topic: 'orders', partition: 0 }]);
    // the application waits in its first poll() (the one that joined): Kafka's poll loop keeps resetting the timer
    expect(inPoll.m.context<ConsumerContext>().pollWaiting).toBe('billing.app');
    expect(inPoll.m.send({ type: 'pollTimeoutExpired' }, 1030)).toEqual([]);
    expect(inPoll.m.context<ConsumerContext>()).toMatchObject({ generationId: 1, memberId: 'c-0', rejoinNeeded: false });

    // the first poll() returns a record at 30: the application is outside poll() from then
    const outside = joinedAsLeader(input);
    const offsets = sent(synced(outside.m, outside.sync, [{ topic: 'orders', partition: 0 }]), 'OffsetFetch');
    firstPollReturned(outside.m, offsets, 25, 'orders', 30);
    expect(outside.m.context<ConsumerContext>().pollWaiting).toBeNull();
    const fx = outside.m.send({ type: 'pollTimeoutExpired' }, 1030);
    expect(sent(fx, 'LeaveGroup')?.payload).toMatchObject({ groupId: 'billing', memberId: 'c-0' });
    expect(fx.some((e) => e.type === 'cancel' && e.key === 'heartbeat')).toBe(true);
    expect(outside.m.context<ConsumerContext>()).toMatchObject({ generationId: -1, memberId: '', rejoinNeeded: true });
    // out of its generation (UNJOINED in Kafka: the heartbeat thread is disabled), a second expiry does nothing
    expect(outside.m.send({ type: 'pollTimeoutExpired' }, 2030)).toEqual([]);
    // (offsets given: a commitSync() with nothing to commit returns without asking anyone)
    const commit = outside.m.send(
      { type: 'commitSync', from: 'billing.app', args: { offsets: [{ topic: 'orders', partition: 0, offset: 1 }] } },
      2040,
    );
    expect(sent(commit, 'OffsetCommit')).toBeUndefined();
    expect(commit.find((e) => e.type === 'call' && e.name === 'reply')).toMatchObject({
      args: { call: 'commitSync', ok: false, error: 'CommitFailedException' },
    });
  });
});
