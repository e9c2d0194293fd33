/**
 * An aborted record the log cleaner removed (Kafka's Cleaner drops aborted transactions' records:
 * they were never readable) is still an aborted copy to the verdict, not an event compaction erased
 * before anyone read it: the loss is "only in an aborted transaction", as it was before the cleaner
 * ran. A committed record superseded by a newer value for its key and cleaned before any reader
 * received it is the compaction loss.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';

const send = (value: string, eventId: string, key = 'a') => ({ op: 'send', topic: 'state', key, value, headers: { event_id: eventId } });

function scenario(cleaner: boolean): Scenario {
  return {
    version: 1,
    seed: 5,
    topics: [{ name: 'state', partitions: 1, config: { 'cleanup.policy': 'compact', 'segment.ms': 100, 'delete.retention.ms': 1000 } }],
    clients: [
      {
        id: 'writer',
        type: 'producer',
        config: { 'transactional.id': 'w-1' },
        script: [
          { op: 'beginTransaction' },
          send('v1', 'e1'),
          { op: 'commitTransaction' },
          { op: 'beginTransaction', at: 300 },
          send('bad', 'e2'),
          { op: 'flush' },
          { op: 'abortTransaction' },
          { op: 'beginTransaction', at: 600 },
          send('v2', 'e3'),
          { op: 'commitTransaction' },
          { op: 'beginTransaction', at: 900 },
          send('x', 'e4', 'b'),
          { op: 'commitTransaction' },
        ],
      },
      {
        id: 'reader',
        type: 'consumer',
        config: { 'group.id': 'r', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
        topics: ['state'],
        processing: { mode: 'at-least-once' },
        startAt: 8000,
      },
    ],
    faults: cleaner
      ? [
          { type: 'runCleaner', at: 2000, topic: 'state' },
          { type: 'runCleaner', at: 4000, topic: 'state' },
        ]
      : [],
  } as unknown as Scenario;
}

function logLosses(cleaner: boolean) {
  const v = summarize(runScenario(scenario(cleaner))).verdict;
  const log = v.layers.find((l) => l.layer === 'log' && l.subject === 'state');
  if (!log || !('losses' in log)) throw new Error('no log finding');
  return Object.fromEntries(log.losses.map((l) => [l.eventId, l.kind]));
}

describe('an aborted record the cleaner removed', () => {
  it('is still only in an aborted transaction, as before the cleaner ran; the superseded committed record is the compaction loss', () => {
    expect(logLosses(false)).toEqual({ e2: 'aborted-only' });
    expect(logLosses(true)).toEqual({ e1: 'compacted', e2: 'aborted-only' });
  });
});
