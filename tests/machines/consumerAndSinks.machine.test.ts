/** The consumer client's group membership, and the systems outside Kafka, each machine on its own. */
import { describe, expect, it } from 'vitest';
import { consumerMachine } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { databaseMachine } from '../../src/sim/sinks/database.machine';
import { httpApiMachine } from '../../src/sim/sinks/httpApi.machine';
import { outboxRelayMachine } from '../../src/sim/sinks/outboxRelay.machine';
import { drive, inputOf, sends } from './harness';

let envelope = 1;
const answer = (type: string, from: string, correlationId: number, payload: Record<string, unknown>) => ({
  type,
  from,
  envelopeId: envelope++,
  inReplyTo: 0,
  payload: { correlationId, ...payload },
});
const request = (type: string, payload: Record<string, unknown>) => ({
  type,
  from: 'billing.app',
  envelopeId: envelope++,
  inReplyTo: null,
  payload: { correlationId: envelope, ...payload },
});
const sent = (fx: readonly Effect[], rpc: string) =>
  fx.find((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.rpc === rpc);
const replies = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'send' && e.inReplyTo !== undefined ? [{ rpc: e.rpc, ...e.payload }] : []));

describe('consumer statechart: group membership', () => {
  const scenario = {
    version: 1,
    seed: 1,
    topics: [{ name: 't', partitions: 1 }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g' }, topics: ['t'] }],
  };

  it('UNJOINED → PREPARING_REBALANCE (the first poll()) → COMPLETING_REBALANCE → STABLE: JoinGroup, its answer, SyncGroup and the assignment; then it fetches its positions', () => {
    const m = drive(consumerMachine, inputOf(scenario, 'c.consumer'));
    expect(sent(m.send({ type: 'boot' }, 0), 'JoinGroup')).toBeUndefined();
    expect(m.state()).toBe('running.membership.UNJOINED|running.fetching.STOPPED');
    const polled = m.send({ type: 'poll', from: 'c.app', args: {} }, 0);
    expect(m.state()).toBe('running.membership.PREPARING_REBALANCE|running.fetching.STOPPED');
    const join = sent(polled, 'JoinGroup');
    expect(join?.to).toBe('group-coordinator');
    const joined = m.send(
      answer('JoinGroupResponse', 'group-coordinator', join?.payload.correlationId as number, {
        error: 'NONE',
        generationId: 1,
        memberId: 'c-0',
        leader: 'c-0',
      }),
      10,
    );
    expect(m.state()).toBe('running.membership.COMPLETING_REBALANCE|running.fetching.STOPPED');
    const sync = sent(joined, 'SyncGroup');
    expect(sync?.payload).toMatchObject({ groupId: 'g', generationId: 1, memberId: 'c-0' });
    const synced = m.send(
      answer('SyncGroupResponse', 'group-coordinator', sync?.payload.correlationId as number, {
        error: 'NONE',
        assignment: [{ topic: 't', partition: 0 }],
      }),
      20,
    );
    // both regions: the member is STABLE, its fetching region waits for the committed offsets
    expect(m.state()).toBe('running.membership.STABLE|running.fetching.ASSIGNED.INITIALIZING');
    // the committed offsets of the new assignment are asked for first (OffsetFetch)
    expect(sends(synced)).toContain('OffsetFetch→group-coordinator');
  });

  it('a crash forgets the membership; after the restart the first poll() joins again', () => {
    const m = drive(consumerMachine, inputOf(scenario, 'c.consumer'));
    m.send({ type: 'boot' }, 0);
    m.send({ type: 'poll', from: 'c.app', args: {} }, 0);
    m.send({ type: 'crash' }, 1);
    expect(m.state()).toBe('down');
    const fx = m.send({ type: 'restart' }, 2);
    expect(m.state()).toBe('running.membership.UNJOINED|running.fetching.STOPPED');
    // a restarted process is a new consumer: its leaders unknown, the Metadata request goes first (consumerMetadata.ts)
    expect(sends(fx)).toEqual(['Metadata→broker-0']);
    // the restarted application's first poll() (the crash forgot the one that waited)
    expect(sends(m.send({ type: 'poll', from: 'c.app', args: {} }, 2))).toEqual(['JoinGroup→group-coordinator']);
    expect(m.state()).toBe('running.membership.PREPARING_REBALANCE|running.fetching.STOPPED');
  });
});

describe('database sink', () => {
  const write = { app: 'billing', eventId: 'e1', key: 'k', value: 'v', topic: 't', partition: 0, offset: 0 };

  it('inbox mode: a second transaction for the same (event_id, consumer) conflicts and writes nothing; the rows survive a crash', () => {
    const m = drive(databaseMachine, { id: 'db', mode: 'inbox' });
    expect(replies(m.send(request('DbTransaction', write), 1))).toEqual([expect.objectContaining({ ok: true, conflict: false })]);
    expect(replies(m.send(request('DbTransaction', { ...write, offset: 1 }), 2))).toEqual([expect.objectContaining({ conflict: true })]);
    m.send({ type: 'crash' }, 3);
    expect(m.state()).toBe('down');
    expect(m.send(request('DbTransaction', write), 4)).toEqual([]);
    m.send({ type: 'restart' }, 5);
    expect(m.state()).toBe('up');
    expect(m.context<{ rows: unknown[] }>().rows).toHaveLength(1);
  });
});

describe('HTTP API sink', () => {
  it('idempotency-key mode: the same key again returns the first charge and charges nothing', () => {
    const m = drive(httpApiMachine, { id: 'api', mode: 'idempotency-key' });
    const charge = { method: 'POST', app: 'billing', eventId: 'e1', idempotencyKey: 'e1' };
    expect(replies(m.send(request('HttpRequest', charge), 1))).toEqual([expect.objectContaining({ status: 201, chargeId: 1 })]);
    expect(replies(m.send(request('HttpRequest', charge), 2))).toEqual([expect.objectContaining({ status: 200, chargeId: 1 })]);
    expect(m.context<{ charges: unknown[] }>().charges).toHaveLength(1);
  });
});

describe('CDC relay (outbox)', () => {
  const input = { self: 'db-relay.app', database: 'db', producer: 'db-relay.producer', client: 'db-relay', topic: 'events' };

  it('polls the outbox after its position, publishes each new row through its producer, then flushes', () => {
    const m = drive(outboxRelayMachine, input);
    m.send({ type: 'boot' }, 0);
    expect(m.state()).toBe('relaying');
    const poll = sent(m.send({ type: 'pollOutbox', key: 'poll', data: {} }, 100), 'DbQuery');
    expect(poll?.payload).toMatchObject({ table: 'outbox', after: 0 });
    const rows = m.send(
      {
        type: 'DbQueryResult',
        from: 'db',
        envelopeId: envelope++,
        inReplyTo: 0,
        payload: { correlationId: poll?.payload.correlationId, rows: [{ id: 0, eventId: 'e1', key: 'k', value: 'v' }] },
      },
      101,
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        type: 'call',
        to: 'db-relay.producer',
        name: 'send',
        args: expect.objectContaining({ topic: 'events', key: 'k' }),
      }),
    );
    const flushed = m.send({ type: 'reply', from: 'db-relay.producer', args: { call: 'send', ok: true, error: null } }, 102);
    expect(flushed).toContainEqual(expect.objectContaining({ type: 'call', name: 'flush' }));
    m.send({ type: 'crash' }, 103);
    expect(m.state()).toBe('down');
  });
});
