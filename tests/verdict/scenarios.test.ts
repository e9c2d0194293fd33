/**
 * Losses at every layer, on whole runs (scenario-level regressions of issue [verdict] items 3 and 9):
 * at-most-once with a payment API where the consumer crashes after its commit and before the call;
 * an outbox relay that stopped; records a group never processed because it never came back; and a
 * record removed by compaction before anyone read it — none of them "Lost: nothing" or "never
 * reached the log".
 */
import { describe, expect, it } from 'vitest';
import type { LossFinding } from '../../src/sim/checks/verdict';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';

const send = (topic: string, n: number, key = `order-${n}`) => ({
  op: 'send' as const,
  topic,
  key,
  value: `v${n}`,
  headers: { event_id: `evt-${n}` },
});

function verdictOf(s: Scenario) {
  const v = summarize(runScenario(s)).verdict;
  return {
    v,
    row: (layer: string, subject: string | null) => v.layers.find((f) => f.layer === layer && f.subject === subject),
    losses: (v.layers.find((f) => f.layer === 'loss') as LossFinding).losses,
  };
}

describe('losses outside Kafka and in other topics', () => {
  it('at-most-once with a payment API, a crash after the commit and before the call: the charges never happen', () => {
    const { row, losses } = verdictOf({
      version: 1,
      seed: 31,
      topics: [{ name: 'orders' }],
      clients: [
        { id: 'shop', type: 'producer', script: [send('orders', 1), send('orders', 2), send('orders', 3), { op: 'flush' }] },
        {
          id: 'payments',
          type: 'consumer',
          config: { 'group.id': 'payments', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
          topics: ['orders'],
          processing: { mode: 'at-most-once', sink: 'payment-api' },
        },
      ],
      sinks: [{ id: 'payment-api', type: 'http-api', mode: 'plain' }],
      faults: [{ type: 'crash', target: 'payments', point: 'afterCommit', durationMs: 1000 }],
    });
    expect(row('sink', 'payment-api')).toMatchObject({ status: 'lost', eventIds: ['evt-1', 'evt-2', 'evt-3'] });
    expect(row('processing', 'payments')).toMatchObject({ status: 'lost' });
    expect(row('loss', null)?.status).toBe('lost');
    expect(losses.filter((l) => l.layer === 'sink').map((l) => [l.eventId, l.kind, l.cause])).toEqual([
      ['evt-1', 'not-applied', 'not-processed'],
      ['evt-2', 'not-applied', 'not-processed'],
      ['evt-3', 'not-applied', 'not-processed'],
    ]);
    expect(losses.filter((l) => l.layer === 'processing').every((l) => l.cause === 'committed-past' && l.offset === 3)).toBe(true);
  });

  it('an outbox relay that stopped leaves events out of its topic: a loss at that layer, not "exactly once"', () => {
    const { row, losses } = verdictOf({
      version: 1,
      seed: 61,
      topics: [{ name: 'order-commands' }, { name: 'order-events' }],
      clients: [
        { id: 'checkout', type: 'producer', script: [send('order-commands', 1), send('order-commands', 2), { op: 'flush' }] },
        {
          id: 'order-service',
          type: 'consumer',
          config: { 'group.id': 'order-service', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
          topics: ['order-commands'],
          processing: { mode: 'at-least-once', sink: 'orders-db' },
        },
      ],
      sinks: [{ id: 'orders-db', type: 'outbox', topic: 'order-events' }],
      faults: [{ type: 'crash', target: 'orders-db-relay', at: 2500, note: 'the relay dies and stays down' }],
    });
    expect(row('sink', 'orders-db')).toMatchObject({ status: 'once' });
    expect(row('output', 'order-events')).toMatchObject({ status: 'lost', eventIds: ['evt-1', 'evt-2'] });
    expect(losses.map((l) => [l.eventId, l.layer, l.kind, l.cause])).toEqual([
      ['evt-1', 'output', 'not-published', 'down'],
      ['evt-2', 'output', 'not-published', 'down'],
    ]);
  });

  it('a group that never came back processed nothing: every record lost at processing, not "Lost: nothing"', () => {
    const { row, losses } = verdictOf({
      version: 1,
      seed: 5,
      topics: [{ name: 'orders' }],
      clients: [
        { id: 'shop', type: 'producer', script: [send('orders', 1), send('orders', 2), { op: 'flush' }] },
        {
          id: 'billing',
          type: 'consumer',
          config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest' },
          topics: ['orders'],
          processing: { mode: 'at-least-once' },
        },
      ],
      faults: [{ type: 'crash', target: 'billing', at: 1, note: 'billing dies before its first poll and stays down' }],
    });
    expect(row('processing', 'billing')).toMatchObject({ status: 'lost', eventIds: ['evt-1', 'evt-2'] });
    expect(losses.map((l) => [l.eventId, l.kind, l.cause])).toEqual([
      ['evt-1', 'not-processed', 'down'],
      ['evt-2', 'not-processed', 'down'],
    ]);
  });

  it('a record compaction removed before anyone read it is lost by compaction, not "never reached the log"', () => {
    const { row, losses } = verdictOf({
      version: 1,
      seed: 17,
      topics: [{ name: 'tier', config: { 'cleanup.policy': 'compact', 'segment.ms': 100 } }],
      clients: [
        {
          id: 'tier-service',
          type: 'producer',
          script: [
            send('tier', 1, 'account-42'),
            { op: 'flush' },
            send('tier', 2, 'account-42'),
            { op: 'flush' },
            { ...send('tier', 3, 'account-7'), at: 500 },
          ],
        },
        {
          id: 'late',
          type: 'consumer',
          config: { 'group.id': 'late', 'auto.offset.reset': 'earliest' },
          topics: ['tier'],
          startAt: 6000,
        },
      ],
      faults: [{ type: 'runCleaner', at: 5000, topic: 'tier' }],
    });
    expect(row('log', 'tier')).toMatchObject({ status: 'lost', eventIds: ['evt-1'] });
    expect(losses).toMatchObject([{ eventId: 'evt-1', layer: 'log', kind: 'compacted' }]);
    expect(row('log', 'tier')?.sentence).not.toContain('never reached the log');
  });

  it('a fenced instance that stops never sends the rest of its work: refused, and never sent', () => {
    const zombie = findPreset('zombie-fencing')?.scenario;
    if (!zombie) throw new Error('zombie-fencing is missing');
    const a = zombie.clients[0];
    if (a?.type !== 'producer') throw new Error('instance-a is not a producer');
    const more: Scenario = {
      ...zombie,
      clients: [
        { ...a, script: [...a.script, { op: 'beginTransaction' }, send('orders', 3), { op: 'commitTransaction' }] },
        ...zombie.clients.slice(1),
      ],
    };
    const { losses } = verdictOf(more);
    expect(losses.map((l) => [l.eventId, l.kind, l.cause, l.actor])).toEqual([
      ['evt-2', 'not-acked', 'INVALID_PRODUCER_EPOCH', 'instance-a'],
      ['evt-3', 'never-sent', 'fenced', 'instance-a'],
    ]);
  });
});
