/** The application machines on their own: a producing script and the consumer application's loop. */
import { describe, expect, it } from 'vitest';
import { consumerAppMachine } from '../../src/sim/application/consumerApp.machine';
import { producerAppMachine } from '../../src/sim/application/producerApp.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf } from './harness';

const callsTo = (fx: readonly Effect[], to: string) => fx.flatMap((e) => (e.type === 'call' && e.to === to ? [e.name] : []));
const timers = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'timer' ? [e.name] : []));

describe('producer application', () => {
  const scenario = {
    version: 1,
    seed: 1,
    topics: [{ name: 't' }],
    clients: [
      {
        id: 'p',
        type: 'producer',
        config: { 'transactional.id': 'tx' },
        script: [{ op: 'beginTransaction' }, { op: 'send', topic: 't', key: 'k', value: 'v' }, { op: 'commitTransaction' }],
      },
    ],
  };

  it('runs its script through its KafkaProducer: initTransactions() first, each call after the reply of the one before', () => {
    const m = drive(producerAppMachine, inputOf(scenario, 'p.app'));
    const boot = m.send({ type: 'boot' }, 0);
    expect(m.state()).toBe('running');
    expect(callsTo(boot, 'p.producer')).toEqual(['initTransactions']);
    // the reply schedules the next operation at once (a timer, so a crash can land between operations)
    const next = m.send({ type: 'reply', from: 'p.producer', args: { call: 'initTransactions', ok: true, error: null } }, 1);
    expect(timers(next)).toEqual(['runNext']);
    expect(callsTo(m.send({ type: 'runNext', key: 'next', data: {} }, 1), 'p.producer')).toEqual(['beginTransaction']);
  });

  it('running → down on a crash; restart runs again', () => {
    const m = drive(producerAppMachine, inputOf(scenario, 'p.app'));
    m.send({ type: 'boot' }, 0);
    m.send({ type: 'crash' }, 1);
    expect(m.state()).toBe('down');
    m.send({ type: 'restart' }, 2);
    expect(m.state()).toBe('running');
  });
});

describe('consumer application', () => {
  const scenario = {
    version: 1,
    seed: 1,
    topics: [{ name: 't' }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g' }, topics: ['t'] }],
  };

  it('starts its loop by polling its KafkaConsumer; a crash forgets the batch in hand', () => {
    const m = drive(consumerAppMachine, inputOf(scenario, 'c.app'));
    const boot = m.send({ type: 'boot' }, 0);
    expect(m.state()).toBe('running.polling');
    const polled = [
      ...callsTo(boot, 'c.consumer'),
      ...(timers(boot).includes('continue') ? callsTo(m.send({ type: 'continue', key: 'loop', data: {} }, 0), 'c.consumer') : []),
    ];
    expect(polled).toContain('poll');
    m.send({ type: 'crash' }, 1);
    expect(m.state()).toBe('down');
    expect(m.context<{ batch: unknown[]; plan: unknown[] }>()).toMatchObject({ batch: [], plan: [] });
  });
});
