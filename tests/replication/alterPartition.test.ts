/**
 * The controller's answer to a leader's AlterPartition, tested directly
 * (ReplicationControlManager.alterPartition → validateAlterPartitionData, in its order).
 */
import { describe, expect, it } from 'vitest';
import { alterPartition, type ControllerContext } from '../../src/sim/controller/controller.machine';
import type { AlterPartitionRequest } from '../../src/sim/protocol/replicationMessages';

const ctx: ControllerContext = {
  id: 'controller',
  brokers: { b0: { epoch: 0, fenced: false }, b1: { epoch: 0, fenced: false }, b2: { epoch: 1, fenced: true } },
  partitions: {
    't-0': { topic: 't', partition: 0, replicas: ['b0', 'b1', 'b2'], isr: ['b0', 'b1'], leader: 'b0', leaderEpoch: 2, partitionEpoch: 5 },
  },
  unclean: {},
  sessionTimeoutMs: 9000,
};
const req = (over: Partial<AlterPartitionRequest>): AlterPartitionRequest => ({
  topic: 't',
  partition: 0,
  leaderId: 'b0',
  leaderEpoch: 2,
  partitionEpoch: 5,
  newIsr: ['b0'],
  ...over,
});
const errorOf = (over: Partial<AlterPartitionRequest>) => alterPartition(ctx, req(over)).error;

describe('ReplicationControlManager.alterPartition', () => {
  it('a valid shrink is written: partition epoch + 1, the leader epoch stays', () => {
    const r = alterPartition(ctx, req({ newIsr: ['b0'] }));
    expect(r.error).toBe('NONE');
    expect(r.reg).toMatchObject({ isr: ['b0'], leader: 'b0', leaderEpoch: 2, partitionEpoch: 6 });
    expect(r.ctx.partitions['t-0']).toBe(r.reg);
  });

  it('an unknown partition → UNKNOWN_TOPIC_OR_PARTITION', () => {
    expect(errorOf({ topic: 'nope' })).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('a stale leader epoch → FENCED_LEADER_EPOCH, before anything else (a deposed leader)', () => {
    expect(errorOf({ leaderEpoch: 1, leaderId: 'b1', partitionEpoch: 4, newIsr: ['b1', 'b2'] })).toBe('FENCED_LEADER_EPOCH');
  });

  it('the current epoch from a broker that is not the leader → INVALID_REQUEST', () => {
    expect(errorOf({ leaderId: 'b1', newIsr: ['b1'] })).toBe('INVALID_REQUEST');
  });

  it('a stale partition epoch → INVALID_UPDATE_VERSION (another change came first)', () => {
    expect(errorOf({ partitionEpoch: 4 })).toBe('INVALID_UPDATE_VERSION');
  });

  it('an ISR with a replica outside the assignment, or without the leader → INVALID_REQUEST', () => {
    expect(errorOf({ newIsr: ['b0', 'b9'] })).toBe('INVALID_REQUEST');
    expect(errorOf({ newIsr: ['b1'] })).toBe('INVALID_REQUEST');
    expect(errorOf({ newIsr: [] })).toBe('INVALID_REQUEST');
  });

  it('a fenced member, added or kept → INELIGIBLE_REPLICA, and nothing is written', () => {
    const r = alterPartition(ctx, req({ newIsr: ['b0', 'b1', 'b2'] }));
    expect(r.error).toBe('INELIGIBLE_REPLICA');
    expect(r.ctx).toBe(ctx);
    // b1 fenced after the leader last heard: a shrink that keeps it is refused as well
    const b1Fenced = { ...ctx, brokers: { ...ctx.brokers, b1: { epoch: 0, fenced: true } } };
    expect(alterPartition(b1Fenced, req({ newIsr: ['b0', 'b1'] })).error).toBe('INELIGIBLE_REPLICA');
  });
});
