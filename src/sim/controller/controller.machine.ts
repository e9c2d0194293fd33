/**
 * The KRaft controller (issue [replication]): the controller quorum as one process, "controller",
 * that never fails (simplification: docs/kafka-model.md). It exists only when some partition has
 * more than one replica. It tracks broker heartbeats (BrokerHeartbeatManager), fences a broker
 * silent for broker.session.timeout.ms (a deadline the kernel schedules) and moves its leaderships
 * (ReplicationControlManager.handleBrokerFenced), refuses a restarted broker's new incarnation until
 * the old one is fenced (ClusterControlManager.registerBroker), then unfences it and re-elects the
 * offline partitions (handleBrokerUnfenced), validates leaders'
 * AlterPartition requests, sends each partition record to every broker (PartitionChange), and, with
 * auto.leader.rebalance.enable, moves leaderships back to their preferred replicas
 * (maybeBalancePartitionLeaders, below).
 */
import { setup } from 'xstate';
import type { Lifecycle, Rpc, Timer } from '../actors/events';
import { handle, type Out, pendingRequest } from '../actors/out';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type {
  AlterPartitionRequest,
  BrokerHeartbeatRequest,
  BrokerHeartbeatResponse,
  PartitionChange,
  PartitionChangeResponse,
} from '../protocol/replicationMessages';
import { topicPartitionKey } from '../protocol/topicPartition';
import {
  hasPreferredLeader,
  onBrokerFenced,
  onBrokerUnfenced,
  type PartitionChangeResult,
  type PartitionRegistration,
  preferredElection,
} from '../replication/election';

export const CONTROLLER_ID = 'controller';

export interface BrokerRegistration {
  readonly epoch: number;
  readonly fenced: boolean;
  /**
   * BrokerHeartbeatManager's CONTROLLED_SHUTDOWN: the broker asked to shut down while it led
   * partitions; it is then neither an acceptable leader nor an ISR member (clusterControl.isActive).
   */
  readonly inControlledShutdown?: true;
}

export interface ControllerContext {
  readonly id: ActorId;
  readonly brokers: Readonly<Record<ActorId, BrokerRegistration>>;
  readonly partitions: Readonly<Record<string, PartitionRegistration>>;
  /** unclean.leader.election.enable per topic. */
  readonly unclean: Readonly<Record<string, boolean>>;
  readonly sessionTimeoutMs: number;
  /**
   * Partition records a live broker lost to a broken connection, per broker (absent when none): sent
   * again at its next heartbeat. (A Kafka broker re-fetches the metadata log as soon as it has
   * reconnected; the model's records are pushed, so it catches up at its next heartbeat instead.)
   */
  readonly missed?: Readonly<Record<ActorId, readonly string[]>>;
  /**
   * leader.imbalance.check.interval.seconds, in ms, when auto.leader.rebalance.enable (ControllerServer
   * passes QuorumController an OptionalLong, empty when it is off); absent: no leader-imbalance check.
   */
  readonly leaderImbalanceCheckIntervalMs?: number;
  /**
   * QuorumController.imbalancedScheduled: `scheduled` while a check is queued; `immediately` after a
   * check that reached MAX_ELECTIONS_PER_IMBALANCE; `deferred` (or absent, its initial value): the
   * next check, if any, one interval away. (Written, never deleted: XState's assign merges contexts.)
   */
  readonly imbalanceSchedule?: 'deferred' | 'scheduled' | 'immediately';
}

/** The controller without `broker`'s missed records (it has them now, or will get every record). */
function withoutMissed(ctx: ControllerContext, broker: ActorId): ControllerContext {
  if (!ctx.missed?.[broker]) return ctx;
  const { [broker]: _gone, ...rest } = ctx.missed;
  // the key written out as undefined, not left out: XState's interpreter merges a returned context
  // into the old one, so a key left out would keep the old list (resent at every heartbeat)
  return { ...ctx, missed: Object.keys(rest).length > 0 ? rest : undefined };
}

export interface ControllerInput {
  readonly brokers: readonly ActorId[];
  readonly partitions: readonly PartitionRegistration[];
  readonly unclean: Readonly<Record<string, boolean>>;
  readonly sessionTimeoutMs: number;
  /** leader.imbalance.check.interval.seconds in ms; null or absent: auto.leader.rebalance.enable=false. */
  readonly leaderImbalanceCheckIntervalMs?: number | null;
}

export type ControllerEvent =
  | Rpc<'BrokerHeartbeat', BrokerHeartbeatRequest>
  | Rpc<'AlterPartition', AlterPartitionRequest>
  | Rpc<'PartitionChangeResponse', PartitionChangeResponse>
  | DisconnectedEvent
  | Timer<'sessionExpired', { broker: ActorId }>
  | Timer<'maybeBalancePartitionLeaders'>
  | Lifecycle;

const PARTITION_CHANGE_TIMEOUT_MS = 30000;

function fencedList(ctx: ControllerContext): ActorId[] {
  return Object.entries(ctx.brokers)
    .filter(([, b]) => b.fenced)
    .map(([id]) => id);
}

/** The brokers in controlled shutdown: no leader adds them to an ISR (Partition.isReplicaIsrEligible). */
function shuttingDownList(ctx: ControllerContext): ActorId[] {
  return Object.entries(ctx.brokers)
    .filter(([, b]) => b.inControlledShutdown)
    .map(([id]) => id);
}

function record(
  ctx: ControllerContext,
  reg: PartitionRegistration,
  election: PartitionChange['election'],
): PartitionChange & { fencedBrokers: ActorId[]; shuttingDownBrokers?: ActorId[] } {
  const shuttingDown = shuttingDownList(ctx);
  return {
    topic: reg.topic,
    partition: reg.partition,
    leader: reg.leader,
    leaderEpoch: reg.leaderEpoch,
    partitionEpoch: reg.partitionEpoch,
    replicas: reg.replicas,
    isr: reg.isr,
    election,
    fencedBrokers: fencedList(ctx),
    ...(shuttingDown.length > 0 ? { shuttingDownBrokers: shuttingDown } : {}),
  };
}

/** Every broker receives every partition record (as the metadata log reaches every broker). */
function broadcast(ctx: ControllerContext, change: PartitionChange, out: Out, only?: ActorId): void {
  for (const b of Object.keys(ctx.brokers)) {
    if (only !== undefined && b !== only) continue;
    out.send(b, 'PartitionChange', change, { timeoutMs: PARTITION_CHANGE_TIMEOUT_MS });
  }
}

/**
 * A PartitionChange that went unanswered. In KRaft a broker keeps fetching the metadata log from
 * the controller quorum until it has caught up (BrokerLifecycleManager / the metadata fetcher), so
 * no record is missed for a lost message; the model pushes records instead, so the controller
 * resends until the broker answers: the partition's current registration (it supersedes the lost
 * one). A timed-out request is resent at once; a broker that is down or fenced is not chased — it
 * receives every partition record when it registers again (onHeartbeat with a new broker epoch).
 */
export function onPartitionChangeLost(ctx: ControllerContext, ev: DisconnectedEvent, out: Out): ControllerContext {
  if (ev.rpc !== 'PartitionChange') return ctx;
  const broker = ctx.brokers[ev.to];
  if (!broker || broker.fenced) return ctx;
  const { topic, partition } = ev.payload as { topic: string; partition: number };
  const key = topicPartitionKey(topic, partition);
  const reg = ctx.partitions[key];
  if (!reg) return ctx;
  if (!ev.timedOut) {
    // a broken connection (a reset, or a broker that just died): resending at once would be refused
    // at once again; a live broker gets the record at its next heartbeat
    const missed = ctx.missed?.[ev.to] ?? [];
    return missed.includes(key) ? ctx : { ...ctx, missed: { ...ctx.missed, [ev.to]: [...missed, key] } };
  }
  const election = (ev.payload as { election?: PartitionChange['election'] }).election ?? null;
  broadcast(
    ctx,
    record(ctx, reg, reg.partitionEpoch === (ev.payload as { partitionEpoch?: number }).partitionEpoch ? election : null),
    out,
    ev.to,
  );
  return ctx;
}

function applyChanges(ctx: ControllerContext, change: (reg: PartitionRegistration) => PartitionChangeResult, out: Out): ControllerContext {
  let partitions = ctx.partitions;
  const written: { reg: PartitionRegistration; election: PartitionChange['election']; leaderMoved: boolean }[] = [];
  for (const [key, reg] of Object.entries(ctx.partitions)) {
    const r = change(reg);
    if (!r.changed) continue;
    partitions = { ...partitions, [key]: r.registration };
    written.push({ reg: r.registration, election: r.election, leaderMoved: r.registration.leader !== reg.leader });
  }
  const next = { ...ctx, partitions };
  for (const w of written) {
    if (w.leaderMoved)
      out.fact({
        kind: 'leaderChange',
        topic: w.reg.topic,
        partition: w.reg.partition,
        leader: w.reg.leader,
        leaderEpoch: w.reg.leaderEpoch,
        isr: w.reg.isr,
        election: w.election,
      });
    broadcast(next, record(next, w.reg, w.election), out);
  }
  return next;
}

/** ClusterControlManager.isActive: registered, unfenced and not in controlled shutdown. */
const isActive = (reg: BrokerRegistration | undefined): boolean => reg?.fenced === false && !reg.inControlledShutdown;
const acceptable = (ctx: ControllerContext) => (b: ActorId) => isActive(ctx.brokers[b]);

/** handleBrokerFenced: the broker leaves every ISR (never emptying one) and its leaderships move. */
export function fenceBroker(ctx: ControllerContext, broker: ActorId, out: Out): ControllerContext {
  const b = ctx.brokers[broker];
  if (!b || b.fenced) return ctx;
  // a fenced broker is sent every record when it registers again
  const fenced = { ...withoutMissed(ctx, broker), brokers: { ...ctx.brokers, [broker]: { epoch: b.epoch, fenced: true } } };
  const next = applyChanges(fenced, (reg) => onBrokerFenced(reg, broker, acceptable(fenced), fenced.unclean[reg.topic] ?? false), out);
  // handleBrokerFenced always writes a BrokerRegistrationChangeRecord, which every broker applies
  // (a leader stops counting the broker for its HW and proposing it to its ISR); the records of the
  // partitions it changed carry the fencing, and when it changed none, every partition's record,
  // unchanged, carries it — as at an unfencing (onHeartbeat)
  if (next.partitions === fenced.partitions)
    for (const reg of Object.values(next.partitions)) broadcast(next, record(next, reg, null), out);
  return next;
}

const onBoot = (ctx: ControllerContext, _ev: Lifecycle, out: Out): ControllerContext => {
  for (const b of Object.keys(ctx.brokers)) out.timer(`session:${b}`, 'sessionExpired', ctx.sessionTimeoutMs, { broker: b }, true);
  return ctx;
};

/**
 * BrokerHeartbeat (the model's heartbeat is also the registration). The same broker epoch: the
 * session deadline moves on (a fenced broker that heartbeats again is unfenced). A new broker epoch
 * is a restarted broker registering a new incarnation (ClusterControlManager.registerBroker):
 * - while the old incarnation's session is valid — not fenced and heard from within
 *   broker.session.timeout.ms (BrokerHeartbeatManager.hasValidSession) — it is refused
 *   DUPLICATE_BROKER_REGISTRATION and the session is not renewed: the old incarnation is fenced when
 *   its session expires (handleBrokerFenced: it leaves every ISR, its leaderships move), and only
 *   then may the new one register. The broker tries again at its next heartbeat;
 * - once the old incarnation is fenced, it registers and is unfenced (handleBrokerUnfenced: the
 *   partitions without a leader elect again), and it receives every partition record. Without ELR
 *   (the 4.0 default) registration changes no ISR itself (handleBrokerUncleanShutdown does nothing
 *   without ELR): the fencing already took the broker out of every ISR but the last member's.
 */
export function heartbeatError(ctx: ControllerContext, brokerId: ActorId, brokerEpoch: number): 'NONE' | 'DUPLICATE_BROKER_REGISTRATION' {
  const b = ctx.brokers[brokerId];
  return b && !b.fenced && b.epoch !== brokerEpoch ? 'DUPLICATE_BROKER_REGISTRATION' : 'NONE';
}

export const onHeartbeat = (ctx: ControllerContext, ev: RpcEvent<BrokerHeartbeatRequest>, out: Out): ControllerContext => {
  const { brokerId, brokerEpoch } = ev.payload;
  const error = heartbeatError(ctx, brokerId, brokerEpoch);
  const b = ctx.brokers[brokerId];
  if (error === 'NONE' && ev.payload.wantShutDown && b && b.epoch === brokerEpoch) return onShutdownHeartbeat(ctx, ev, out);
  // (the refusal is a BrokerRegistrationResponse's errorCode in Kafka; the model's heartbeat carries it)
  const answer: BrokerHeartbeatResponse = error === 'NONE' ? { isFenced: false } : { isFenced: true, error };
  out.reply(pendingRequest(ev), 'BrokerHeartbeatResponse', answer, { background: true });
  if (error !== 'NONE') return ctx;
  out.timer(`session:${brokerId}`, 'sessionExpired', ctx.sessionTimeoutMs, { broker: brokerId }, true);
  if (!b || (!b.fenced && b.epoch === brokerEpoch)) {
    // the same incarnation, alive: the records it lost to a broken connection, as they are now
    const missed = ctx.missed?.[brokerId];
    if (!missed) return ctx;
    for (const key of missed) {
      const reg = ctx.partitions[key];
      if (reg) broadcast(ctx, record(ctx, reg, null), out, brokerId);
    }
    return withoutMissed(ctx, brokerId);
  }
  ctx = withoutMissed(ctx, brokerId);
  let next: ControllerContext = { ...ctx, brokers: { ...ctx.brokers, [brokerId]: { epoch: brokerEpoch, fenced: false } } };
  next = applyChanges(next, (reg) => onBrokerUnfenced(reg, acceptable(next), next.unclean[reg.topic] ?? false), out);
  // every broker learns the unfencing (a BrokerRegistrationChangeRecord in KRaft: leaders may add
  // the broker back to their ISRs); the returning broker learns every partition
  for (const reg of Object.values(next.partitions)) broadcast(next, record(next, reg, null), out);
  return next;
};

/** BrokersToIsrs.hasLeaderships: the broker leads some partition. */
export function hasLeaderships(ctx: ControllerContext, broker: ActorId): boolean {
  return Object.values(ctx.partitions).some((p) => p.leader === broker);
}

/**
 * A heartbeat with wantShutDown from the broker's current incarnation
 * (ReplicationControlManager.processBrokerHeartbeat → BrokerHeartbeatManager.calculateNextBrokerState):
 * - unfenced and leading partitions: CONTROLLED_SHUTDOWN — handleBrokerInControlledShutdown marks it
 *   and runs generateLeaderAndIsrUpdates as a fencing does: it leaves every ISR (never emptying one)
 *   and its leaderships move to another active ISR member, or go offline; the answer says
 *   inControlledShutdown, not yet shouldShutDown;
 * - leading nothing (unfenced, in CONTROLLED_SHUTDOWN, or fenced): SHUTDOWN_NOW — handleBrokerFenced,
 *   and the answer says shouldShutDown.
 * Kafka grants SHUTDOWN_NOW only once every active broker has caught up with the metadata log past
 * the shutdown's records (lowestActiveOffset); the model's records are pushed, so it does not wait
 * for that (simplification: docs/kafka-model.md).
 */
function onShutdownHeartbeat(ctx: ControllerContext, ev: RpcEvent<BrokerHeartbeatRequest>, out: Out): ControllerContext {
  const { brokerId } = ev.payload;
  const b = ctx.brokers[brokerId] as BrokerRegistration;
  out.timer(`session:${brokerId}`, 'sessionExpired', ctx.sessionTimeoutMs, { broker: brokerId }, true);
  if (!b.fenced && !b.inControlledShutdown && hasLeaderships(ctx, brokerId)) {
    const marked: ControllerContext = {
      ...ctx,
      brokers: { ...ctx.brokers, [brokerId]: { epoch: b.epoch, fenced: false, inControlledShutdown: true } },
    };
    const answer: BrokerHeartbeatResponse = { isFenced: false, inControlledShutdown: true, shouldShutDown: false };
    out.reply(pendingRequest(ev), 'BrokerHeartbeatResponse', answer, { background: true });
    return applyChanges(marked, (reg) => onBrokerFenced(reg, brokerId, acceptable(marked), marked.unclean[reg.topic] ?? false), out);
  }
  if (b.inControlledShutdown && hasLeaderships(ctx, brokerId)) {
    const answer: BrokerHeartbeatResponse = { isFenced: false, inControlledShutdown: true, shouldShutDown: false };
    out.reply(pendingRequest(ev), 'BrokerHeartbeatResponse', answer, { background: true });
    return ctx;
  }
  const answer: BrokerHeartbeatResponse = { isFenced: true, inControlledShutdown: false, shouldShutDown: true };
  out.reply(pendingRequest(ev), 'BrokerHeartbeatResponse', answer, { background: true });
  return fenceBroker(ctx, brokerId, out);
}

const onSessionExpired = (ctx: ControllerContext, ev: TimerEvent<{ broker: ActorId }>, out: Out): ControllerContext =>
  fenceBroker(ctx, ev.data.broker, out);

/**
 * ReplicationControlManager.alterPartition → validateAlterPartitionData, in its order: an unknown
 * partition → UNKNOWN_TOPIC_OR_PARTITION; a stale leader epoch → FENCED_LEADER_EPOCH; a sender that
 * is not the leader → INVALID_REQUEST; a stale partition epoch → INVALID_UPDATE_VERSION; an ISR with
 * a replica outside the assignment or without the leader → INVALID_REQUEST; any member of the new
 * ISR (kept or added) fenced or unregistered → INELIGIBLE_REPLICA. Otherwise the ISR is written with
 * partition epoch + 1 (the leader epoch stays). Not modelled: a newer epoch than the controller's
 * (NOT_CONTROLLER: the model's controller never fails over), the broker epochs of the members
 * (the model's request names brokers only) and leader recovery (RECOVERING).
 */
export function alterPartition(
  ctx: ControllerContext,
  req: AlterPartitionRequest,
): {
  ctx: ControllerContext;
  error:
    | 'NONE'
    | 'FENCED_LEADER_EPOCH'
    | 'INVALID_REQUEST'
    | 'INVALID_UPDATE_VERSION'
    | 'INELIGIBLE_REPLICA'
    | 'UNKNOWN_TOPIC_OR_PARTITION';
  reg: PartitionRegistration | null;
} {
  const key = topicPartitionKey(req.topic, req.partition);
  const reg = ctx.partitions[key];
  if (!reg) return { ctx, error: 'UNKNOWN_TOPIC_OR_PARTITION', reg: null };
  if (req.leaderEpoch !== reg.leaderEpoch) return { ctx, error: 'FENCED_LEADER_EPOCH', reg };
  if (req.leaderId !== reg.leader) return { ctx, error: 'INVALID_REQUEST', reg };
  if (req.partitionEpoch !== reg.partitionEpoch) return { ctx, error: 'INVALID_UPDATE_VERSION', reg };
  if (req.newIsr.some((b) => !reg.replicas.includes(b)) || !req.newIsr.includes(reg.leader as ActorId))
    return { ctx, error: 'INVALID_REQUEST', reg };
  if (req.newIsr.some((b) => !isActive(ctx.brokers[b]))) return { ctx, error: 'INELIGIBLE_REPLICA', reg };
  const next: PartitionRegistration = { ...reg, isr: [...req.newIsr], partitionEpoch: reg.partitionEpoch + 1 };
  return { ctx: { ...ctx, partitions: { ...ctx.partitions, [key]: next } }, error: 'NONE', reg: next };
}

const onAlterPartition = (ctx: ControllerContext, ev: RpcEvent<AlterPartitionRequest>, out: Out): ControllerContext => {
  const r = alterPartition(ctx, ev.payload);
  out.reply(pendingRequest(ev), 'AlterPartitionResponse', {
    topic: ev.payload.topic,
    partition: ev.payload.partition,
    error: r.error,
    leaderId: r.reg?.leader ?? null,
    leaderEpoch: r.reg?.leaderEpoch ?? -1,
    partitionEpoch: r.reg?.partitionEpoch ?? -1,
    isr: r.reg?.isr ?? [],
  });
  if (r.error === 'NONE' && r.reg) broadcast(r.ctx, record(r.ctx, r.reg, null), out);
  return r.ctx;
};

// ---- preferred leader election: auto.leader.rebalance.enable ----

/** ReplicationControlManager.MAX_ELECTIONS_PER_IMBALANCE: the most preferred elections one check writes. */
export const MAX_ELECTIONS_PER_IMBALANCE = 1000;
/** QuorumController: a check that stopped at the maximum runs again 10 ms later (not at once: queue fairness). */
export const IMMEDIATE_BALANCE_DELAY_MS = 10;
const BALANCE_TIMER = 'maybeBalancePartitionLeaders';

/** ReplicationControlManager.imbalancedPartitions: the partitions whose leader is not their preferred replica (offline ones too). */
export function imbalancedPartitions(ctx: ControllerContext): string[] {
  return Object.entries(ctx.partitions)
    .filter(([, reg]) => !hasPreferredLeader(reg))
    .map(([key]) => key);
}

/**
 * QuorumController.maybeScheduleNextBalancePartitionLeaders, which runs after every controller write
 * event (ControllerWriteEvent.run, once the event's records are applied) and when the controller
 * becomes active: if no check is queued, the check is on (auto.leader.rebalance.enable) and some
 * partition's leader is not its preferred replica (arePartitionLeadersImbalanced), it queues the check
 * leader.imbalance.check.interval.seconds from now — or 10 ms from now after a check that stopped at
 * MAX_ELECTIONS_PER_IMBALANCE. A balanced cluster queues nothing; a queued check is never cancelled
 * (it runs, and may find nothing to do). The check is a kernel deadline, background work: it does not
 * keep a run going.
 */
export function maybeScheduleBalance(ctx: ControllerContext, out: Out): ControllerContext {
  const interval = ctx.leaderImbalanceCheckIntervalMs;
  if (ctx.imbalanceSchedule === 'scheduled' || interval === undefined) return ctx;
  if (!Object.values(ctx.partitions).some((reg) => !hasPreferredLeader(reg))) return ctx;
  out.timer(BALANCE_TIMER, BALANCE_TIMER, ctx.imbalanceSchedule === 'immediately' ? IMMEDIATE_BALANCE_DELAY_MS : interval, {}, true);
  return { ...ctx, imbalanceSchedule: 'scheduled' };
}

/**
 * The check itself (QuorumController's MAYBE_BALANCE_PARTITION_LEADERS event →
 * ReplicationControlManager.maybeBalancePartitionLeaders): a PREFERRED election
 * (PartitionChangeBuilder.electPreferredLeader, `preferredElection`) for each imbalanced partition, up to
 * `maxElections` records: the preferred replica leads again if it is in the ISR and active (unfenced,
 * not in controlled shutdown: ClusterControlManager.isActive); otherwise the partition keeps its leader
 * and no record is written. Every partition it moves goes to every broker (PartitionChange); the ISR
 * stays. Having written `maxElections` records it asks to run again soon (IMMEDIATELY), else DEFERRED.
 * Kafka 4.x's KRaft controller has no threshold: leader.imbalance.per.broker.percentage is read only by
 * the ZooKeeper-era controller (KafkaController.checkAndTriggerAutoLeaderRebalance).
 */
export function balancePartitionLeaders(
  ctx: ControllerContext,
  out: Out,
  maxElections: number = MAX_ELECTIONS_PER_IMBALANCE,
): ControllerContext {
  let records = 0;
  const next = applyChanges(
    ctx,
    (reg) => {
      if (records >= maxElections || hasPreferredLeader(reg)) return { registration: reg, changed: false, election: null };
      const r = preferredElection(reg, acceptable(ctx));
      if (r.changed) records++;
      return r;
    },
    out,
  );
  return { ...next, imbalanceSchedule: records >= maxElections ? 'immediately' : 'deferred' };
}

const onBalanceTimer = (ctx: ControllerContext, _ev: TimerEvent, out: Out): ControllerContext => balancePartitionLeaders(ctx, out);

/** A controller write event: its handler, then maybeScheduleNextBalancePartitionLeaders (ControllerWriteEvent.run). */
function writeEvent<E>(fn: (ctx: ControllerContext, ev: E, out: Out) => ControllerContext) {
  return (ctx: ControllerContext, ev: E, out: Out): ControllerContext => maybeScheduleBalance(fn(ctx, ev, out), out);
}

export const controllerMachine = setup({
  types: {} as { context: ControllerContext; input: ControllerInput; events: ControllerEvent },
}).createMachine({
  id: 'controller',
  context: ({ input }) => ({
    id: CONTROLLER_ID,
    brokers: Object.fromEntries(input.brokers.map((b) => [b, { epoch: 0, fenced: false }])),
    partitions: Object.fromEntries(input.partitions.map((p) => [topicPartitionKey(p.topic, p.partition), p])),
    unclean: input.unclean,
    sessionTimeoutMs: input.sessionTimeoutMs,
    ...(typeof input.leaderImbalanceCheckIntervalMs === 'number'
      ? { leaderImbalanceCheckIntervalMs: input.leaderImbalanceCheckIntervalMs }
      : {}),
  }),
  initial: 'active',
  states: {
    /** The active controller (the quorum's leader); the model's quorum never fails over. */
    active: {
      on: {
        // every handler that may change a partition is a write event: the check is queued after it
        boot: { actions: handle(writeEvent(onBoot)) },
        BrokerHeartbeat: { actions: handle(writeEvent(onHeartbeat)) },
        AlterPartition: { actions: handle(writeEvent(onAlterPartition)) },
        sessionExpired: { actions: handle(writeEvent(onSessionExpired)) },
        maybeBalancePartitionLeaders: { actions: handle(writeEvent(onBalanceTimer)) },
        // the broker has applied the record: nothing more to send for it
        PartitionChangeResponse: {},
        disconnected: { actions: handle(onPartitionChangeLost) },
      },
    },
  },
});
