/**
 * A record that send() itself refused — waitOnMetadata gave up after max.block.ms, or the record is
 * larger than max.request.size (KafkaProducer.doSend's catch: the returned future fails, the record
 * never reaches the accumulator) — was never sent. The verdict said "sent by p, never acknowledged:
 * delivery.timeout.ms expired" for the first and "sent by p, failed with RecordTooLargeException" for
 * the second; a record that left the producer and was never acknowledged keeps that wording.
 */
import { describe, expect, it } from 'vitest';
import { findingText } from '../../src/sim/checks/verdictText';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';

const producer = (script: unknown[], config: Record<string, unknown> = {}): Scenario =>
  ({
    version: 1,
    seed: 1,
    topics: [{ name: 't', partitions: 2 }],
    clients: [{ id: 'p', type: 'producer', config, script }],
  }) as Scenario;

const lossOf = (s: Scenario) => {
  const r = runWith(s);
  const log = r.layer('log', 't');
  const loss = r.layer('loss');
  return { r, log: log?.sentence, loss: loss?.sentence, verdict: r.summary.verdict };
};

describe('a record refused by send() is never sent', () => {
  it('waitOnMetadata’s TimeoutException (a partition beyond the topic’s count): never sent, max.block.ms', () => {
    const { r, log, verdict } = lossOf(
      producer([{ op: 'send', topic: 't', key: 'k', value: 'v', partition: 5, headers: { event_id: 'evt-1' } }]),
    );
    expect(r.facts('sendResult')).toEqual([expect.objectContaining({ error: 'TimeoutException', beforeAppend: true })]);
    expect(log).toBe(
      "Kafka log t: lost: evt-1 never sent: p's send() waited max.block.ms for the topic's metadata and threw TimeoutException.",
    );
    const losses = verdict.layers.flatMap((l) => ('losses' in l ? l.losses : []));
    expect(losses.map((l) => [l.kind, l.cause])).toContainEqual(['never-sent', 'TimeoutException']);
    expect(JSON.stringify(verdict)).not.toContain('delivery.timeout.ms');
  });

  it('a record over max.request.size: never sent, refused by send()', () => {
    const { r, log } = lossOf(
      producer([{ op: 'send', topic: 't', key: 'k', value: 'x'.repeat(150), partition: 0, headers: { event_id: 'evt-2' } }], {
        'max.request.size': 100,
      }),
    );
    expect(r.facts('sendResult')).toEqual([expect.objectContaining({ error: 'RecordTooLargeException', beforeAppend: true })]);
    expect(log).toBe(
      "Kafka log t: lost: evt-2 never sent: p's send() refused the record as larger than max.request.size or buffer.memory (RecordTooLargeException).",
    );
  });

  it('in Korean too', () => {
    const r = runWith(producer([{ op: 'send', topic: 't', key: 'k', value: 'v', partition: 5, headers: { event_id: 'evt-1' } }]));
    const log = r.summary.verdict.layers.find((l) => l.layer === 'log');
    if (!log) throw new Error('no log finding');
    expect(findingText(log, 'ko')).toContain(
      '보내지 못했습니다. p의 send()가 토픽 메타데이터를 max.block.ms 동안 기다리다 TimeoutException을 던졌습니다',
    );
  });

  it('a record that left the producer and was never acknowledged stays "sent, never acknowledged"', () => {
    // every Produce lost: the batch expires after delivery.timeout.ms (120 s) while its request is out
    const s = producer([{ op: 'send', topic: 't', key: 'k', value: 'v', partition: 0, headers: { event_id: 'evt-3' } }]);
    s.faults = [{ type: 'drop', rpc: 'Produce', count: 1000 }];
    const { r, log } = lossOf(s);
    expect(r.facts('sendResult')).toEqual([expect.objectContaining({ error: 'TimeoutException' })]);
    expect(r.facts('sendResult')[0]).not.toHaveProperty('beforeAppend');
    expect(log).toBe('Kafka log t: lost: evt-3 sent by p, never acknowledged: delivery.timeout.ms expired.');
  });
});
