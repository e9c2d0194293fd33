/**
 * The `hw-behind-leo-slow-follower` preset: RF=3, min.insync.replicas=2, acks=all, and broker-2's
 * replication link slowed (replica.lag.time.max.ms scaled down to 2000). The HW — the lowest log end
 * offset in the ISR — stays behind the leader's LEO while broker-2 lags; the acks=all Produce waits
 * in the purgatory; billing (read_uncommitted) reads below the HW only. The leader's ISR check removes
 * broker-2 (AlterPartition), the HW advances and the Produce completes; broker-2 later catches up and
 * rejoins the ISR.
 */
import { describe, expect, it } from 'vitest';
import { stateAt } from '../../src/sim/run';
import { replicationRow } from '../../src/sim/trace/replicationView';
import type { TraceStep } from '../../src/sim/views';
import { runPreset } from '../presets/helpers';
import { copiesAtEnd, firstStep, replicaCopy, withFact } from './replicaView';

const BROKERS = ['broker-0', 'broker-1', 'broker-2'];

describe('a slow follower holds the high watermark until the ISR drops it', () => {
  const r = runPreset('hw-behind-leo-slow-follower');
  const step = (i: number) => r.trace.steps.at(i) as TraceStep;
  const viewAfter = (i: number) => stateAt(r.trace, i + 1);
  const leaderAfter = (i: number) => replicaCopy(viewAfter(i), 'broker-0', 'orders-0');
  const appendB = firstStep(
    r.trace,
    withFact('append', (f) => f.baseOffset === 1),
  );
  const shrink = firstStep(r.trace, (s) => s.actor === 'controller' && s.label === 'AlterPartition');
  const shrinkDone = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.label === 'AlterPartitionResponse');
  const ackB = firstStep(
    r.trace,
    withFact('sendResult', (f) => f.eventId === 'e2'),
  );
  const expand = firstStep(r.trace, (s) => s.actor === 'controller' && s.label === 'AlterPartition', shrinkDone + 1);

  it('b is appended: leader LEO 2, HW 1 (broker-2 has only a), ISR all three, the acks=all Produce waits for offset 2', () => {
    const leader = leaderAfter(appendB);
    expect(step(appendB).t).toBe(5006);
    expect([leader.logEndOffset, leader.highWatermark]).toEqual([2, 1]);
    expect(leader.leaderIsr).toEqual(BROKERS);
    expect(leader.delayedProduces).toEqual([2]);
    expect(replicaCopy(viewAfter(appendB), 'broker-2', 'orders-0').logEndOffset).toBe(1);
  });

  it('while broker-2 lags the HW stays 1 although broker-1 has b; the Produce keeps waiting', () => {
    const beforeShrink = leaderAfter(shrink - 1);
    expect([beforeShrink.logEndOffset, beforeShrink.highWatermark]).toEqual([2, 1]);
    expect(beforeShrink.delayedProduces).toEqual([2]);
    expect(replicaCopy(viewAfter(shrink - 1), 'broker-1', 'orders-0').logEndOffset).toBe(2);
    expect(replicaCopy(viewAfter(shrink - 1), 'broker-2', 'orders-0').logEndOffset).toBe(1);
  });

  it('at the ISR check of 7000 ms (every replica.lag.time.max.ms / 2) the leader drops broker-2: AlterPartition, ISR [broker-0, broker-1], HW 2, b acknowledged at offset 1', () => {
    expect(step(shrink).t).toBe(7001);
    expect(step(shrink).from).toBe('broker-0');
    expect(replicationRow(viewAfter(shrink).actors, 'orders', 0)?.isr).toEqual(['broker-0', 'broker-1']);
    // the leader's HW waits for the AlterPartition's answer (a pending shrink keeps the old ISR)
    expect(leaderAfter(shrink).highWatermark).toBe(1);
    const done = leaderAfter(shrinkDone);
    expect(done.leaderIsr).toEqual(['broker-0', 'broker-1']);
    expect([done.logEndOffset, done.highWatermark]).toEqual([2, 2]);
    expect(done.delayedProduces).toEqual([]);
    expect(ackB).toBeGreaterThan(shrinkDone);
    expect(r.facts('sendResult').map((f) => [f.eventId, f.error, f.offset])).toEqual([
      ['e1', null, 0],
      ['e2', null, 1],
      ['e3', null, 2],
    ]);
    expect(r.errors('orders-service')).toEqual([]);
  });

  it('broker-2 catches up once the link recovers and rejoins the ISR; c waits for all three', () => {
    expect(step(expand).t).toBe(9515);
    const rejoined = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.label === 'AlterPartitionResponse', expand);
    expect(leaderAfter(rejoined).leaderIsr).toEqual(BROKERS);
    expect(replicaCopy(viewAfter(rejoined), 'broker-2', 'orders-0').logEndOffset).toBe(2);
    const appendC = firstStep(
      r.trace,
      withFact('append', (f) => f.baseOffset === 2),
    );
    expect(leaderAfter(appendC).delayedProduces).toEqual([3]);
  });

  it('billing reads every record once, never at or above the HW: b only after the HW passed it', () => {
    const delivered: [number, number][] = [];
    for (let i = 0; i < r.trace.steps.length; i++)
      for (const f of step(i).facts) if (f.kind === 'delivered') delivered.push([i, (f as unknown as { offset: number }).offset]);
    expect(delivered.map(([, o]) => o)).toEqual([0, 1, 2]);
    for (const [i, offset] of delivered) expect(leaderAfter(i).highWatermark, `offset ${offset}`).toBeGreaterThan(offset);
    expect(delivered[1]?.[0]).toBeGreaterThan(shrinkDone);
  });

  it('every replica ends with a, b, c at offsets 0–2 in leader epoch 0, HW 3; nothing lost or duplicated', () => {
    const abc = [
      [0, 'a', 0],
      [1, 'b', 0],
      [2, 'c', 0],
    ];
    expect(copiesAtEnd(r.trace, BROKERS, 'orders-0')).toEqual(BROKERS.map((b) => [b, abc, 3, 3]));
    expect(r.partition('orders-0').replication).toMatchObject({ leader: 'broker-0', leaderEpoch: 0, isr: BROKERS });
    for (const [layer, subject] of [
      ['log', 'orders'],
      ['delivery', 'billing'],
      ['processing', 'billing'],
      ['loss', null],
    ] as const)
      expect(r.layer(layer, subject)?.status, layer).toBe('once');
  });
});
