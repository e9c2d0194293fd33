/** The [producer-log] presets: each expected outcome, asserted against the engine's JSON output. */
import { describe, expect, it } from 'vitest';
import { runPreset } from './helpers';

describe('producer-log presets', () => {
  it('opening-story: two copies of order-123/evt-789 at orders-0 offsets 100 and 101, sequences 0 and 1', () => {
    const r = runPreset('opening-story');
    const recs = r.data('orders-0');
    expect(recs.map((x) => [x.offset, x.key, x.headers.event_id, x.producerId, x.sequence])).toEqual([
      [100, 'order-123', 'evt-789', 1000, 0],
      [101, 'order-123', 'evt-789', 1000, 1],
    ]);
    expect(r.received('billing').map((x) => x.offset)).toEqual([100, 101]);
    expect(r.layer('log')?.status).toBe('more-than-once');
  });

  it('lost-ack-idempotent: one record at offset 100 (its partner’s start); the retry is answered with the original offset', () => {
    const r = runPreset('lost-ack-idempotent');
    expect(r.data('orders-0').map((x) => x.offset)).toEqual([100]);
    const dup = r.facts('duplicate');
    expect(dup).toHaveLength(1);
    expect(dup[0]).toMatchObject({ producerId: 1000, producerEpoch: 0, baseSequence: 0, baseOffset: 100 });
    const results = r.facts('sendResult');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ offset: 100, error: null });
    expect(r.errors('orders-service')).toContain('REQUEST_TIMED_OUT');
    expect(r.received('billing')).toHaveLength(1);
  });

  it('lost-ack-no-idempotence: two records with the same key and event_id at offsets 100 and 101', () => {
    const r = runPreset('lost-ack-no-idempotence');
    const recs = r.data('orders-0');
    expect(recs.map((x) => [x.offset, x.key, x.headers.event_id, x.producerId])).toEqual([
      [100, 'order-123', 'evt-789', -1],
      [101, 'order-123', 'evt-789', -1],
    ]);
    expect(r.facts('duplicate')).toHaveLength(0);
    expect(r.summary.verdict.events[0]?.retryDuplicates).toBe(1);
    expect(r.received('billing')).toHaveLength(2);
  });

  it('app-resend: idempotence on, two records, sequences 0 and 1', () => {
    const r = runPreset('app-resend');
    expect(r.data('orders-0').map((x) => [x.producerId, x.sequence, x.headers.event_id])).toEqual([
      [1000, 0, 'evt-789'],
      [1000, 1, 'evt-789'],
    ]);
    expect(r.summary.verdict.events[0]).toMatchObject({ sends: 2, retryDuplicates: 0 });
  });

  it('producer-restart-new-pid: two records from two producerIds', () => {
    const r = runPreset('producer-restart-new-pid');
    expect(r.data('orders-0').map((x) => [x.producerId, x.producerEpoch, x.sequence])).toEqual([
      [1000, 0, 0],
      [1001, 0, 0],
    ]);
    expect(r.summary.verdict.events[0]).toMatchObject({ sends: 2, retryDuplicates: 0 });
  });

  it('producer-close-timeout-zero: the forced close fails evt-42 the broker wrote, and the resend writes it again', () => {
    const r = runPreset('producer-close-timeout-zero');
    expect(r.data('orders-0').map((x) => [x.offset, x.producerId, x.sequence, x.headers.event_id])).toEqual([
      [0, 1000, 0, 'evt-42'],
      [1, 1001, 0, 'evt-42'],
    ]);
    // the first send() was told it failed (KafkaException "Producer is closed forcefully."), the resend that it succeeded
    expect(r.facts('sendResult').map((x) => [x.error, x.offset, x.message])).toEqual([
      ['KafkaException', null, 'Producer is closed forcefully.'],
      [null, 1, undefined],
    ]);
    expect(r.received('billing').map((x) => x.offset)).toEqual([0, 1]);
    expect(r.layer('log')?.status).toBe('more-than-once');
  });

  it('delivery-timeout-written: evt-7 is written once from the first Produce, its retries are recognised, and the send() still fails with TimeoutException', () => {
    const r = runPreset('delivery-timeout-written');
    expect(r.data('orders-0').map((x) => [x.offset, x.producerId, x.producerEpoch, x.sequence, x.headers.event_id])).toEqual([
      [0, 1000, 0, 0, 'evt-7'],
    ]);
    // the retries carried producerId 1000, epoch 0, sequence 0: the broker answered them with offset 0
    expect(r.facts('duplicate').map((x) => [x.producerId, x.baseSequence, x.baseOffset])).toEqual([
      [1000, 0, 0],
      [1000, 0, 0],
    ]);
    // requests timed out, then delivery.timeout.ms expired the batch in flight
    expect(r.errors('orders-service')).toEqual(['REQUEST_TIMED_OUT', 'REQUEST_TIMED_OUT', 'TimeoutException']);
    expect(r.facts('sendResult').map((x) => [x.error, x.offset])).toEqual([['TimeoutException', null]]);
    expect(r.received('billing').map((x) => x.offset)).toEqual([0]);
    const log = r.layer('log');
    expect(log?.status).toBe('once');
    expect(log?.sentence).toContain(
      'evt-7 (orders-0@0) written although the send() by orders-service that wrote it was told it failed (TimeoutException)',
    );
  });

  it('sequence-gap: a batch behind a failed one is rejected with OUT_OF_ORDER_SEQUENCE_NUMBER, and the producer moves to a new epoch', () => {
    const r = runPreset('sequence-gap');
    // on one connection the batches arrive in order: sequence 1 is refused, then 2 finds the gap
    expect(r.facts('rejected').map((f) => [f.error, f.producerEpoch, f.baseSequence])).toEqual([
      ['INVALID_RECORD', 0, 1],
      ['OUT_OF_ORDER_SEQUENCE_NUMBER', 0, 2],
    ]);
    // KIP-360: the idempotent producer bumps its epoch and restarts that partition at sequence 0
    expect(r.data('orders-0').map((x) => [x.offset, x.producerEpoch, x.sequence, x.key])).toEqual([
      [0, 0, 0, 'order-1'],
      [1, 1, 0, 'order-3'],
    ]);
    expect(r.errors('orders-service')).toEqual(['INVALID_RECORD', 'OUT_OF_ORDER_SEQUENCE_NUMBER']);
    const results = r.facts('sendResult');
    expect(results.map((x) => [x.eventId, x.error])).toEqual([
      ['evt-1', null],
      ['evt-2', 'INVALID_RECORD'],
      ['evt-3', null],
    ]);
  });

  it('acks-0-loss: the record is lost and the producer never learns it', () => {
    const r = runPreset('acks-0-loss');
    expect(r.data('metrics-0')).toEqual([]);
    const results = r.facts('sendResult');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ error: null, offset: null });
    expect(r.errors('metrics-agent')).toEqual([]);
    expect(r.summary.clients.find((c) => c.id === 'metrics-agent')?.notes.join(' ')).toContain('Idempotence will be disabled');
    expect(r.layer('loss')?.status).toBe('lost');
  });

  it('compaction-is-not-dedup: three values before cleaning, one after; offsets unchanged', () => {
    const r = runPreset('compaction-is-not-dedup');
    const early = r.received('early-reader').filter((x) => x.key === 'account-42');
    const late = r.received('late-reader').filter((x) => x.key === 'account-42');
    expect(early.map((x) => x.offset)).toEqual([0, 1, 2]);
    expect(late.map((x) => x.offset)).toEqual([2]);
    expect(r.data('account-tier-0').map((x) => [x.offset, x.key, x.value])).toEqual([
      [2, 'account-42', 'GOLD'],
      [3, 'account-7', 'BRONZE'],
    ]);
    expect(r.facts('cleaned')[0]).toMatchObject({ removed: 2 });
  });
});
