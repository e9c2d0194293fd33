/**
 * The consumer's statechart driven event by event without the kernel: both parallel regions of
 * `running` (membership and fetching), the guards that pick each transition, and what it emits.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, consumerMachine, fetchingState, membershipState } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { plainBatch } from '../fixtures/plainBatch';
import { answer, bootAndPoll, joinedAsLeader as joinAsLeader, lost, positionsFetched, recordsOf, sent, synced } from './consumerDriver';
import { type Driven, drive, inputOf, sends } from './harness';

const call = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'c.app', args });
/** The application's poll() answered with an exception. */
const pollThrew = (error: string) => ({ type: 'call', to: 'c.app', name: 'reply', args: { call: 'poll', ok: false, error } });
const timers = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'timer' ? [e.name] : []));

const scenario = (config: Record<string, unknown> = {}) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest', ...config }, topics: ['t'] }],
});

/** The fetch offset of a Fetch's (only) partition. */
const offsetOf = (f: { payload: Record<string, unknown> } | undefined) =>
  (f?.payload.partitions as { fetchOffset: number }[] | undefined)?.[0]?.fetchOffset;

/** SyncGroup answers with partition t-0: the OffsetFetch the member sends for its position. */
const assigned = (m: Driven, sync: ReturnType<typeof sent>) => sent(synced(m, sync, [{ topic: 't', partition: 0 }]), 'OffsetFetch');

/** A member booted and answered as the leader of generation 1: the machine, and the SyncGroup it sent next. */
const joinedAsLeader = (config: Record<string, unknown> = {}) => joinAsLeader(inputOf(scenario(config), 'c.consumer'));

/**
 * A member driven to STABLE with t-0 at offset 0 (its committed offset), its first poll() — the one that
 * joined — still waiting: the Fetch at offset 0 it sent once the position was known.
 */
function inFirstPoll(config: Record<string, unknown> = {}) {
  const { m, sync } = joinedAsLeader(config);
  const offsets = assigned(m, sync);
  const fetch = sent(positionsFetched(m, offsets), 'Fetch');
  return { m, fetch };
}

/** A FetchResponse for t-0 from broker-0 with the records at `offsets` (none: an empty one). */
const fetched = (m: Driven, fetch: ReturnType<typeof sent>, offsets: number[], at: number) =>
  m.send(answer('FetchResponse', fetch?.payload.correlationId as number, { partitions: [recordsOf(offsets)] }, 'broker-0'), at);

/**
 * A member STABLE with the application outside poll(): its first poll() returned record 0 (position 1)
 * and the prefetch came back empty, so nothing is in flight.
 */
function stable(config: Record<string, unknown> = {}) {
  const { m, fetch } = inFirstPoll(config);
  const prefetch = sent(fetched(m, fetch, [0], 32), 'Fetch');
  fetched(m, prefetch, [], 34);
  expect(m.context<ConsumerContext>().pollWaiting).toBeNull();
  expect(fetchingState(m.state())).toBe('ASSIGNED.IDLE');
  return { m };
}

const membership = (m: ReturnType<typeof drive>) => membershipState(m.state());
const fetching = (m: ReturnType<typeof drive>) => fetchingState(m.state());

describe('consumer statechart: the two regions of running', () => {
  it('boot enters both regions and sends nothing (subscribe()); the first poll() sends JoinGroup, fetching is STOPPED until the assignment', () => {
    const m = drive(consumerMachine, inputOf(scenario(), 'c.consumer'));
    expect(m.state()).toBe('created');
    expect(sends(m.send({ type: 'boot' }, 0))).toEqual([]);
    expect(m.state()).toBe('running.membership.UNJOINED|running.fetching.STOPPED');
    expect(sends(m.send(call('poll'), 0))).toEqual(['JoinGroup→group-coordinator']);
    expect(m.state()).toBe('running.membership.PREPARING_REBALANCE|running.fetching.STOPPED');
  });

  it("guard joinSucceeded: a JoinGroup error stays in PREPARING_REBALANCE; a coordinator's asks again after retry.backoff.ms, UNKNOWN_MEMBER_ID at once", () => {
    const { m, polled } = bootAndPoll(inputOf(scenario(), 'c.consumer'));
    const join = sent(polled, 'JoinGroup');
    const refused = (correlationId: number, error: string, at: number) =>
      m.send(answer('JoinGroupResponse', correlationId, { error, generationId: -1, memberId: '', leader: '' }), at);
    const fx = refused(join?.payload.correlationId as number, 'COORDINATOR_LOAD_IN_PROGRESS', 5);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(timers(fx)).toEqual(['rejoinBackoff']);
    const again = sent(m.send({ type: 'rejoinBackoff', key: 'rejoin', data: {} }, 105), 'JoinGroup');
    expect(again).toBeDefined();
    // joinGroupIfNeeded: UNKNOWN_MEMBER_ID `continue`s — JoinGroup again in the same step, no backoff
    const unknown = refused(again?.payload.correlationId as number, 'UNKNOWN_MEMBER_ID', 110);
    expect(timers(unknown)).toEqual([]);
    expect(sends(unknown)).toEqual(['JoinGroup→group-coordinator']);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
  });

  it('the fetching region follows the positions and poll(): INITIALIZING → FETCH_IN_FLIGHT for the waiting first poll() → the prefetch as poll() returns → IDLE between polls until the next poll()', () => {
    const { m, sync } = joinedAsLeader();
    expect(m.state()).toBe('running.membership.COMPLETING_REBALANCE|running.fetching.STOPPED');
    const offsets = assigned(m, sync);
    expect(m.state()).toBe('running.membership.STABLE|running.fetching.ASSIGNED.INITIALIZING');
    // the position is known and the first poll() (the one that joined) waits: fetched at once
    const fetch = sent(positionsFetched(m, offsets), 'Fetch');
    expect(offsetOf(fetch)).toBe(0);
    expect(fetching(m)).toBe('ASSIGNED.FETCH_IN_FLIGHT');
    const batch = plainBatch([{ offset: 0 }]);
    const response = {
      error: 'NONE',
      topic: 't',
      partition: 0,
      highWatermark: 1,
      lastStableOffset: 1,
      logStartOffset: 0,
      batches: [batch],
      abortedTransactions: [],
    };
    // the waiting poll() returns the record, and sends the next Fetch before it returns (the prefetch)
    const returned = m.send(answer('FetchResponse', fetch?.payload.correlationId as number, { partitions: [response] }, 'broker-0'), 40);
    expect(returned.some((e) => e.type === 'call' && e.name === 'reply' && (e.args?.records as unknown[]).length === 1)).toBe(true);
    const prefetch = sent(returned, 'Fetch');
    expect(offsetOf(prefetch)).toBe(1);
    expect(fetching(m)).toBe('ASSIGNED.FETCH_IN_FLIGHT');
    // its long poll ends empty while the application processes: nothing more until the next poll()
    const empty = { ...response, batches: [] };
    expect(
      sends(m.send(answer('FetchResponse', prefetch?.payload.correlationId as number, { partitions: [empty] }, 'broker-0'), 540)),
    ).toEqual([]);
    expect(fetching(m)).toBe('ASSIGNED.IDLE');
    expect(offsetOf(sent(m.send(call('poll'), 600), 'Fetch'))).toBe(1);
    expect(fetching(m)).toBe('ASSIGNED.FETCH_IN_FLIGHT');
    expect(membership(m)).toBe('STABLE');
  });

  it('guard rejoinNeeded: a heartbeat error outside poll() keeps STABLE; the next poll() rejoins and the fetching region stops', () => {
    const { m } = stable({ 'enable.auto.commit': false });
    m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000);
    expect(membership(m)).toBe('STABLE');
    expect(m.context<ConsumerContext>().rejoinNeeded).toBe(true);
    const fx = m.send(call('poll'), 3100);
    expect(m.state()).toBe('running.membership.PREPARING_REBALANCE|running.fetching.STOPPED');
    expect(sends(fx)).toEqual(['JoinGroup→group-coordinator']);
    expect(m.context<ConsumerContext>().assignment).toEqual([]);
  });

  it('guard heartbeatRejoinsAfterCommit: with auto-commit and a consumed position, a member in poll() goes to JOIN_PREPARE and commits first', () => {
    const { m } = stable();
    m.send(call('seek', { topic: 't', partition: 0, offset: 3 }), 100);
    m.send(call('poll'), 200);
    const fx = m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000);
    expect(m.state()).toBe('running.membership.JOIN_PREPARE|running.fetching.STOPPED');
    const commit = sent(fx, 'OffsetCommit');
    expect(commit?.payload).toMatchObject({ generationId: 1, memberId: 'c-0', offsets: [{ topic: 't', partition: 0, offset: 3 }] });
    expect(sends(fx)).not.toContain('JoinGroup→group-coordinator');
    // guard joinPrepareCommitDone: the answer ends onJoinPrepare, the member revokes and joins
    const done = m.send(answer('OffsetCommitResponse', commit?.payload.correlationId as number, { error: 'NONE' }), 3010);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(sends(done)).toEqual(['JoinGroup→group-coordinator']);
  });

  it('a poll() that must rejoin does not auto-commit first (ConsumerCoordinator.poll returns before maybeAutoCommitOffsetsAsync): only onJoinPrepare commits', () => {
    const { m } = stable();
    m.send(call('seek', { topic: 't', partition: 0, offset: 3 }), 100);
    // asked to rejoin outside poll(), with the auto-commit timer (5000 ms) long expired
    m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000);
    const fx = m.send(call('poll'), 9000);
    expect(membership(m)).toBe('JOIN_PREPARE');
    const commit = sent(fx, 'OffsetCommit');
    expect(commit).toBeDefined();
    // that one commit is onJoinPrepare's: its answer ends it and the member joins, no second commit
    const done = m.send(answer('OffsetCommitResponse', commit?.payload.correlationId as number, { error: 'NONE' }), 9010);
    expect(sends(done)).toEqual(['JoinGroup→group-coordinator']);
  });

  it('guard heartbeatRejoinsNow without onJoinPrepare: UNKNOWN_MEMBER_ID forgets the member, so it rejoins at once', () => {
    const { m } = stable();
    m.send(call('seek', { topic: 't', partition: 0, offset: 3 }), 100);
    m.send(call('poll'), 200);
    const fx = m.send(answer('HeartbeatResponse', 99, { error: 'UNKNOWN_MEMBER_ID' }), 3000);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(sent(fx, 'JoinGroup')?.payload).toMatchObject({ memberId: '' });
    expect(sends(fx)).not.toContain('OffsetCommit→group-coordinator');
  });

  it('a coordinator error on a heartbeat changes no state (the guards do not fire): only the next heartbeat comes sooner', () => {
    const { m } = stable();
    m.send(call('poll'), 200);
    const before = m.state();
    const fx = m.send(answer('HeartbeatResponse', 99, { error: 'COORDINATOR_NOT_AVAILABLE' }), 3000);
    expect(fx).toEqual([{ type: 'timer', key: 'heartbeat', name: 'heartbeatDue', delay: 100, data: {}, background: true }]);
    expect(m.state()).toBe(before);
  });

  it('guard joinPrepareCommitLost: a lost onJoinPrepare commit is retried before the deadline, given up after it', () => {
    const { m } = stable();
    m.send(call('seek', { topic: 't', partition: 0, offset: 3 }), 100);
    m.send(call('poll'), 200);
    const commit = sent(m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000), 'OffsetCommit');
    const retry = m.send(lost(commit), 4000);
    expect(membership(m)).toBe('JOIN_PREPARE');
    // (the close also put the coordinator's node in its reconnect backoff: that timer first)
    expect(timers(retry)).toEqual(['reconnectBackoffExpired', 'commitRetry']);
    const again = sent(m.send({ type: 'commitRetry', key: 'commitRetry', data: {} }, 4100), 'OffsetCommit');
    // past the rebalance timeout (max.poll.interval.ms after the commit began): given up, the member rejoins
    const fx = m.send(lost(again), 3000 + 300000);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(sends(fx)).toEqual(['JoinGroup→group-coordinator']);
  });

  it('guard joinPrepareRetryRefused: the onJoinPrepare commit’s retry after a heartbeat reset the generation sends nothing and the member rejoins (sendOffsetCommitRequest: generationIfStable() is null)', () => {
    const { m } = stable();
    m.send(call('seek', { topic: 't', partition: 0, offset: 3 }), 100);
    m.send(call('poll'), 200);
    const commit = sent(m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000), 'OffsetCommit');
    m.send(answer('OffsetCommitResponse', commit?.payload.correlationId as number, { error: 'COORDINATOR_LOAD_IN_PROGRESS' }), 3010);
    expect(membership(m)).toBe('JOIN_PREPARE');
    // the heartbeat thread's answer during the backoff: this member is gone
    m.send(answer('HeartbeatResponse', 98, { error: 'UNKNOWN_MEMBER_ID' }), 3050);
    const fx = m.send({ type: 'commitRetry', key: 'commitRetry', data: {} }, 3110);
    expect(sends(fx)).toEqual(['JoinGroup→group-coordinator']);
    expect(sent(fx, 'JoinGroup')?.payload).toMatchObject({ memberId: '' });
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    // told as onJoinPrepare's log line is: the commit failed, the member goes on joining
    expect(fx).toContainEqual(
      expect.objectContaining({ type: 'fact', fact: expect.objectContaining({ error: 'CommitFailedException', during: 'onJoinPrepare' }) }),
    );
  });

  it('guard joinPrepareCommitDone: onJoinPrepare’s commit queued behind an auto-commit refused ILLEGAL_GENERATION fails unsent (built when sent: no generation) and the member rejoins', () => {
    const { m } = stable();
    m.send(call('seek', { topic: 't', partition: 0, offset: 3 }), 100);
    // the auto-commit due at this poll() goes out
    const auto = sent(m.send(call('poll'), 6000), 'OffsetCommit');
    expect(auto).toBeDefined();
    // the heartbeat asks for a rejoin: onJoinPrepare's commit waits behind the auto-commit
    expect(sends(m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 6010))).toEqual([]);
    expect(membership(m)).toBe('JOIN_PREPARE');
    const fx = m.send(answer('OffsetCommitResponse', auto?.payload.correlationId as number, { error: 'ILLEGAL_GENERATION' }), 6020);
    expect(sends(fx)).toEqual(['JoinGroup→group-coordinator']);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(fx).toContainEqual(
      expect.objectContaining({ type: 'fact', fact: expect.objectContaining({ error: 'CommitFailedException', during: 'onJoinPrepare' }) }),
    );
  });

  it('guard joinOrSyncLost: a lost JoinGroup is asked again; after a lost SyncGroup the member is COMPLETING_REBALANCE until the JoinGroup after the backoff', () => {
    const { m, polled } = bootAndPoll(inputOf(scenario(), 'c.consumer'));
    const join = sent(polled, 'JoinGroup');
    const fx = m.send(lost(join), 1000);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(timers(fx)).toEqual(['reconnectBackoffExpired', 'rejoinBackoff']);
    expect(fx.some((e) => e.type === 'fact' && (e.fact as { error?: string }).error === 'REQUEST_TIMED_OUT')).toBe(true);
    const join2 = sent(m.send({ type: 'rejoinBackoff', key: 'rejoin', data: {} }, 1100), 'JoinGroup');
    const sync = sent(
      m.send(
        answer('JoinGroupResponse', join2?.payload.correlationId as number, {
          error: 'NONE',
          generationId: 1,
          memberId: 'c-0',
          leader: 'c-0',
        }),
        1200,
      ),
      'SyncGroup',
    );
    m.send(lost(sync), 2000);
    expect(membership(m)).toBe('COMPLETING_REBALANCE');
    expect(sends(m.send({ type: 'rejoinBackoff', key: 'rejoin', data: {} }, 2100))).toEqual(['JoinGroup→group-coordinator']);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
  });

  it('a SyncGroup answer that arrives after resubscribe() left COMPLETING_REBALANCE is ignored: the fetching region stays STOPPED', () => {
    const { m, sync } = joinedAsLeader();
    m.send(call('resubscribe'), 15);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(
      m.send(
        answer('SyncGroupResponse', sync?.payload.correlationId as number, { error: 'NONE', assignment: [{ topic: 't', partition: 0 }] }),
        20,
      ),
    ).toEqual([]);
    expect(m.state()).toBe('running.membership.PREPARING_REBALANCE|running.fetching.STOPPED');
  });

  it('a SyncGroup error rejoins at once', () => {
    const { m, sync } = joinedAsLeader();
    const fx = m.send(
      answer('SyncGroupResponse', sync?.payload.correlationId as number, { error: 'REBALANCE_IN_PROGRESS', assignment: [] }),
      20,
    );
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(sends(fx)).toEqual(['JoinGroup→group-coordinator']);
  });

  it('a SyncGroup answered COORDINATOR_LOAD_IN_PROGRESS is not retried: the waiting poll() throws KafkaException, the next poll() joins again', () => {
    const { m, sync } = joinedAsLeader();
    const fx = m.send(
      answer('SyncGroupResponse', sync?.payload.correlationId as number, { error: 'COORDINATOR_LOAD_IN_PROGRESS', assignment: [] }),
      20,
    );
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(sends(fx)).toEqual([]);
    // the first poll(), which joined, is still waiting: it throws now
    expect(fx).toContainEqual(pollThrew('KafkaException'));
    expect(sends(m.send(call('poll'), 40))).toEqual(['JoinGroup→group-coordinator']);
  });

  it('a SyncGroup answered NOT_COORDINATOR joins again after retry.backoff.ms (COMPLETING_REBALANCE until then)', () => {
    const { m, sync } = joinedAsLeader();
    const fx = m.send(answer('SyncGroupResponse', sync?.payload.correlationId as number, { error: 'NOT_COORDINATOR', assignment: [] }), 20);
    expect(membership(m)).toBe('COMPLETING_REBALANCE');
    expect(timers(fx)).toEqual(['rejoinBackoff']);
    m.send({ type: 'rejoinBackoff', key: 'rejoin', data: {} }, 120);
    expect(membership(m)).toBe('PREPARING_REBALANCE');
  });

  it('without group.id the member is USER_ASSIGNED: every partition, positions reset by ListOffsets, no commits', () => {
    const m = drive(
      consumerMachine,
      inputOf({ ...scenario(), clients: [{ id: 'c', type: 'consumer', config: { 'group.id': null }, topics: ['t'] }] }, 'c.consumer'),
    );
    const fx = m.send({ type: 'boot' }, 0);
    expect(m.state()).toBe('running.membership.USER_ASSIGNED|running.fetching.ASSIGNED.INITIALIZING');
    // assign() sends nothing: the first poll() resets the positions
    expect(sends(fx)).toEqual([]);
    expect(sends(m.send(call('poll'), 1))).toEqual(['ListOffsets→broker-0']);
    const refused = m.send(call('commitSync'), 5);
    expect(refused).toEqual([
      { type: 'call', to: 'c.app', name: 'reply', args: { call: 'commitSync', ok: false, error: 'InvalidGroupIdException' } },
    ]);
  });

  it('close() without auto-commit leaves the group at once; crash and restart start running again', () => {
    const { m } = stable({ 'enable.auto.commit': false });
    const fx = m.send(call('close'), 500);
    expect(m.state()).toBe('closed');
    expect(sends(fx)).toEqual(['LeaveGroup→group-coordinator']);
    const n = stable().m;
    n.send({ type: 'crash' }, 600);
    expect(n.state()).toBe('down');
    // a restarted process is a new consumer: its leaders unknown, the Metadata request goes first (consumerMetadata.ts);
    // it joins from its application's first poll()
    expect(sends(n.send({ type: 'restart' }, 700))).toEqual(['Metadata→broker-0']);
    expect(n.state()).toBe('running.membership.UNJOINED|running.fetching.STOPPED');
    expect(sends(n.send(call('poll'), 700))).toEqual(['JoinGroup→group-coordinator']);
    expect(n.state()).toBe('running.membership.PREPARING_REBALANCE|running.fetching.STOPPED');
    expect(n.context<ConsumerContext>().generationId).toBe(-1);
  });

  it('close() with auto-commit on commits the consumed positions first and leaves after the answer (ConsumerCoordinator.close → maybeAutoCommitOffsetsSync)', () => {
    const { m } = stable();
    m.send(call('seek', { topic: 't', partition: 0, offset: 3 }), 100);
    const fx = m.send(call('close'), 500);
    expect(m.state()).toBe('closing');
    expect(sends(fx)).toEqual(['OffsetCommit→group-coordinator']);
    const commit = sent(fx, 'OffsetCommit');
    expect(commit?.payload).toMatchObject({ generationId: 1, offsets: [{ topic: 't', partition: 0, offset: 3 }] });
    // heartbeats stop, close() is not answered yet
    expect(fx.some((e) => e.type === 'call' && e.name === 'reply')).toBe(false);
    const done = m.send(answer('OffsetCommitResponse', commit?.payload.correlationId as number, { error: 'NONE' }), 510);
    expect(m.state()).toBe('closed');
    expect(sends(done)).toEqual(['LeaveGroup→group-coordinator']);
    expect(done).toContainEqual({ type: 'call', to: 'c.app', name: 'reply', args: { call: 'close', ok: true } });
  });

  it("close()'s auto-commit: a retriable failure is retried within the close timeout (30 s), a lost one after it is given up; a fatal one is only logged", () => {
    const { m } = stable();
    const commit = sent(m.send(call('close'), 500), 'OffsetCommit');
    const retry = m.send(
      answer('OffsetCommitResponse', commit?.payload.correlationId as number, { error: 'COORDINATOR_NOT_AVAILABLE' }),
      510,
    );
    expect(m.state()).toBe('closing');
    expect(timers(retry)).toEqual(['commitRetry']);
    const again = sent(m.send({ type: 'commitRetry', key: 'commitRetry', data: {} }, 700), 'OffsetCommit');
    // the consumed position: record 0 was returned by the first poll()
    expect(again?.payload).toMatchObject({ offsets: [{ topic: 't', partition: 0, offset: 1 }] });
    const gaveUp = m.send(lost(again), 500 + 30000);
    expect(m.state()).toBe('closed');
    expect(sends(gaveUp)).toEqual(['LeaveGroup→group-coordinator']);

    const fenced = stable().m;
    const c2 = sent(fenced.send(call('close'), 500), 'OffsetCommit');
    const fx = fenced.send(answer('OffsetCommitResponse', c2?.payload.correlationId as number, { error: 'ILLEGAL_GENERATION' }), 510);
    expect(fenced.state()).toBe('closed');
    expect(fx).toContainEqual({ type: 'call', to: 'c.app', name: 'reply', args: { call: 'close', ok: true } });
  });

  it('auto.offset.reset=none, no committed offset: poll() throws NoOffsetForPartitionException, no ListOffsets; the next poll() asks again', () => {
    const { m, sync } = joinedAsLeader({ 'auto.offset.reset': 'none' });
    // the first poll(), which joined, waits
    const offsets = assigned(m, sync);
    const fx = m.send(
      answer('OffsetFetchResponse', offsets?.payload.correlationId as number, {
        error: 'NONE',
        offsets: [{ topic: 't', partition: 0, offset: -1, error: 'NONE' }],
      }),
      30,
    );
    expect(sends(fx)).toEqual([]);
    expect(fx).toContainEqual(pollThrew('NoOffsetForPartitionException'));
    expect(sends(m.send(call('poll'), 40))).toEqual(['OffsetFetch→group-coordinator']);
  });

  it('auto.offset.reset=none, a fetch out of range: poll() throws OffsetOutOfRangeException instead of resetting', () => {
    const { m } = stable({ 'auto.offset.reset': 'none' });
    const fetch = sent(m.send(call('poll'), 35), 'Fetch');
    const fx = m.send(
      answer(
        'FetchResponse',
        fetch?.payload.correlationId as number,
        { partitions: [{ error: 'OFFSET_OUT_OF_RANGE', topic: 't', partition: 0 }] },
        'broker-0',
      ),
      40,
    );
    expect(sends(fx)).toEqual([]);
    expect(fx).toContainEqual(pollThrew('OffsetOutOfRangeException'));
    // with a reset policy the same answer asks ListOffsets for it
    const { m: reset } = stable();
    const f2 = sent(reset.send(call('poll'), 35), 'Fetch');
    const fx2 = reset.send(
      answer(
        'FetchResponse',
        f2?.payload.correlationId as number,
        { partitions: [{ error: 'OFFSET_OUT_OF_RANGE', topic: 't', partition: 0 }] },
        'broker-0',
      ),
      40,
    );
    expect(sends(fx2)).toEqual(['ListOffsets→broker-0']);
  });

  it('auto.offset.reset=none, a fetch out of range: the position stays — the next poll() fetches the same offset and throws again, and close() commits that position', () => {
    // FetchCollector.handleInitializeErrors: without a reset policy the OffsetOutOfRangeException is
    // thrown and the partition stays FETCHING at its position (no OffsetFetch, no reset)
    const { m, fetch: first } = inFirstPoll({ 'auto.offset.reset': 'none' });
    const outOfRange = (f: ReturnType<typeof sent>, at: number) =>
      m.send(
        answer(
          'FetchResponse',
          f?.payload.correlationId as number,
          { partitions: [{ error: 'OFFSET_OUT_OF_RANGE', topic: 't', partition: 0 }] },
          'broker-0',
        ),
        at,
      );
    // the first poll()'s Fetch
    expect(offsetOf(first)).toBe(0);
    expect(outOfRange(first, 40)).toContainEqual(pollThrew('OffsetOutOfRangeException'));
    const again = m.send(call('poll'), 50);
    expect(sends(again)).toEqual(['Fetch→broker-0']);
    expect(offsetOf(sent(again, 'Fetch'))).toBe(0);
    expect(outOfRange(sent(again, 'Fetch'), 55)).toContainEqual(pollThrew('OffsetOutOfRangeException'));
    // the application gives up and closes: its auto-commit names the position (allConsumed: FETCHING)
    const commit = sent(m.send(call('close'), 60), 'OffsetCommit');
    expect(commit?.payload.offsets).toEqual([{ topic: 't', partition: 0, offset: 0 }]);
  });

  it('commitSync(offsets) while rebalancing is refused with RebalanceInProgressException (commitSync() with nothing consumed succeeds)', () => {
    // rebalancing: the JoinGroup of the first poll() in flight
    const { m } = bootAndPoll(inputOf(scenario(), 'c.consumer'));
    expect(membership(m)).toBe('PREPARING_REBALANCE');
    expect(m.send(call('commitSync', { offsets: [{ topic: 't', partition: 0, offset: 1 }] }), 1)).toContainEqual({
      type: 'call',
      to: 'c.app',
      name: 'reply',
      args: { call: 'commitSync', ok: false, error: 'RebalanceInProgressException' },
    });
  });
});
