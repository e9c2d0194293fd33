/**
 * The application machines on their own: a producing script, and the application loop shared by the
 * consumer application and the Kafka Streams thread — its states, guards and effects.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { advance, answers, failed, nextOffsets, pollOnce, replyOf, sendOffsetsArgs } from '../../src/sim/application/applicationLoop';
import { type ConsumerAppContext, consumerAppGuards, consumerAppMachine } from '../../src/sim/application/consumerApp.machine';
import { producerAppMachine } from '../../src/sim/application/producerApp.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { type StreamThreadContext, streamThreadMachine } from '../../src/sim/streams/streamThread.machine';
import { streamThreadGuards } from '../../src/sim/streams/streamThreadGuards';
import { calls, drive, inputOf } from './harness';

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

describe('the shared application loop (application/applicationLoop.ts)', () => {
  it('commits consumer.position(): "topic-partition" keys parsed at the last dash, with consumer.groupMetadata()', () => {
    expect(nextOffsets({ 'order-results-1': 7, 'in-0': 2 })).toEqual([
      { topic: 'order-results', partition: 1, offset: 7 },
      { topic: 'in', partition: 0, offset: 2 },
    ]);
    expect(sendOffsetsArgs({ groupId: 'g', generationId: 3, memberId: 'm' }, { 'in-0': 2 })).toEqual({
      groupId: 'g',
      generationId: 3,
      memberId: 'm',
      offsets: [{ topic: 'in', partition: 0, offset: 2 }],
    });
    // no group (offsets-in-sink, a fenced member): the coordinator rejects a generation of -1
    expect(sendOffsetsArgs(null, {})).toMatchObject({ groupId: '', generationId: -1, memberId: '' });
  });

  it('guards read a reply: which call, from whom, failed or not; timers and lifecycle events are no replies', () => {
    const ev = { type: 'reply', from: 'c.producer', args: { call: 'commitTransaction', ok: false, error: 'PRODUCER_FENCED' } };
    expect(replyOf(ev)?.call).toBe('commitTransaction');
    expect(answers(ev, 'commitTransaction')).toBe(true);
    expect(answers(ev, 'commitTransaction', 'c.consumer')).toBe(false);
    expect(failed(ev, 'commitTransaction', 'c.producer')).toBe(true);
    expect(failed({ ...ev, args: { call: 'commitTransaction', ok: true } }, 'commitTransaction')).toBe(false);
    expect(replyOf({ type: 'continue' })).toBeNull();
    expect(replyOf({ type: 'reply', args: 'not a reply' })).toBeNull();
  });

  it('poll() is called once until it is answered; each step goes through the queue', () => {
    const d = { consumer: 'c.consumer', pollOutstanding: false, step: 0 };
    const out = new Out();
    pollOnce(d, out);
    pollOnce(d, out);
    expect(out.effects).toEqual([{ type: 'call', to: 'c.consumer', name: 'poll', args: {} }]);
    advance(d, out, 5);
    expect(d.step).toBe(1);
    expect(out.effects[1]).toMatchObject({ type: 'timer', key: 'continue', name: 'continue', delay: 5 });
  });
});

describe('consumer application: the loop as states', () => {
  const scenario = (processing: Record<string, unknown>) => ({
    version: 1,
    seed: 1,
    topics: [{ name: 'in' }, { name: 'out' }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g' }, topics: ['in'], processing }],
  });
  const rec = (offset: number) => ({ topic: 'in', partition: 0, offset, key: 'k', value: 'v', headers: { event_id: `e${offset}` } });
  const reply = (m: ReturnType<typeof drive>, from: string, args: Record<string, unknown>, now = 10) =>
    m.send({ type: 'reply', from, args: { ok: true, error: null, ...args } }, now);
  const step = (m: ReturnType<typeof drive>, now = 10) => m.send({ type: 'continue', key: 'continue', data: {} }, now);
  const batch = {
    call: 'poll',
    records: [rec(0)],
    positions: { 'in-0': 1 },
    groupMetadata: { groupId: 'g', generationId: 1, memberId: 'm' },
  };

  it('at-least-once: polling → processing → committing (commitSync of the next offsets) → polling', () => {
    const m = drive(consumerAppMachine, inputOf(scenario({ mode: 'at-least-once' }), 'c.app'));
    m.send({ type: 'boot' }, 0);
    expect(m.state()).toBe('running.polling');
    reply(m, 'c.consumer', batch);
    expect(m.state()).toBe('running.processing');
    step(m); // process record 0
    step(m); // the beforeCommit point: the plan now stands at commitSync
    expect(m.state()).toBe('running.committing');
    expect(calls(step(m))).toEqual([{ to: 'c.consumer', name: 'commitSync', offsets: [{ topic: 'in', partition: 0, offset: 1 }] }]);
    reply(m, 'c.consumer', { call: 'commitSync' });
    expect(m.state()).toBe('running.processing');
    expect(callsTo(step(m), 'c.consumer')).toEqual(['poll']);
    expect(m.state()).toBe('running.polling');
  });

  it('at-most-once commits before it processes: committing comes first', () => {
    const m = drive(consumerAppMachine, inputOf(scenario({ mode: 'at-most-once' }), 'c.app'));
    m.send({ type: 'boot' }, 0);
    reply(m, 'c.consumer', batch);
    step(m); // beforeCommit
    expect(m.state()).toBe('running.committing');
    expect(callsTo(step(m), 'c.consumer')).toEqual(['commitSync']);
    reply(m, 'c.consumer', { call: 'commitSync' });
    expect(m.state()).toBe('running.processing');
  });

  it('exactly-once: initializing → polling; a failed sendOffsetsToTransaction aborts (guard abortsTransaction), then seekToCommitted', () => {
    const m = drive(
      consumerAppMachine,
      inputOf(scenario({ mode: 'exactly-once', outputTopic: 'out', producerConfig: { 'transactional.id': 't' } }), 'c.app'),
    );
    expect(callsTo(m.send({ type: 'boot' }, 0), 'c.producer')).toEqual(['initTransactions']);
    expect(m.state()).toBe('running.initializing');
    reply(m, 'c.producer', { call: 'initTransactions' });
    expect(m.state()).toBe('running.polling');
    reply(m, 'c.consumer', batch);
    expect(callsTo(step(m), 'c.producer')).toEqual(['beginTransaction']);
    reply(m, 'c.producer', { call: 'beginTransaction' });
    step(m); // process
    expect(callsTo(step(m), 'c.producer')).toEqual(['send']);
    reply(m, 'c.producer', { call: 'send' });
    expect(m.state()).toBe('running.committing');
    expect(calls(step(m))).toEqual([
      {
        to: 'c.producer',
        name: 'sendOffsetsToTransaction',
        groupId: 'g',
        generationId: 1,
        memberId: 'm',
        offsets: [{ topic: 'in', partition: 0, offset: 1 }],
      },
    ]);
    expect(
      callsTo(reply(m, 'c.producer', { call: 'sendOffsetsToTransaction', ok: false, error: 'COORDINATOR_NOT_AVAILABLE' }), 'c.producer'),
    ).toEqual(['abortTransaction']);
    expect(m.state()).toBe('running.aborting');
    expect(callsTo(reply(m, 'c.producer', { call: 'abortTransaction' }), 'c.consumer')).toEqual(['seekToCommitted']);
    expect(m.state()).toBe('running.aborting');
    expect(callsTo(reply(m, 'c.consumer', { call: 'seekToCommitted' }), 'c.consumer')).toEqual(['poll']);
    expect(m.state()).toBe('running.polling');
  });

  it('guard fatalReply: a fenced commitTransaction or a failed initTransactions stops the application', () => {
    const input = inputOf(scenario({ mode: 'exactly-once', outputTopic: 'out', producerConfig: { 'transactional.id': 't' } }), 'c.app');
    const failedInit = drive(consumerAppMachine, input);
    failedInit.send({ type: 'boot' }, 0);
    expect(callsTo(reply(failedInit, 'c.producer', { call: 'initTransactions', ok: false, error: 'X' }), 'c.consumer')).toEqual(['close']);
    expect(failedInit.state()).toBe('stopped');
    const ctx = failedInit.context<ConsumerAppContext>();
    const guard = (call: string, error: string) =>
      consumerAppGuards.fatalReply({
        context: ctx,
        event: { type: 'reply', now: 0, from: 'c.producer', args: { call, ok: false, error } },
      });
    expect(guard('commitTransaction', 'PRODUCER_FENCED')).toBe(true);
    // not fenced: the application aborts instead — InvalidTxnStateException included, a KafkaException
    // the canonical catch block aborts on (the abort then throws only if the producer's error was fatal)
    expect(guard('commitTransaction', 'INVALID_TXN_STATE')).toBe(false);
    // InvalidProducerEpochException is not among the javadoc loop's unrecoverable exceptions: abort
    expect(guard('commitTransaction', 'INVALID_PRODUCER_EPOCH')).toBe(false);
    expect(guard('commitTransaction', 'COORDINATOR_NOT_AVAILABLE')).toBe(false);
    expect(guard('abortTransaction', 'INVALID_TXN_STATE')).toBe(true);
    expect(
      consumerAppGuards.abortsTransaction({
        context: ctx,
        event: {
          type: 'reply',
          now: 0,
          from: 'c.producer',
          args: { call: 'commitTransaction', ok: false, error: 'COORDINATOR_NOT_AVAILABLE' },
        },
      }),
    ).toBe(true);
  });

  it('guard abortsTransaction: a poll() answer of a new generation while a batched transaction is open (onPartitionsRevoked)', () => {
    const input = inputOf(
      scenario({ mode: 'exactly-once', outputTopic: 'out', producerConfig: { 'transactional.id': 't' }, commitIntervalMs: 1000 }),
      'c.app',
    );
    const open = { ...drive(consumerAppMachine, input).context<ConsumerAppContext>(), txnOpen: true, txnGeneration: 1 };
    const answer = (generationId: number) => ({
      type: 'reply' as const,
      now: 0,
      from: 'c.consumer',
      args: { ...batch, ok: true, groupMetadata: { groupId: 'g', generationId, memberId: 'm' } },
    });
    expect(consumerAppGuards.abortsTransaction({ context: open, event: answer(2) })).toBe(true);
    expect(consumerAppGuards.abortsTransaction({ context: open, event: answer(1) })).toBe(false);
    expect(consumerAppGuards.abortsTransaction({ context: { ...open, txnOpen: false }, event: answer(2) })).toBe(false);
  });
});

describe('Kafka Streams thread: the loop as states', () => {
  const scenario = (guarantee: string) => ({
    version: 1,
    seed: 1,
    topics: [{ name: 'in' }, { name: 'out' }],
    clients: [
      {
        id: 'st',
        type: 'streams',
        config: { 'application.id': 'app', 'processing.guarantee': guarantee },
        inputTopic: 'in',
        outputTopic: 'out',
      },
    ],
  });
  const rec = (offset: number, key: string | null = 'k') => ({ topic: 'in', partition: 0, offset, key, value: 'v', headers: {} });
  const reply = (m: ReturnType<typeof drive>, from: string, args: Record<string, unknown>, now = 10) =>
    m.send({ type: 'reply', from, args: { ok: true, error: null, ...args } }, now);
  const step = (m: ReturnType<typeof drive>, now = 10) => m.send({ type: 'continue', key: 'continue', data: {} }, now);
  const answer = (offset: number) => ({
    call: 'poll',
    records: [rec(offset, null)],
    positions: { 'in-0': offset + 1 },
    groupMetadata: { groupId: 'app', generationId: 1, memberId: 'm' },
  });
  /** Boots the thread and restores an empty changelog: it polls. */
  function started(guarantee: string) {
    const m = drive(streamThreadMachine, inputOf(scenario(guarantee), 'st.app'));
    m.send({ type: 'boot' }, 0);
    if (guarantee === 'exactly_once_v2') reply(m, 'st.producer', { call: 'initTransactions' }, 1);
    reply(m, 'st.restore', { call: 'endOffsets', offsets: {} }, 2);
    expect(m.state()).toBe('running.polling');
    return m;
  }

  it('at_least_once: polling → processing → polling, then committing on the thread clock (flush, commitSync) → polling', () => {
    const m = started('at_least_once');
    expect(callsTo(reply(m, 'st.consumer', answer(0), 40000), 'st.producer')).toEqual([]);
    expect(m.state()).toBe('running.processing');
    step(m, 40000); // the dropped record (null key)
    // the commit step: the thread's clock ticked at 30001 (commit.interval.ms 30000 + 1 after the start), so not due yet
    expect(callsTo(step(m, 40000), 'st.producer')).toEqual([]);
    expect(m.state()).toBe('running.processing');
    expect(callsTo(step(m, 40000), 'st.consumer')).toEqual(['poll']);
    expect(m.state()).toBe('running.polling');
    // the next tick (60002): guard commitDueWhilePolling
    expect(callsTo(m.send({ type: 'commitDue', key: 'commitDue', data: {} }, 60002), 'st.producer')).toEqual(['flush']);
    expect(m.state()).toBe('running.committingWhilePolling');
    expect(callsTo(reply(m, 'st.producer', { call: 'flush' }, 60003), 'st.consumer')).toEqual(['commitSync']);
    reply(m, 'st.consumer', { call: 'commitSync' }, 60004);
    expect(m.state()).toBe('running.polling');
  });

  it('at_least_once: a commitSync that fails with CommitFailedException is a TaskMigratedException (close dirty, rejoin); another KafkaException stops the thread; a TimeoutException leaves the offsets', () => {
    const failing = (error: string) => {
      const m = started('at_least_once');
      reply(m, 'st.consumer', answer(0), 40000);
      step(m, 40000);
      step(m, 40000);
      step(m, 40000);
      m.send({ type: 'commitDue', key: 'commitDue', data: {} }, 60002);
      reply(m, 'st.producer', { call: 'flush' }, 60003);
      const fx = reply(m, 'st.consumer', { call: 'commitSync', ok: false, error }, 60004);
      return { m, fx };
    };
    const migrated = failing('CommitFailedException');
    expect(migrated.m.state()).toBe('migrating.resubscribing');
    expect(callsTo(migrated.fx, 'st.consumer')).toEqual(['resubscribe']);
    // the thread dies: it shuts down, closing its clients (streams/shutdown.ts)
    expect(failing('RebalanceInProgressException').m.state()).toBe('shuttingDown.closingProducer');
    expect(failing('TimeoutException').m.state()).toBe('running.polling');
  });

  it('exactly_once_v2: the transaction stays open across polls (pollingInTransaction) until commit.interval.ms', () => {
    const m = started('exactly_once_v2');
    expect(callsTo(reply(m, 'st.consumer', answer(0), 10), 'st.producer')).toEqual(['beginTransaction']);
    reply(m, 'st.producer', { call: 'beginTransaction' }, 10);
    step(m, 10); // drop
    step(m, 10); // the commit step: not due after 10 ms (commit.interval.ms 100)
    expect(m.state()).toBe('running.processing');
    const polled = step(m, 10);
    expect(callsTo(polled, 'st.consumer')).toEqual(['poll']);
    expect(m.state()).toBe('running.pollingInTransaction');
    // commit.interval.ms passes while poll() waits: guard commitDueWhilePolling; flush() first (prepareCommit)
    expect(callsTo(m.send({ type: 'commitDue', key: 'commitDue', data: {} }, 200), 'st.producer')).toEqual(['flush']);
    expect(m.state()).toBe('running.committingWhilePolling');
    // a batch arrives meanwhile: it waits for the commit, then begins a new transaction
    reply(m, 'st.consumer', { ...answer(1), call: 'poll' }, 201);
    expect(m.state()).toBe('running.committingBeforeBatch');
    expect(callsTo(reply(m, 'st.producer', { call: 'flush' }, 201), 'st.producer')).toEqual(['sendOffsetsToTransaction']);
    expect(callsTo(reply(m, 'st.producer', { call: 'sendOffsetsToTransaction' }, 202), 'st.producer')).toEqual(['commitTransaction']);
    expect(callsTo(reply(m, 'st.producer', { call: 'commitTransaction' }, 203), 'st.producer')).toEqual(['beginTransaction']);
    expect(m.state()).toBe('running.processing');
  });

  it('guards taskMigrated and streamsException: a fenced commit migrates the task, another error stops the thread', () => {
    const g = streamThreadGuards;
    const context = drive(streamThreadMachine, inputOf(scenario('exactly_once_v2'), 'st.app')).context<StreamThreadContext>();
    const failure = (call: string, error: string, from = 'st.producer') => ({
      context,
      event: { type: 'reply' as const, now: 0, from, args: { call, ok: false, error } },
    });
    expect(g.taskMigrated(failure('commitTransaction', 'PRODUCER_FENCED'))).toBe(true);
    expect(g.streamsException(failure('commitTransaction', 'PRODUCER_FENCED'))).toBe(false);
    expect(g.streamsException(failure('commitTransaction', 'INVALID_RECORD'))).toBe(true);
    // only the producer's answers, and only the calls of the task
    expect(g.taskMigrated(failure('commitTransaction', 'PRODUCER_FENCED', 'st.consumer'))).toBe(false);
    expect(g.taskMigrated(failure('abortTransaction', 'PRODUCER_FENCED'))).toBe(false);
  });
});
