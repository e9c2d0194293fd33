/**
 * computeVerdict on hand-made traces, rule by rule: a duplicate is judged per reader for the copies
 * it can see; a read_committed reader behind a pinned LSO is stalled, with what pins it; every loss
 * names its kind and cause; a reader's count is what it received; every topic a writer produces to
 * is counted, an outbox relay's included.
 */
import { describe, expect, it } from 'vitest';
import {
  computeVerdict,
  type DeliveryFinding,
  type LossFinding,
  type ProcessingFinding,
  type TopicFinding,
} from '../../src/sim/checks/verdict';
import { findingText } from '../../src/sim/checks/verdictText';
import type { Fact } from '../../src/sim/trace/facts';
import { append, delivered, input, partition, processed, sendResult, step } from './handmade';

const find = <T>(v: ReturnType<typeof computeVerdict>, layer: string, subject: string | null) =>
  v.layers.find((l) => l.layer === layer && l.subject === subject) as T;

const producerId = (client: string, pid: number, epoch: number, tid: string | null): Fact => ({
  kind: 'producerId',
  client,
  producerId: pid,
  producerEpoch: epoch,
  transactionalId: tid,
});
const txn = (pid: number, epoch: number, from: string, to: string, tid = 'tx-1'): Fact => ({
  kind: 'txnState',
  transactionalId: tid,
  producerId: pid,
  producerEpoch: epoch,
  from,
  to,
});

describe('copies and readers', () => {
  // instance-a's copy of evt-1 was aborted when instance-b fenced it; instance-b's copy committed
  const zombie = () => {
    const a = { offset: 0, eventId: 'evt-1', producerId: 1000, epoch: 0, outcome: 'aborted' as const, origin: { client: 'a', ref: 0 } };
    const b = { offset: 2, eventId: 'evt-1', producerId: 1000, epoch: 2, outcome: 'committed' as const, origin: { client: 'b', ref: 0 } };
    return {
      steps: [
        step(0, 0, producerId('a', 1000, 0, 'tx-1')),
        step(1, 5, append('orders', a)),
        step(2, 1000, producerId('b', 1000, 2, 'tx-1')),
        step(3, 1100, append('orders', b)),
        step(4, 3000, delivered('rc', 'orders', 2, 'evt-1', 'read_committed'), delivered('ru', 'orders', 0, 'evt-1')),
        step(5, 3001, delivered('ru', 'orders', 2, 'evt-1')),
      ],
      partitions: [partition('orders', [a, { offset: 1, control: 'ABORT' }, b, { offset: 3, control: 'COMMIT', epoch: 2 }])],
      consumers: [
        { id: 'rc', isolationLevel: 'read_committed', groupId: 'rc', topics: ['orders'] },
        { id: 'ru', isolationLevel: 'read_uncommitted', groupId: 'ru', topics: ['orders'] },
      ],
    };
  };

  it('an aborted copy is no duplicate for a read_committed reader; a read_uncommitted reader that received both is told so', () => {
    const v = computeVerdict(input(zombie()));
    const log = find<TopicFinding>(v, 'log', 'orders');
    expect(log.status).toBe('once');
    expect(log.notable).toHaveLength(1);
    expect(log.notable[0]?.copies.map((c) => [c.offset, c.state, c.cause, c.writer])).toEqual([
      [0, 'aborted', 'first', 'a'],
      [2, 'committed', 'other-writer', 'b'],
    ]);
    expect(log.sentence).toContain('1 aborted copy (evt-1) that read_committed readers never see');
    expect(find<DeliveryFinding>(v, 'delivery', 'rc')).toMatchObject({ status: 'once', received: 1, uncommittedCopies: 0 });
    const ru = find<DeliveryFinding>(v, 'delivery', 'ru');
    expect(ru).toMatchObject({ status: 'more-than-once', received: 2, uncommittedCopies: 1, eventIds: ['evt-1'] });
    expect(ru.repeated[0]).toMatchObject({ eventId: 'evt-1', offsets: [0, 2], states: ['aborted', 'committed'] });
    expect(ru.sentence).toContain('one from an aborted or open transaction');
  });

  it('two committed copies from two instances of one transactional.id are a business duplicate transactional.id does not prevent', () => {
    const base = zombie();
    const a = { offset: 0, eventId: 'evt-1', producerId: 1000, epoch: 0, outcome: 'committed' as const, origin: { client: 'a', ref: 0 } };
    const b = { offset: 2, eventId: 'evt-1', producerId: 1000, epoch: 2, outcome: 'committed' as const, origin: { client: 'b', ref: 0 } };
    const v = computeVerdict(
      input({
        ...base,
        steps: [base.steps.at(0), step(1, 5, append('orders', a)), base.steps.at(2), step(3, 1100, append('orders', b))].filter(
          (s) => s !== undefined,
        ),
        partitions: [partition('orders', [a, { offset: 1, control: 'COMMIT' }, b, { offset: 3, control: 'COMMIT', epoch: 2 }])],
      }),
    );
    const log = find<TopicFinding>(v, 'log', 'orders');
    expect(log).toMatchObject({ status: 'more-than-once', eventIds: ['evt-1'] });
    expect(log.sentence).toContain(
      'written by a and b, both with transactional.id tx-1: a business duplicate that transactional.id does not prevent',
    );
    expect(findingText(log, 'ko')).toContain('transactional.id가 막지 못하는 비즈니스 중복');
  });

  it('a retry the broker recognised is named, and is no second copy', () => {
    const r = { offset: 0, eventId: 'evt-789', origin: { client: 'p', ref: 0 } };
    const duplicate: Fact = {
      kind: 'duplicate',
      topic: 'orders',
      partition: 0,
      producerId: 1000,
      producerEpoch: 0,
      baseSequence: 0,
      lastSequence: 0,
      baseOffset: 0,
    };
    const v = computeVerdict(
      input({ steps: [step(0, 1, append('orders', r)), step(1, 40, duplicate)], partitions: [partition('orders', [r])] }),
    );
    const log = find<TopicFinding>(v, 'log', 'orders');
    expect(log.status).toBe('once');
    expect(log.notable[0]).toMatchObject({ eventId: 'evt-789', deduplicated: 1 });
    expect(log.sentence).toContain('the broker recognised a retry of evt-789');
  });

  it("a retry's second copy: under a bumped epoch of the same producerId it names the epoch bump, without a producerId the missing idempotence", () => {
    const run = (producerId: number, epochs: [number, number]) => {
      const a = { offset: 0, eventId: 'evt-1', producerId, epoch: epochs[0], origin: { client: 'p', ref: 0 } };
      const b = { offset: 1, eventId: 'evt-1', producerId, epoch: epochs[1], origin: { client: 'p', ref: 0 } };
      const v = computeVerdict(
        input({ steps: [step(0, 1, append('orders', a)), step(1, 30000, append('orders', b))], partitions: [partition('orders', [a, b])] }),
      );
      return find<TopicFinding>(v, 'log', 'orders');
    };
    const bumped = run(1000, [0, 1]);
    expect(bumped.status).toBe('more-than-once');
    expect(bumped.sentence).toContain(
      'the same send() written again by a producer retry under a new epoch: idempotence was on, but a batch of the partition failed, so the producer bumped its epoch (0 → 1)',
    );
    expect(findingText(bumped, 'ko')).toContain('멱등성은 켜져 있었지만 같은 파티션의 배치 하나가 실패해 프로듀서가 epoch를 올리고(0 → 1)');
    const plain = run(-1, [-1, -1]);
    expect(plain.status).toBe('more-than-once');
    expect(plain.sentence).toContain('the same send() written again by a producer retry: without idempotence nothing recognised it');
  });

  it('a reader counts what it received: records compaction removed later included', () => {
    const recs = [0, 1, 2].map((o) => ({ offset: o, key: 'account-42' }));
    const steps = [
      step(0, 1, ...recs.map((r) => append('tier', r))),
      step(1, 10, ...recs.map((r) => delivered('early', 'tier', r.offset))),
      step(2, 6000, delivered('late', 'tier', 2)),
    ];
    const consumers = [
      { id: 'early', isolationLevel: 'read_uncommitted', groupId: 'early', topics: ['tier'] },
      { id: 'late', isolationLevel: 'read_uncommitted', groupId: 'late', topics: ['tier'] },
    ];
    const v = computeVerdict(input({ steps, partitions: [partition('tier', [recs[2] as (typeof recs)[number]])], consumers }));
    expect(find<DeliveryFinding>(v, 'delivery', 'early')).toMatchObject({ status: 'once', received: 3, events: 3 });
    expect(find<DeliveryFinding>(v, 'delivery', 'late')).toMatchObject({ status: 'once', received: 1 });
    const log = find<TopicFinding>(v, 'log', 'tier');
    expect(log.status).toBe('once');
    expect(log.copyCounts).toMatchObject({ plain: 1, removed: 2 });
    expect(log.sentence).toContain('removed by compaction later, after a reader had received them');
    expect(find<LossFinding>(v, 'loss', null).status).toBe('once');
  });
});

describe('a read_committed reader behind a pinned LSO is stalled', () => {
  // orders-service's transaction aborted (ABORT at 0); its late batch landed at 1 and opened a transaction nobody tracks
  const hanging = {
    offset: 1,
    eventId: 'evt-1',
    producerId: 1001,
    epoch: 0,
    outcome: 'open' as const,
    origin: { client: 'orders-service', ref: 0 },
  };
  const click = { offset: 2, eventId: 'evt-click-1', producerId: 1000, origin: { client: 'clicks', ref: 0 } };
  const steps = [
    step(0, 2, producerId('orders-service', 1001, 0, 'orders-service-1'), txn(1001, 0, 'Empty', 'Ongoing', 'orders-service-1')),
    step(1, 1008, txn(1001, 0, 'Ongoing', 'PrepareAbort', 'orders-service-1')),
    step(2, 1010, txn(1001, 0, 'PrepareAbort', 'CompleteAbort', 'orders-service-1')),
    step(3, 3005, append('orders', hanging)),
    step(4, 5001, append('orders', click)),
  ];
  const partitions = [partition('orders', [{ offset: 0, control: 'ABORT', producerId: 1001 }, hanging, click], 1)];
  const consumers = [{ id: 'reader', isolationLevel: 'read_committed', groupId: 'reader', topics: ['orders'] }];

  it('names how many records it cannot read, since when, and what pins the LSO', () => {
    const v = computeVerdict(input({ steps, partitions, consumers, apps: consumers.map((c) => ({ ...c, sink: null })) }));
    const d = find<DeliveryFinding>(v, 'delivery', 'reader');
    expect(d.status).toBe('stalled');
    expect(d.stalls).toEqual([
      {
        topic: 'orders',
        partition: 0,
        lastStableOffset: 1,
        highWatermark: 3,
        blocked: 2,
        blockedEventIds: ['evt-1', 'evt-click-1'],
        sinceTime: 3005,
        sinceStep: 3,
        producerId: 1001,
        producerEpoch: 0,
        firstOffset: 1,
        transactionalId: 'orders-service-1',
        coordinatorState: 'CompleteAbort',
        hanging: true,
      },
    ]);
    expect(d.sentence).toContain('stalled on orders-0 since 3,005 ms: it cannot read 2 records');
    expect(d.sentence).toContain('kafka-transactions.sh find-hanging');
    expect(find(v, 'processing', 'reader')).toMatchObject({ status: 'stalled' });
    // and the hanging copy is the only one of evt-1: lost, not "appended once"
    expect(find<TopicFinding>(v, 'log', 'orders').losses).toMatchObject([{ eventId: 'evt-1', kind: 'open-only', cause: 'hanging' }]);
    expect(find<LossFinding>(v, 'loss', null).status).toBe('lost');
  });

  it('an ordinary open transaction hiding only its own records is no stall mid-run, but is one at the end of the run', () => {
    const open = { offset: 0, eventId: 'evt-1', producerId: 1002, epoch: 0, outcome: 'open' as const, origin: { client: 'p', ref: 0 } };
    const s = [step(0, 1, producerId('p', 1002, 0, 'tx-2'), txn(1002, 0, 'Empty', 'Ongoing', 'tx-2')), step(1, 3, append('orders', open))];
    const p = [partition('orders', [open], 0)];
    expect(
      find<DeliveryFinding>(computeVerdict(input({ steps: s, partitions: p, consumers, final: false })), 'delivery', 'reader').status,
    ).toBe('not-applicable');
    const atEnd = find<DeliveryFinding>(computeVerdict(input({ steps: s, partitions: p, consumers })), 'delivery', 'reader');
    expect(atEnd.status).toBe('stalled');
    expect(atEnd.stalls[0]).toMatchObject({ hanging: false, coordinatorState: 'Ongoing', transactionalId: 'tx-2' });
  });
});

describe('losses name their kind and cause', () => {
  it('acknowledged then lost (acks=0), only at the end of the run', () => {
    const s = [step(0, 1, sendResult('agent', 0, 'metrics', 'm-1', -1))];
    const v = computeVerdict(
      input({ steps: s, partitions: [partition('metrics', [])], writers: [{ topic: 'metrics', writer: 'agent', kind: 'producer' }] }),
    );
    expect(find<LossFinding>(v, 'loss', null).losses).toMatchObject([
      { eventId: 'm-1', layer: 'log', kind: 'acked-then-lost', actor: 'agent' },
    ]);
    expect(
      find<LossFinding>(computeVerdict(input({ steps: s, partitions: [partition('metrics', [])], final: false })), 'loss', null).status,
    ).toBe('once');
  });

  it('sent but never acknowledged: delivery.timeout.ms', () => {
    const v = computeVerdict(
      input({ steps: [step(0, 120000, sendResult('p', 0, 'orders', 'evt-1', null, 'TimeoutException'))], partitions: [] }),
    );
    const loss = find<LossFinding>(v, 'loss', null);
    expect(loss.losses).toMatchObject([{ eventId: 'evt-1', kind: 'not-acked', cause: 'TimeoutException' }]);
    expect(loss.sentence).toContain('never acknowledged: delivery.timeout.ms expired');
  });

  it('never sent: the application was fenced and stopped first', () => {
    const stop: Fact = {
      kind: 'note',
      actor: 'p.app',
      text: 'abortTransaction failed with PRODUCER_FENCED: this instance was fenced and stops',
    };
    const v = computeVerdict(
      input({
        steps: [step(0, 10, stop)],
        partitions: [partition('orders', [])],
        writers: [{ topic: 'orders', writer: 'p', kind: 'producer' }],
        intendedSends: [{ client: 'p', topic: 'orders', eventId: 'evt-3' }],
        final: false,
      }),
    );
    expect(find<LossFinding>(v, 'loss', null).losses).toMatchObject([
      { eventId: 'evt-3', kind: 'never-sent', cause: 'fenced', actor: 'p' },
    ]);
  });

  it('present only in an aborted transaction, with who aborted it: the coordinator after transaction.timeout.ms', () => {
    const r = { offset: 0, eventId: 'evt-1', producerId: 1000, epoch: 0, outcome: 'aborted' as const, origin: { client: 'slow', ref: 0 } };
    const timeout: Fact = {
      kind: 'note',
      actor: 'txn-coordinator',
      text: 'transaction of slow-1 has been open 9997 ms, more than transaction.timeout.ms=5000: fencing epoch 0 and aborting',
    };
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, producerId('slow', 1000, 0, 'slow-1'), txn(1000, 0, 'Empty', 'Ongoing', 'slow-1')),
          step(1, 3, append('orders', r)),
          step(
            2,
            10000,
            timeout,
            txn(1000, 1, 'Ongoing', 'PrepareEpochFence', 'slow-1'),
            txn(1000, 1, 'PrepareEpochFence', 'PrepareAbort', 'slow-1'),
          ),
        ],
        partitions: [partition('orders', [r, { offset: 1, control: 'ABORT', epoch: 1 }])],
      }),
    );
    const log = find<TopicFinding>(v, 'log', 'orders');
    expect(log.status).toBe('lost');
    expect(log.losses).toMatchObject([{ eventId: 'evt-1', kind: 'aborted-only', cause: 'timeout' }]);
    expect(log.sentence).toContain('the coordinator aborted it after transaction.timeout.ms');
  });

  it('losses that read the same share one sentence, whatever their offsets: "evt-1 and evt-2 … aborted them"', () => {
    const rec = (offset: number, eventId: string) => ({
      offset,
      eventId,
      producerId: 1000,
      epoch: 0,
      outcome: 'aborted' as const,
      origin: { client: 'app', ref: offset },
    });
    const a = rec(0, 'evt-1');
    const b = rec(2, 'evt-2');
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, producerId('app', 1000, 0, 'app-1'), txn(1000, 0, 'Empty', 'Ongoing', 'app-1')),
          step(1, 3, append('orders', a)),
          step(2, 5, txn(1000, 0, 'Ongoing', 'PrepareAbort', 'app-1'), txn(1000, 0, 'PrepareAbort', 'CompleteAbort', 'app-1')),
          step(3, 7, txn(1000, 0, 'CompleteAbort', 'Ongoing', 'app-1'), append('orders', b)),
          step(4, 9, txn(1000, 0, 'Ongoing', 'PrepareAbort', 'app-1'), txn(1000, 0, 'PrepareAbort', 'CompleteAbort', 'app-1')),
        ],
        partitions: [partition('orders', [a, { offset: 1, control: 'ABORT', epoch: 0 }, b, { offset: 3, control: 'ABORT', epoch: 0 }])],
      }),
    );
    const log = find<TopicFinding>(v, 'log', 'orders');
    expect(log.losses.map((l) => [l.eventId, l.kind, l.offset])).toEqual([
      ['evt-1', 'aborted-only', 0],
      ['evt-2', 'aborted-only', 2],
    ]);
    expect(log.sentence).toMatch(/lost: evt-1 and evt-2 only in aborted transactions \(\S+ aborted them\)/);
    expect(log.sentence.match(/aborted/g)?.length).toBe(2);
    const ko = findingText(log, 'ko');
    expect(ko.match(/취소된 트랜잭션에만 있습니다/g)?.length).toBe(1);
  });

  it('removed by compaction before any reader received it is a loss; after a reader did, it is not', () => {
    const gone = { offset: 0, eventId: 'e-old', key: 'k' };
    const kept = { offset: 1, eventId: 'e-new', key: 'k' };
    const steps = [step(0, 1, append('state', gone), append('state', kept))];
    const unread = computeVerdict(input({ steps, partitions: [partition('state', [kept])] }));
    expect(find<LossFinding>(unread, 'loss', null).losses).toMatchObject([{ eventId: 'e-old', kind: 'compacted' }]);
    const read = computeVerdict(
      input({ steps: [...steps, step(1, 5, delivered('r', 'state', 0, 'e-old'))], partitions: [partition('state', [kept])] }),
    );
    expect(find<LossFinding>(read, 'loss', null).status).toBe('once');
  });

  const threeOrders = [1, 2, 3].map((n) => ({ offset: n - 1, eventId: `evt-${n}` }));
  const billing = { id: 'billing', isolationLevel: 'read_uncommitted', groupId: 'billing', topics: ['orders'], sink: 'payment-api' };

  it('never processed: the group committed past it (commit, then process); and the charge never happened at the sink', () => {
    const committed: Fact = {
      kind: 'offsetsCommitted',
      groupId: 'billing',
      generationId: 1,
      offsets: [{ topic: 'orders', partition: 0, offset: 3 }],
      transactional: false,
    };
    const charged: Fact = {
      kind: 'sideEffect',
      sink: 'payment-api',
      effect: 'payment charged',
      eventId: 'evt-1',
      app: 'billing',
      applied: true,
      note: '',
    };
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, ...threeOrders.map((r) => append('orders', r))),
          step(1, 3000, committed),
          step(2, 3001, processed('billing', 'orders', 0, 'evt-1')),
          step(3, 3002, charged),
        ],
        partitions: [partition('orders', threeOrders)],
        apps: [billing],
        sinks: ['payment-api'],
        final: false,
      }),
    );
    expect(find(v, 'processing', 'billing')).toMatchObject({ status: 'lost', eventIds: ['evt-2', 'evt-3'] });
    expect(find(v, 'sink', 'payment-api')).toMatchObject({ status: 'lost', eventIds: ['evt-2', 'evt-3'] });
    const loss = find<LossFinding>(v, 'loss', null);
    expect(loss.losses.map((l) => [l.eventId, l.layer, l.kind, l.cause])).toEqual([
      ['evt-2', 'processing', 'not-processed', 'committed-past'],
      ['evt-3', 'processing', 'not-processed', 'committed-past'],
      ['evt-2', 'sink', 'not-applied', 'not-processed'],
      ['evt-3', 'sink', 'not-applied', 'not-processed'],
    ]);
    expect(find<ProcessingFinding>(v, 'processing', 'billing').sentence).toContain(
      'group billing had committed offset 3 before processing',
    );
  });

  it('processed, but the call never happened: a loss at the sink only', () => {
    const v = computeVerdict(
      input({
        steps: [step(0, 1, append('orders', threeOrders[0] as never)), step(1, 5, processed('billing', 'orders', 0, 'evt-1'))],
        partitions: [partition('orders', [threeOrders[0] as never])],
        apps: [billing],
        sinks: ['payment-api'],
      }),
    );
    expect(find(v, 'processing', 'billing')).toMatchObject({ status: 'once' });
    expect(find<LossFinding>(v, 'loss', null).losses).toMatchObject([
      { eventId: 'evt-1', layer: 'sink', kind: 'not-applied', cause: 'no-call' },
    ]);
  });

  it('a run in which nothing was processed is no "Lost: nothing"', () => {
    const v = computeVerdict(
      input({
        steps: [step(0, 1, ...threeOrders.map((r) => append('orders', r)))],
        partitions: [partition('orders', threeOrders)],
        apps: [{ ...billing, sink: null }],
        stopped: { billing: 'down' },
      }),
    );
    expect(find(v, 'processing', 'billing')).toMatchObject({ status: 'lost', eventIds: ['evt-1', 'evt-2', 'evt-3'] });
    expect(find<LossFinding>(v, 'loss', null).sentence).toContain('never processed: billing is down');
  });

  it('before anything was sent there is nothing to judge, not "Lost: nothing"', () => {
    const v = computeVerdict(input({ steps: [], partitions: [partition('orders', [])], final: false }));
    const loss = find<LossFinding>(v, 'loss', null);
    expect(loss.status).toBe('not-applicable');
    expect(loss.sentence).toBe('Lost: nothing to judge yet — no event has been sent.');
  });
});

describe('every topic a writer produces to is counted: an outbox relay', () => {
  const relay = { topic: 'order-events', writer: 'db-relay', kind: 'relay' as const, sink: 'db' };
  const inserted = (eventId: string): Fact => ({
    kind: 'sideEffect',
    sink: 'db',
    effect: 'insert row',
    eventId,
    app: 'orders',
    applied: true,
    note: '',
  });

  it('a relay that restarted and published again: every event twice in its topic', () => {
    const recs = [
      { offset: 0, eventId: 'evt-1', producerId: 1000, origin: { client: 'db-relay', ref: 0 } },
      { offset: 1, eventId: 'evt-1', producerId: 1002, origin: { client: 'db-relay', ref: 1 } },
    ];
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, inserted('evt-1'), producerId('db-relay', 1000, 0, null)),
          step(1, 100, append('order-events', recs[0] as never)),
          step(2, 1000, producerId('db-relay', 1002, 0, null)),
          step(3, 1100, append('order-events', recs[1] as never)),
        ],
        partitions: [partition('order-events', recs)],
        writers: [relay],
      }),
    );
    const out = find<TopicFinding>(v, 'output', 'order-events');
    expect(out).toMatchObject({ status: 'more-than-once', eventIds: ['evt-1'] });
    expect(out.notable[0]?.copies.map((c) => c.cause)).toEqual(['first', 'new-session']);
    expect(out.sentence).toContain('the relay is at-least-once');
  });

  it('a relay that stopped leaves events out of its topic: a loss at that layer', () => {
    const v = computeVerdict(
      input({
        steps: [step(0, 1, inserted('evt-1'), inserted('evt-2')), step(1, 100, append('order-events', { offset: 0, eventId: 'evt-1' }))],
        partitions: [partition('order-events', [{ offset: 0, eventId: 'evt-1' }])],
        writers: [relay],
        stopped: { 'db-relay': 'down' },
      }),
    );
    expect(find(v, 'output', 'order-events')).toMatchObject({ status: 'lost', eventIds: ['evt-2'] });
    expect(find<LossFinding>(v, 'loss', null).losses).toMatchObject([
      { eventId: 'evt-2', layer: 'output', kind: 'not-published', cause: 'down' },
    ]);
  });
});
