/**
 * The group coordinator on the leader of a replicated __consumer_offsets, rule by rule
 * (docs/reference/kafka-behaviour.md §12, "The group coordinator on the __consumer_offsets
 * leader"): the error mapping (CoordinatorOperationExceptionHelper.handleOperationException), the
 * host's acks=1 append answered at the HW (CoordinatorPartitionWriter.append + HighWatermarkListener,
 * offsets.commit.timeout.ms), ownership (CoordinatorRuntime.withActiveContextOrThrow), the held
 * answer and the state reverted on a failed write, the load from the replica
 * (GroupMetadataManager / OffsetMetadataManager replay), onResignation, FindCoordinator(GROUP), the
 * consumer's markCoordinatorUnknown and lookup, and the config's validation.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { groupCoordinatorFor, groupCoordinatorHandoffs, offsetsBatches, onAppendConsumerOffsets } from '../../src/sim/broker/offsetsHost';
import { highWatermarkReached, onProduceTimeout } from '../../src/sim/broker/replication';
import { offsetsReplication, replicationItem } from '../../src/sim/checks/checklist';
import { type ClusterMetadata, CONSUMER_OFFSETS_TOPIC } from '../../src/sim/cluster/metadata';
import { resolveClusterConfig } from '../../src/sim/config/clusterConfig';
import { resolveConsumerConfig } from '../../src/sim/config/consumerConfig';
import { initialContext, markCoordinatorUnknownOn, sendToCoordinator } from '../../src/sim/consumer/consumerContext';
import type { ConsumerEvent } from '../../src/sim/consumer/events';
import { onFindCoordinatorResponse } from '../../src/sim/consumer/groupLookup';
import { DEFAULT_GROUP_COORDINATOR_CONFIG, type GroupCoordinatorContext } from '../../src/sim/coordinator/groupCoordinator.machine';
import {
  onBecomeGroupCoordinator,
  onGroupsLoaded,
  onOffsetFetchHosted,
  onResignGroupCoordinator,
  replayOffsets,
  runOperation,
} from '../../src/sim/coordinator/hostedGroupCoordinator.machine';
import {
  emptyHostedState,
  groupCoordinatorErrorFor,
  OFFSET_COMMIT_TIMEOUT_MS,
  type OffsetsBatch,
  type OffsetsHostedState,
  onOffsetsWriteAnswered,
} from '../../src/sim/coordinator/offsetsHosted';
import type { Effect } from '../../src/sim/kernel/effects';
import { createPartitionLog } from '../../src/sim/log/partitionLog';
import { transactionStateTopic } from '../../src/sim/scenario/build';
import { BROKERS, hostBroker } from './hostBroker';

const KEY = `${CONSUMER_OFFSETS_TOPIC}-0`;
const meta: ClusterMetadata = {
  brokers: BROKERS,
  topics: {
    [CONSUMER_OFFSETS_TOPIC]: transactionStateTopic(BROKERS, 1, 3, CONSUMER_OFFSETS_TOPIC),
    orders: { name: 'orders', partitions: 1, leaders: ['broker-0'] },
  },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'broker-0.group-coordinator',
  transactionStatePartitions: 1,
  consumerOffsetsPartitions: 1,
};

const calls = (out: Out) => out.effects.filter((e): e is Extract<Effect, { type: 'call' }> => e.type === 'call');
const replies = (out: Out) =>
  out.effects.filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.inReplyTo !== undefined);
const sends = (out: Out) => out.effects.filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send');

/** broker-0 leading __consumer_offsets-0 (or not) with the given ISR and the broker's min.insync.replicas 2. */
const broker = (isr: readonly string[], leading = true): BrokerContext =>
  hostBroker(CONSUMER_OFFSETS_TOPIC, meta, isr, { leading, transactionVersion: 2 });

/** broker-0's hosted group coordinator, owning __consumer_offsets-0 (loaded unless `loading`). */
function coordinator(owned: OffsetsHostedState['owned'] = { 0: { coordinatorEpoch: 0, loading: null } }): GroupCoordinatorContext {
  return {
    id: 'broker-0.group-coordinator',
    meta,
    config: DEFAULT_GROUP_COORDINATOR_CONFIG,
    groups: {},
    logs: {},
    verifying: [],
    nextCorrelationId: 0,
    verificationQueue: [],
    hosted: { ...emptyHostedState('broker-0'), owned },
  };
}

const commit = (offset: number, correlationId = 1) => ({
  type: 'OffsetCommit',
  from: 'billing.consumer',
  envelopeId: 100 + correlationId,
  now: 10,
  payload: { correlationId, groupId: 'billing', generationId: -1, memberId: '', offsets: [{ topic: 'orders', partition: 0, offset }] },
});

const rerun = (ctx: GroupCoordinatorContext, q: { type: string; event: unknown }, out: Out) => runOperation(ctx, q.type, q.event, out);

describe('handleOperationException: the write error as a group coordinator error', () => {
  it('NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT, UNKNOWN_TOPIC_OR_PARTITION → COORDINATOR_NOT_AVAILABLE', () => {
    for (const e of ['NOT_ENOUGH_REPLICAS', 'REQUEST_TIMED_OUT', 'UNKNOWN_TOPIC_OR_PARTITION'] as const)
      expect(groupCoordinatorErrorFor(e)).toBe('COORDINATOR_NOT_AVAILABLE');
  });
  it('NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR → NOT_COORDINATOR; NETWORK_EXCEPTION → COORDINATOR_LOAD_IN_PROGRESS; others as they are', () => {
    expect(groupCoordinatorErrorFor('NOT_LEADER_OR_FOLLOWER')).toBe('NOT_COORDINATOR');
    expect(groupCoordinatorErrorFor('KAFKA_STORAGE_ERROR')).toBe('NOT_COORDINATOR');
    expect(groupCoordinatorErrorFor('NETWORK_EXCEPTION')).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    // not in the list: NOT_ENOUGH_REPLICAS_AFTER_APPEND passes as it is (acks=1 never produces it)
    expect(groupCoordinatorErrorFor('NOT_ENOUGH_REPLICAS_AFTER_APPEND')).toBe('NOT_ENOUGH_REPLICAS_AFTER_APPEND');
    expect(groupCoordinatorErrorFor('INVALID_PRODUCER_EPOCH')).toBe('INVALID_PRODUCER_EPOCH');
  });
});

describe("the host's append of a group coordinator write: acks=1, answered when the HW passes it", () => {
  const batch = {
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    isTransactional: false,
    records: [{ key: 'billing/orders-0', value: '5', headers: {}, timestamp: 10 }],
  };
  const args = { writeId: 3, partition: 0, batches: [batch], timeoutMs: OFFSET_COMMIT_TIMEOUT_MS };

  it('appended even with the ISR below min.insync.replicas (no NOT_ENOUGH_REPLICAS), held, then REQUEST_TIMED_OUT at offsets.commit.timeout.ms', () => {
    const out = new Out();
    const next = onAppendConsumerOffsets(broker(['broker-0']), 'broker-0.group-coordinator', args, 10, out);
    expect(next.partitions[KEY]?.logEndOffset).toBe(1);
    expect(calls(out)).toEqual([]);
    const d = next.replication?.delayed[0];
    expect(d?.internal).toEqual({ coordinator: 'broker-0.group-coordinator', writeId: 3, answer: 'offsetsAppended' });
    expect(out.effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'produceTimeout', delay: 5000 }));
    const timeout = new Out();
    onProduceTimeout(next as never, d?.id as number, timeout);
    expect(calls(timeout)).toEqual([
      { type: 'call', to: 'broker-0.group-coordinator', name: 'offsetsAppended', args: { writeId: 3, error: 'REQUEST_TIMED_OUT' } },
    ]);
    expect(sends(timeout)).toEqual([]);
  });

  it('refused NOT_LEADER_OR_FOLLOWER by a broker that does not lead the partition; nothing appended', () => {
    const out = new Out();
    const next = onAppendConsumerOffsets(broker(BROKERS, false), 'broker-0.group-coordinator', args, 10, out);
    expect(next.partitions[KEY]?.logEndOffset).toBe(0);
    expect(calls(out)[0]?.args).toEqual({ writeId: 3, error: 'NOT_LEADER_OR_FOLLOWER' });
  });

  it('the wait: NONE once the HW reaches the write, whatever the ISR; NOT_LEADER_OR_FOLLOWER without leadership; else wait', () => {
    const log = { ...createPartitionLog(CONSUMER_OFFSETS_TOPIC, 0), highWatermark: 4 };
    expect(highWatermarkReached({}, log, 4)).toBe('NONE');
    expect(highWatermarkReached({}, log, 5)).toBeNull();
    expect(highWatermarkReached(null, log, 4)).toBe('NOT_LEADER_OR_FOLLOWER');
  });
});

describe('the hosted coordinator: ownership, held answers, the revert of a failed write', () => {
  it('NOT_COORDINATOR for a group of a partition it does not lead, COORDINATOR_LOAD_IN_PROGRESS while loading', () => {
    for (const [owned, error] of [
      [{}, 'NOT_COORDINATOR'],
      [{ 0: { coordinatorEpoch: 0, loading: [] } }, 'COORDINATOR_LOAD_IN_PROGRESS'],
    ] as const) {
      const out = new Out();
      const next = runOperation(coordinator(owned), 'OffsetCommit', commit(5), out);
      expect(replies(out).map((r) => [r.rpc, r.payload.error])).toEqual([['OffsetCommitResponse', error]]);
      expect(calls(out)).toEqual([]);
      expect(next.groups).toEqual({});
    }
  });

  it('OffsetCommit: the records go to the host as one call; the answer and the new offset wait for it', () => {
    const out = new Out();
    const next = runOperation(coordinator(), 'OffsetCommit', commit(5), out);
    expect(calls(out)).toEqual([
      {
        type: 'call',
        to: 'broker-0',
        name: 'appendConsumerOffsets',
        args: {
          writeId: 0,
          partition: 0,
          timeoutMs: 5000,
          batches: [
            {
              producerId: -1,
              producerEpoch: -1,
              baseSequence: -1,
              isTransactional: false,
              records: [{ key: 'billing/orders-0', value: '5', headers: {}, timestamp: 10 }],
            },
          ],
        },
      },
    ]);
    expect(replies(out)).toEqual([]);
    expect(next.groups.billing).toBeUndefined();

    const ok = new Out();
    const done = onOffsetsWriteAnswered(next, 0, 'NONE', ok, rerun);
    expect(done.groups.billing?.committed).toEqual({ 'orders-0': 5 });
    expect(replies(ok).map((r) => [r.rpc, r.payload.error])).toEqual([['OffsetCommitResponse', 'NONE']]);
    expect(ok.effects).toContainEqual(
      expect.objectContaining({ type: 'fact', fact: expect.objectContaining({ kind: 'offsetsCommitted' }) }),
    );
  });

  it('a write whose append failed (NOT_LEADER_OR_FOLLOWER): the answer carries NOT_COORDINATOR, the state is reverted, nothing is reported committed', () => {
    const first = new Out();
    const committed = onOffsetsWriteAnswered(runOperation(coordinator(), 'OffsetCommit', commit(5), first), 0, 'NONE', first, rerun);
    const pending = runOperation(committed, 'OffsetCommit', commit(9, 2), new Out());
    const failed = new Out();
    const after = onOffsetsWriteAnswered(pending, 1, 'NOT_LEADER_OR_FOLLOWER', failed, rerun);
    expect(after.groups.billing?.committed).toEqual({ 'orders-0': 5 });
    expect(replies(failed).map((r) => [r.rpc, r.payload.error])).toEqual([['OffsetCommitResponse', 'NOT_COORDINATOR']]);
    expect(failed.effects.some((e) => e.type === 'fact' && (e as { fact: { kind: string } }).fact.kind === 'offsetsCommitted')).toBe(false);
  });

  it('a write appended whose wait for the HW timed out (REQUEST_TIMED_OUT): answered COORDINATOR_NOT_AVAILABLE, but the state it wrote holds (OperationTimeout reverts nothing)', () => {
    const first = new Out();
    const committed = onOffsetsWriteAnswered(runOperation(coordinator(), 'OffsetCommit', commit(5), first), 0, 'NONE', first, rerun);
    const pending = runOperation(committed, 'OffsetCommit', commit(9, 2), new Out());
    const timedOut = new Out();
    const after = onOffsetsWriteAnswered(pending, 1, 'REQUEST_TIMED_OUT', timedOut, rerun);
    expect(after.groups.billing?.committed).toEqual({ 'orders-0': 9 });
    expect(replies(timedOut).map((r) => [r.rpc, r.payload.error])).toEqual([['OffsetCommitResponse', 'COORDINATOR_NOT_AVAILABLE']]);
    expect(timedOut.effects.some((e) => e.type === 'fact' && (e as { fact: { kind: string } }).fact.kind === 'offsetsCommitted')).toBe(
      true,
    );
  });

  it('an operation on a partition with a write in flight waits, and runs when the write is answered', () => {
    const out = new Out();
    const first = runOperation(coordinator(), 'OffsetCommit', commit(5, 1), out);
    const second = runOperation(first, 'OffsetCommit', commit(7, 2), out);
    expect(calls(out)).toHaveLength(1);
    expect(second.hosted?.queued[0]).toHaveLength(1);
    const answered = new Out();
    const next = onOffsetsWriteAnswered(second, 0, 'NONE', answered, rerun);
    // the first's answer, then the second's write
    expect(replies(answered).map((r) => r.payload.correlationId)).toEqual([1]);
    expect(calls(answered).map((c) => c.args?.writeId)).toEqual([1]);
    expect(next.hosted?.queued[0]).toEqual([]);
  });

  it('OffsetFetch with requireStable waits for the write in flight and reads what it wrote; without, it reads the committed state at once (GroupCoordinatorService.fetchOffsets)', () => {
    const fetch = (requireStable: boolean) => ({
      type: 'OffsetFetch',
      from: 'billing.consumer',
      envelopeId: 300,
      now: 11,
      payload: { correlationId: 30, groupId: 'billing', partitions: [{ topic: 'orders', partition: 0 }], requireStable },
    });
    const first = new Out();
    const committed = onOffsetsWriteAnswered(runOperation(coordinator(), 'OffsetCommit', commit(5), first), 0, 'NONE', first, rerun);
    const out = new Out();
    const writing = runOperation(committed, 'OffsetCommit', commit(9, 2), out);
    // without requireStable: the last committed offset, at once
    const plain = new Out();
    onOffsetFetchHosted(writing, fetch(false) as never, plain);
    expect(replies(plain).map((r) => [r.rpc, (r.payload.offsets as { offset: number }[])[0]?.offset])).toEqual([
      ['OffsetFetchResponse', 5],
    ]);
    // with it: no answer while the write waits for the HW, then the offset it wrote
    const stable = new Out();
    const waiting = onOffsetFetchHosted(writing, fetch(true) as never, stable);
    expect(replies(stable)).toEqual([]);
    expect(waiting.hosted?.queued[0]).toHaveLength(1);
    const answered = new Out();
    onOffsetsWriteAnswered(waiting, 1, 'NONE', answered, rerun);
    expect(replies(answered).map((r) => [r.rpc, r.payload.correlationId])).toEqual([
      ['OffsetCommitResponse', 2],
      ['OffsetFetchResponse', 30],
    ]);
    expect((replies(answered)[1]?.payload.offsets as { offset: number }[])[0]?.offset).toBe(9);
  });
});

describe('loading a partition from the replica (GroupCoordinatorService.onElection) and unloading it (onResignation)', () => {
  const stored = {
    generationId: 3,
    leader: 'billing-0',
    members: [
      {
        memberId: 'billing-0',
        clientId: 'billing.consumer',
        sessionTimeoutMs: 45000,
        rebalanceTimeoutMs: 300000,
        topics: ['orders'],
        assignment: [{ topic: 'orders', partition: 0 }],
      },
    ],
  };
  const batches: OffsetsBatch[] = [
    {
      producerId: -1,
      transactional: false,
      control: null,
      records: [{ key: 'billing', value: JSON.stringify({ ...stored, nextMemberSeq: 1 }) }],
    },
    { producerId: -1, transactional: false, control: null, records: [{ key: 'billing/orders-0', value: '4' }] },
    { producerId: 7, transactional: true, control: null, records: [{ key: 'billing/orders-0', value: '6' }] },
    { producerId: 7, transactional: true, control: 'COMMIT', records: [] },
    { producerId: 8, transactional: true, control: null, records: [{ key: 'billing/orders-0', value: '9' }] },
    { producerId: 8, transactional: true, control: 'ABORT', records: [] },
    { producerId: 9, transactional: true, control: null, records: [{ key: 'etl/orders-0', value: '2' }] },
  ];

  it('replays commits, GroupMetadata and markers: committed 6 (the COMMIT), 9 dropped (ABORT), an open transaction still pending', () => {
    const groups = replayOffsets(batches);
    expect(groups.billing?.committed).toEqual({ 'orders-0': 6 });
    expect(groups.billing?.pending).toEqual([]);
    expect(groups.billing?.state).toBe('Stable');
    expect(groups.billing?.generationId).toBe(3);
    expect(Object.keys(groups.billing?.members ?? {})).toEqual(['billing-0']);
    expect(groups.billing?.nextMemberSeq).toBe(1);
    expect(groups.etl?.committed).toEqual({});
    expect(groups.etl?.pending).toEqual([{ producerId: 9, offsets: { 'orders-0': 2 }, writtenAt: { 'orders-0': 0 } }]);
  });

  it("onElection: COORDINATOR_LOAD_IN_PROGRESS until the load; then the groups, each member's session expiry scheduled", () => {
    const out = new Out();
    const loading = onBecomeGroupCoordinator(coordinator({}), { partition: 0, coordinatorEpoch: 2, batches }, out);
    expect(out.effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'offsetsLoaded', delay: 50 }));
    const refused = new Out();
    runOperation(loading, 'OffsetCommit', commit(5), refused);
    expect(replies(refused)[0]?.payload.error).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    const loaded = new Out();
    const ctx = onGroupsLoaded(loading, { now: 100, data: { partition: 0, coordinatorEpoch: 2 } }, loaded);
    expect(ctx.groups.billing?.committed).toEqual({ 'orders-0': 6 });
    expect(ctx.hosted?.owned[0]).toEqual({ coordinatorEpoch: 2, loading: null });
    expect(loaded.effects).toContainEqual(expect.objectContaining({ type: 'timer', name: 'sessionExpired', delay: 45000 }));
  });

  it('onResignation: the groups are gone here, the write in flight is answered NOT_COORDINATOR, later requests NOT_COORDINATOR', () => {
    const out = new Out();
    const pending = runOperation(coordinator(), 'OffsetCommit', commit(5), out);
    const resigned = new Out();
    const ctx = onResignGroupCoordinator(pending, 0, resigned);
    expect(replies(resigned).map((r) => r.payload.error)).toEqual(['NOT_COORDINATOR']);
    expect(ctx.hosted?.owned).toEqual({});
    expect(ctx.hosted?.writes).toEqual({});
    const late = new Out();
    runOperation(ctx, 'OffsetCommit', commit(5, 2), late);
    expect(replies(late)[0]?.payload.error).toBe('NOT_COORDINATOR');
  });
});

describe('the broker: hand-offs and FindCoordinator(GROUP)', () => {
  it('leading the partition starts the hosted coordinator with the leader epoch and the batches of its replica; losing it resigns', () => {
    const before = broker(BROKERS, false);
    const after = broker(BROKERS, true);
    const out = new Out();
    groupCoordinatorHandoffs(before, after, out);
    expect(calls(out)).toEqual([
      {
        type: 'call',
        to: 'broker-0.group-coordinator',
        name: 'becomeGroupCoordinator',
        args: { partition: 0, coordinatorEpoch: 0, batches: [] },
      },
    ]);
    const back = new Out();
    groupCoordinatorHandoffs(after, before, back);
    expect(calls(back)).toEqual([
      { type: 'call', to: 'broker-0.group-coordinator', name: 'resignGroupCoordinator', args: { partition: 0 } },
    ]);
    expect(offsetsBatches(after.partitions[KEY] as never)).toEqual([]);
  });

  it("FindCoordinator(GROUP) names the leader's hosted group coordinator, or none for a fenced leader", () => {
    expect(groupCoordinatorFor(broker(BROKERS), 'billing')).toBe('broker-0.group-coordinator');
    const b = broker(BROKERS);
    expect(
      groupCoordinatorFor(
        { ...b, replication: { ...(b.replication as NonNullable<BrokerContext['replication']>), fencedBrokers: ['broker-0'] } },
        'billing',
      ),
    ).toBeNull();
  });
});

describe("the consumer's coordinator (AbstractCoordinator.lookupCoordinator / markCoordinatorUnknown)", () => {
  const consumer = () =>
    ({
      ...initialContext({
        self: 'billing.consumer',
        app: 'billing.app',
        client: 'billing',
        meta,
        config: resolveConsumerConfig({ 'group.id': 'billing' }).config,
        topics: ['orders'],
      }),
    }) as never as Parameters<typeof sendToCoordinator>[0];

  it('unknown: the request waits while FindCoordinator(GROUP) goes to a broker; the answer sends it to the coordinator named', () => {
    const d = consumer();
    const out = new Out();
    sendToCoordinator(d, out, 'OffsetCommit', { correlationId: 50, groupId: 'billing' });
    expect(sends(out).map((s) => [s.to, s.rpc, s.payload.keyType])).toEqual([['broker-0', 'FindCoordinator', 'group']]);
    const answer = new Out();
    onFindCoordinatorResponse(
      d,
      {
        type: 'FindCoordinatorResponse',
        from: 'broker-0',
        envelopeId: 1,
        inReplyTo: 0,
        now: 5,
        payload: { correlationId: d.coordinatorLookup as number, error: 'NONE', coordinator: 'broker-2.group-coordinator' },
      },
      answer,
    );
    expect(sends(answer).map((s) => [s.to, s.rpc, s.payload.correlationId])).toEqual([['broker-2.group-coordinator', 'OffsetCommit', 50]]);
    expect(d.groupCoordinator).toBe('broker-2.group-coordinator');
  });

  it('NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE from it, or a lost request to it, forget it; COORDINATOR_LOAD_IN_PROGRESS keeps it; an error answer also closes the connection to it (markCoordinatorUnknown(Errors) → disconnectAsync), a lost request finds it closed', () => {
    const answer = (error: string) =>
      ({
        type: 'OffsetCommitResponse',
        from: 'broker-2.group-coordinator',
        envelopeId: 1,
        now: 5,
        payload: { correlationId: 1, error },
      }) as never as ConsumerEvent;
    for (const [ev, kept, closed] of [
      [answer('COORDINATOR_LOAD_IN_PROGRESS'), true, false],
      [answer('NOT_COORDINATOR'), false, true],
      [answer('COORDINATOR_NOT_AVAILABLE'), false, true],
      [
        {
          type: 'disconnected',
          to: 'broker-2.group-coordinator',
          rpc: 'Heartbeat',
          now: 5,
          payload: { correlationId: 1 },
        } as never as ConsumerEvent,
        false,
        false,
      ],
    ] as const) {
      const d = consumer();
      d.groupCoordinator = 'broker-2.group-coordinator';
      const out = new Out();
      markCoordinatorUnknownOn(d, ev, out);
      expect(d.groupCoordinator).toBe(kept ? 'broker-2.group-coordinator' : null);
      expect(out.effects).toEqual(closed ? [{ type: 'closeConnection', to: 'broker-2.group-coordinator' }] : []);
    }
  });
});

describe('offsets.topic.replication.factor', () => {
  it('unset: null (one replica, the fixed group-coordinator process); set: kept', () => {
    expect(resolveClusterConfig({}).config['offsets.topic.replication.factor']).toBeNull();
    expect(resolveClusterConfig({ brokers: 3, 'offsets.topic.replication.factor': 3 }).config['offsets.topic.replication.factor']).toBe(3);
  });
  it('more than the brokers: INVALID_REPLICATION_FACTOR', () => {
    const { errors } = resolveClusterConfig({ brokers: 2, 'offsets.topic.replication.factor': 3 });
    expect(errors).toContainEqual({
      key: 'offsets.topic.replication.factor',
      message: 'INVALID_REPLICATION_FACTOR: The target replication factor of 3 cannot be reached because only 2 broker(s) are registered.',
      ko: '__consumer_offsets의 복제 계수 3에 비해 브로커가 2개뿐이라 토픽을 만들 수 없습니다.',
      quote: 'INVALID_REPLICATION_FACTOR: The target replication factor of 3 cannot be reached because only 2 broker(s) are registered.',
    });
  });
});

describe("the readiness checklist's __consumer_offsets part", () => {
  const en = (e: string, _k: string) => e;
  const ko = (_e: string, k: string) => k;
  const orders = [{ name: 'orders', replicationFactor: 3, minInsyncReplicas: 2, uncleanLeaderElection: false }];
  const acks = [{ client: 'orders-service', acks: -1, topics: ['orders'] }];
  const part = (replicationFactor: number | null, minIsr: number, say = en) =>
    replicationItem(orders, acks, say, undefined, { replicationFactor, minIsr }).parts.find((p) => p.id === 'consumer-offsets');

  it('unset: one replica in the simulator, said and not judged', () => {
    expect(part(null, 2)).toMatchObject({ status: 'not-applicable' });
    expect(part(null, 2)?.reason).toContain('offsets.topic.replication.factor 3');
  });
  it('replication factor 3 with min.insync.replicas 2 passes; min ISR 1, a factor below 3 or a min ISR at the factor fail', () => {
    expect(part(3, 2)).toMatchObject({ status: 'pass' });
    expect(part(3, 2)?.reason).toMatch(
      /^offsets\.topic\.replication\.factor 3, min\.insync\.replicas 2: a commit is answered only once 2 replicas hold it/,
    );
    expect(part(3, 1)).toMatchObject({ status: 'fail' });
    expect(part(2, 2)).toMatchObject({ status: 'fail' });
    expect(part(3, 3)?.reason).toContain('COORDINATOR_NOT_AVAILABLE');
    expect(part(3, 2, ko)?.reason).toMatch(/^offsets\.topic\.replication\.factor 3, min\.insync\.replicas 2: 커밋은/);
  });
  it("read from a scenario's cluster settings: offsets.topic.replication.factor and the brokers' min.insync.replicas", () => {
    const cluster = (c: Record<string, unknown>) => ({ resolved: { cluster: c } }) as never;
    expect(offsetsReplication(cluster({ 'offsets.topic.replication.factor': 3, 'min.insync.replicas': 2 }))).toEqual({
      replicationFactor: 3,
      minIsr: 2,
    });
    expect(offsetsReplication(cluster({ 'offsets.topic.replication.factor': null, 'min.insync.replicas': 1 }))).toEqual({
      replicationFactor: null,
      minIsr: 1,
    });
  });
});
