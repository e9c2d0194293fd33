/** A broker on its own: appends with the idempotence checks, held fetches, a crash and restart. */
import { describe, expect, it } from 'vitest';
import { type BrokerContext, brokerMachine } from '../../src/sim/broker/broker.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf, producerRpc } from './harness';

const scenario = { version: 1, seed: 1, topics: [{ name: 't', partitions: 1 }], clients: [] };
const rpc = producerRpc;
const produce = (baseSequence: number, value = 'v') =>
  rpc('Produce', {
    acks: -1,
    transactionalId: null,
    partitions: [
      {
        topic: 't',
        partition: 0,
        batch: {
          producerId: 7,
          producerEpoch: 0,
          baseSequence,
          isTransactional: false,
          records: [{ key: 'k', value, headers: {}, timestamp: 0 }],
        },
      },
    ],
  });
/** The answers sent; a ProduceResponse as one entry per partition result. */
const replies = (fx: readonly Effect[]) =>
  fx.flatMap((e) => {
    if (e.type !== 'send' || e.inReplyTo === undefined) return [];
    const parts = e.payload.responses as Record<string, unknown>[] | undefined;
    return parts ? parts.map((p) => ({ rpc: e.rpc, ...p })) : [{ rpc: e.rpc, ...e.payload }];
  });
const factKinds = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'fact' ? [(e.fact as { kind: string }).kind] : []));

describe('broker statechart', () => {
  const start = () => drive(brokerMachine, inputOf(scenario, 'broker-0'));

  it('appends a batch and answers its base offset; the same sequence again is a duplicate answered with the first offset', () => {
    const m = start();
    expect(m.state()).toBe('online');
    const first = m.send(produce(0), 1);
    expect(replies(first)).toEqual([expect.objectContaining({ rpc: 'ProduceResponse', error: 'NONE', baseOffset: 0 })]);
    expect(factKinds(first)).toContain('append');
    const again = m.send(produce(0), 2);
    expect(replies(again)).toEqual([expect.objectContaining({ error: 'NONE', baseOffset: 0 })]);
    expect(factKinds(again)).toContain('duplicate');
  });

  it('refuses a sequence gap with OUT_OF_ORDER_SEQUENCE_NUMBER', () => {
    const m = start();
    m.send(produce(0), 1);
    expect(replies(m.send(produce(5), 2))).toEqual([expect.objectContaining({ error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' })]);
  });

  it('holds an empty fetch up to fetch.max.wait.ms and answers it when a batch arrives', () => {
    const m = start();
    const held = m.send(
      rpc('Fetch', {
        isolationLevel: 'read_uncommitted',
        maxWaitMs: 500,
        minBytes: 1,
        partitions: [{ topic: 't', partition: 0, fetchOffset: 0, maxRecords: 10 }],
      }),
      1,
    );
    expect(replies(held)).toEqual([]);
    expect(held).toContainEqual(expect.objectContaining({ type: 'timer', name: 'fetchWaitExpired' }));
    const fx = m.send(produce(0), 2);
    expect(replies(fx).map((r) => r.rpc)).toEqual(['ProduceResponse', 'FetchResponse']);
  });

  it('online → down loses the held fetches but keeps the log; restart brings it online', () => {
    const m = start();
    m.send(produce(0), 1);
    m.send(
      rpc('Fetch', {
        isolationLevel: 'read_uncommitted',
        maxWaitMs: 500,
        minBytes: 1,
        partitions: [{ topic: 't', partition: 0, fetchOffset: 1, maxRecords: 10 }],
      }),
      2,
    );
    expect(m.context<BrokerContext>().parked).toHaveLength(1);
    m.send({ type: 'crash' }, 3);
    expect(m.state()).toBe('down');
    expect(m.context<BrokerContext>().parked).toEqual([]);
    // a request reaching a down broker is not handled
    expect(m.send(produce(1), 4)).toEqual([]);
    m.send({ type: 'restart' }, 5);
    expect(m.state()).toBe('online');
    expect(replies(m.send(produce(1), 6))).toEqual([expect.objectContaining({ error: 'NONE', baseOffset: 1 })]);
  });
});
