/**
 * The consumer client's offset-commit rules (ConsumerCoordinator: auto-commit, onJoinPrepare,
 * commitOffsetsSync) and its rebalance listener, driven event by event on the consumer machine.
 */

import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import { resolveConsumerConfig } from '../src/sim/config/consumerConfig';
import {
  type ConsumerContext,
  commitBackoff,
  consumerMachine,
  DEFAULT_API_TIMEOUT_MS,
  membershipState,
} from '../src/sim/consumer/consumer.machine';
import type { Effect } from '../src/sim/kernel/effects';
import { stateValueToString } from '../src/sim/kernel/stateValue';
import { oneBrokerMetadata } from './fixtures/oneBrokerMetadata';
import { plainBatch } from './fixtures/plainBatch';

const meta: ClusterMetadata = oneBrokerMetadata;

type Send = Extract<Effect, { type: 'send' }>;
type Timer = Extract<Effect, { type: 'timer' }>;
type Call = Extract<Effect, { type: 'call' }>;

const batch = (offsets: number[]) => plainBatch(offsets.map((offset) => ({ offset, key: `k${offset}` })));

/** A consumer of group g, driven to Stable with orders-0, having returned records 0..2 from poll(). */
function consumer(config: Record<string, string | number | boolean | null> = {}, rebalanceListener = false) {
  const effects: Effect[] = [];
  const resolved = resolveConsumerConfig({ 'group.id': 'g', 'auto.offset.reset': 'earliest', ...config });
  expect(resolved.errors).toEqual([]);
  const actor = createActor(consumerMachine, {
    input: {
      self: 'c.consumer',
      app: 'c.app',
      client: 'c',
      meta,
      config: resolved.config,
      topics: ['orders'],
      rebalanceListener,
      metadataKnown: true,
    },
  });
  actor.on('*', (e) => effects.push(e as Effect));
  actor.start();
  let envelope = 0;
  const sends = (rpc: string) => effects.filter((e): e is Send => e.type === 'send' && e.rpc === rpc);
  const last = (rpc: string) => sends(rpc)[sends(rpc).length - 1];
  const reply = (rpc: string, payload: Record<string, unknown>, now: number) =>
    actor.send({ type: rpc, now, from: 'group-coordinator', envelopeId: envelope++, inReplyTo: null, payload } as never);
  const call = (type: string, now: number, args: Record<string, unknown> = {}) => actor.send({ type, now, from: 'c.app', args } as never);
  const timer = (name: string, now: number, data: Record<string, unknown> = {}) =>
    actor.send({ type: name, now, key: name, data } as never);
  /** The network completes a request as a disconnect (timedOut: no answer within its request timeout). */
  const lost = (request: Send | undefined, now: number, timedOut = true) =>
    actor.send({
      type: 'disconnected',
      now,
      envelopeId: envelope++,
      to: request?.to,
      rpc: request?.rpc,
      payload: request?.payload,
      timedOut,
    } as never);
  const ctx = () => actor.getSnapshot().context as ConsumerContext;
  const state = () => membershipState(stateValueToString(actor.getSnapshot().value));
  return { actor, effects, sends, last, reply, call, timer, lost, ctx, state };
}

/** Booted, its first poll() sending JoinGroup (that poll() waits), answered as leader and assigned orders-0. */
function toStable(c: ReturnType<typeof consumer>) {
  boot(c);
  c.reply('JoinGroupResponse', { correlationId: 0, error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' }, 3000);
  c.reply('SyncGroupResponse', { correlationId: 1, error: 'NONE', assignment: [{ topic: 'orders', partition: 0 }] }, 3001);
}

/** subscribe() sends nothing; the application's first poll() at 0 sends JoinGroup (ConsumerCoordinator.poll). */
function boot(c: ReturnType<typeof consumer>) {
  c.actor.send({ type: 'boot', now: 0 } as never);
  c.call('poll', 0);
}

function consumeThree(c: ReturnType<typeof consumer>) {
  toStable(c);
  // the application waits in its first poll(): the consumer fetches once it has the position
  const fetchOffsets = c.last('OffsetFetch');
  c.reply(
    'OffsetFetchResponse',
    {
      correlationId: fetchOffsets?.payload.correlationId,
      error: 'NONE',
      offsets: [{ topic: 'orders', partition: 0, offset: 0, error: 'NONE' }],
    },
    3002,
  );
  const fetch = c.last('Fetch');
  c.reply(
    'FetchResponse',
    {
      correlationId: fetch?.payload.correlationId,
      partitions: [
        {
          topic: 'orders',
          partition: 0,
          error: 'NONE',
          highWatermark: 3,
          lastStableOffset: 3,
          logStartOffset: 0,
          batches: [batch([0, 1, 2])],
          abortedTransactions: [],
        },
      ],
    },
    3500,
  );
  expect(c.ctx().positions).toEqual({ 'orders-0': 3 });
}

describe('commit retries (ConsumerCoordinator.commitOffsetsSync)', () => {
  it('backs off from retry.backoff.ms doubling to retry.backoff.max.ms', () => {
    const { config } = resolveConsumerConfig({});
    expect([0, 1, 2, 3, 4, 5].map((n) => commitBackoff(config, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('commitSync retries a refused connection after the backoff, never at once, and fails with TimeoutException at default.api.timeout.ms', () => {
    const c = consumer({ 'enable.auto.commit': false });
    consumeThree(c);
    c.call('commitSync', 4000);
    let now = 4000;
    const delays: number[] = [];
    for (;;) {
      const sent = c.last('OffsetCommit');
      const before = c.effects.length;
      c.actor.send({
        type: 'disconnected',
        now: now + 1,
        envelopeId: 0,
        to: 'group-coordinator',
        rpc: 'OffsetCommit',
        payload: sent?.payload,
      } as never);
      const retry = c.effects.slice(before).find((e): e is Timer => e.type === 'timer' && e.name === 'commitRetry');
      if (!retry) break;
      delays.push(retry.delay);
      now = now + 1 + retry.delay;
      c.timer('commitRetry', now);
    }
    expect(delays.slice(0, 6)).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(delays.every((d) => d > 0)).toBe(true);
    expect(now).toBeGreaterThanOrEqual(4000 + DEFAULT_API_TIMEOUT_MS);
    const answer = c.effects.filter((e): e is Call => e.type === 'call' && e.args?.call === 'commitSync').pop();
    expect(answer?.args).toMatchObject({ ok: false, error: 'TimeoutException' });
  });

  it('commitSync fails with CommitFailedException on UNKNOWN_MEMBER_ID and the member rejoins at its next poll', () => {
    const c = consumer({ 'enable.auto.commit': false });
    consumeThree(c);
    c.call('commitSync', 4000);
    c.reply('OffsetCommitResponse', { correlationId: c.last('OffsetCommit')?.payload.correlationId, error: 'UNKNOWN_MEMBER_ID' }, 4002);
    const answer = c.effects.filter((e): e is Call => e.type === 'call' && e.args?.call === 'commitSync').pop();
    expect(answer?.args).toMatchObject({ ok: false, error: 'CommitFailedException' });
    expect(c.ctx()).toMatchObject({ rejoinNeeded: true, memberId: '', generationId: -1 });
  });
});

describe('request timeouts (AbstractCoordinator.sendJoinGroupRequest)', () => {
  it('JoinGroup waits max(request.timeout.ms, max.poll.interval.ms + 5000); other requests request.timeout.ms', () => {
    const c = consumer({ 'max.poll.interval.ms': 10000, 'request.timeout.ms': 5000 });
    boot(c);
    expect(c.last('JoinGroup')?.timeoutMs).toBe(15000);
    c.reply('JoinGroupResponse', { correlationId: 0, error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' }, 3000);
    c.reply('SyncGroupResponse', { correlationId: 1, error: 'NONE', assignment: [{ topic: 'orders', partition: 0 }] }, 3001);
    expect(c.last('OffsetFetch')?.timeoutMs).toBe(5000);
    const long = consumer({ 'max.poll.interval.ms': 1000, 'request.timeout.ms': 30000 });
    boot(long);
    expect(long.last('JoinGroup')?.timeoutMs).toBe(30000);
  });
});

describe('auto-commit (ConsumerCoordinator.maybeAutoCommitOffsetsAsync)', () => {
  it('starts the auto-commit interval at the assignment (onJoinComplete)', () => {
    const c = consumer({ 'auto.commit.interval.ms': 1000 });
    toStable(c);
    expect(c.ctx().nextAutoCommitAt).toBe(3001 + 1000);
  });

  it('a lost auto-commit re-arms the timer to retry.backoff.ms and the positions are sent again while poll() waits', () => {
    const c = consumer({ 'auto.commit.interval.ms': 1000 });
    consumeThree(c);
    c.call('poll', 3600);
    c.timer('autoCommitDue', 4001);
    const first = c.last('OffsetCommit');
    expect(first?.payload.offsets).toEqual([{ topic: 'orders', partition: 0, offset: 3 }]);
    const before = c.effects.length;
    c.lost(first, 34001);
    expect(c.ctx().nextAutoCommitAt).toBe(34001 + 100);
    const rearmed = c.effects.slice(before).find((e): e is Timer => e.type === 'timer' && e.name === 'autoCommitDue');
    expect(rearmed?.delay).toBe(100);
    c.timer('autoCommitDue', 34101);
    expect(c.sends('OffsetCommit')).toHaveLength(2);
    c.reply('OffsetCommitResponse', { correlationId: c.last('OffsetCommit')?.payload.correlationId, error: 'NONE' }, 34102);
    expect(c.ctx().knownCommitted).toEqual({ 'orders-0': 3 });
    // committed: nothing keeps the run going any more
    const after = c.effects.length;
    c.call('poll', 40000);
    expect(c.effects.slice(after).some((e) => e.type === 'timer' && e.name === 'autoCommitDue')).toBe(false);
  });
});

describe('onJoinPrepare (ConsumerCoordinator.onJoinPrepare)', () => {
  function rebalancing() {
    const c = consumer();
    consumeThree(c);
    c.call('poll', 3600);
    c.reply('HeartbeatResponse', { correlationId: 99, error: 'REBALANCE_IN_PROGRESS' }, 6000);
    expect(c.state()).toBe('JOIN_PREPARE');
    return c;
  }

  it('commits the consumed positions and sends JoinGroup only once the commit is answered', () => {
    const c = rebalancing();
    const commit = c.last('OffsetCommit');
    expect(commit?.payload).toMatchObject({ generationId: 1, memberId: 'c-0', offsets: [{ topic: 'orders', partition: 0, offset: 3 }] });
    expect(c.sends('JoinGroup')).toHaveLength(1);
    c.reply('OffsetCommitResponse', { correlationId: commit?.payload.correlationId, error: 'NONE' }, 6002);
    expect(c.state()).toBe('PREPARING_REBALANCE');
    expect(c.sends('JoinGroup')).toHaveLength(2);
    expect(c.ctx().assignment).toEqual([]);
  });

  it('retries a lost commit after retry.backoff.ms before rejoining', () => {
    const c = rebalancing();
    const commit = c.last('OffsetCommit');
    c.lost(commit, 36000);
    expect(c.state()).toBe('JOIN_PREPARE');
    expect(c.effects.filter((e): e is Timer => e.type === 'timer' && e.name === 'commitRetry').pop()?.delay).toBe(100);
    c.timer('commitRetry', 36100);
    const again = c.last('OffsetCommit');
    expect(again?.payload.correlationId).not.toBe(commit?.payload.correlationId);
    expect(again?.payload.offsets).toEqual(commit?.payload.offsets);
    c.reply('OffsetCommitResponse', { correlationId: again?.payload.correlationId, error: 'NONE' }, 36102);
    expect(c.state()).toBe('PREPARING_REBALANCE');
  });

  it('gives up on a commit the group refuses and rejoins', () => {
    const c = rebalancing();
    c.reply('OffsetCommitResponse', { correlationId: c.last('OffsetCommit')?.payload.correlationId, error: 'ILLEGAL_GENERATION' }, 6002);
    expect(c.state()).toBe('PREPARING_REBALANCE');
  });
});

describe('the rebalance listener (offsets-in-sink)', () => {
  it('calls onPartitionsAssigned and fetches the group offsets only for the partitions it did not seek', () => {
    const c = consumer({ 'enable.auto.commit': false }, true);
    toStable(c);
    const listener = c.effects.find((e): e is Call => e.type === 'call' && e.name === 'onPartitionsAssigned');
    expect(listener?.args).toEqual({ partitions: [{ topic: 'orders', partition: 0 }] });
    expect(c.sends('OffsetFetch')).toEqual([]);
    // no position yet: the first poll(), still waiting, fetches nothing until the listener returns
    expect(c.sends('Fetch')).toEqual([]);
    c.call('partitionsAssignedDone', 3010, { offsets: { 'orders-0': 7 } });
    expect(c.ctx().positions).toEqual({ 'orders-0': 7 });
    expect(c.sends('OffsetFetch')).toEqual([]);
    // fetched from there for the waiting poll()
    expect(c.sends('Fetch')).toHaveLength(1);
    expect(c.last('Fetch')?.payload).toMatchObject({ partitions: [{ fetchOffset: 7 }] });
  });

  it('falls back to the group offsets when the database has none', () => {
    const c = consumer({ 'enable.auto.commit': false }, true);
    toStable(c);
    c.call('partitionsAssignedDone', 3010, { offsets: {} });
    expect(c.last('OffsetFetch')?.payload).toMatchObject({ partitions: [{ topic: 'orders', partition: 0 }] });
  });
});

describe('before its start time', () => {
  it('a consumer whose process crashes and restarts before boot stays unstarted until its boot', () => {
    const c = consumer();
    c.actor.send({ type: 'crash' } as never);
    c.actor.send({ type: 'restart', now: 100, from: 'c', args: {} } as never);
    expect(c.state()).toBe('created');
    expect(c.sends('JoinGroup')).toEqual([]);
    c.actor.send({ type: 'boot', now: 2000 } as never);
    expect(c.state()).toBe('UNJOINED');
    c.call('poll', 2000);
    expect(c.state()).toBe('PREPARING_REBALANCE');
    expect(c.sends('JoinGroup')).toHaveLength(1);
  });
});
