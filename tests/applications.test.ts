/**
 * Consumer applications and the systems outside Kafka, handler by handler: an application that has
 * not started yet, the offsets-in-sink rebalance listener, the database's offsets-in-db transaction,
 * the outbox relay after a lost database connection, and the kernel's start of a process that was
 * down at its start time.
 */

import { describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { handle } from '../src/sim/actors/out';
import { type ConsumerAppContext, consumerAppMachine } from '../src/sim/application/consumerApp.machine';
import type { Effect } from '../src/sim/kernel/effects';
import { Simulation } from '../src/sim/kernel/simulation';
import { type DatabaseContext, databaseMachine } from '../src/sim/sinks/database.machine';
import { outboxRelayMachine, RELAY_DB_TIMEOUT_MS } from '../src/sim/sinks/outboxRelay.machine';

type Send = Extract<Effect, { type: 'send' }>;
type Call = Extract<Effect, { type: 'call' }>;
type Timer = Extract<Effect, { type: 'timer' }>;

function run<T>(machine: T, input: unknown) {
  const effects: Effect[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: each machine has its own input type
  const actor = createActor(machine as any, { input } as any);
  actor.on('*', (e) => effects.push(e as Effect));
  actor.start();
  const send = (ev: Record<string, unknown>) => actor.send(ev as never);
  return { actor, effects, send };
}

describe('a consumer application', () => {
  const input = {
    self: 'c.app',
    consumer: 'c.consumer',
    producer: null,
    client: 'c',
    mode: 'offsets-in-sink' as const,
    sink: { id: 'db', type: 'database' as const, mode: 'offsets-in-db' },
    outputTopic: null,
    processingMs: 1,
  };

  it('that has not started yet ignores a crash and restart of its process, and starts at its boot', () => {
    const a = run(consumerAppMachine, input);
    a.send({ type: 'crash' });
    a.send({ type: 'restart', now: 100, from: 'c', args: {} });
    expect(a.actor.getSnapshot().value).toBe('idle');
    expect(a.effects).toEqual([]);
    a.send({ type: 'boot', now: 2000 });
    expect(a.actor.getSnapshot().value).toEqual({ running: 'polling' });
    expect(a.effects.find((e): e is Call => e.type === 'call')?.name).toBe('poll');
  });

  it('offsets-in-sink: onPartitionsAssigned reads the database and seeks the assigned partitions to the stored offsets', () => {
    const a = run(consumerAppMachine, input);
    a.send({ type: 'boot', now: 0 });
    a.send({ type: 'onPartitionsAssigned', now: 3000, from: 'c.consumer', args: { partitions: [{ topic: 'orders', partition: 1 }] } });
    const query = a.effects.find((e): e is Send => e.type === 'send' && e.rpc === 'DbQuery');
    expect(query?.payload).toMatchObject({ table: 'consumer_offsets' });
    a.send({
      type: 'DbQueryResult',
      now: 3002,
      from: 'db',
      envelopeId: 1,
      inReplyTo: 0,
      payload: { correlationId: query?.payload.correlationId, ok: true, offsets: { 'orders-0': 4, 'orders-1': 9 } },
    });
    const done = a.effects.find((e): e is Call => e.type === 'call' && e.name === 'partitionsAssignedDone');
    expect(done?.args).toEqual({ offsets: { 'orders-1': 9 } });
  });

  it('offsets-in-sink: asks the database again when it is unreachable', () => {
    const a = run(consumerAppMachine, input);
    a.send({ type: 'boot', now: 0 });
    a.send({ type: 'onPartitionsAssigned', now: 3000, from: 'c.consumer', args: { partitions: [{ topic: 'orders', partition: 0 }] } });
    const query = a.effects.find((e): e is Send => e.type === 'send' && e.rpc === 'DbQuery');
    a.send({ type: 'disconnected', now: 3001, envelopeId: 0, to: 'db', rpc: 'DbQuery', payload: query?.payload, timedOut: false });
    const retry = a.effects.filter((e): e is Timer => e.type === 'timer' && e.name === 'dbTimeout').pop();
    expect(retry?.delay).toBe(100);
    a.send({ type: 'dbTimeout', now: 3101, key: 'db', data: {} });
    expect(a.effects.filter((e) => e.type === 'send' && e.rpc === 'DbQuery')).toHaveLength(2);
    expect((a.actor.getSnapshot().context as ConsumerAppContext).listenerQuery).not.toBeNull();
  });
});

describe('the database, offsets-in-db', () => {
  it('writes nothing for a record below the stored offset (its transaction was applied before)', () => {
    const db = run(databaseMachine, { id: 'db', mode: 'offsets-in-db' });
    const write = (correlationId: number, offset: number) =>
      db.send({
        type: 'DbTransaction',
        now: 10,
        from: 'c.app',
        envelopeId: correlationId,
        inReplyTo: null,
        payload: { correlationId, app: 'c', eventId: `e${offset}`, key: null, value: 'v', topic: 'orders', partition: 0, offset },
      });
    write(1, 0);
    write(2, 1);
    write(3, 1);
    const ctx = db.actor.getSnapshot().context as DatabaseContext;
    expect(ctx.rows.map((r) => r.eventId)).toEqual(['e0', 'e1']);
    expect(ctx.offsets).toEqual({ 'orders-0': 2 });
  });
});

describe('the outbox relay', () => {
  const input = { self: 'r.app', database: 'db', producer: 'r.producer', client: 'r', topic: 'events' };

  it('reconnects after a refused connection and resumes polling', () => {
    const r = run(outboxRelayMachine, input);
    r.send({ type: 'boot', now: 0 });
    const first = r.effects.find((e): e is Send => e.type === 'send' && e.rpc === 'DbQuery');
    r.send({ type: 'disconnected', now: 1, envelopeId: 0, to: 'db', rpc: 'DbQuery', payload: first?.payload });
    const reconnect = r.effects.find((e): e is Timer => e.type === 'timer' && e.name === 'reconnect');
    expect(reconnect?.delay).toBe(100);
    r.send({ type: 'reconnect', now: 101, key: 'reconnect', data: {} });
    const again = r.effects.filter((e): e is Send => e.type === 'send' && e.rpc === 'DbQuery').pop();
    expect(again?.payload).toMatchObject({ table: 'relay-position' });
    r.send({
      type: 'DbQueryResult',
      now: 102,
      from: 'db',
      envelopeId: 1,
      inReplyTo: 0,
      payload: { correlationId: again?.payload.correlationId, position: 0 },
    });
    r.send({ type: 'pollOutbox', now: 102, key: 'poll', data: {} });
    const poll = r.effects.filter((e): e is Send => e.type === 'send' && e.rpc === 'DbQuery').pop();
    expect(poll?.payload).toMatchObject({ table: 'outbox', after: 0 });
    // the database goes down while the relay polls: it polls again after the interval
    r.send({ type: 'disconnected', now: 103, envelopeId: 2, to: 'db', rpc: 'DbQuery', payload: poll?.payload });
    expect(r.effects.filter((e): e is Timer => e.type === 'timer' && e.name === 'pollOutbox').pop()?.delay).toBe(100);
  });

  it('asks again when an answer does not come within its timeout', () => {
    const r = run(outboxRelayMachine, input);
    r.send({ type: 'boot', now: 0 });
    // the request carries its timeout; the network completes it as a timed-out disconnect
    const first = r.effects.find((e): e is Send => e.type === 'send' && e.rpc === 'DbQuery');
    expect(first?.timeoutMs).toBe(RELAY_DB_TIMEOUT_MS);
    r.send({
      type: 'disconnected',
      now: RELAY_DB_TIMEOUT_MS,
      envelopeId: 0,
      to: 'db',
      rpc: 'DbQuery',
      payload: first?.payload,
      timedOut: true,
    });
    expect(r.effects.some((e) => e.type === 'timer' && e.name === 'reconnect')).toBe(true);
  });
});

describe('the kernel: a process down at its start time', () => {
  const starter = setup({ types: {} as { context: { started: number[] }; events: { type: string; now?: number } } }).createMachine({
    context: { started: [] },
    initial: 'waiting',
    states: {
      waiting: {
        on: {
          boot: {
            target: 'running',
            actions: handle((c: { started: number[] }, e: { now: number }) => ({ started: [...c.started, e.now] })),
          },
        },
      },
      running: {},
    },
  });
  const options = {
    seed: 1,
    network: { latencyMs: 1, jitterMs: 0, links: [] },
    checkpointEvery: 256,
    maxSteps: 1000,
    maxTimeMs: 100000,
    settleMs: 10,
    settleMsWhileDown: 10,
    settleMsAfterFault: 10,
    record: true,
  };

  it('a timer held while its process is paused can still be cancelled once it resumes', () => {
    const timers = setup({ types: {} as { context: { fired: string[] }; events: { type: string; now?: number } } }).createMachine({
      context: { fired: [] },
      on: {
        boot: {
          actions: handle((c: { fired: string[] }, _e: unknown, out) => {
            out.timer('b', 'cancelA', 90);
            out.timer('a', 'fireA', 100);
            return c;
          }),
        },
        cancelA: {
          actions: handle((c: { fired: string[] }, _e: unknown, out) => {
            out.cancel('a');
            return { fired: [...c.fired, 'cancelA'] };
          }),
        },
        fireA: { actions: handle((c: { fired: string[] }) => ({ fired: [...c.fired, 'fireA'] })) },
      },
    });
    const sim = Simulation.create([{ id: 'p.app', kind: 'test', logic: timers, input: {}, boot: true }], {
      ...options,
      faults: [
        { kind: 'timed', id: 0, at: 50, process: 'p', label: 'pause p', action: { type: 'pause' } },
        { kind: 'timed', id: 1, at: 200, process: 'p', label: 'resume p', action: { type: 'resume' } },
      ],
    } as never);
    sim.run();
    expect((sim.actorSnapshots().get('p.app')?.context as { fired: string[] }).fired).toEqual(['cancelA']);
    expect(sim.stopReason).not.toBe('max-time');
  });

  it('starts when it is restarted, not while it is down', () => {
    const sim = Simulation.create([{ id: 'p.app', kind: 'test', logic: starter, input: {}, boot: true, bootAt: 2000 }], {
      ...options,
      faults: [
        { kind: 'timed', id: 0, at: 1000, process: 'p', label: 'crash p', action: { type: 'crash' } },
        { kind: 'timed', id: 1, at: 5000, process: 'p', label: 'restart p', action: { type: 'restart' } },
      ],
    } as never);
    sim.run();
    const ctx = sim.actorSnapshots().get('p.app')?.context as { started: number[] };
    expect(ctx.started).toEqual([5000]);
  });
});
