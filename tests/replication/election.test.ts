/**
 * The controller's election and partition changes tested directly (PartitionChangeBuilder, ELR off).
 */
import { describe, expect, it } from 'vitest';
import {
  changePartition,
  electLeader,
  onBrokerFenced,
  onBrokerUnfenced,
  type PartitionRegistration,
} from '../../src/sim/replication/election';

const reg: PartitionRegistration = {
  topic: 't',
  partition: 0,
  replicas: ['b0', 'b1', 'b2'],
  isr: ['b0', 'b1', 'b2'],
  leader: 'b0',
  leaderEpoch: 0,
  partitionEpoch: 0,
};
const up =
  (...live: string[]) =>
  (b: string) =>
    live.includes(b);

describe('PartitionChangeBuilder.electLeader', () => {
  it('keeps a valid leader, else the first ISR replica in assignment order, else unclean first live replica, else none', () => {
    expect(electLeader(reg.replicas, reg.isr, 'b0', up('b0', 'b1'), false)).toEqual({ leader: 'b0', unclean: false });
    expect(electLeader(reg.replicas, ['b2', 'b1'], 'b0', up('b1', 'b2'), false)).toEqual({ leader: 'b1', unclean: false });
    expect(electLeader(reg.replicas, ['b0'], 'b0', up('b1', 'b2'), true)).toEqual({ leader: 'b1', unclean: true });
    expect(electLeader(reg.replicas, ['b0'], 'b0', up('b1', 'b2'), false)).toEqual({ leader: null, unclean: false });
  });
});

describe('partition changes', () => {
  it('a fenced leader: broker-1 is elected, the leader epoch and the partition epoch go up', () => {
    const r = onBrokerFenced(reg, 'b0', up('b1', 'b2'), false);
    expect(r.registration).toMatchObject({ leader: 'b1', isr: ['b1', 'b2'], leaderEpoch: 1, partitionEpoch: 1 });
    expect(r.election).toBe('clean');
  });

  it('a fenced follower leaves the ISR: partition epoch up, leader epoch unchanged', () => {
    const r = onBrokerFenced(reg, 'b2', up('b0', 'b1'), false);
    expect(r.registration).toMatchObject({ leader: 'b0', isr: ['b0', 'b1'], leaderEpoch: 0, partitionEpoch: 1 });
    expect(r.election).toBeNull();
  });

  it('the last ISR member is never removed without ELR; its leader fenced → offline (leader epoch +1); back → clean election', () => {
    const lone = { ...reg, isr: ['b0'] };
    const off = onBrokerFenced(lone, 'b0', up('b1', 'b2'), false);
    expect(off.registration).toMatchObject({ leader: null, isr: ['b0'], leaderEpoch: 1, partitionEpoch: 1 });
    const back = onBrokerUnfenced(off.registration, up('b0', 'b1', 'b2'), false);
    expect(back.registration).toMatchObject({ leader: 'b0', isr: ['b0'], leaderEpoch: 2, partitionEpoch: 2 });
    expect(back.election).toBe('clean');
    // another replica returning elects nobody
    expect(onBrokerUnfenced(off.registration, up('b1', 'b2'), false).changed).toBe(false);
  });

  it('unclean election: the first live replica leads with ISR := [it]', () => {
    const lone = { ...reg, isr: ['b0'] };
    const r = onBrokerFenced(lone, 'b0', up('b1', 'b2'), true);
    expect(r.registration).toMatchObject({ leader: 'b1', isr: ['b1'], leaderEpoch: 1, partitionEpoch: 1 });
    expect(r.election).toBe('unclean');
  });

  it('an unchanged ISR and leader writes nothing', () => {
    expect(changePartition(reg, reg.isr, up('b0', 'b1', 'b2'), false)).toEqual({ registration: reg, changed: false, election: null });
  });
});
