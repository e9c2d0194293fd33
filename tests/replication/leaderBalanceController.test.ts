/**
 * The controller's preferred leader election, tested on the controller directly (Kafka 4.0 without
 * ELR): ReplicationControlManager.imbalancedPartitions (a leader that is not the first replica),
 * maybeBalancePartitionLeaders (PartitionChangeBuilder with Election.PREFERRED: the preferred replica
 * leads again only if it is in the ISR and active — unfenced, not in controlled shutdown —, at most
 * MAX_ELECTIONS_PER_IMBALANCE records a check), and QuorumController.maybeScheduleNextBalancePartitionLeaders
 * (queued after a write event only while some partition is imbalanced and auto.leader.rebalance.enable,
 * leader.imbalance.check.interval.seconds later, as background work; never twice).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import {
  balancePartitionLeaders,
  type ControllerContext,
  controllerMachine,
  IMMEDIATE_BALANCE_DELAY_MS,
  imbalancedPartitions,
  maybeScheduleBalance,
} from '../../src/sim/controller/controller.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import type { PartitionRegistration } from '../../src/sim/replication/election';
import type { Fact } from '../../src/sim/trace/facts';
import { drive, inputOf } from '../machines/harness';
import { heartbeat, threeBrokers } from './controllerRequests';

const reg = (topic: string, replicas: string[], isr: string[], leader: string | null): PartitionRegistration => ({
  topic,
  partition: 0,
  replicas,
  isr,
  leader,
  leaderEpoch: 3,
  partitionEpoch: 5,
});

/** threeBrokers (t-0 and u-0 led by their preferred b0) with the check on, every 300 s, and `more` partitions. */
const cluster = (more: ControllerContext['partitions'] = {}): ControllerContext => ({
  ...threeBrokers(more),
  leaderImbalanceCheckIntervalMs: 300_000,
});

// b1 leads a-0 and b-0, whose preferred replica b0 is in sync; c-0's preferred b0 is out of its ISR
const imbalanced = cluster({
  'a-0': reg('a', ['b0', 'b1', 'b2'], ['b1', 'b2', 'b0'], 'b1'),
  'b-0': reg('b', ['b0', 'b2', 'b1'], ['b2', 'b0'], 'b2'),
  'c-0': reg('c', ['b0', 'b1'], ['b1'], 'b1'),
});

const timers = (out: Out) => out.effects.filter((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer');
const leaderChanges = (out: Out) =>
  out.effects.flatMap((e) =>
    e.type === 'fact' && e.fact.kind === 'leaderChange' ? [e.fact as Extract<Fact, { kind: 'leaderChange' }>] : [],
  );
const recordsTo = (out: Out, broker: string) =>
  out.effects.flatMap((e) => (e.type === 'send' && e.rpc === 'PartitionChange' && e.to === broker ? [e.payload] : []));

describe('which partitions are imbalanced (ReplicationControlManager.imbalancedPartitions)', () => {
  it('those whose leader is not the first replica of the assignment, an offline one too; not one led by its preferred replica', () => {
    const offline = cluster({ 'd-0': reg('d', ['b1', 'b0'], ['b1'], null) });
    expect(imbalancedPartitions(threeBrokers())).toEqual([]);
    expect(imbalancedPartitions(imbalanced)).toEqual(['a-0', 'b-0', 'c-0']);
    expect(imbalancedPartitions(offline)).toEqual(['d-0']);
  });
});

describe('the check (maybeBalancePartitionLeaders → a PREFERRED election)', () => {
  it('moves the leadership back to the preferred replica when it is in the ISR and active: leader epoch + 1, the ISR kept, a record to every broker', () => {
    const out = new Out();
    const next = balancePartitionLeaders({ ...imbalanced, imbalanceSchedule: 'scheduled' }, out);
    expect(next.partitions['a-0']).toMatchObject({ leader: 'b0', isr: ['b1', 'b2', 'b0'], leaderEpoch: 4, partitionEpoch: 6 });
    expect(next.partitions['b-0']).toMatchObject({ leader: 'b0', isr: ['b2', 'b0'], leaderEpoch: 4, partitionEpoch: 6 });
    expect(leaderChanges(out)).toEqual([
      { kind: 'leaderChange', topic: 'a', partition: 0, leader: 'b0', leaderEpoch: 4, isr: ['b1', 'b2', 'b0'], election: 'preferred' },
      { kind: 'leaderChange', topic: 'b', partition: 0, leader: 'b0', leaderEpoch: 4, isr: ['b2', 'b0'], election: 'preferred' },
    ]);
    for (const b of ['b0', 'b1', 'b2'])
      expect(recordsTo(out, b).map((r) => [r.topic, r.leader, r.election])).toEqual([
        ['a', 'b0', 'preferred'],
        ['b', 'b0', 'preferred'],
      ]);
    // the check ran: DEFERRED again (the next one is queued after it, if anything is still imbalanced)
    expect(next.imbalanceSchedule).toBe('deferred');
  });

  it('leaves a partition whose preferred replica is not in the ISR with its leader, and writes nothing for it', () => {
    const out = new Out();
    const next = balancePartitionLeaders(imbalanced, out);
    expect(next.partitions['c-0']).toBe(imbalanced.partitions['c-0']);
    expect(recordsTo(out, 'b1').map((r) => r.topic)).not.toContain('c');
    expect(imbalancedPartitions(next)).toEqual(['c-0']);
  });

  it('does not elect a fenced preferred replica, nor one in controlled shutdown (ClusterControlManager.isActive)', () => {
    const fenced: ControllerContext = { ...imbalanced, brokers: { ...imbalanced.brokers, b0: { epoch: 0, fenced: true } } };
    const shuttingDown: ControllerContext = {
      ...imbalanced,
      brokers: { ...imbalanced.brokers, b0: { epoch: 0, fenced: false, inControlledShutdown: true } },
    };
    for (const ctx of [fenced, shuttingDown]) {
      const out = new Out();
      const next = balancePartitionLeaders(ctx, out);
      expect(next.partitions).toEqual(ctx.partitions);
      expect(out.effects).toEqual([]);
    }
  });

  it('writes at most MAX_ELECTIONS_PER_IMBALANCE records, then asks to run again 10 ms later (IMMEDIATELY)', () => {
    const out = new Out();
    const first = balancePartitionLeaders(imbalanced, out, 1);
    expect(leaderChanges(out).map((f) => f.topic)).toEqual(['a']);
    expect(first.imbalanceSchedule).toBe('immediately');
    const queued = new Out();
    expect(maybeScheduleBalance(first, queued).imbalanceSchedule).toBe('scheduled');
    expect(timers(queued)).toEqual([
      {
        type: 'timer',
        key: 'maybeBalancePartitionLeaders',
        name: 'maybeBalancePartitionLeaders',
        delay: IMMEDIATE_BALANCE_DELAY_MS,
        data: {},
        background: true,
      },
    ]);
    expect(IMMEDIATE_BALANCE_DELAY_MS).toBe(10);
  });
});

describe('when the check is queued (QuorumController.maybeScheduleNextBalancePartitionLeaders)', () => {
  it('after a write that leaves a leader off its preferred replica: leader.imbalance.check.interval.seconds later, as background work', () => {
    const out = new Out();
    const next = maybeScheduleBalance(imbalanced, out);
    expect(next.imbalanceSchedule).toBe('scheduled');
    expect(timers(out)).toEqual([
      {
        type: 'timer',
        key: 'maybeBalancePartitionLeaders',
        name: 'maybeBalancePartitionLeaders',
        delay: 300_000,
        data: {},
        background: true,
      },
    ]);
  });

  it('not when every leader is its preferred replica, not a second time while one is queued, and never with the check off', () => {
    const balanced = new Out();
    expect(maybeScheduleBalance(cluster(), balanced)).toEqual(cluster());
    expect(balanced.effects).toEqual([]);
    const again = new Out();
    const queued = { ...imbalanced, imbalanceSchedule: 'scheduled' as const };
    expect(maybeScheduleBalance(queued, again)).toBe(queued);
    expect(again.effects).toEqual([]);
    const { leaderImbalanceCheckIntervalMs: _on, ...off } = imbalanced;
    const never = new Out();
    expect(maybeScheduleBalance(off, never)).toBe(off);
    expect(never.effects).toEqual([]);
  });
});

describe('the controller machine queues the check after its write events', () => {
  const scenario = (cluster: Record<string, unknown> = {}) => ({
    version: 1,
    id: 'balance',
    seed: 1,
    cluster: { brokers: 3, ...cluster },
    topics: [{ name: 't', replicationFactor: 3 }],
    clients: [],
  });
  /** A BrokerHeartbeat as an event the driven machine takes. */
  const hb = (...args: Parameters<typeof heartbeat>) => ({ ...heartbeat(...args) });
  const balanceTimers = (effects: readonly Effect[]) =>
    effects.flatMap((e) => (e.type === 'timer' && e.name === 'maybeBalancePartitionLeaders' ? [e.delay] : []));

  it('a controlled shutdown moves t-0 off broker-0: the check is queued 300 s later; it moves t-0 back once broker-0 has returned to the ISR', () => {
    const c = drive(controllerMachine, inputOf(scenario(), 'controller'));
    expect(balanceTimers(c.send({ type: 'boot' }))).toEqual([]);
    const moved = c.send(hb('broker-0', 0, true), 1000);
    expect(c.context<ControllerContext>().partitions['t-0']).toMatchObject({ leader: 'broker-1' });
    expect(balanceTimers(moved)).toEqual([300_000]);
    // the next write events queue nothing more
    expect(balanceTimers(c.send(hb('broker-0', 0, true), 1050))).toEqual([]);
    expect(balanceTimers(c.send(hb('broker-0', 1), 3000))).toEqual([]);
    // broker-0 registered again but is not in the ISR yet: the check finds nothing to do and is queued again
    const early = c.send({ type: 'maybeBalancePartitionLeaders', key: 'maybeBalancePartitionLeaders', data: {} }, 301_000);
    expect(c.context<ControllerContext>().partitions['t-0']).toMatchObject({ leader: 'broker-1', leaderEpoch: 1 });
    expect(balanceTimers(early)).toEqual([300_000]);
    const t0 = c.context<ControllerContext>().partitions['t-0'] as PartitionRegistration;
    c.send(
      {
        type: 'AlterPartition',
        from: 'broker-1',
        envelopeId: 2,
        payload: {
          topic: 't',
          partition: 0,
          leaderId: 'broker-1',
          leaderEpoch: 1,
          partitionEpoch: t0.partitionEpoch,
          newIsr: [...t0.isr, 'broker-0'],
        },
      },
      302_000,
    );
    const back = c.send({ type: 'maybeBalancePartitionLeaders', key: 'maybeBalancePartitionLeaders', data: {} }, 601_000);
    expect(c.context<ControllerContext>().partitions['t-0']).toMatchObject({
      leader: 'broker-0',
      leaderEpoch: 2,
      isr: ['broker-1', 'broker-2', 'broker-0'],
    });
    expect(back.some((e) => e.type === 'send' && e.rpc === 'PartitionChange' && e.payload.election === 'preferred')).toBe(true);
    // balanced again: nothing more is queued
    expect(balanceTimers(back)).toEqual([]);
    expect(c.context<ControllerContext>().imbalanceSchedule).toBe('deferred');
  });

  it('leader.imbalance.check.interval.seconds sets the delay; auto.leader.rebalance.enable=false queues no check at all', () => {
    const every30 = drive(controllerMachine, inputOf(scenario({ 'leader.imbalance.check.interval.seconds': 30 }), 'controller'));
    every30.send({ type: 'boot' });
    expect(balanceTimers(every30.send(hb('broker-0', 0, true), 1000))).toEqual([30_000]);
    const off = drive(controllerMachine, inputOf(scenario({ 'auto.leader.rebalance.enable': false }), 'controller'));
    off.send({ type: 'boot' });
    expect(balanceTimers(off.send(hb('broker-0', 0, true), 1000))).toEqual([]);
    expect(off.context<ControllerContext>().partitions['t-0']).toMatchObject({ leader: 'broker-1' });
    expect(off.context<ControllerContext>().leaderImbalanceCheckIntervalMs).toBeUndefined();
  });

  it('a crash moves the leadership at the session expiry: the check is queued then (sessionExpired is a write event)', () => {
    const c = drive(controllerMachine, inputOf(scenario(), 'controller'));
    c.send({ type: 'boot' });
    const expired = c.send({ type: 'sessionExpired', key: 'session:broker-0', data: { broker: 'broker-0' } }, 9000);
    expect(c.context<ControllerContext>().partitions['t-0']).toMatchObject({ leader: 'broker-1' });
    expect(balanceTimers(expired)).toEqual([300_000]);
  });
});
