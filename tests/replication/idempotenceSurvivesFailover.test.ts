/**
 * The `idempotence-survives-failover` preset: RF=3, min.insync.replicas=2, an idempotent acks=all
 * producer. broker-0 appends a and both followers copy it (their appendAsFollower updates the
 * producer state), but broker-0 dies before their next fetch tells it so: no ProduceResponse. The
 * producer retries; the controller fences broker-0 after broker.session.timeout.ms and elects
 * broker-1 from the ISR, whose producer state — rebuilt from the replicated batch — recognises the
 * retry (same producerId, epoch, sequence) and answers with the original offset 0.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { stateAt } from '../../src/sim/run';
import { runPreset, runWith } from '../presets/helpers';
import { copiesAtEnd, firstStep, replicaCopy, withFact } from './replicaView';

const BROKERS = ['broker-0', 'broker-1', 'broker-2'];

describe('idempotence survives a leader failover', () => {
  const r = runPreset('idempotence-survives-failover');
  const crash = firstStep(r.trace, (s) => s.actor === 'broker-0' && s.label === 'crash');
  const election = firstStep(r.trace, withFact('leaderChange'));
  const retry = firstStep(r.trace, withFact('duplicate'));
  const copyAfter = (step: number, broker: string) => replicaCopy(stateAt(r.trace, step + 1), broker, 'orders-0');

  it('when broker-0 dies both followers hold a (offset 0, epoch 0) and producer 1000 at sequence 0; no HW has moved, no answer was sent', () => {
    for (const b of BROKERS) {
      const c = copyAfter(crash, b);
      expect(c.records, b).toEqual([[0, 'a', 0]]);
      expect(c.highWatermark, b).toBe(0);
      expect(c.producers, b).toEqual([[1000, 0, 0]]);
    }
    // the first answer the producer gets is the new leader's, to the retry
    const answered = firstStep(r.trace, withFact('sendResult'));
    expect(answered).toBeGreaterThan(retry);
  });

  it('the controller fences broker-0 after broker.session.timeout.ms and elects broker-1 from the ISR, leader epoch 1', () => {
    expect(r.facts('leaderChange')).toEqual([
      {
        kind: 'leaderChange',
        topic: 'orders',
        partition: 0,
        leader: 'broker-1',
        leaderEpoch: 1,
        isr: ['broker-1', 'broker-2'],
        election: 'clean',
      },
    ]);
    expect(r.trace.steps.at(election)?.t).toBe(9001);
  });

  it('the retry reaches broker-1, whose replicated producer state finds the batch: nothing appended, the original offset 0, no error', () => {
    expect(r.trace.steps.at(retry)?.actor).toBe('broker-1');
    // [producerId, producerEpoch, baseSequence, lastSequence, the original baseOffset answered]
    expect(r.facts('duplicate').map((f) => [f.topic, f.producerId, f.producerEpoch, f.baseSequence, f.lastSequence, f.baseOffset])).toEqual(
      [['orders', 1000, 0, 0, 0, 0]],
    );
    // broker-1 at the retry: a once, the HW past it (broker-2 fetched from the new leader), nothing waiting
    const atRetry = copyAfter(retry, 'broker-1');
    expect(atRetry.records).toEqual([[0, 'a', 0]]);
    expect(atRetry.highWatermark).toBe(1);
    expect(atRetry.delayedProduces).toEqual([]);
    expect(r.facts('append').map((f) => [f.eventIds, f.baseOffset, f.producerId, f.baseSequence])).toEqual([
      [['e1'], 0, 1000, 0],
      [['e2'], 1, 1000, 1],
    ]);
    expect(r.facts('sendResult').map((f) => [f.eventId, f.error, f.offset])).toEqual([
      ['e1', null, 0],
      ['e2', null, 1],
    ]);
  });

  it('the producer saw one NETWORK_EXCEPTION, for the request in flight when broker-0 died; its connection attempts to the dead broker-0 until metadata named broker-1 are silent (NetworkClient.ready)', () => {
    expect(r.errors('orders-service')).toEqual(['NETWORK_EXCEPTION']);
    // the attempts: each a Produce refused by the dead broker, sent when the reconnect backoff had passed
    const refused = r.trace.steps.filter(
      (s) => s.actor === 'orders-service.producer' && s.kind === 'disconnected' && (s.detail as { reason?: string }).reason === 'refused',
    );
    expect(refused.length).toBeGreaterThan(3);
    const gaps = refused.slice(1).map((s, i) => s.t - (refused[i]?.t ?? 0));
    expect(gaps.every((g, i) => g >= 50 && (i === 0 || g >= (gaps[i - 1] as number)))).toBe(true);
  });

  it('every replica ends with a (epoch 0) and b (epoch 1) once, HW 2; broker-0 came back, followed broker-1 and rejoined the ISR', () => {
    const ab = [
      [0, 'a', 0],
      [1, 'b', 1],
    ];
    expect(copiesAtEnd(r.trace, BROKERS, 'orders-0')).toEqual(BROKERS.map((b) => [b, ab, 2, 2]));
    expect(r.facts('truncated')).toEqual([]);
    expect(r.partition('orders-0').replication).toMatchObject({ leader: 'broker-1', leaderEpoch: 1 });
    expect([...(r.partition('orders-0').replication?.isr ?? [])].sort()).toEqual(BROKERS);
  });

  it('the verdict: each event once in the log, the retry recognised; nothing lost', () => {
    expect(r.layer('log', 'orders')).toMatchObject({
      status: 'once',
      sentence:
        'Kafka log orders: each of 2 events once; the broker recognised a retry of e1 (same producerId, epoch and sequence) and answered with the original offset: that retry wrote nothing.',
    });
    expect(r.layer('loss')?.status).toBe('once');
  });
});

describe('a retry that reaches the new leader before its HW covers the batch', () => {
  // the same story with broker-2's fetches from the new leader 2 s slower: broker-1's HW stays 0
  // (ISR [broker-1, broker-2]) when the retry arrives. ReplicaManager answers a duplicate with the
  // original LogAppendInfo, so its DelayedProduce waits for offset 0 + 1 like the first append did.
  const preset = findPreset('idempotence-survives-failover');
  if (!preset) throw new Error('no preset');
  const r = runWith({
    ...preset.scenario,
    faults: [...(preset.scenario.faults ?? []), { type: 'slowReplication', target: 'broker-2', at: 8000, durationMs: 3000, delayMs: 2000 }],
  });

  it('waits in the purgatory until broker-2 fetches from broker-1, then answers offset 0 with no error', () => {
    const retry = firstStep(r.trace, withFact('duplicate'));
    const atRetry = replicaCopy(stateAt(r.trace, retry + 1), 'broker-1', 'orders-0');
    expect([atRetry.highWatermark, atRetry.logEndOffset]).toEqual([0, 1]);
    expect(atRetry.delayedProduces).toEqual([1]);
    const answered = r.trace.steps.at(firstStep(r.trace, withFact('sendResult'), retry));
    expect(r.trace.steps.at(retry)?.t).toBe(9538);
    expect(answered?.t).toBe(11004);
    expect(r.facts('sendResult').map((f) => [f.eventId, f.error, f.offset])).toEqual([
      ['e1', null, 0],
      ['e2', null, 1],
    ]);
    expect(r.facts('append').map((f) => f.eventIds)).toEqual([['e1'], ['e2']]);
  });
});
