/**
 * What the group coordinator's unit tests build and read: a one-broker cluster's metadata and the
 * coordinator's environment, a JoinGroup request of a (static) member, the pending request it answers,
 * and the sends and facts an `Out` collected.
 */
import type { Out, PendingRequest } from '../../src/sim/actors/out';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import { DEFAULT_GROUP_COORDINATOR_CONFIG, type GroupEnv, type JoinRequest } from '../../src/sim/coordinator/classicGroup';
import type { Fact } from '../../src/sim/trace/facts';

/** One broker leading both partitions of `orders`; the coordinators are processes of their own. */
export const oneBrokerMeta: ClusterMetadata = {
  brokers: ['broker-0'],
  topics: { orders: { name: 'orders', partitions: 2, leaders: ['broker-0', 'broker-0'] } },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 3,
  consumerOffsetsPartitions: 3,
};

/** The group coordinator of `oneBrokerMeta`, with no initial rebalance delay. */
export const groupEnv: GroupEnv = {
  id: 'group-coordinator',
  meta: oneBrokerMeta,
  config: { ...DEFAULT_GROUP_COORDINATOR_CONFIG, initialRebalanceDelayMs: 0 },
};

let envelope = 0;
/** A request from `from`, with an envelope id of its own. */
export const request = (from: string, correlationId = 0): PendingRequest => ({ from, envelopeId: envelope++, correlationId });

/** A JoinGroup for topic orders; with a group.instance.id a static member's, without a member id a first join. */
export const joinOf = (groupInstanceId?: string, memberId = '', sessionTimeoutMs = 45000): JoinRequest => ({
  memberId,
  ...(groupInstanceId ? { groupInstanceId } : {}),
  sessionTimeoutMs,
  rebalanceTimeoutMs: 300000,
  topics: ['orders'],
});

export type Sent = { rpc: string; to: string; payload: Record<string, unknown> };
export const sends = (out: Out): Sent[] =>
  out.effects.flatMap((e) => (e.type === 'send' ? [{ rpc: e.rpc, to: e.to, payload: e.payload as Record<string, unknown> }] : []));
export const facts = (out: Out): Fact[] => out.effects.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));
