/**
 * The group coordinator as Kafka runs it when `__consumer_offsets` is replicated
 * (offsets.topic.replication.factor > 1): a module of every broker, here an actor of the broker's
 * process (`broker-N.group-coordinator`), active for the `__consumer_offsets` partitions its broker
 * leads. The broker tells it in-process when it becomes leader of one (GroupCoordinatorService
 * .onElection: load the groups and offsets from its own replica, COORDINATOR_LOAD_IN_PROGRESS
 * meanwhile) or stops leading it (onResignation: unload; NOT_COORDINATOR from then on), and when a
 * transaction marker was written to one (the pending offsets of that producer are committed or
 * dropped). Its writes wait for the partition's high watermark (offsetsHosted.ts). The request
 * handlers are the one-replica coordinator's (groupCoordinator.machine.ts).
 */

import { setup } from 'xstate';
import type { Call, Lifecycle, Timer } from '../actors/events';
import { handle, type Out } from '../actors/out';
import { EMPTY_VERIFICATION_QUEUE } from '../broker/verificationQueue';
import { CONSUMER_OFFSETS_TOPIC } from '../cluster/metadata';
import type { RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { KafkaError } from '../protocol/errors';
import { topicPartitionKey } from '../protocol/topicPartition';
import { type ConsumerGroup, emptyGroup, loadGroup, onLoaded, type StoredGroup } from './classicGroup';
import {
  applyMarker,
  type Draft,
  type GroupCoordinatorConfig,
  type GroupCoordinatorContext,
  type GroupCoordinatorEvent,
  onHeartbeat,
  onJoinGroup,
  onJoinPhaseCheck,
  onLeaveGroup,
  onOffsetCommit,
  onOffsetFetch,
  onSessionExpired,
  onSyncExpired,
  onSyncGroup,
  onTxnOffsetCommit,
  onTxnOffsetCommitVerified,
  refuseRequest,
} from './groupCoordinator.machine';
import { addPendingTxnOffsets, commitPlainOffsets, completePendingTxnOffsets, parseOffsetRecord } from './groupOffsets';
import {
  emptyHostedState,
  type OffsetsBatch,
  type OffsetsHostedState,
  onOffsetsWriteAnswered,
  partitionOfGroup,
  type QueuedGroupEvent,
  runGroupOperation,
} from './offsetsHosted';

/** The actor id of the group coordinator a broker hosts. */
export function hostedGroupCoordinatorId(broker: ActorId): ActorId {
  return `${broker}.group-coordinator`;
}

/** How long loading a partition takes (*fixed*, as the hosted transaction coordinator's). */
export const GROUP_LOAD_TIME_MS = 50;

export interface HostedGroupCoordinatorInput {
  readonly id: ActorId;
  readonly host: ActorId;
  readonly meta: GroupCoordinatorContext['meta'];
  readonly config: GroupCoordinatorConfig;
}

type MarkerArgs = { partition: number; producerId: number; result: 'COMMIT' | 'ABORT' };

export type HostedGroupCoordinatorEvent =
  | Exclude<GroupCoordinatorEvent, { type: 'WriteTxnMarkers' | 'AddPartitionsToTxnResponse' | 'disconnected' } | Lifecycle>
  | Call<'txnOffsetCommitVerified', { id: number; error: KafkaError }>
  | Call<'becomeGroupCoordinator', { partition: number; coordinatorEpoch: number; batches: readonly OffsetsBatch[] }>
  | Call<'resignGroupCoordinator', { partition: number }>
  | Call<'offsetsAppended', { writeId: number; error: KafkaError | 'NONE' }>
  | Call<'offsetsMarkerWritten', MarkerArgs>
  | Timer<'offsetsLoaded', { partition: number; coordinatorEpoch: number }>
  | Lifecycle;

const hostedOf = (ctx: GroupCoordinatorContext) => ctx.hosted as OffsetsHostedState;
type Handler = (ctx: GroupCoordinatorContext, ev: never, out: Out) => GroupCoordinatorContext;

const byPayload = (ctx: GroupCoordinatorContext, ev: { payload: { groupId: string } }) => partitionOfGroup(ctx, ev.payload.groupId);
const byTimer = (ctx: GroupCoordinatorContext, ev: { data: { groupId: string } }) => partitionOfGroup(ctx, ev.data.groupId);
const byVerification = (ctx: GroupCoordinatorContext, ev: { args: { id: number } }) => {
  const v = ctx.verifying.find((x) => x.correlationId === ev.args.id);
  return v ? partitionOfGroup(ctx, v.commit.groupId) : null;
};

/** A marker the host wrote: its partition's pending offsets of the producer are committed or dropped. */
function applyWrittenMarker(ctx: GroupCoordinatorContext, ev: { args: MarkerArgs }, out: Out): GroupCoordinatorContext {
  const d: Draft = { ...ctx };
  applyMarker(d, topicPartitionKey(CONSUMER_OFFSETS_TOPIC, ev.args.partition), ev.args.producerId, ev.args.result, out);
  return d;
}

/** Every group operation: its handler, which partition it belongs to, and whether it is a client request (refusals are answered). */
const OPERATIONS: Readonly<
  Record<string, { fn: Handler; partition: (ctx: GroupCoordinatorContext, ev: never) => number | null; request: boolean }>
> = {
  JoinGroup: { fn: onJoinGroup, partition: byPayload, request: true },
  SyncGroup: { fn: onSyncGroup, partition: byPayload, request: true },
  Heartbeat: { fn: onHeartbeat, partition: byPayload, request: true },
  LeaveGroup: { fn: onLeaveGroup, partition: byPayload, request: true },
  OffsetCommit: { fn: onOffsetCommit, partition: byPayload, request: true },
  TxnOffsetCommit: { fn: onTxnOffsetCommit, partition: byPayload, request: true },
  // with requireStable only (onOffsetFetchHosted)
  OffsetFetch: { fn: onOffsetFetch, partition: byPayload, request: true },
  joinPhaseCheck: { fn: onJoinPhaseCheck, partition: byTimer, request: false },
  syncExpired: { fn: onSyncExpired, partition: byTimer, request: false },
  sessionExpired: { fn: onSessionExpired, partition: byTimer, request: false },
  txnOffsetCommitVerified: { fn: onTxnOffsetCommitVerified, partition: byVerification, request: false },
  offsetsMarkerWritten: {
    fn: applyWrittenMarker,
    partition: (_ctx: GroupCoordinatorContext, ev: { args: MarkerArgs }) => ev.args.partition,
    request: false,
  },
};

/** Runs a group event through ownership, the write queue and the held answers. */
export function runOperation(ctx: GroupCoordinatorContext, type: string, ev: unknown, out: Out): GroupCoordinatorContext {
  const op = OPERATIONS[type];
  if (!op) return ctx;
  const refuse = op.request ? (error: KafkaError) => refuseRequest(ev as RpcEvent, error, out) : null;
  return runGroupOperation(ctx, type, ev as never, op.partition(ctx, ev as never), op.fn, out, refuse);
}

const rerun = (ctx: GroupCoordinatorContext, q: QueuedGroupEvent, out: Out) => runOperation(ctx, q.type, q.event, out);

const operation = (type: string) => handle((ctx: GroupCoordinatorContext, ev: unknown, out: Out) => runOperation(ctx, type, ev, out));

/**
 * OffsetFetch (GroupCoordinatorService.fetchOffsets). With requireStable — which the Java consumer
 * always sends — it is a write operation, "to ensure that the response waits until the pending
 * offsets are committed": behind a write in flight on its partition it waits, then reads the state
 * that write left (a TxnOffsetCommit's pending offsets: UNSTABLE_OFFSET_COMMIT). Without, a read of
 * the last committed state at once.
 */
export const onOffsetFetchHosted = (
  ctx: GroupCoordinatorContext,
  ev: Parameters<typeof onOffsetFetch>[1],
  out: Out,
): GroupCoordinatorContext => {
  if (ev.payload.requireStable) return runOperation(ctx, 'OffsetFetch', ev, out);
  const owned = hostedOf(ctx).owned[partitionOfGroup(ctx, ev.payload.groupId)];
  if (!owned || owned.loading) {
    refuseRequest(ev, owned ? 'COORDINATOR_LOAD_IN_PROGRESS' : 'NOT_COORDINATOR', out);
    return ctx;
  }
  return onOffsetFetch(ctx, ev, out);
};

/** A marker written while the partition loads is read with the rest of the load. */
const onMarkerWritten = (ctx: GroupCoordinatorContext, ev: { args: MarkerArgs }, out: Out): GroupCoordinatorContext => {
  const h = hostedOf(ctx);
  const owned = h.owned[ev.args.partition];
  if (owned?.loading) {
    const marker: OffsetsBatch = { producerId: ev.args.producerId, transactional: true, control: ev.args.result, records: [] };
    return { ...ctx, hosted: { ...h, owned: { ...h.owned, [ev.args.partition]: { ...owned, loading: [...owned.loading, marker] } } } };
  }
  return runOperation(ctx, 'offsetsMarkerWritten', ev, out);
};

/**
 * The groups and offsets of a `__consumer_offsets` partition replayed from its records
 * (GroupMetadataManager.replay / OffsetMetadataManager.replay): an offset commit sets the group's
 * committed offset; a transactional one is pending under its producer id until that producer's
 * marker (COMMIT: committed, ABORT: dropped); a GroupMetadata record is the group's stored
 * generation. Membership is then what loadGroup makes of the last GroupMetadata record.
 */
export function replayOffsets(batches: readonly OffsetsBatch[]): Record<string, ConsumerGroup> {
  const groups: Record<string, ConsumerGroup> = {};
  const get = (id: string) => groups[id] ?? emptyGroup(id);
  for (const b of batches) {
    if (b.control) {
      for (const g of Object.values(groups)) {
        const done = completePendingTxnOffsets(g, b.producerId, b.control);
        if (done) groups[g.groupId] = done.group;
      }
      continue;
    }
    for (const r of b.records) {
      if (r.value.startsWith('{')) {
        const { nextMemberSeq, ...stored } = JSON.parse(r.value) as StoredGroup & { nextMemberSeq: number };
        groups[r.key] = { ...get(r.key), stored, nextMemberSeq };
        continue;
      }
      const slash = r.key.lastIndexOf('/');
      const g = get(r.key.slice(0, slash));
      const tp = r.key.slice(slash + 1);
      const { offset, epoch } = parseOffsetRecord(r.value);
      const epochs = epoch !== undefined ? { [tp]: epoch } : {};
      groups[g.groupId] = b.transactional
        ? addPendingTxnOffsets(g, b.producerId, { [tp]: offset }, epochs)
        : commitPlainOffsets(g, { [tp]: offset }, epochs);
    }
  }
  return Object.fromEntries(Object.entries(groups).map(([id, g]) => [id, loadGroup(g)]));
}

/** GroupCoordinatorService.onElection: load the partition from this broker's replica (to its log end offset). */
export function onBecomeGroupCoordinator(
  ctx: GroupCoordinatorContext,
  args: { partition: number; coordinatorEpoch: number; batches: readonly OffsetsBatch[] },
  out: Out,
): GroupCoordinatorContext {
  const c = hostedOf(ctx).owned[args.partition] ? onResignGroupCoordinator(ctx, args.partition, out) : ctx;
  const h = hostedOf(c);
  out.timer(`offsetsLoad:${args.partition}`, 'offsetsLoaded', GROUP_LOAD_TIME_MS, {
    partition: args.partition,
    coordinatorEpoch: args.coordinatorEpoch,
  });
  return {
    ...c,
    hosted: { ...h, owned: { ...h.owned, [args.partition]: { coordinatorEpoch: args.coordinatorEpoch, loading: args.batches } } },
  };
}

/** The load finished (CoordinatorRuntime: LOADING → ACTIVE): the groups replayed, every loaded member's session expiry scheduled (onLoaded). */
export function onGroupsLoaded(
  ctx: GroupCoordinatorContext,
  ev: { now: number; data: { partition: number; coordinatorEpoch: number } },
  out: Out,
): GroupCoordinatorContext {
  const h = hostedOf(ctx);
  const owned = h.owned[ev.data.partition];
  if (!owned?.loading || owned.coordinatorEpoch !== ev.data.coordinatorEpoch) return ctx;
  const loaded = replayOffsets(owned.loading);
  const groups = { ...ctx.groups };
  for (const g of Object.values(loaded)) groups[g.groupId] = onLoaded(g, ev.now, out);
  out.fact({
    kind: 'note',
    actor: ctx.id,
    text: `loaded ${Object.keys(loaded).length} group(s) from its replica of ${CONSUMER_OFFSETS_TOPIC}-${ev.data.partition} (coordinator epoch ${owned.coordinatorEpoch})`,
  });
  return { ...ctx, groups, hosted: { ...h, owned: { ...h.owned, [ev.data.partition]: { ...owned, loading: null } } } };
}

/**
 * GroupCoordinatorService.onResignation (CoordinatorRuntime unloads the partition): its groups are
 * forgotten here; the write in flight, the operations waiting behind it and the TxnOffsetCommits
 * being verified are answered NOT_COORDINATOR.
 */
export function onResignGroupCoordinator(ctx: GroupCoordinatorContext, partition: number, out: Out): GroupCoordinatorContext {
  const h = hostedOf(ctx);
  if (!h.owned[partition]) return ctx;
  const mine = (groupId: string) => partitionOfGroup(ctx, groupId) === partition;
  const write = h.writes[partition];
  if (write)
    for (const e of write.deferred)
      if (e.type === 'send' && e.inReplyTo !== undefined) out.effects.push({ ...e, payload: { ...e.payload, error: 'NOT_COORDINATOR' } });
  for (const q of h.queued[partition] ?? []) if (OPERATIONS[q.type]?.request) refuseRequest(q.event as RpcEvent, 'NOT_COORDINATOR', out);
  for (const v of ctx.verifying) if (mine(v.commit.groupId)) out.reply(v.request, 'TxnOffsetCommitResponse', { error: 'NOT_COORDINATOR' });
  for (const g of Object.values(ctx.groups))
    if (mine(g.groupId)) {
      for (const m of Object.values(g.members)) {
        if (m.joinRequest)
          out.reply(m.joinRequest, 'JoinGroupResponse', { error: 'NOT_COORDINATOR', generationId: -1, memberId: m.memberId, leader: '' });
        if (m.syncRequest) out.reply(m.syncRequest, 'SyncGroupResponse', { error: 'NOT_COORDINATOR', assignment: [] });
        out.cancel(`session:${g.groupId}:${m.memberId}`);
      }
    }
  const { [partition]: _o, ...owned } = h.owned;
  const { [partition]: _w, ...writes } = h.writes;
  const { [partition]: _q, ...queued } = h.queued;
  return {
    ...ctx,
    groups: Object.fromEntries(Object.entries(ctx.groups).filter(([id]) => !mine(id))),
    verifying: ctx.verifying.filter((v) => !mine(v.commit.groupId)),
    hosted: { ...h, owned, writes, queued },
  };
}

export const hostedGroupCoordinatorMachine = setup({
  types: {} as { context: GroupCoordinatorContext; input: HostedGroupCoordinatorInput; events: HostedGroupCoordinatorEvent },
}).createMachine({
  id: 'hostedGroupCoordinator',
  context: ({ input }) => ({
    id: input.id,
    meta: input.meta,
    config: input.config,
    groups: {},
    logs: {},
    verifying: [],
    nextCorrelationId: 0,
    verificationQueue: EMPTY_VERIFICATION_QUEUE,
    hosted: emptyHostedState(input.host),
  }),
  initial: 'active',
  states: {
    /** The broker is up: the coordinator serves the groups of the partitions its broker leads (possibly none). */
    active: {
      on: {
        JoinGroup: { actions: operation('JoinGroup') },
        SyncGroup: { actions: operation('SyncGroup') },
        Heartbeat: { actions: operation('Heartbeat') },
        LeaveGroup: { actions: operation('LeaveGroup') },
        OffsetCommit: { actions: operation('OffsetCommit') },
        TxnOffsetCommit: { actions: operation('TxnOffsetCommit') },
        joinPhaseCheck: { actions: operation('joinPhaseCheck') },
        syncExpired: { actions: operation('syncExpired') },
        sessionExpired: { actions: operation('sessionExpired') },
        txnOffsetCommitVerified: { actions: operation('txnOffsetCommitVerified') },
        OffsetFetch: { actions: handle(onOffsetFetchHosted) },
        offsetsMarkerWritten: { actions: handle(onMarkerWritten) },
        becomeGroupCoordinator: {
          actions: handle((ctx: GroupCoordinatorContext, ev: { args: Parameters<typeof onBecomeGroupCoordinator>[1] }, out: Out) =>
            onBecomeGroupCoordinator(ctx, ev.args, out),
          ),
        },
        resignGroupCoordinator: {
          actions: handle((ctx: GroupCoordinatorContext, ev: { args: { partition: number } }, out: Out) =>
            onResignGroupCoordinator(ctx, ev.args.partition, out),
          ),
        },
        offsetsLoaded: {
          actions: handle((ctx: GroupCoordinatorContext, ev: TimerEvent<{ partition: number; coordinatorEpoch: number }>, out: Out) =>
            onGroupsLoaded(ctx, ev, out),
          ),
        },
        offsetsAppended: {
          actions: handle((ctx: GroupCoordinatorContext, ev: { args: { writeId: number; error: KafkaError | 'NONE' } }, out: Out) =>
            onOffsetsWriteAnswered(ctx, ev.args.writeId, ev.args.error, out, rerun),
          ),
        },
        crash: 'down',
      },
    },
    down: {
      // the broker's process is down: its partitions, groups and writes in flight are gone
      entry: handle((ctx: GroupCoordinatorContext) => ({
        ...ctx,
        groups: {},
        verifying: [],
        hosted: emptyHostedState(hostedOf(ctx).host),
      })),
      on: { restart: 'active' },
    },
  },
});
