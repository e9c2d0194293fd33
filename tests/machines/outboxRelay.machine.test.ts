/**
 * The CDC relay on its own: each answer from the database is matched to the request the relay waits
 * for by its correlationId (a late answer to a repeated request is ignored), a lost request is
 * repeated after the poll interval, and the source offset is recorded only after the rows are
 * published and flushed — the handlers typed by OutboxRelayEvent, driven without the kernel.
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { type OutboxRelayContext, outboxRelayMachine } from '../../src/sim/sinks/outboxRelay.machine';
import { drive } from './harness';

const input = { self: 'db-relay.app', database: 'db', producer: 'db-relay.producer', client: 'db-relay', topic: 'events' };
let envelope = 1;
const fromDb = (type: 'DbQueryResult' | 'DbTransactionResult', payload: Record<string, unknown>) => ({
  type,
  from: 'db',
  envelopeId: envelope++,
  inReplyTo: 0,
  payload,
});
const query = (effects: Effect[]) => effects.find((e) => e.type === 'send' && e.rpc === 'DbQuery') as Extract<Effect, { type: 'send' }>;
const timers = (effects: Effect[]) => effects.flatMap((e) => (e.type === 'timer' ? [`${e.name}+${e.delay}`] : []));
const points = (effects: Effect[]) => effects.flatMap((e) => (e.type === 'point' ? [e.point] : []));

describe('CDC relay (outbox) on its own', () => {
  it('reads its position, repeats a lost poll, ignores the late answer, publishes, flushes, then records the position', () => {
    const m = drive(outboxRelayMachine, input);
    const position = query(m.send({ type: 'boot' }, 0));
    expect(position.payload).toMatchObject({ correlationId: 0, table: 'relay-position' });
    expect(timers(m.send(fromDb('DbQueryResult', { correlationId: 0, ok: true, position: 5 }), 1))).toEqual(['pollOutbox+0']);
    expect(m.context<OutboxRelayContext>().position).toBe(5);

    // the poll is lost: the relay asks again after pollMs, and the answer to the lost request is not the one it waits for
    const lostPoll = query(m.send({ type: 'pollOutbox', key: 'poll', data: {} }, 2));
    expect(lostPoll.payload).toMatchObject({ correlationId: 1, table: 'outbox', after: 5 });
    const disconnected = { type: 'disconnected', envelopeId: 0, to: 'db', rpc: 'DbQuery', timedOut: true, reason: 'timeout' };
    expect(timers(m.send({ ...disconnected, payload: { correlationId: 1 } }, 5002))).toEqual(['pollOutbox+100']);
    const poll = query(m.send({ type: 'pollOutbox', key: 'poll', data: {} }, 5102));
    expect(poll.payload).toMatchObject({ correlationId: 2, after: 5 });
    const rows = [
      { id: 5, eventId: 'e5', key: 'k', value: 'a' },
      { id: 6, eventId: 'e6', key: 'k', value: 'b' },
    ];
    expect(m.send(fromDb('DbQueryResult', { correlationId: 1, ok: true, rows }), 5103)).toEqual([]);

    const first = m.send(fromDb('DbQueryResult', { correlationId: 2, ok: true, rows }), 5104);
    expect(first).toContainEqual(expect.objectContaining({ type: 'call', name: 'send', args: expect.objectContaining({ value: 'a' }) }));
    const second = m.send({ type: 'reply', from: 'db-relay.producer', args: { call: 'send', ok: true } }, 5105);
    expect(points(second)).toEqual(['afterProduce']);
    expect(second).toContainEqual(expect.objectContaining({ type: 'call', name: 'send', args: expect.objectContaining({ value: 'b' }) }));
    const flush = m.send({ type: 'reply', from: 'db-relay.producer', args: { call: 'send', ok: true } }, 5106);
    expect(flush).toContainEqual(expect.objectContaining({ type: 'call', name: 'flush' }));
    const flushed = m.send({ type: 'reply', from: 'db-relay.producer', args: { call: 'flush', ok: true } }, 5107);
    expect(points(flushed)).toEqual(['beforeCommit']);
    expect(timers(flushed)).toEqual(['recordPosition+0']);

    const record = m.send({ type: 'recordPosition', key: 'record', data: {} }, 5107);
    expect(record).toContainEqual(
      expect.objectContaining({ type: 'send', rpc: 'DbTransaction', payload: expect.objectContaining({ correlationId: 3, position: 7 }) }),
    );
    // position is recorded only when the answer to this very request comes back
    expect(m.send(fromDb('DbTransactionResult', { correlationId: 2, ok: true, conflict: false }), 5108)).toEqual([]);
    expect(m.context<OutboxRelayContext>().position).toBe(5);
    const committed = m.send(fromDb('DbTransactionResult', { correlationId: 3, ok: true, conflict: false }), 5109);
    expect(points(committed)).toEqual(['afterCommit']);
    expect(m.context<OutboxRelayContext>()).toMatchObject({ position: 7, pending: [], waiting: null });
  });
});
