/**
 * What the group coordinator's unit tests build and read: a JoinGroup request of a (static) member,
 * the pending request it answers, and the sends and facts an `Out` collected.
 */
import type { Out, PendingRequest } from '../../src/sim/actors/out';
import type { JoinRequest } from '../../src/sim/coordinator/classicGroup';
import type { Fact } from '../../src/sim/trace/facts';

let envelope = 0;
/** A request from `from`, with an envelope id of its own. */
export const request = (from: string): PendingRequest => ({ from, envelopeId: envelope++, correlationId: 0 });

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
