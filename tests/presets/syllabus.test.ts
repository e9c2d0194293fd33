/**
 * The syllabus presets (issue 19), run end to end: what each shows beyond its verdict — the values a
 * counter or a Streams task ends with, the notes that make a reordering or a forgotten id visible,
 * who is fenced and why.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { stateAt } from '../../src/sim/run';
import type { DatabaseContext } from '../../src/sim/sinks/database.machine';
import { runPreset, runWith } from './helpers';

const notes = (run: ReturnType<typeof runPreset>, pattern: RegExp) => run.facts('note').filter((n) => pattern.test(n.text));

describe('the syllabus presets', () => {
  it('counter-set-vs-incr: SET ends at the true count 3, INCR at 4', () => {
    const run = runPreset('counter-set-vs-incr');
    const end = stateAt(run.trace, run.trace.steps.length);
    const counters = (id: string) => (end.actors.get(id)?.context as DatabaseContext).counters;
    expect(counters('set-store')).toEqual({ 'post-7': '3' });
    expect(counters('incr-store')).toEqual({ 'post-7': '4' });
    expect(run.summary.sideEffects.filter((e) => e.sink === 'set-store' && !e.applied).map((e) => e.eventId)).toEqual(['like-2']);
  });

  it('late-duplicate-after-expiry: the one-minute duplicate is absorbed, the six-minute one passes both the inbox and the API', () => {
    const run = runPreset('late-duplicate-after-expiry');
    const effects = (sink: string) => run.summary.sideEffects.filter((e) => e.sink === sink).map((e) => [e.effect, e.eventId]);
    expect(effects('ledger-db')).toEqual([
      ['insert row', 'evt-1'],
      ['insert row', 'evt-2'],
      ['inbox conflict', 'evt-2'],
      ['insert row', 'evt-1'],
    ]);
    expect(effects('payment-api')).toEqual([
      ['payment charged', 'evt-1'],
      ['payment charged', 'evt-2'],
      ['idempotent replay', 'evt-2'],
      ['payment charged', 'evt-1'],
    ]);
    expect(notes(run, /deleted after the inbox retention of 300000 ms/)).toHaveLength(1);
    expect(notes(run, /^Idempotency-Key evt-1 was stored at \d+ ms and expired after 300000 ms/)).toHaveLength(1);
  });

  it('retry-mints-new-event-id: the same payload twice under two event_ids, both inserted by the inbox', () => {
    const run = runPreset('retry-mints-new-event-id');
    const records = run.data('orders-0');
    expect(records.map((r) => r.value)).toEqual([
      '{"type":"OrderCreated","orderId":"order-123"}',
      '{"type":"OrderCreated","orderId":"order-123"}',
    ]);
    expect(records[0]?.headers.event_id).toBe('evt-789');
    expect(records[1]?.headers.event_id).toBe('036d7bee-289a-47fd-8b97-6fddbda20242');
    expect(run.summary.sideEffects.map((e) => e.effect)).toEqual(['insert row', 'insert row']);
  });

  it('rekey-by-event-id: order-reader sees every order in order, event-reader reports four out-of-order events', () => {
    const run = runPreset('rekey-by-event-id');
    expect(notes(run, /^out of order/).every((n) => n.actor === 'event-reader.app')).toBe(true);
    expect(notes(run, /^out of order/).map((n) => n.text)).toEqual([
      'out of order: order_id order-1 seq 0 (evt-100, orders-by-event-2) arrived after seq 2',
      'out of order: order_id order-1 seq 1 (evt-101, orders-by-event-2) arrived after seq 2',
      'out of order: order_id order-2 seq 0 (evt-200, orders-by-event-2) arrived after seq 2',
      'out of order: order_id order-2 seq 1 (evt-201, orders-by-event-2) arrived after seq 2',
    ]);
    // keyed by order_id, each order lives in one partition
    const partitionsOf = (topic: string, order: string) =>
      new Set(
        run
          .received(topic === 'orders-by-order' ? 'order-reader' : 'event-reader')
          .filter((r) => r.headers.order_id === order)
          .map((r) => r.partition),
      );
    expect(partitionsOf('orders-by-order', 'order-1').size).toBe(1);
    expect(partitionsOf('orders-by-event', 'order-1').size).toBeGreaterThan(1);
  });

  it('business-id-is-not-transactional-id: the header is never read; only transactional.id fences', () => {
    const run = runPreset('business-id-is-not-transactional-id');
    const records = run.data('payments-0');
    expect(records.every((r) => r.headers.transaction_id === 'payment-123')).toBe(true);
    expect(records).toHaveLength(5);
    expect(run.errors('payments-a')).toContain('PRODUCER_FENCED');
    expect(run.errors('refunds')).toEqual([]);
    expect(run.layer('log', 'payments')?.sentence).toContain('both with transactional.id payment-tx');
  });

  it('eos-auto-commit-rebalance: onJoinPrepare commits offset 5 outside the transaction, then the transaction aborts', () => {
    const run = runPreset('eos-auto-commit-rebalance');
    const commits = run.facts('offsetsCommitted').filter((c) => c.groupId === 'settler');
    const first = commits[0];
    expect(first).toMatchObject({ transactional: false, generationId: 1, offsets: [{ topic: 'payments', partition: 0, offset: 5 }] });
    // when its transaction falls due, consumer.groupMetadata() names generation 2: onPartitionsRevoked aborts it
    // (no sendOffsetsToTransaction of generation 1, so no CommitFailedException)
    expect(notes(run, /^onPartitionsRevoked: generation 1 ended while the transaction was open/).map((n) => n.actor)).toEqual([
      'settler-b.app',
    ]);
    expect(run.errors('settler-b')).not.toContain('CommitFailedException');
    // settler-a starts at the auto-committed offset: evt-1 … evt-5 are never processed again
    expect(run.received('settler-a')[0]?.offset).toBe(5);
    expect(run.layer('loss')?.status).toBe('lost');
    // the same run with enable.auto.commit=false: the group offset stays behind the aborted records, nothing is lost
    const scenario = JSON.parse(JSON.stringify(findPreset('eos-auto-commit-rebalance')?.scenario));
    for (const c of scenario.clients) if (c.processing?.mode === 'exactly-once') c.config['enable.auto.commit'] = false;
    const off = runWith(scenario);
    expect(off.layer('loss')?.status).toBe('once');
    expect(off.layer('output', 'settlements')?.status).toBe('once');
  });

  it('streams-task-migration: counter-b restores the changelog and the committed counts come out right', () => {
    const run = runPreset('streams-task-migration');
    // page-views-0's task is created (and restored) at each assignment that brings it to an instance
    // that has none: counter-a's first, counter-b's when counter-a is dropped — and not counter-a's
    // after its rejoin: Streams' sticky COOPERATIVE assignor leaves the task with counter-b, its owner
    expect(notes(run, /^task for page-views-0 newly assigned/).map((n) => n.actor)).toEqual(['counter-a.app', 'counter-b.app']);
    expect(notes(run, /^state store restored/).find((n) => n.actor === 'counter-b.app' && /1 changelog record/.test(n.text))).toBeDefined();
    // the committed output: each view's count once, and the counts are the true ones
    const committed = run.data('view-counts-0').filter((r) => r.txnOutcome === 'committed');
    expect(committed.map((r) => `${r.headers.event_id}:${r.key}=${r.value}`)).toEqual([
      'view-1:page-a=1',
      'view-2:page-b=1',
      'view-3:page-a=2',
      'view-4:page-a=3',
      'view-5:page-b=2',
    ]);
    // the group dropped counter-a (its heartbeat), and its commit's flush meets the epoch the timeout
    // bumped: the changelog and output Produce are refused, so no TxnOffsetCommit goes out
    expect(run.errors('counter-a')).toEqual(expect.arrayContaining(['UNKNOWN_MEMBER_ID', 'INVALID_PRODUCER_EPOCH']));
    expect(run.errors('counter-a')).not.toContain('PRODUCER_FENCED');
    expect(run.errors('counter-a')).not.toContain('CommitFailedException');
    expect(notes(run, /^TaskMigratedException/).map((n) => n.actor)).toEqual(['counter-a.app']);
  });
});
