/** The consumer client's group membership, and the systems outside Kafka, each machine on its own. */
import { describe, expect, it } from 'vitest';
import { consumerMachine } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { databaseMachine } from '../../src/sim/sinks/database.machine';
import { httpApiMachine } from '../../src/sim/sinks/httpApi.machine';
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

  it('joining → syncing → stable: JoinGroup, its answer, SyncGroup and the assignment; then it fetches its positions', () => {
    const m = drive(consumerMachine, inputOf(scenario, 'c.consumer'));
    const boot = m.send({ type: 'boot' }, 0);
    expect(m.state()).toBe('joining');
    const join = sent(boot, 'JoinGroup');
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
    expect(m.state()).toBe('syncing');
    const sync = sent(joined, 'SyncGroup');
    expect(sync?.payload).toMatchObject({ groupId: 'g', generationId: 1, memberId: 'c-0' });
    const synced = m.send(
      answer('SyncGroupResponse', 'group-coordinator', sync?.payload.correlationId as number, {
        error: 'NONE',
        assignment: [{ topic: 't', partition: 0 }],
      }),
      20,
    );
    expect(m.state()).toBe('stable');
    // the committed offsets of the new assignment are asked for first (OffsetFetch)
    expect(sends(synced)).toContain('OffsetFetch→group-coordinator');
  });

  it('a crash forgets the membership; restart joins again', () => {
    const m = drive(consumerMachine, inputOf(scenario, 'c.consumer'));
    m.send({ type: 'boot' }, 0);
    m.send({ type: 'crash' }, 1);
    expect(m.state()).toBe('down');
    const fx = m.send({ type: 'restart' }, 2);
    expect(m.state()).toBe('joining');
    expect(sends(fx)).toEqual(['JoinGroup→group-coordinator']);
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
