/**
 * One Produce request per broker, tested on the Sender's functions against Kafka 4.0's client
 * (Sender.sendProducerData → RecordAccumulator.drain → sendProduceRequests → one sendProduceRequest
 * per node; handleProduceResponse → completeBatch per partition; InFlightRequests.canSendMore): the
 * partitions a broker leads go in one request, at most one batch each; the in-flight limit counts
 * requests; a lost request fails every batch it carried; each partition's result is its own.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import type { Effect } from '../src/sim/kernel/effects';
import { envelopeMatches } from '../src/sim/kernel/faults';
import { accumulate, drain, inFlightTo, onConnectionLost, onProduceResponse, type ProducerDraft } from '../src/sim/producer/sender';
import type { ProducePartitionResponse } from '../src/sim/protocol/messages';
import type { Fact } from '../src/sim/trace/facts';
import { producerDraft } from './fixtures/producerDraft';

const meta: ClusterMetadata = {
  brokers: ['broker-0', 'broker-1'],
  topics: { orders: { name: 'orders', partitions: 3, leaders: ['broker-0', 'broker-0', 'broker-1'] } },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 3,
  consumerOffsetsPartitions: 3,
};

type Send = Extract<Effect, { type: 'send' }>;
type Part = { topic: string; partition: number; batch: { baseSequence: number; records: { value: string }[] } };

/** Queues one record per value to its partition (no drain). */
function queue(d: ProducerDraft, records: [number, string][], now = 0): void {
  for (const [partition, value] of records) accumulate(d, { topic: 'orders', key: null, value, partition }, now, new Out());
}

function drained(d: ProducerDraft, now = 0): Out {
  const out = new Out();
  drain(d, now, out);
  return out;
}

/** The Produce requests sent: broker → [partition, first value, baseSequence] per batch it carries. */
function requests(out: Out): [string, [string, string, number][]][] {
  return out.effects
    .filter((e): e is Send => e.type === 'send' && e.rpc === 'Produce')
    .map((e) => [
      e.to,
      (e.payload.partitions as Part[]).map((p): [string, string, number] => [
        `${p.topic}-${p.partition}`,
        p.batch.records[0]?.value as string,
        p.batch.baseSequence,
      ]),
    ]);
}

const correlationOf = (out: Out, broker: string) =>
  (out.effects.find((e): e is Send => e.type === 'send' && e.rpc === 'Produce' && e.to === broker)?.payload.correlationId as number) ?? -1;

const ok = (partition: number, baseOffset: number): ProducePartitionResponse => ({
  topic: 'orders',
  partition,
  error: 'NONE',
  baseOffset,
  errorMessage: null,
});

const results = (out: Out) =>
  out.effects.flatMap((e) =>
    e.type === 'fact' && (e.fact as Fact).kind === 'sendResult'
      ? [e.fact as Extract<Fact, { kind: 'sendResult' }>].map((f) => [`${f.topic}-${f.partition}`, f.offset, f.error])
      : [],
  );

describe('one Produce request per broker, one batch per partition', () => {
  it('two partitions led by one broker go in one request; a partition of another broker gets its own', () => {
    const d = producerDraft(meta);
    queue(d, [
      [0, 'a'],
      [1, 'b'],
      [2, 'c'],
    ]);
    expect(requests(drained(d))).toEqual([
      [
        'broker-0',
        [
          ['orders-0', 'a', 0],
          ['orders-1', 'b', 0],
        ],
      ],
      ['broker-1', [['orders-2', 'c', 0]]],
    ]);
    // the two batches to broker-0 share the request: one request in flight there, counted once
    expect(inFlightTo(d, 'broker-0')).toBe(1);
    expect(inFlightTo(d, 'broker-1')).toBe(1);
  });

  it('max.in.flight.requests.per.connection counts requests: at 1, one request with both partitions, then nothing until it is answered', () => {
    const d = producerDraft(meta, { 'max.in.flight.requests.per.connection': 1 });
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    const first = drained(d);
    expect(requests(first)).toEqual([
      [
        'broker-0',
        [
          ['orders-0', 'a', 0],
          ['orders-1', 'b', 0],
        ],
      ],
    ]);
    queue(
      d,
      [
        [0, 'a2'],
        [1, 'b2'],
      ],
      1,
    );
    expect(requests(drained(d, 1))).toEqual([]);
    const answered = new Out();
    onProduceResponse(d, { correlationId: correlationOf(first, 'broker-0'), responses: [ok(0, 0), ok(1, 0)] }, 2, answered);
    expect(results(answered)).toEqual([
      ['orders-0', 0, null],
      ['orders-1', 0, null],
    ]);
    // the drain starts where the last one ended (drainIndex): at orders-1
    expect(requests(drained(d, 2))).toEqual([
      [
        'broker-0',
        [
          ['orders-1', 'b2', 1],
          ['orders-0', 'a2', 1],
        ],
      ],
    ]);
  });

  it('with several batches queued for one partition, each request carries one of them (the next drain sends the next)', () => {
    const d = producerDraft(meta, { 'batch.size': 1 });
    queue(d, [
      [0, 'a'],
      [0, 'b'],
      [1, 'c'],
    ]);
    expect(requests(drained(d))).toEqual([
      [
        'broker-0',
        [
          ['orders-0', 'a', 0],
          ['orders-1', 'c', 0],
        ],
      ],
      ['broker-0', [['orders-0', 'b', 1]]],
    ]);
  });

  it('acks=0 completes every batch of the request when it is sent', () => {
    const d = producerDraft(meta, { acks: '0', 'enable.idempotence': false });
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    const out = drained(d);
    expect(requests(out)).toHaveLength(1);
    expect(results(out)).toEqual([
      ['orders-0', null, null],
      ['orders-1', null, null],
    ]);
    expect(d.batches).toEqual([]);
  });
});

describe('the answer to a request with several partitions', () => {
  it('each partition is handled on its own: one completes, the other (NOT_ENOUGH_REPLICAS) is retried with its sequence', () => {
    const d = producerDraft(meta);
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    const sent = drained(d);
    const out = new Out();
    const outcome = onProduceResponse(
      d,
      {
        correlationId: correlationOf(sent, 'broker-0'),
        responses: [ok(0, 5), { topic: 'orders', partition: 1, error: 'NOT_ENOUGH_REPLICAS', baseOffset: -1, errorMessage: null }],
      },
      10,
      out,
    );
    expect(outcome).toBe('ok');
    expect(results(out)).toEqual([['orders-0', 5, null]]);
    expect(d.batches.map((b) => [b.partition, b.inFlight, b.baseSequence])).toEqual([[1, false, 0]]);
    // after retry.backoff.ms it goes again, alone
    expect(requests(drained(d, 10 + d.config['retry.backoff.ms']))).toEqual([['broker-0', [['orders-1', 'b', 0]]]]);
  });

  it('a lost request (its connection closed) fails every batch it carried; they are retried together with the same sequences', () => {
    const d = producerDraft(meta);
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    const sent = drained(d);
    const lost = new Out();
    onConnectionLost(d, 'broker-0', 'REQUEST_TIMED_OUT', 30000, lost, [correlationOf(sent, 'broker-0')]);
    expect(d.batches.map((b) => [b.partition, b.inFlight, b.attempts])).toEqual([
      [0, false, 1],
      [1, false, 1],
    ]);
    expect(
      lost.effects.flatMap((e) =>
        e.type === 'fact' && (e.fact as Fact).kind === 'clientError' ? [(e.fact as unknown as { during: string }).during] : [],
      ),
    ).toEqual(['Produce to orders-0', 'Produce to orders-1']);
    expect(requests(drained(d, 30000 + d.config['retry.backoff.ms']))).toEqual([
      [
        'broker-0',
        [
          ['orders-1', 'b', 0],
          ['orders-0', 'a', 0],
        ],
      ],
    ]);
  });
});

describe('an envelope fault on a Produce or ProduceResponse', () => {
  it('`where` matches the payload or any one partition it carries', () => {
    const response = {
      rpc: 'ProduceResponse' as const,
      from: 'broker-0',
      to: 'p.producer',
      payload: { correlationId: 3, responses: [ok(0, 1), { ...ok(1, 2), topic: 'audit' }] },
    };
    expect(envelopeMatches({ rpc: 'ProduceResponse', where: { topic: 'audit' } }, response)).toBe(true);
    expect(envelopeMatches({ rpc: 'ProduceResponse', where: { topic: 'orders', partition: 0 } }, response)).toBe(true);
    // the fields of one partition together, not across partitions
    expect(envelopeMatches({ rpc: 'ProduceResponse', where: { topic: 'orders', partition: 1 } }, response)).toBe(false);
    expect(envelopeMatches({ rpc: 'ProduceResponse', where: { correlationId: 3 } }, response)).toBe(true);
    expect(envelopeMatches({ rpc: 'ProduceResponse', where: { topic: 'payments' } }, response)).toBe(false);
  });
});

describe('drainBatchesForOneNode: the rotating drainIndex and the stop', () => {
  it('each drain of a broker starts at the partition stored last: after a full pass, the one before the pass began', () => {
    const d = producerDraft(meta, { 'enable.idempotence': false, acks: '1' });
    const round = (values: [number, string][], now: number) => {
      queue(d, values, now);
      const out = drained(d, now);
      onProduceResponse(d, { correlationId: correlationOf(out, 'broker-0'), responses: [ok(0, 0), ok(1, 0)] }, now, new Out());
      return requests(out).map(([, parts]) => parts.map(([tp]) => tp));
    };
    expect(
      round(
        [
          [0, 'a'],
          [1, 'b'],
        ],
        0,
      ),
    ).toEqual([['orders-0', 'orders-1']]);
    expect(d.drainIndex['broker-0']).toBe(1);
    expect(
      round(
        [
          [0, 'c'],
          [1, 'd'],
        ],
        1,
      ),
    ).toEqual([['orders-1', 'orders-0']]);
    expect(d.drainIndex['broker-0']).toBe(0);
    expect(
      round(
        [
          [0, 'e'],
          [1, 'f'],
        ],
        2,
      ),
    ).toEqual([['orders-0', 'orders-1']]);
  });

  it("a ready broker takes the other partitions' records too, lingered or not", () => {
    const d = producerDraft(meta, { 'linger.ms': 100 });
    queue(d, [[0, 'a']], 0);
    queue(d, [[1, 'b']], 90);
    // at 100 orders-0 has lingered; orders-1 (10 ms) rides along in broker-0's request
    expect(requests(drained(d, 100))).toEqual([
      [
        'broker-0',
        [
          ['orders-0', 'a', 0],
          ['orders-1', 'b', 0],
        ],
      ],
    ]);
  });

  it("a partition that must stop (not yet in the transaction) ends the broker's drain: the partitions after it wait, the index stays on it", () => {
    const d = producerDraft(meta, { 'transactional.id': 'tx' });
    d.txnPartitions = ['orders-1'];
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    // orders-0 comes first and may not send: Kafka breaks out of the node's loop, so orders-1 waits too
    expect(requests(drained(d))).toEqual([]);
    expect(d.drainIndex['broker-0']).toBe(0);
    d.txnPartitions = ['orders-1', 'orders-0'];
    expect(requests(drained(d, 1))).toEqual([
      [
        'broker-0',
        [
          ['orders-0', 'a', 0],
          ['orders-1', 'b', 0],
        ],
      ],
    ]);
  });

  it('a partition passed over (backing off) does not stop the drain', () => {
    const d = producerDraft(meta);
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    const sent = drained(d);
    onProduceResponse(
      d,
      {
        correlationId: correlationOf(sent, 'broker-0'),
        responses: [{ topic: 'orders', partition: 0, error: 'NOT_ENOUGH_REPLICAS', baseOffset: -1, errorMessage: null }, ok(1, 0)],
      },
      1,
      new Out(),
    );
    queue(d, [[1, 'c']], 1);
    // orders-0's retry backs off: orders-1 still goes
    expect(requests(drained(d, 1))).toEqual([['broker-0', [['orders-1', 'c', 1]]]]);
  });
});

/** The bytes the model gives one record of `value` (no key, no headers), as batch.size counts them. */
const recordBytes = (value: string) => {
  const d = producerDraft(meta);
  return accumulate(d, { topic: 'orders', key: null, value, partition: 0 }, 0, new Out()).bytes;
};

describe('max.request.size: the bytes one Produce request may carry (RecordAccumulator.drainBatchesForOneNode)', () => {
  it('defaults to Kafka 4.x: 1048576', () => {
    expect(producerDraft(meta).config['max.request.size']).toBe(1048576);
  });

  it("a batch that would take the request past max.request.size waits: the broker's drain ends there, the index left on it, and the next request starts with it", () => {
    const one = recordBytes('a');
    const d = producerDraft(meta, { 'max.request.size': one + 1 });
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    // the Sender loops at once (max.in.flight is 5): orders-1 goes in a second request of its own
    expect(requests(drained(d))).toEqual([
      ['broker-0', [['orders-0', 'a', 0]]],
      ['broker-0', [['orders-1', 'b', 0]]],
    ]);
    expect(inFlightTo(d, 'broker-0')).toBe(2);
  });

  it('at max.in.flight.requests.per.connection=1 the batch left out waits for the answer, and its request starts with it', () => {
    const one = recordBytes('a');
    const d = producerDraft(meta, { 'max.request.size': one + 1, 'max.in.flight.requests.per.connection': 1 });
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    const first = drained(d);
    expect(requests(first)).toEqual([['broker-0', [['orders-0', 'a', 0]]]]);
    // the drain broke at orders-1: the index stays on it
    expect(d.drainIndex['broker-0']).toBe(1);
    onProduceResponse(d, { correlationId: correlationOf(first, 'broker-0'), responses: [ok(0, 0)] }, 1, new Out());
    queue(d, [[0, 'c']], 1);
    expect(requests(drained(d, 1))).toEqual([['broker-0', [['orders-1', 'b', 0]]]]);
    expect(requests(drained(d, 2))).toEqual([]);
  });

  it('two batches that fit go together; the limit counts what a new batch would close at batch.size', () => {
    const one = recordBytes('a');
    const d = producerDraft(meta, { 'max.request.size': 2 * one });
    queue(d, [
      [0, 'a'],
      [1, 'b'],
    ]);
    expect(requests(drained(d))).toEqual([
      [
        'broker-0',
        [
          ['orders-0', 'a', 0],
          ['orders-1', 'b', 0],
        ],
      ],
    ]);
  });

  it("the request's first batch goes even when it alone is larger than max.request.size (Kafka's `!ready.isEmpty()`)", () => {
    // each record fits (send() refuses only a record larger than the limit); orders-0's batch of two does not
    const one = recordBytes('a');
    const d = producerDraft(meta, { 'max.request.size': 2 * one - 1 });
    queue(d, [
      [0, 'a'],
      [0, 'b'],
      [1, 'c'],
    ]);
    expect(requests(drained(d))).toEqual([
      ['broker-0', [['orders-0', 'a', 0]]],
      ['broker-0', [['orders-1', 'c', 0]]],
    ]);
  });

  it('a retry counts its own records against the limit', () => {
    const one = recordBytes('a');
    const d = producerDraft(meta, {
      'max.request.size': one + 1,
      'enable.idempotence': false,
      acks: '1',
      'retry.backoff.ms': 0,
      'max.in.flight.requests.per.connection': 1,
    });
    queue(d, [[0, 'a']]);
    const first = drained(d);
    // without idempotence a batch has no sequence (-1)
    expect(requests(first)).toEqual([['broker-0', [['orders-0', 'a', -1]]]]);
    queue(d, [[1, 'b']], 1);
    onProduceResponse(
      d,
      { correlationId: correlationOf(first, 'broker-0'), responses: [{ ...ok(0, -1), error: 'NOT_ENOUGH_REPLICAS' }] },
      2,
      new Out(),
    );
    // the drain starts at orders-1 (the index after orders-0), so its new batch goes first and the
    // retry of orders-0 would take the request past the limit: it waits
    const second = drained(d, 2);
    expect(requests(second)).toEqual([['broker-0', [['orders-1', 'b', -1]]]]);
    onProduceResponse(d, { correlationId: correlationOf(second, 'broker-0'), responses: [ok(1, 0)] }, 3, new Out());
    expect(requests(drained(d, 3))).toEqual([['broker-0', [['orders-0', 'a', -1]]]]);
  });
});

describe("partitionsForNode: the producer's own topics (its Cluster holds only the topics it sent to)", () => {
  // broker-0 leads orders-0..2 and payments-0..1; this producer sends to orders only
  const twoTopics: ClusterMetadata = {
    ...meta,
    topics: {
      orders: { name: 'orders', partitions: 3, leaders: ['broker-0', 'broker-0', 'broker-0'] },
      payments: { name: 'payments', partitions: 2, leaders: ['broker-0', 'broker-0'] },
    },
  };

  it('the drain index turns over the partitions of the topics sent to: a full pass leaves it on the one before its start', () => {
    const one = recordBytes('a');
    const d = producerDraft(twoTopics, { 'max.request.size': one + 1 });
    queue(d, [[1, 'a']]);
    expect(requests(drained(d))).toEqual([['broker-0', [['orders-1', 'a', 0]]]]);
    // a full pass over [orders-0, orders-1, orders-2] from 0: the index is left on orders-2 (with
    // payments' partitions in the list it would be left on payments-1, and the next pass start at orders-0)
    expect(d.drainIndex['broker-0']).toBe(2);
    queue(d, [
      [0, 'b'],
      [2, 'c'],
    ]);
    expect(requests(drained(d)).map(([, parts]) => parts[0]?.[0])).toEqual(['orders-2', 'orders-0']);
  });
});
