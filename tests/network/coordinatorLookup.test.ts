/**
 * Coordinator lookups after a coordinator's broker dies (audit of client networking, Finding 3),
 * against Kafka 4.x (trunk, Oct 2024):
 * - FindCoordinator goes to NetworkClient.leastLoadedNode (AbstractCoordinator.lookupCoordinator;
 *   the producer's Sender.maybeSendAndPollTransactionalRequest for a FindCoordinatorHandler, and for
 *   an idempotent producer's InitProducerId): never a node inside its reconnect backoff, a working
 *   connection first. The old model took the brokers in turn from the coordinator's own broker, so
 *   the lookup after that broker died went to it.
 * - AbstractCoordinator.HeartbeatThread.run: while the member is in a group and coordinatorUnknown(),
 *   lookupCoordinator() then wait(retryBackoffMs) — whether or not a group request waits. The old model
 *   looked up only for a waiting request. (Inside poll() the lookups are the main thread's:
 *   tests/network/pollCoordinatorLookup.test.ts.)
 * - A coordinator whose connection is inside its reconnect backoff is unknown (checkAndGetCoordinator,
 *   ensureCoordinatorReady: client.isUnavailable(coordinator) → markCoordinatorUnknown); the producer's
 *   awaitNodeReady throws for it and looks it up again (maybeFindCoordinatorAndRetry). The old model sent
 *   the group or transactional request to it.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { leastLoadedNode } from '../../src/sim/cluster/clientMetadata';
import { backoffOver, type ConnectionStates, connecting, disconnected, NO_CONNECTION_STATES } from '../../src/sim/cluster/connectionStates';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import { type ConsumerContext, consumerMachine, membershipState } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { maybeSendTxnRequest } from '../../src/sim/producer/transactionManager';
import { runScenario } from '../../src/sim/run';
import { coordinatorDead, HOSTED_GROUP_CONSUMER } from '../fixtures/hostedGroup';
import { producerDraft } from '../fixtures/producerDraft';
import { answer, bootAndPoll, lost, sent } from '../machines/consumerDriver';
import { type Driven, drive, inputOf, sends } from '../machines/harness';
import { HOSTED_TXN_META } from '../replication/hostBroker';
import { fetchAnswer } from './hostedStableMember';

const RECONNECT = { 'reconnect.backoff.ms': 50, 'reconnect.backoff.max.ms': 1000 };
const META = { brokers: ['broker-0', 'broker-1', 'broker-2'] } as unknown as ClusterMetadata;

describe('leastLoadedNode over the connection states (the fixed order of the metadata, not a random start)', () => {
  it('a working connection first, then one being connected to, then the connectable one tried longest ago; never one in its backoff', () => {
    // broker-0 in its backoff, broker-1 connecting, broker-2 working (no state): broker-2
    let c: ConnectionStates = disconnected(NO_CONNECTION_STATES, 'broker-0', 100, RECONNECT);
    c = connecting(backoffOver(disconnected(c, 'broker-1', 90, RECONNECT), 'broker-1'), 'broker-1', 140);
    expect(leastLoadedNode(META, c)).toBe('broker-2');
    expect(leastLoadedNode({ ...META, brokers: ['broker-0', 'broker-1'] }, c)).toBe('broker-1');
    expect(leastLoadedNode(META, NO_CONNECTION_STATES)).toBe('broker-0');
    // every broker failed: those whose backoff passed, the oldest attempt first; none left: null
    const over = backoffOver;
    let all: ConnectionStates = NO_CONNECTION_STATES;
    for (const [n, at] of [
      ['broker-0', 300],
      ['broker-1', 100],
      ['broker-2', 200],
    ] as const)
      all = disconnected(all, n, at, RECONNECT);
    expect(leastLoadedNode(META, all)).toBeNull();
    expect(leastLoadedNode(META, over(over(all, 'broker-0'), 'broker-2'))).toBe('broker-2');
    expect(leastLoadedNode(META, over(all, 'broker-1'))).toBe('broker-1');
  });
});

/** The audit's scenario: broker-1, the group's coordinator (not the orders-0 leader), crashes at 3600 for 20 s. */
const coordDead = coordinatorDead([12000]);

describe("the audit's scenario: the group coordinator's broker dies", () => {
  const t = runScenario(coordDead);
  const fromReader = (rpc: string) => [...t.envelopes].filter((e) => e && e.rpc === rpc && e.from === 'reader.consumer');
  const finds = fromReader('FindCoordinator');

  it('no FindCoordinator goes to the dead broker: each goes to a live one', () => {
    const whileDown = finds.filter((e) => e.sentAt >= 3600 && e.sentAt < 23600);
    expect(whileDown.length).toBeGreaterThan(20);
    expect(whileDown.filter((e) => e.to === 'broker-1')).toEqual([]);
  });

  it("while the coordinator is unknown the waiting poll() looks it up, no request waiting: at once, then after ensureCoordinatorReady's doubling backoff", () => {
    // the first lookup after a Heartbeat to the dead coordinator failed is at 6110; the new coordinator (broker-2) is named after the fence (11001).
    // The reader waits in poll() throughout: its lookups are the main thread's (pollLookup.ts), each failed one
    // followed by the next after 100, 200, 400 ms … — a lookup that names broker-1 out of its backoff lets a
    // Heartbeat go, whose loss starts them again from 100 ms
    const at = finds.map((e) => e.sentAt).filter((s) => s >= 6108 && s <= 11800);
    const gaps = at.slice(1).map((s, i) => s - (at[i] as number));
    expect(at[0]).toBe(6110);
    expect(at.length).toBeGreaterThan(20);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(1000);
    expect(Math.max(...gaps)).toBeGreaterThan(300);
  });

  it('the commitSync at 12010 goes straight to broker-2 (found by the waiting poll() at 11766) and is acknowledged 4 ms later', () => {
    const commit = fromReader('OffsetCommit').find((e) => e.sentAt >= 12010);
    expect(commit?.sentAt).toBe(12010);
    expect(commit?.to).toBe('broker-2.group-coordinator');
    expect(finds.filter((e) => e.sentAt >= 11767 && e.sentAt <= 12014)).toEqual([]);
    const reply = t.steps.find((s) => s.t >= 12010 && s.actor === 'reader.consumer' && s.label === 'OffsetCommitResponse');
    expect(reply?.t).toBe(12014);
  });
});

const scenario = HOSTED_GROUP_CONSUMER;
const call = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'c.app', args });
const lookupTimers = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'timer' && e.name === 'heartbeatThreadLookup' ? [e.delay] : []));

/** broker-0 answers the FindCoordinator `find` at `now`, naming `coordinator`. */
const coordinatorFound = (m: Driven, find: { payload: Record<string, unknown> } | undefined, coordinator: string, now: number) =>
  m.send(answer('FindCoordinatorResponse', find?.payload.correlationId as number, { error: 'NONE', coordinator }, 'broker-0'), now);

/** A member STABLE in generation 1 whose coordinator, found through broker-0, is `coordinator`. */
function stableWith(coordinator: string): Driven {
  // subscribe() sends nothing: the application's first poll() looks the coordinator up and joins
  const { m, polled } = bootAndPoll(inputOf(scenario, 'c.consumer'));
  const find = sent(polled, 'FindCoordinator');
  expect(find?.to).toBe('broker-0');
  const join = sent(coordinatorFound(m, find, coordinator, 2), 'JoinGroup');
  const joined = { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' };
  const sync = sent(m.send(answer('JoinGroupResponse', join?.payload.correlationId as number, joined, coordinator), 4), 'SyncGroup');
  const offsets = sent(
    m.send(
      answer(
        'SyncGroupResponse',
        sync?.payload.correlationId as number,
        { error: 'NONE', assignment: [{ topic: 't', partition: 0 }] },
        coordinator,
      ),
      6,
    ),
    'OffsetFetch',
  );
  expect(membershipState(m.state())).toBe('STABLE');
  // the first poll() returns record 0 and its prefetch comes back empty: the application is outside poll()
  const committed = { error: 'NONE', offsets: [{ topic: 't', partition: 0, offset: 0 }] };
  const fetch = sent(m.send(answer('OffsetFetchResponse', offsets?.payload.correlationId as number, committed, coordinator), 8), 'Fetch');
  const prefetch = sent(m.send(fetchAnswer(fetch, [0]), 9), 'Fetch');
  m.send(fetchAnswer(prefetch, []), 10);
  expect(m.context<{ pollWaiting: string | null }>().pollWaiting).toBeNull();
  return m;
}

describe('the consumer: FindCoordinator to the least loaded node', () => {
  it("after its coordinator's broker dies, the lookup avoids that broker (in its backoff), whichever broker it is", () => {
    // the coordinator on broker-0, the broker the first lookup went to: its connections close with the crash
    const m = stableWith('broker-0.group-coordinator');
    m.send({ type: 'connectionClosed', to: 'broker-0', reason: 'peer-down' }, 100);
    const hb = sent(m.send({ type: 'heartbeatDue' }, 3004), 'Heartbeat');
    expect(hb?.to).toBe('broker-0.group-coordinator');
    const fx = m.send(lost(hb), 3006);
    expect(sends(fx)).toEqual(['FindCoordinator→broker-1']);
  });

  it('no broker to ask (each in its backoff): no FindCoordinator now, asked again after retry.backoff.ms', () => {
    const m = stableWith('broker-1.group-coordinator');
    for (const b of ['broker-0', 'broker-2']) m.send({ type: 'connectionClosed', to: b, reason: 'peer-down' }, 3000);
    const hb = sent(m.send({ type: 'heartbeatDue' }, 3004), 'Heartbeat');
    m.send({ type: 'connectionClosed', to: 'broker-1', reason: 'peer-down' }, 3005);
    const fx = m.send(lost(hb), 3006);
    expect(sends(fx).filter((s) => s.startsWith('FindCoordinator'))).toEqual([]);
    expect(lookupTimers(fx)).toEqual([100]);
  });
});

describe("the consumer's heartbeat thread looks an unknown coordinator up every retry.backoff.ms", () => {
  it('a commit lost with its coordinator: the thread wakes after retry.backoff.ms and sends FindCoordinator, no request waiting; again while unknown; not once found', () => {
    const m = stableWith('broker-1.group-coordinator');
    const commit = sent(m.send(call('commitSync', { offsets: [{ topic: 't', partition: 0, offset: 1 }] }), 100), 'OffsetCommit');
    // a commitSync retries later (commitBackoff); what looks the coordinator up now is the heartbeat thread
    const lostFx = m.send({ ...lost(commit), timedOut: false, reason: 'peer-down' }, 102);
    expect(lookupTimers(lostFx)).toEqual([100]);
    expect(m.context<ConsumerContext>().groupCoordinator).toBeNull();
    const first = m.send({ type: 'heartbeatThreadLookup' }, 202);
    const find = sent(first, 'FindCoordinator');
    expect(find?.to).toBe('broker-0');
    expect(lookupTimers(first)).toEqual([100]);
    // in flight: no second one; the thread sleeps again
    const second = m.send({ type: 'heartbeatThreadLookup' }, 302);
    expect(sent(second, 'FindCoordinator')).toBeUndefined();
    expect(lookupTimers(second)).toEqual([100]);
    coordinatorFound(m, find, 'broker-2.group-coordinator', 303);
    expect(m.context<ConsumerContext>().groupCoordinator).toBe('broker-2.group-coordinator');
    const found = m.send({ type: 'heartbeatThreadLookup' }, 402);
    expect(sends(found)).toEqual([]);
    expect(lookupTimers(found)).toEqual([]);
  });

  it('not for a member out of its generation (UNJOINED: the thread is disabled)', () => {
    const m = stableWith('broker-1.group-coordinator');
    m.send(answer('HeartbeatResponse', 99, { error: 'UNKNOWN_MEMBER_ID' }, 'broker-1.group-coordinator'), 100);
    m.send(answer('HeartbeatResponse', 98, { error: 'NOT_COORDINATOR' }, 'broker-1.group-coordinator'), 101);
    const fx = m.send({ type: 'heartbeatThreadLookup' }, 201);
    expect(sends(fx)).toEqual([]);
    expect(lookupTimers(fx)).toEqual([]);
  });
});

describe('the reconnect backoff holds group requests (checkAndGetCoordinator: isUnavailable → coordinator unknown)', () => {
  it("a commitSync while the coordinator's connection is in its backoff: no OffsetCommit to it; FindCoordinator to a live broker; the commit goes to the coordinator found", () => {
    const m = stableWith('broker-1.group-coordinator');
    // the idle connection to the coordinator closes as its broker dies: DISCONNECTED, 50 ms backoff
    m.send({ type: 'connectionClosed', to: 'broker-1.group-coordinator', reason: 'peer-down' }, 3000);
    const fx = m.send(call('commitSync', { offsets: [{ topic: 't', partition: 0, offset: 1 }] }), 3010);
    expect(sends(fx)).toEqual(['FindCoordinator→broker-0']);
    const find = sent(fx, 'FindCoordinator');
    // still named (not fenced yet), still in its backoff: the commit keeps waiting, asked again after retry.backoff.ms
    const again = coordinatorFound(m, find, 'broker-1.group-coordinator', 3012);
    expect(sends(again)).toEqual([]);
    expect(again).toContainEqual(expect.objectContaining({ type: 'timer', name: 'coordinatorLookupRetry', delay: 100 }));
    const retry = sent(m.send({ type: 'coordinatorLookupRetry' }, 3112), 'FindCoordinator');
    const found = coordinatorFound(m, retry, 'broker-2.group-coordinator', 3114);
    expect(sends(found)).toEqual(['OffsetCommit→broker-2.group-coordinator']);
  });

  it('close(): no LeaveGroup to a coordinator in its backoff (maybeLeaveGroup: only if !coordinatorUnknown())', () => {
    const m = stableWith('broker-1.group-coordinator');
    m.send({ type: 'connectionClosed', to: 'broker-1.group-coordinator', reason: 'peer-down' }, 3000);
    expect(sends(m.send(call('close'), 3010))).toEqual([]);
  });
});

describe('the producer: FindCoordinator to the least loaded node; a coordinator in its backoff is looked up again', () => {
  const sendsOf = (out: Out) => out.effects.flatMap((e: Effect) => (e.type === 'send' ? [`${e.rpc}→${e.to}`] : []));

  it('a transactional request to a coordinator whose connection is in its backoff: FindCoordinator instead, to a broker not in its backoff', () => {
    const d = producerDraft(HOSTED_TXN_META, { 'transactional.id': 'p-1' });
    d.txnCoordinator = 'broker-0.txn-coordinator';
    d.initPending = true;
    d.connections = disconnected(NO_CONNECTION_STATES, 'broker-0', 100, RECONNECT);
    const out = new Out();
    maybeSendTxnRequest(d, out);
    expect(sendsOf(out)).toEqual(['FindCoordinator→broker-1']);
    expect(d.txnCoordinator).toBeNull();
  });

  it("an idempotent producer's InitProducerId (no coordinator needed) goes to the least loaded node too; none: retried after retry.backoff.ms", () => {
    const d = producerDraft(HOSTED_TXN_META, { 'enable.idempotence': true });
    d.producerId = -1;
    d.initPending = true;
    d.connections = disconnected(NO_CONNECTION_STATES, 'broker-0', 100, RECONNECT);
    const out = new Out();
    maybeSendTxnRequest(d, out);
    expect(sendsOf(out)).toEqual(['InitProducerId→broker-1.txn-coordinator']);

    const none = producerDraft(HOSTED_TXN_META, { 'enable.idempotence': true });
    none.producerId = -1;
    none.initPending = true;
    for (const b of HOSTED_TXN_META.brokers) none.connections = disconnected(none.connections, b, 100, RECONNECT);
    const later = new Out();
    maybeSendTxnRequest(none, later);
    expect(sendsOf(later)).toEqual([]);
    expect(later.effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'txnRetryBackoffExpired', delay: 100 }));
  });
});

describe('ListOffsets skips a leader inside its reconnect backoff (OffsetFetcher.groupListOffsetRequests: isUnavailable)', () => {
  it('endOffsets() while the leader is in its backoff: no ListOffsets now, the round fails and awaits a metadata update, after which it asks the leader', () => {
    const m = drive(
      consumerMachine,
      inputOf(
        { ...scenario, cluster: { brokers: 1 }, clients: [{ id: 'c', type: 'consumer', config: { 'group.id': null }, topics: ['t'] }] },
        'c.consumer',
      ),
    );
    m.send({ type: 'boot' }, 0);
    // assign() sends nothing: the first poll() resets the position
    const reset = sent(m.send({ type: 'poll', from: 'c.app', args: {} }, 0), 'ListOffsets');
    expect(reset?.to).toBe('broker-0');
    const position = { partitions: [{ error: 'NONE', topic: 't', partition: 0, offset: 0 }] };
    m.send(answer('ListOffsetsResponse', reset?.payload.correlationId as number, position, 'broker-0'), 2);
    m.send({ type: 'connectionClosed', to: 'broker-0', reason: 'peer-down' }, 100);
    const fx = m.send(call('endOffsets'), 110);
    expect(sends(fx)).toEqual([]);
    expect(fx.filter((e) => e.type === 'timer' && e.name === 'listOffsetsRetry')).toEqual([]);
    // the backoff over: the awaited metadata update goes out, and its answer starts the next round
    const update = sent(m.send({ type: 'reconnectBackoffExpired', data: { node: 'broker-0' } }, 150), 'Metadata');
    expect(update?.to).toBe('broker-0');
    const meta = {
      brokers: ['broker-0'],
      topics: [
        {
          name: 't',
          partitions: [{ partition: 0, error: 'NONE', leader: 'broker-0', leaderEpoch: 0, replicas: ['broker-0'], isr: ['broker-0'] }],
        },
      ],
    };
    const again = m.send(answer('MetadataResponse', update?.payload.correlationId as number, meta, 'broker-0'), 160);
    expect(sends(again)).toContain('ListOffsets→broker-0');
  });
});
