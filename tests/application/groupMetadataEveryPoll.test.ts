/**
 * consumer.groupMetadata() and the revocation check follow every poll(), whether or not it returned
 * records. Kafka: KafkaConsumer.groupMetadata() (ClassicKafkaConsumer) is a getter of
 * ConsumerCoordinator.groupMetadata, which only ConsumerCoordinator.onJoinComplete sets — when a
 * SyncGroup succeeds, inside poll() (AbstractCoordinator.joinGroupIfNeeded) — and the rebalance
 * listener runs inside that same poll() (onJoinPrepare, onJoinComplete), records or none.
 */
import { describe, expect, it } from 'vitest';
import { consumerAppMachine } from '../../src/sim/application/consumerApp.machine';
import type { ConsumerAppContext } from '../../src/sim/application/consumerAppContext';
import type { Effect } from '../../src/sim/kernel/effects';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { exactlyOnceAppInput } from '../fixtures/consumerAppInput';
import { answer, joinedAsLeader, sent, synced } from '../machines/consumerDriver';
import { type Driven, drive, inputOf } from '../machines/harness';

const meta = (generationId: number, memberId = 'c-0') => ({ groupId: 'g', generationId, memberId });
const rec = (offset: number) => ({ topic: 'in', partition: 0, offset, key: 'k', value: 'v', headers: { event_id: `e${offset}` } });
const callsOf = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' ? [e.name] : []));
const argsOf = (fx: readonly Effect[], name: string) =>
  fx.flatMap((e) => (e.type === 'call' && e.name === name ? [e.args as Record<string, unknown>] : [])).pop();
type Note = Extract<Fact, { kind: 'note' }>;
const isNote = (f: unknown): f is Note => (f as Fact).kind === 'note';
const notes = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'fact' && isNote(e.fact) ? [e.fact.text] : []));

describe('the consumer: groupMetadata() is what the last completed rebalance (onJoinComplete) left', () => {
  const scenario = {
    version: 1,
    seed: 1,
    topics: [{ name: 't' }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g' }, topics: ['t'] }],
  };
  const getter = (m: Driven) => argsOf(m.send({ type: 'groupMetadata', from: 'c.app', args: {} }, 30), 'reply');

  it('answers the getter in any state; a JoinGroup answer does not change it, a SyncGroup success does, an error reset does not', () => {
    const { m, sync } = joinedAsLeader(inputOf(scenario, 'c.consumer'));
    // JoinGroup answered generation 1, SyncGroup in flight: still the constructor's (UNKNOWN_GENERATION_ID, no member id)
    expect(m.state()).toContain('COMPLETING_REBALANCE');
    expect(getter(m)).toEqual({ call: 'groupMetadata', ok: true, groupMetadata: { groupId: 'g', generationId: -1, memberId: '' } });
    synced(m, sync, [{ topic: 't', partition: 0 }]);
    expect(getter(m)?.groupMetadata).toEqual(meta(1));
    // a heartbeat answered ILLEGAL_GENERATION resets the member's generation (it rejoins); groupMetadata() keeps generation 1
    const heartbeat = sent(m.send({ type: 'heartbeatDue', key: 'heartbeat', data: {} }, 3020), 'Heartbeat');
    m.send(answer('HeartbeatResponse', heartbeat?.payload.correlationId as number, { error: 'ILLEGAL_GENERATION' }), 3022);
    expect(m.context<{ generationId: number }>().generationId).toBe(-1);
    expect(getter(m)?.groupMetadata).toEqual(meta(1));
  });
});

describe('the consumer application: groupMetadata and the revocation check on every poll()', () => {
  const input = exactlyOnceAppInput;
  const reply = (m: Driven, now: number, args: Record<string, unknown>) =>
    m.send({ type: 'reply', from: 'x', args: { ok: true, ...args } }, now);
  const ctx = (m: Driven) => m.context<ConsumerAppContext>();

  /** poll() brings in-0's first record at 100 ms in `generation`; the application begins its transaction, processes and sends it (103 ms). */
  const processFirstRecord = (m: Driven, generation: number) => {
    reply(m, 100, { call: 'poll', records: [rec(0)], groupMetadata: meta(generation), positions: { 'in-0': 1 } });
    m.send({ type: 'continue' }, 100); // beginTransaction
    reply(m, 101, { call: 'beginTransaction' });
    m.send({ type: 'continue' }, 101); // process
    m.send({ type: 'continue' }, 102); // produce
    reply(m, 103, { call: 'send' });
  };

  /** A batched application (commitIntervalMs 5000) with a transaction open on generation 1, waiting in poll(). */
  function openTransaction(): Driven {
    const m = drive(consumerAppMachine, { ...input, commitIntervalMs: 5000 });
    m.send({ type: 'boot' }, 0);
    reply(m, 1, { call: 'initTransactions' });
    processFirstRecord(m, 1);
    m.send({ type: 'continue' }, 103); // not due yet: poll() again, inside the transaction
    expect(ctx(m)).toMatchObject({ txnOpen: true, txnGeneration: 1, pollOutstanding: true });
    return m;
  }

  it('a poll() that returns nothing (markers only) after a rebalance aborts the open transaction: onPartitionsRevoked ran inside it', () => {
    const m = openTransaction();
    const fx = reply(m, 3000, { call: 'poll', records: [], groupMetadata: meta(2), positions: { 'in-0': 2 } });
    expect(callsOf(fx)).toEqual(['abortTransaction']);
    expect(notes(fx)).toEqual([
      'onPartitionsRevoked: generation 1 ended while the transaction was open; the application aborts it so that the new owner processes its records from the committed offsets',
    ]);
    expect(m.state()).toBe('running.aborting');
    expect(ctx(m).groupMetadata).toEqual(meta(2));
  });

  it('an empty poll() of the same generation changes nothing but polls again', () => {
    const m = openTransaction();
    const fx = reply(m, 3000, { call: 'poll', records: [], groupMetadata: meta(1), positions: { 'in-0': 2 } });
    expect(callsOf(fx)).toEqual(['poll']);
    expect(ctx(m)).toMatchObject({ txnOpen: true, plan: [] });
  });

  it('the interval passing while it waits in poll(): it reads consumer.groupMetadata() and aborts if a rebalance came in between', () => {
    const m = openTransaction();
    expect(callsOf(m.send({ type: 'txnCommitDue', key: 'txnCommitDue', data: {} }, 5101))).toEqual(['groupMetadata']);
    const fx = reply(m, 5101, { call: 'groupMetadata', groupMetadata: meta(2) });
    // no sendOffsetsToTransaction with generation 1: the partitions were revoked, the transaction aborts
    expect(callsOf(fx)).toEqual(['abortTransaction']);
    expect(notes(fx)[0]).toMatch(/^onPartitionsRevoked: generation 1 ended while the transaction was open/);
    expect(m.state()).toBe('running.aborting');
  });

  it('the interval passing while it waits in poll(), same generation: sendOffsetsToTransaction with what groupMetadata() answers now', () => {
    const m = openTransaction();
    m.send({ type: 'txnCommitDue', key: 'txnCommitDue', data: {} }, 5101);
    const fx = reply(m, 5101, { call: 'groupMetadata', groupMetadata: meta(1, 'c-0') });
    expect(callsOf(fx)).toEqual(['sendOffsetsToTransaction']);
    expect(argsOf(fx, 'sendOffsetsToTransaction')).toMatchObject({ groupId: 'g', generationId: 1, memberId: 'c-0' });
    expect(m.state()).toBe('running.committing');
  });

  it('one transaction per poll(): an empty poll() begins and commits nothing, and the next batch sends its own poll()s metadata', () => {
    const m = drive(consumerAppMachine, input);
    m.send({ type: 'boot' }, 0);
    reply(m, 1, { call: 'initTransactions' });
    expect(callsOf(reply(m, 50, { call: 'poll', records: [], groupMetadata: meta(1), positions: { 'in-0': 0 } }))).toEqual(['poll']);
    expect(ctx(m).groupMetadata).toEqual(meta(1));
    processFirstRecord(m, 2);
    const fx = m.send({ type: 'continue' }, 103);
    expect(argsOf(fx, 'sendOffsetsToTransaction')).toMatchObject({ generationId: 2 });
  });
});

describe('eos-auto-commit-rebalance: settler-b never sends the generation its consumer has left', () => {
  it('its transaction falls due after the rebalance to generation 2: it aborts on onPartitionsRevoked, no TxnOffsetCommit with generation 1', () => {
    const preset = findPreset('eos-auto-commit-rebalance');
    if (!preset) throw new Error('no preset');
    const trace = runScenario(preset.scenario);
    const txnOffsetCommits: Record<string, unknown>[] = [];
    for (let i = 0; i < trace.envelopes.length; i++) {
      const e = trace.envelopes.at(i);
      if (e?.rpc === 'TxnOffsetCommit' && String(e.from).startsWith('settler-b')) txnOffsetCommits.push(trace.payloadOf(e.id) ?? {});
    }
    expect(txnOffsetCommits.filter((p) => p.generationId === 1)).toEqual([]);
    const texts = trace.steps.flatMap((s) => s.facts).flatMap((f) => (isNote(f) && f.actor === 'settler-b.app' ? [f.text] : []));
    expect(texts.some((t) => t.startsWith('onPartitionsRevoked: generation 1 ended while the transaction was open'))).toBe(true);
  });
});
