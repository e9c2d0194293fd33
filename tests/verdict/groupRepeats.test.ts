/**
 * The processing layer counts repeats per application — a consumer group, a Streams application.id —
 * and says them on the instance that processed the event again: an event processed by one instance
 * and again by another of its group (after a rebalance, a task migration) is "more than once" for
 * the second, with the steps of both processings, as a restart of one instance is. Instances that
 * own different partitions repeat nothing; consumers without a group are each their own application.
 */
import { describe, expect, it } from 'vitest';
import { computeVerdict, type ProcessingFinding } from '../../src/sim/checks/verdict';
import type { Fact } from '../../src/sim/trace/facts';
import { append, input, partition, processed, step } from './handmade';

const processing = (v: ReturnType<typeof computeVerdict>, app: string) =>
  v.layers.find((l) => l.layer === 'processing' && l.subject === app) as ProcessingFinding;

const app = (id: string, groupId: string | null) => ({
  id,
  groupId,
  isolationLevel: 'read_committed',
  topics: ['orders'],
  sink: null,
  autoOffsetReset: 'earliest',
});

const onPartition = (f: Fact, p: number): Fact => ({ ...f, partition: p }) as Fact;

describe('repeats per application, said on the instance that processed again', () => {
  const e1 = { offset: 0, eventId: 'evt-1' };
  const e2 = { offset: 1, eventId: 'evt-2' };

  it('an event processed by one instance and again by another of its group: more than once for the second, with both steps', () => {
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, append('orders', e1), append('orders', e2)),
          step(1, 10, processed('counter-a', 'orders', 0, 'evt-1')),
          step(2, 20, processed('counter-a', 'orders', 1, 'evt-2')),
          // counter-a's work was never committed; the partition moved to counter-b, which starts over
          step(3, 50_000, processed('counter-b', 'orders', 0, 'evt-1')),
          step(4, 50_010, processed('counter-b', 'orders', 1, 'evt-2')),
        ],
        partitions: [partition('orders', [e1, e2])],
        apps: [app('counter-a', 'page-counter'), app('counter-b', 'page-counter')],
      }),
    );
    const b = processing(v, 'counter-b');
    expect(b.status).toBe('more-than-once');
    expect(b.repeated).toEqual([
      { eventId: 'evt-1', topic: 'orders', times: 2, others: ['counter-a'] },
      { eventId: 'evt-2', topic: 'orders', times: 2, others: ['counter-a'] },
    ]);
    expect(b.eventIds).toEqual(['evt-1', 'evt-2']);
    expect(b.steps).toEqual([1, 2, 3, 4]);
    expect(b.sentence).toBe('Processing in counter-b: evt-1 and evt-2 processed twice, also by counter-a.');
    // the first processing is no repeat: counter-a processed each event once
    expect(processing(v, 'counter-a')).toMatchObject({ status: 'once', repeated: [], steps: [] });
  });

  it('an instance that processes again after another did, and after itself: every processing in the group, the other named', () => {
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, append('orders', e1)),
          step(1, 10, processed('worker-a', 'orders', 0, 'evt-1')),
          step(2, 20, processed('worker-b', 'orders', 0, 'evt-1')),
          step(3, 30, processed('worker-a', 'orders', 0, 'evt-1')),
        ],
        partitions: [partition('orders', [e1])],
        apps: [app('worker-a', 'enricher'), app('worker-b', 'enricher')],
      }),
    );
    expect(processing(v, 'worker-a')).toMatchObject({
      status: 'more-than-once',
      repeated: [{ eventId: 'evt-1', times: 3, others: ['worker-b'] }],
      steps: [1, 2, 3],
    });
    // every processing of the event in the group, the later ones included
    expect(processing(v, 'worker-b')).toMatchObject({
      status: 'more-than-once',
      repeated: [{ eventId: 'evt-1', times: 3, others: ['worker-a'] }],
      steps: [1, 2, 3],
    });
  });

  it('two instances of a group that own different partitions repeat nothing', () => {
    const p1 = { ...e2, offset: 0 };
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, append('orders', e1), onPartition(append('orders', p1), 1)),
          step(1, 10, processed('worker-a', 'orders', 0, 'evt-1')),
          step(2, 11, onPartition(processed('worker-b', 'orders', 0, 'evt-2'), 1)),
        ],
        partitions: [partition('orders', [e1]), { ...partition('orders', [p1]), partition: 1 }],
        apps: [app('worker-a', 'enricher'), app('worker-b', 'enricher')],
      }),
    );
    for (const id of ['worker-a', 'worker-b'])
      expect(processing(v, id), id).toMatchObject({ status: 'once', events: 1, repeated: [], losses: [] });
  });

  it.each([
    ['consumers without a group are each their own application', ['reader-a', null], ['reader-b', null]],
    ['the same two instances in different groups', ['billing', 'billing'], ['audit', 'audit']],
  ] as const)('%s: the same event processed by both is once for each', (_, [a, groupA], [b, groupB]) => {
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, append('orders', e1)),
          step(1, 10, processed(a, 'orders', 0, 'evt-1')),
          step(2, 20, processed(b, 'orders', 0, 'evt-1')),
        ],
        partitions: [partition('orders', [e1])],
        apps: [app(a, groupA), app(b, groupB)],
      }),
    );
    for (const id of [a, b]) expect(processing(v, id), id).toMatchObject({ status: 'once', repeated: [] });
  });
});
