/**
 * From a validated scenario to what the kernel runs: one actor per broker, the two coordinators,
 * and per client its application and Kafka clients; the faults in the kernel's terms; the kernel's
 * options. Process ids are the scenario's ids; actor ids are "<process>.<role>".
 */
import type { AnyStateMachine } from 'xstate';
import { consumerAppMachine, type SinkRef } from '../application/consumerApp.machine';
import { producerAppMachine } from '../application/producerApp.machine';
import { brokerMachine } from '../broker/broker.machine';
import { brokerRefusesConnections } from '../broker/listeners';
import type { AbortTransactionEvent } from '../broker/operatorAbort';
import {
  type ClusterMetadata,
  CONSUMER_OFFSETS_TOPIC,
  GROUP_COORDINATOR_ID,
  replicationOn,
  type TopicMetadata,
  TRANSACTION_STATE_TOPIC,
  TXN_COORDINATOR_ID,
} from '../cluster/metadata';
import { resolveProducerConfig } from '../config/producerConfig';
import { CONTROLLER_ID, controllerMachine } from '../controller/controller.machine';
import { DEFAULT_GROUP_COORDINATOR_CONFIG, groupCoordinatorMachine } from '../coordinator/groupCoordinator.machine';
import { hostedGroupCoordinatorId, hostedGroupCoordinatorMachine } from '../coordinator/hostedGroupCoordinator.machine';
import { hostedCoordinatorId, hostedTxnCoordinatorMachine, producerIdBlockStart } from '../coordinator/hostedTxnCoordinator.machine';
import { prepareSignal, type ResetOffsetsEvent } from '../coordinator/offsetReset';
import { DEFAULT_TXN_COORDINATOR_CONFIG, transactionCoordinatorMachine } from '../coordinator/transactionCoordinator.machine';
import type { RequestRpc } from '../kernel/envelope';
import type { KernelFault } from '../kernel/faults';
import type { ActorSpec, KernelOptions } from '../kernel/simulation';
import { createPartitionLog, type PartitionLog } from '../log/partitionLog';
import { asReplicatedLog } from '../log/replicaLog';
import type { PartitionRegistration } from '../replication/election';
import { type DatabaseMode, databaseMachine } from '../sinks/database.machine';
import { type HttpApiMode, httpApiMachine } from '../sinks/httpApi.machine';
import { outboxRelayMachine } from '../sinks/outboxRelay.machine';
import { streamsSpecs } from '../streams/streamsBuild';
import { changelogTopic, repartitionTopic } from '../streams/streamsTopology';
import { consumerActor, producerActor } from './clientActors';
import { replicaAssignment, replicationFactorOf } from './replicaAssignment';
import type { FaultSpec, TopicSpec } from './schema';
import type { ResolvedScenario } from './validate';

export interface BuiltScenario {
  readonly specs: ActorSpec[];
  readonly options: KernelOptions;
  readonly meta: ClusterMetadata;
  /** Every process, with the actors it holds and what it is, for views. */
  readonly processes: readonly ProcessInfo[];
}

export type ProcessKind = 'broker' | 'controller' | 'txn-coordinator' | 'group-coordinator' | 'producer' | 'consumer' | 'streams' | 'sink';

export interface ProcessInfo {
  readonly id: string;
  readonly kind: ProcessKind;
  readonly actors: readonly string[];
}

export const DEFAULT_RUN = { maxTimeMs: 600000, maxSteps: 500000, settleMs: 2000, checkpointEvery: 256 } as const;

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${n % 10 > 3 ? 'th' : s}`;
}

export function describeFault(f: FaultSpec): string {
  if (f.note) return f.note;
  switch (f.type) {
    case 'drop':
    case 'delay':
    case 'duplicate':
    case 'reset': {
      const which = `${f.count && f.count > 1 ? `${f.count} ${f.rpc}s from the ${ordinal(f.nth ?? 1)}` : `the ${ordinal(f.nth ?? 1)} ${f.rpc}`}`;
      const dir = `${f.from ? ` from ${f.from}` : ''}${f.to ? ` to ${f.to}` : ''}`;
      const where = f.where
        ? ` where ${Object.entries(f.where)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')}`
        : '';
      const how = f.type === 'delay' ? ` by ${f.delayMs} ms` : '';
      if (f.type === 'reset') return `reset the connection of ${which}${dir}${where}`;
      return `${f.type} ${which}${dir}${where}${how}`;
    }
    case 'runCleaner':
      return `run the log cleaner${f.topic ? ` on ${f.topic}` : ''} at ${f.at} ms`;
    case 'resetOffsets': {
      const target =
        f.to === 'earliest' || f.to === 'latest' ? `to ${f.to}` : f.to !== undefined ? `to offset ${f.to}` : `by ${f.shiftBy ?? 0}`;
      return `reset the offsets of group ${f.group} on ${f.topic}${f.partition !== undefined ? `:${f.partition}` : ''} ${target} at ${f.at} ms`;
    }
    case 'abortTransaction':
      return `abort the transaction starting at offset ${f.startOffset} of ${f.topic}-${f.partition} at ${f.at} ms`;
    case 'slowReplication':
      return `slow the replication link of ${f.target} by ${f.delayMs} ms from ${f.at ?? 0} ms${f.durationMs !== undefined ? ` for ${f.durationMs} ms` : ''}`;
    case 'controlledShutdown':
      return `controlled shutdown of ${f.target} at ${f.at} ms${f.durationMs !== undefined ? `, restart ${f.durationMs} ms after it stopped` : ''}`;
    default: {
      const when =
        f.point !== undefined
          ? ` at ${f.point}${
              f.where
                ? ` (${Object.entries(f.where)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(', ')})`
                : ''
            }${f.nth && f.nth > 1 ? `, ${ordinal(f.nth)} time` : ''}`
          : ` at ${f.at} ms`;
      const then =
        f.durationMs !== undefined
          ? f.type === 'pause'
            ? ` for ${f.durationMs} ms`
            : f.type === 'crash'
              ? `, restart ${f.durationMs} ms later`
              : ''
          : '';
      return `${f.type} ${f.target}${when}${then}`;
    }
  }
}

/** Records the producer scripts send, counting each `count`. */
function scriptedRecords(s: ResolvedScenario['scenario']): number {
  let n = 0;
  for (const c of s.clients)
    if (c.type === 'producer') for (const op of c.script) n += op.op === 'send' ? (op.count ?? 1) : op.op === 'resend' ? 1 : 0;
  return n;
}

/** Every broker holding a replica of `topic` (all brokers without one): each cleans its own copy of the log. */
function brokersOf(meta: ClusterMetadata): (topic?: string) => readonly string[] {
  return (topic?: string) => {
    const t = topic ? meta.topics[topic] : undefined;
    if (!topic) return meta.brokers;
    return [...new Set(t?.replicas ? t.replicas.flat() : (t?.leaders ?? []).filter((b): b is string => b !== null))];
  };
}

/**
 * `built` with other faults: what `buildScenario` gives for the same scenario with `faults` in
 * place of its own (the faults are the only part of a build they change). The search builds its
 * configuration once and each schedule with this, so every schedule shares the configuration's
 * actor specs (their inputs are never changed: contexts are immutable) and a fork of one recorded
 * run sees the same specs without comparing them as text. tests/search/builtWithFaults.test.ts.
 */
export function withFaults(built: BuiltScenario, faults: readonly FaultSpec[]): BuiltScenario {
  return { ...built, options: { ...built.options, faults: kernelFaults(faults, built.meta) } };
}

function kernelFaults(faults: readonly FaultSpec[], meta: ClusterMetadata): KernelFault[] {
  const brokersFor = brokersOf(meta);
  const partitionsOf = (topic: string) => Array.from({ length: meta.topics[topic]?.partitions ?? 0 }, (_, p) => p);
  const out: KernelFault[] = [];
  let id = 0;
  for (const f of faults) {
    const label = describeFault(f);
    switch (f.type) {
      case 'drop':
      case 'delay':
      case 'duplicate':
      case 'reset':
        out.push({
          kind: 'envelope',
          id: id++,
          match: { rpc: f.rpc as RequestRpc, from: f.from, to: f.to, where: f.where },
          nth: f.nth ?? 1,
          count: f.count ?? 1,
          action: f.type,
          delayMs: f.delayMs ?? 0,
          label,
        });
        break;
      case 'runCleaner':
        for (const broker of brokersFor(f.topic))
          out.push({
            kind: 'timed',
            id: id++,
            at: f.at,
            process: broker,
            action: {
              type: 'signal',
              actor: broker,
              event: {
                type: 'runCleaner',
                ...(f.topic !== undefined ? { topic: f.topic } : {}),
                ...(f.partition !== undefined ? { partition: f.partition } : {}),
              },
            },
            label,
          });
        break;
      case 'resetOffsets': {
        const partitions = f.partition !== undefined ? [f.partition] : partitionsOf(f.topic);
        const event: ResetOffsetsEvent = {
          type: 'resetOffsets',
          groupId: f.group,
          topic: f.topic,
          partitions,
          ...(f.to !== undefined ? { to: f.to } : {}),
          ...(f.shiftBy !== undefined ? { shiftBy: f.shiftBy } : {}),
          brokers: brokersFor(f.topic),
        };
        out.push({
          kind: 'timed',
          id: id++,
          at: f.at,
          process: GROUP_COORDINATOR_ID,
          action: { type: 'signal', actor: GROUP_COORDINATOR_ID, event: { ...event } },
          label,
        });
        break;
      }
      case 'abortTransaction': {
        // the partition's first leader; prepareSignal routes the signal to its leader at the instant
        const t = meta.topics[f.topic];
        const target = t?.replicas?.[f.partition]?.[0] ?? t?.leaders[f.partition] ?? meta.brokers[0] ?? 'broker-0';
        const event: AbortTransactionEvent = {
          type: 'operatorAbortTransaction',
          topic: f.topic,
          partition: f.partition,
          startOffset: f.startOffset,
          brokers: meta.brokers,
          startedAt: f.at,
        };
        out.push({
          kind: 'timed',
          id: id++,
          at: f.at,
          process: target,
          action: { type: 'signal', actor: target, event: { ...event } },
          label,
        });
        break;
      }
      case 'controlledShutdown':
        out.push({
          kind: 'timed',
          id: id++,
          at: f.at,
          process: f.target,
          action: {
            type: 'signal',
            actor: f.target,
            event: { type: 'controlledShutdown', label, ...(f.durationMs !== undefined ? { restartAfterMs: f.durationMs } : {}) },
          },
          label,
        });
        break;
      case 'slowReplication':
        out.push({
          kind: 'slowLink',
          id: id++,
          process: f.target,
          from: f.at ?? 0,
          until: f.durationMs !== undefined ? (f.at ?? 0) + f.durationMs : Number.POSITIVE_INFINITY,
          delayMs: f.delayMs,
          label,
        });
        break;
      default:
        if (f.point !== undefined) {
          out.push({
            kind: 'point',
            id: id++,
            process: f.target,
            action: f.type === 'pause' ? 'pause' : 'crash',
            point: f.point,
            where: f.where,
            nth: f.nth ?? 1,
            restartAfterMs: f.durationMs ?? null,
            label,
          });
          break;
        }
        out.push({ kind: 'timed', id: id++, at: f.at ?? 0, process: f.target, action: { type: f.type }, label });
        if (f.durationMs !== undefined && (f.type === 'crash' || f.type === 'pause'))
          out.push({
            kind: 'timed',
            id: id++,
            at: (f.at ?? 0) + f.durationMs,
            process: f.target,
            action: { type: f.type === 'crash' ? 'restart' : 'resume' },
            label: `${f.type === 'crash' ? 'restart' : 'resume'} ${f.target} (${label})`,
          });
    }
  }
  return out;
}

/** Topics Kafka Streams creates for itself: each Streams client's changelog and repartition topics. */
export function streamsInternalTopics(r: ResolvedScenario): { name: string; partitions: number }[] {
  const out: { name: string; partitions: number }[] = [];
  // instances of one application.id share its internal topics
  const add = (name: string, partitions: number) => {
    if (!out.some((t) => t.name === name)) out.push({ name, partitions });
  };
  for (const c of r.scenario.clients) {
    if (c.type !== 'streams') continue;
    const appId = r.streams[c.id]?.['application.id'] ?? c.id;
    const partitions = r.scenario.topics.find((t) => t.name === c.inputTopic)?.partitions ?? 1;
    add(changelogTopic(appId), partitions);
    if (c.groupBy) add(repartitionTopic(appId), partitions);
  }
  return out;
}

/** An internal topic's metadata when replicated: partition p on brokers p, p+1, … (mod n), the first leading. */
export function transactionStateTopic(
  brokers: readonly string[],
  partitions: number,
  rf: number,
  name = TRANSACTION_STATE_TOPIC,
): TopicMetadata {
  const replicas = Array.from({ length: partitions }, (_, p) =>
    Array.from({ length: rf }, (_, j) => brokers[(p + j) % brokers.length] as string),
  );
  const leaders = replicas.map((list) => list[0] as string);
  return { name, partitions, leaders, replicas, leaderEpochs: leaders.map(() => 0) };
}

/** The group coordinator's settings from the cluster's. */
function groupCoordinatorConfig(cluster: ResolvedScenario['cluster']) {
  return {
    ...DEFAULT_GROUP_COORDINATOR_CONFIG,
    initialRebalanceDelayMs: cluster['group.initial.rebalance.delay.ms'],
    transactionVersion: cluster['transaction.version'],
    verification: cluster['transaction.partition.verification.enable'],
  };
}

/** The group coordinator a broker hosts (an actor of the broker's process). */
function hostedGroupCoordinatorSpec(broker: string, meta: ClusterMetadata, cluster: ResolvedScenario['cluster']): ActorSpec {
  const id = hostedGroupCoordinatorId(broker);
  return {
    id,
    kind: 'group-coordinator',
    logic: hostedGroupCoordinatorMachine as AnyStateMachine,
    input: { id, host: broker, meta, config: groupCoordinatorConfig(cluster) },
  };
}

/** The transaction coordinator's settings from the cluster's. */
function txnCoordinatorConfig(cluster: ResolvedScenario['cluster']) {
  return {
    ...DEFAULT_TXN_COORDINATOR_CONFIG,
    cleanupIntervalMs: cluster['transaction.abort.timed.out.transaction.cleanup.interval.ms'],
    maxTimeoutMs: cluster['transaction.max.timeout.ms'],
    transactionalIdExpirationMs: cluster['transactional.id.expiration.ms'],
    removeExpiredIntervalMs: cluster['transaction.remove.expired.transaction.cleanup.interval.ms'],
    transactionVersion: cluster['transaction.version'],
  };
}

/** The transaction coordinator a broker hosts (an actor of the broker's process). */
function hostedCoordinatorSpec(broker: string, index: number, meta: ClusterMetadata, cluster: ResolvedScenario['cluster']): ActorSpec {
  const id = hostedCoordinatorId(broker);
  return {
    id,
    kind: 'txn-coordinator',
    logic: hostedTxnCoordinatorMachine as AnyStateMachine,
    input: {
      id,
      host: broker,
      meta,
      config: txnCoordinatorConfig(cluster),
      firstProducerId: producerIdBlockStart(index),
    },
  };
}

export function buildScenario(r: ResolvedScenario): BuiltScenario {
  const internal: TopicSpec[] = streamsInternalTopics(r).filter((t) => !r.scenario.topics.some((x) => x.name === t.name));
  const s = { ...r.scenario, topics: [...r.scenario.topics, ...internal] };
  const topicConfigs = { ...r.topics };
  for (const t of streamsInternalTopics(r))
    topicConfigs[t.name] ??= {
      'cleanup.policy': t.name.endsWith('-changelog') ? 'compact' : 'delete',
      'segment.bytes': 1073741824,
      'segment.ms': 604800000,
      'delete.retention.ms': 86400000,
      'min.insync.replicas': r.cluster['min.insync.replicas'],
      'unclean.leader.election.enable': false,
    };
  const cluster = r.cluster;
  const brokers = Array.from({ length: cluster.brokers }, (_, i) => `broker-${i}`);
  const topics: Record<string, TopicMetadata> = {};
  s.topics.forEach((t, ti) => {
    const n = t.partitions ?? 1;
    const assignment = replicaAssignment(t, ti, brokers.length).map((list) => list.map((b) => brokers[b] as string));
    const leaders = assignment.map((list) => list[0] as string);
    // a topic with one replica per partition carries no replica lists: it runs exactly as before replication
    topics[t.name] =
      replicationFactorOf(t) > 1
        ? // the first PartitionRecord starts every leader epoch at 0; clients' refresh rules key on leaderEpochs
          { name: t.name, partitions: n, leaders, replicas: assignment, leaderEpochs: leaders.map(() => 0) }
        : { name: t.name, partitions: n, leaders };
  });
  // transaction.state.log.replication.factor > 1: __transaction_state is a replicated topic and each
  // broker hosts a transaction coordinator, active for the partitions it leads
  const txnStateRf = cluster['transaction.state.log.replication.factor'] ?? 1;
  const hostedTxnCoordinator = txnStateRf > 1;
  if (hostedTxnCoordinator) {
    topics[TRANSACTION_STATE_TOPIC] = transactionStateTopic(brokers, cluster['transaction.state.log.num.partitions'], txnStateRf);
    topicConfigs[TRANSACTION_STATE_TOPIC] = {
      'cleanup.policy': 'compact',
      'segment.bytes': 104857600,
      'segment.ms': 604800000,
      'delete.retention.ms': 86400000,
      'min.insync.replicas': cluster['transaction.state.log.min.isr'] ?? 2,
      'unclean.leader.election.enable': false,
    };
  }
  // offsets.topic.replication.factor > 1: __consumer_offsets is a replicated topic and each broker
  // hosts a group coordinator, active for the partitions it leads
  const offsetsRf = cluster['offsets.topic.replication.factor'] ?? 1;
  const hostedGroupCoordinator = offsetsRf > 1;
  if (hostedGroupCoordinator) {
    topics[CONSUMER_OFFSETS_TOPIC] = transactionStateTopic(
      brokers,
      cluster['offsets.topic.num.partitions'],
      offsetsRf,
      CONSUMER_OFFSETS_TOPIC,
    );
    topicConfigs[CONSUMER_OFFSETS_TOPIC] = {
      'cleanup.policy': 'compact',
      'segment.bytes': 104857600,
      'segment.ms': 604800000,
      'delete.retention.ms': 86400000,
      // GroupCoordinatorService.groupMetadataTopicConfigs sets no min ISR: the broker's applies
      'min.insync.replicas': cluster['min.insync.replicas'],
      'unclean.leader.election.enable': false,
    };
  }
  const meta: ClusterMetadata = {
    brokers,
    topics,
    transactionCoordinator: hostedTxnCoordinator
      ? hostedCoordinatorId(topics[TRANSACTION_STATE_TOPIC]?.leaders[0] ?? (brokers[0] as string))
      : TXN_COORDINATOR_ID,
    groupCoordinator: hostedGroupCoordinator
      ? hostedGroupCoordinatorId(topics[CONSUMER_OFFSETS_TOPIC]?.leaders[0] ?? (brokers[0] as string))
      : GROUP_COORDINATOR_ID,
    transactionStatePartitions: cluster['transaction.state.log.num.partitions'],
    consumerOffsetsPartitions: cluster['offsets.topic.num.partitions'],
  };
  const specs: ActorSpec[] = [];
  const processes: ProcessInfo[] = [];
  const add = (process: string, kind: ProcessKind, list: ActorSpec[]) => {
    specs.push(...list);
    processes.push({ id: process, kind, actors: list.map((a) => a.id) });
  };

  const replicating = replicationOn(meta);
  // the controller's first record of every replicated partition: the first replica leads, every replica in the ISR
  const registrations: PartitionRegistration[] = [];
  for (const t of Object.values(topics))
    t.replicas?.forEach((replicas, p) => {
      registrations.push({
        topic: t.name,
        partition: p,
        replicas,
        isr: replicas,
        leader: replicas[0] ?? null,
        leaderEpoch: 0,
        partitionEpoch: 0,
      });
    });
  const settings = {
    controller: CONTROLLER_ID,
    replicaLagTimeMaxMs: cluster['replica.lag.time.max.ms'],
    replicaFetchWaitMaxMs: cluster['replica.fetch.wait.max.ms'],
    heartbeatIntervalMs: cluster['broker.heartbeat.interval.ms'],
    minInsyncReplicas: Object.fromEntries(Object.entries(topicConfigs).map(([name, c]) => [name, c['min.insync.replicas']])),
  };
  brokers.forEach((b) => {
    const logs: PartitionLog[] = [];
    const txnStateTopics: TopicSpec[] = [
      ...(hostedTxnCoordinator ? [{ name: TRANSACTION_STATE_TOPIC }] : []),
      ...(hostedGroupCoordinator ? [{ name: CONSUMER_OFFSETS_TOPIC }] : []),
    ];
    for (const t of [...s.topics, ...txnStateTopics]) {
      const tc = topicConfigs[t.name];
      const info = topics[t.name];
      if (!tc || !info) continue;
      info.leaders.forEach((leader, p) => {
        const replicas = info.replicas?.[p];
        if (replicas ? !replicas.includes(b) : leader !== b) return;
        const log = createPartitionLog(
          t.name,
          p,
          t.startOffset ?? 0,
          { segmentBytes: tc['segment.bytes'], segmentMs: tc['segment.ms'] },
          { cleanupPolicy: tc['cleanup.policy'], deleteRetentionMs: tc['delete.retention.ms'] },
        );
        logs.push(replicas ? asReplicatedLog(log) : log);
      });
    }
    const coordinator: ActorSpec[] = [
      ...(hostedTxnCoordinator ? [hostedCoordinatorSpec(b, brokers.indexOf(b), meta, cluster)] : []),
      ...(hostedGroupCoordinator ? [hostedGroupCoordinatorSpec(b, meta, cluster)] : []),
    ];
    add(b, 'broker', [
      {
        id: b,
        kind: 'broker',
        logic: brokerMachine as AnyStateMachine,
        ...(replicating ? { refusesConnections: brokerRefusesConnections } : {}),
        input: {
          id: b,
          partitions: logs,
          verification: cluster['transaction.partition.verification.enable'],
          transactionVersion: cluster['transaction.version'],
          meta,
          producerExpiration: {
            expirationMs: cluster['producer.id.expiration.ms'],
            checkIntervalMs: cluster['producer.id.expiration.check.interval.ms'],
          },
          ...(replicating
            ? {
                replication: {
                  settings,
                  initial: registrations.filter((r) => r.replicas.includes(b)).map((r) => ({ ...r, election: null })),
                },
              }
            : {}),
        },
        ...(replicating ? { boot: true } : {}),
      },
      ...coordinator,
    ]);
  });
  if (replicating)
    add(CONTROLLER_ID, 'controller', [
      {
        id: CONTROLLER_ID,
        kind: 'controller',
        logic: controllerMachine as AnyStateMachine,
        input: {
          brokers,
          partitions: registrations,
          unclean: Object.fromEntries(Object.entries(topicConfigs).map(([name, c]) => [name, c['unclean.leader.election.enable']])),
          sessionTimeoutMs: cluster['broker.session.timeout.ms'],
          // ControllerServer: the check's interval only when auto.leader.rebalance.enable
          leaderImbalanceCheckIntervalMs: cluster['auto.leader.rebalance.enable']
            ? cluster['leader.imbalance.check.interval.seconds'] * 1000
            : null,
        },
        boot: true,
      },
    ]);
  if (!hostedTxnCoordinator)
    add(TXN_COORDINATOR_ID, 'txn-coordinator', [
      {
        id: TXN_COORDINATOR_ID,
        kind: 'txn-coordinator',
        logic: transactionCoordinatorMachine as AnyStateMachine,
        input: {
          id: TXN_COORDINATOR_ID,
          meta,
          config: txnCoordinatorConfig(cluster),
          logs: Array.from({ length: meta.transactionStatePartitions }, (_, p) => createPartitionLog(TRANSACTION_STATE_TOPIC, p)),
        },
      },
    ]);
  if (!hostedGroupCoordinator)
    add(GROUP_COORDINATOR_ID, 'group-coordinator', [
      {
        id: GROUP_COORDINATOR_ID,
        kind: 'group-coordinator',
        logic: groupCoordinatorMachine as AnyStateMachine,
        input: {
          id: GROUP_COORDINATOR_ID,
          meta,
          config: groupCoordinatorConfig(cluster),
          logs: Array.from({ length: meta.consumerOffsetsPartitions }, (_, p) => createPartitionLog(CONSUMER_OFFSETS_TOPIC, p)),
        },
      },
    ]);

  const sinkRefs = new Map<string, SinkRef>();
  for (const k of s.sinks ?? []) {
    const mode = k.mode ?? (k.type === 'database' ? 'insert' : k.type === 'http-api' ? 'plain' : 'outbox');
    sinkRefs.set(k.id, { id: k.id, type: k.type, mode });
    if (k.type === 'http-api')
      add(k.id, 'sink', [
        {
          id: k.id,
          kind: 'http-api',
          logic: httpApiMachine as AnyStateMachine,
          input: { id: k.id, mode: mode as HttpApiMode, retentionMs: k.retentionMs ?? null },
        },
      ]);
    else if (k.type === 'database')
      add(k.id, 'sink', [
        {
          id: k.id,
          kind: 'database',
          logic: databaseMachine as AnyStateMachine,
          input: { id: k.id, mode: mode as DatabaseMode, retentionMs: k.retentionMs ?? null },
        },
      ]);
    else {
      // an outbox: the database (business rows + outbox rows in one transaction) and its CDC relay
      add(k.id, 'sink', [{ id: k.id, kind: 'database', logic: databaseMachine as AnyStateMachine, input: { id: k.id, mode: 'outbox' } }]);
      const relay = `${k.id}-relay`;
      add(relay, 'sink', [
        {
          id: `${relay}.app`,
          kind: 'outbox-relay',
          logic: outboxRelayMachine as AnyStateMachine,
          input: { self: `${relay}.app`, database: k.id, producer: `${relay}.producer`, client: relay, topic: k.topic ?? '' },
          boot: true,
        },
        producerActor(`${relay}.producer`, `${relay}.app`, {
          client: relay,
          meta,
          config: resolveProducerConfig({}).config,
          transactionVersion: cluster['transaction.version'],
        }),
      ]);
    }
  }

  const transactionVersion = cluster['transaction.version'];
  for (const c of s.clients) {
    if (c.type === 'producer') {
      const config = r.producers[c.id];
      if (!config) continue;
      add(c.id, 'producer', [
        {
          id: `${c.id}.app`,
          kind: 'producer-app',
          logic: producerAppMachine as AnyStateMachine,
          input: {
            self: `${c.id}.app`,
            producer: `${c.id}.producer`,
            client: c.id,
            transactional: config['transactional.id'] !== null,
            script: c.script,
          },
          boot: true,
          bootAt: c.startAt ?? 0,
        },
        producerActor(`${c.id}.producer`, `${c.id}.app`, { client: c.id, meta, config, transactionVersion }, c.startAt ?? 0),
      ]);
    } else if (c.type === 'consumer') {
      const config = r.consumers[c.id];
      if (!config) continue;
      const producerConfig = r.producers[`${c.id}.producer`];
      const mode = c.processing?.mode ?? (config['enable.auto.commit'] ? 'auto-commit' : 'at-least-once');
      const list: ActorSpec[] = [
        {
          id: `${c.id}.app`,
          kind: 'consumer-app',
          logic: consumerAppMachine as AnyStateMachine,
          input: {
            self: `${c.id}.app`,
            consumer: `${c.id}.consumer`,
            producer: producerConfig ? `${c.id}.producer` : null,
            client: c.id,
            mode,
            sink: c.processing?.sink ? (sinkRefs.get(c.processing.sink) ?? null) : null,
            outputTopic: c.processing?.outputTopic ?? null,
            processingMs: c.processing?.processingMs ?? 1,
            commitIntervalMs: c.processing?.commitIntervalMs ?? null,
            checkOrder: c.processing?.checkOrder ?? null,
          },
          boot: true,
          bootAt: c.startAt ?? 0,
        },
        consumerActor(
          `${c.id}.consumer`,
          `${c.id}.app`,
          // offsets-in-sink seeks to the database's offsets in its onPartitionsAssigned
          { client: c.id, meta, config, topics: c.topics, rebalanceListener: mode === 'offsets-in-sink' },
          c.startAt ?? 0,
        ),
      ];
      if (producerConfig)
        list.push(
          producerActor(
            `${c.id}.producer`,
            `${c.id}.app`,
            { client: c.id, meta, config: producerConfig, transactionVersion },
            c.startAt ?? 0,
          ),
        );
      add(c.id, 'consumer', list);
    } else {
      const config = r.streams[c.id];
      if (config) add(c.id, 'streams', streamsSpecs(c, config, meta, transactionVersion));
    }
  }

  const sessionTimeouts = Object.values(r.consumers).map((c) => c['session.timeout.ms']);
  const run = s.run ?? {};
  const options: KernelOptions = {
    seed: s.seed,
    network: { latencyMs: s.network?.latencyMs ?? 1, jitterMs: s.network?.jitterMs ?? 0, links: s.network?.links ?? [] },
    faults: kernelFaults(s.faults ?? [], meta),
    checkpointEvery: run.checkpointEvery ?? DEFAULT_RUN.checkpointEvery,
    maxSteps: run.maxSteps ?? DEFAULT_RUN.maxSteps,
    maxTimeMs: run.maxTimeMs ?? DEFAULT_RUN.maxTimeMs,
    settleMs: run.settleMs ?? DEFAULT_RUN.settleMs,
    // while a process is down, wait long enough for the group to notice (session.timeout.ms)
    settleMsWhileDown: Math.max(run.settleMs ?? DEFAULT_RUN.settleMs, ...sessionTimeouts.map((t) => t + 5000)),
    // after a fault, long enough for a client's request.timeout.ms to expire and its retry to show
    settleMsAfterFault: Math.max(
      run.settleMs ?? DEFAULT_RUN.settleMs,
      ...[...Object.values(r.producers), ...Object.values(r.consumers)].map((c) => c['request.timeout.ms'] + 2000),
    ),
    record: true,
    // a burst of sends at one instant costs about 3 steps a record; far more is a livelock
    maxStepsPerInstant: 20000 + 4 * scriptedRecords(s),
    prepareSignal,
  };
  return { specs, options, meta, processes };
}
