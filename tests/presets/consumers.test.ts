/** The [consumers] presets: each verdict asserted, layer by layer. */

import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { storeOf } from '../streams/storeOf';
import { runPreset } from './helpers';

const event = (r: ReturnType<typeof runPreset>, id: string) => r.summary.verdict.events.find((e) => e.eventId === id);

describe('consumer presets', () => {
  it('at-most-once-consumer-crash: commit first, crash after the first record: the rest is lost', () => {
    const r = runPreset('at-most-once-consumer-crash');
    expect(event(r, 'evt-1')?.processed).toEqual({ billing: 1 });
    expect(event(r, 'evt-2')?.processed).toEqual({});
    expect(event(r, 'evt-3')?.processed).toEqual({});
    expect(r.layer('loss')).toMatchObject({ status: 'lost' });
    expect(r.summary.groups.find((g) => g.groupId === 'billing')?.committed['orders-0']).toBe(3);
  });

  it('at-least-once-consumer-crash: process, crash before commit: evt-1 and evt-2 processed twice, nothing lost', () => {
    const r = runPreset('at-least-once-consumer-crash');
    expect(event(r, 'evt-1')?.processed).toEqual({ billing: 2 });
    expect(event(r, 'evt-2')?.processed).toEqual({ billing: 2 });
    expect(event(r, 'evt-3')?.processed).toEqual({ billing: 1 });
    expect(r.layer('loss')?.status).toBe('once');
  });

  it('ctp-without-transactions-crash: every output committed twice, visible to read_committed', () => {
    const r = runPreset('ctp-without-transactions-crash');
    for (const id of ['evt-1', 'evt-2', 'evt-3']) expect(event(r, id)).toMatchObject({ committedOutput: 2, outputAll: 2 });
    expect(r.received('auditor')).toHaveLength(6);
    expect(r.layer('output')?.status).toBe('more-than-once');
  });

  it('ctp-exactly-once-crash: processed twice, committed output once; ABORT markers on the output and on __consumer_offsets', () => {
    const r = runPreset('ctp-exactly-once-crash');
    for (const id of ['evt-1', 'evt-2', 'evt-3']) {
      expect(event(r, id)?.processed.enricher).toBe(2);
      expect(event(r, id)?.committedOutput).toBe(1);
    }
    expect(r.layer('output')?.status).toBe('once');
    expect(r.data('order-results-0').filter((x) => x.txnOutcome === 'aborted')).toHaveLength(3);
    const offsetsMarkers = r.summary.partitions
      .filter((p) => p.topic === '__consumer_offsets')
      .flatMap((p) => p.records.filter((x) => x.control === 'ABORT'));
    expect(offsetsMarkers.length).toBeGreaterThanOrEqual(1);
    expect(r.received('auditor')).toHaveLength(3);
    expect(r.received('raw-reader')).toHaveLength(6);
    expect(r.errors('enricher')).toContain('CONCURRENT_TRANSACTIONS');
  });

  it('commit-last-instead-of-next: the group commits offset 2, and the restart processes evt-3 again', () => {
    const r = runPreset('commit-last-instead-of-next');
    expect(r.facts('offsetsCommitted')[0]?.offsets).toEqual([{ topic: 'orders', partition: 0, offset: 2 }]);
    expect(event(r, 'evt-3')?.processed).toEqual({ billing: 2 });
    expect(event(r, 'evt-1')?.processed).toEqual({ billing: 1 });
  });

  it('auto-commit-pitfall: the records since the last auto-commit are processed twice', () => {
    const r = runPreset('auto-commit-pitfall');
    const twice = r.summary.verdict.events.filter((e) => (e.processed.billing ?? 0) > 1).map((e) => e.eventId);
    expect(twice.length).toBeGreaterThanOrEqual(3);
    expect(r.facts('offsetsCommitted').length).toBeGreaterThanOrEqual(2);
    expect(r.layer('loss')?.status).toBe('once');
  });

  it('db-sink-duplicate: two rows for evt-1 while Kafka holds no duplicate', () => {
    const r = runPreset('db-sink-duplicate');
    expect(r.layer('log')?.status).toBe('once');
    expect(event(r, 'evt-1')?.sideEffects['orders-db']).toEqual({ applied: 2, skipped: 0 });
    expect(r.layer('sink', 'orders-db')?.status).toBe('more-than-once');
  });

  it('db-sink-inbox: the redelivery hits the unique constraint; one row; one inbox conflict', () => {
    const r = runPreset('db-sink-inbox');
    expect(event(r, 'evt-1')?.sideEffects['orders-db']).toEqual({ applied: 1, skipped: 1 });
    expect(r.summary.verdict.counters.inboxConflicts).toBe(1);
    expect(r.layer('sink', 'orders-db')?.status).toBe('once');
  });

  it('db-sink-offsets-in-db: resuming from the database offsets processes nothing twice', () => {
    const r = runPreset('db-sink-offsets-in-db');
    for (const id of ['evt-1', 'evt-2']) expect(event(r, id)?.processed.billing).toBe(1);
    expect(r.facts('offsetsCommitted')).toEqual([]);
    expect(r.facts('note').some((n) => n.text.includes('read its offsets from the database: orders-0=1'))).toBe(true);
  });

  it('api-lost-response: charged twice', () => {
    const r = runPreset('api-lost-response');
    expect(event(r, 'evt-1')?.sideEffects['payment-api']).toEqual({ applied: 2, skipped: 0 });
    expect(event(r, 'evt-1')?.processed.payments).toBe(1);
  });

  it('api-idempotency-key: the retry replays the first charge', () => {
    const r = runPreset('api-idempotency-key');
    expect(event(r, 'evt-1')?.sideEffects['payment-api']).toEqual({ applied: 1, skipped: 1 });
  });

  it('api lookup-before-retry: the look-up finds the payment and nothing is charged again', () => {
    const preset = findPreset('api-lost-response');
    const s = preset?.scenario;
    const trace = runScenario({ ...s, sinks: [{ id: 'payment-api', type: 'http-api', mode: 'lookup-before-retry' }] });
    const charges = summarize(trace).sideEffects.filter((e) => e.effect === 'payment charged');
    expect(charges).toHaveLength(1);
    expect(trace.envelopes.some((e) => e.rpc === 'HttpRequest' && (e.payload as { method: string }).method === 'GET')).toBe(true);
  });

  it('rebalance-zombie-fenced: the frozen member is fenced and aborts; committed output holds each input once', () => {
    const r = runPreset('rebalance-zombie-fenced');
    expect(r.errors('worker-a')).toContain('CommitFailedException');
    expect(r.layer('output')?.status).toBe('once');
    for (const e of r.summary.verdict.events.filter((x) => x.eventId.startsWith('evt-'))) expect(e.committedOutput).toBe(1);
    expect(r.facts('rebalance').length).toBeGreaterThanOrEqual(2);
    expect(r.summary.verdict.counters.transactionsAborted).toBeGreaterThanOrEqual(1);
  });

  it('streams-eos-crash-restore: the store is restored to the committed count', () => {
    const r = runPreset('streams-eos-crash-restore');
    expect(storeOf(r.summary.streams[0])).toEqual({ 'page-a': 3, 'page-b': 2 });
    expect(
      r.facts('note').some((n) => n.text.includes('state store restored from page-counter-count-store-changelog (read_committed)')),
    ).toBe(true);
    expect(r.layer('output')?.status).toBe('once');
    expect(r.data('view-counts-0').some((x) => x.txnOutcome === 'aborted')).toBe(true);
    const latest = new Map(r.received('dashboard').map((x) => [x.key, x] as const));
    expect([...latest.keys()].sort()).toEqual(['page-a', 'page-b']);
  });

  it('streams-eos-repartition: groupBy re-keys through the repartition topic inside the transaction; the crash leaves no double count', () => {
    const r = runPreset('streams-eos-repartition');
    expect(storeOf(r.summary.streams[0])).toEqual({ 'page-a': 3, 'page-b': 2 });
    // the crashed transaction's re-keyed record and its output are in the log, aborted
    const repartition = [...r.data('page-counter-count-store-repartition-0'), ...r.data('page-counter-count-store-repartition-1')];
    expect(repartition.some((x) => x.txnOutcome === 'aborted' && x.headers.event_id === 'view-2')).toBe(true);
    expect(
      repartition
        .filter((x) => x.txnOutcome === 'committed')
        .map((x) => x.headers.event_id)
        .sort(),
    ).toEqual(['view-1', 'view-2', 'view-3', 'view-4', 'view-5']);
    // re-keyed by page: every committed repartition record's key is its page
    expect(repartition.every((x) => x.key === 'page-a' || x.key === 'page-b')).toBe(true);
    expect(r.data('view-counts-0').some((x) => x.txnOutcome === 'aborted')).toBe(true);
    expect(r.layer('output')?.status).toBe('once');
    expect(event(r, 'view-2')?.processed).toEqual({ counter: 2, dashboard: 1 });
    // the dashboard (read_committed) received each view's count once; the latest count per page is right
    expect(
      r
        .received('dashboard')
        .map((x) => x.headers.event_id)
        .sort(),
    ).toEqual(['view-1', 'view-2', 'view-3', 'view-4', 'view-5']);
    const committed = r.data('view-counts-0').filter((x) => x.txnOutcome === 'committed');
    expect(Object.fromEntries(committed.map((x) => [x.key, x.value] as const))).toEqual({ 'page-a': '3', 'page-b': '2' });
  });

  it('streams-alos-crash-duplicate: the same crash inflates the count and duplicates output', () => {
    const r = runPreset('streams-alos-crash-duplicate');
    expect(storeOf(r.summary.streams[0])['page-a']).toBeGreaterThan(3);
    expect(r.layer('output')?.status).toBe('more-than-once');
  });

  it('upstream-duplicate-event-id: two records with one event_id are each processed once — and counted twice', () => {
    const r = runPreset('upstream-duplicate-event-id');
    expect(storeOf(r.summary.streams[0])['customer-7']).toBe(3);
    expect(event(r, 'evt-42')).toMatchObject({ sends: 2, retryDuplicates: 0, committedOutput: 2 });
    expect(r.layer('log')?.status).toBe('more-than-once');
  });

  it('outbox-cdc: nothing lost between database and Kafka; the relay republishes; the inbox keeps one', () => {
    const r = runPreset('outbox-cdc');
    expect(r.data('order-events-0').map((x) => x.headers.event_id)).toEqual(['evt-1', 'evt-2', 'evt-1', 'evt-2']);
    expect(new Set(r.data('order-events-0').map((x) => x.producerId)).size).toBe(2);
    expect(event(r, 'evt-1')?.sideEffects['shipping-db']).toEqual({ applied: 1, skipped: 1 });
    expect(event(r, 'evt-1')?.sideEffects['orders-db']).toEqual({ applied: 1, skipped: 0 });
    expect(r.layer('loss')?.status).toBe('once');
  });
});
