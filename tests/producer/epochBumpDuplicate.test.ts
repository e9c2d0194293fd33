/**
 * The `epoch-bump-duplicate` preset: an idempotent producer's first batch (a record with no key)
 * is refused INVALID_RECORD by the compacted topic while order-123's batch (sequence 1) follows it
 * on the same connection. The broker appends order-123 under epoch 0 (it has no state for the
 * producer, so any first sequence is accepted: ProducerAppendInfo.checkSequence), the refusal bumps
 * the producer's epoch and rewrites order-123's batch, still in flight, to epoch 1 sequence 0
 * (TransactionManager.handleFailedBatch → requestEpochBumpForPartition; bumpIdempotentProducerEpoch
 * → TxnPartitionEntry.startSequencesAtBeginning), its answer is lost, and its retry is appended
 * again: the broker's duplicate check cannot match copies across epochs.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import { translateNote } from '../../src/sim/narration/notes';
import { findPreset } from '../../src/sim/presets';
import { runPreset } from '../presets/helpers';

describe('epoch-bump-duplicate', () => {
  const r = runPreset('epoch-bump-duplicate');
  const appends = r.facts('append').filter((f) => f.topic === 'order-status');
  const steps = [...r.trace.steps];

  it('the log holds order-123 twice: epoch 0 sequence 1 at offset 0, epoch 1 sequence 0 at offset 1, the same producerId', () => {
    expect(
      appends.map((a) => ({
        offset: a.baseOffset,
        producerId: a.producerId,
        epoch: a.producerEpoch,
        sequence: a.baseSequence,
        eventIds: a.eventIds,
      })),
    ).toEqual([
      { offset: 0, producerId: 1000, epoch: 0, sequence: 1, eventIds: ['evt-123-shipped'] },
      { offset: 1, producerId: 1000, epoch: 1, sequence: 0, eventIds: ['evt-123-shipped'] },
    ]);
    // both copies come from the same send() (one origin): a retry, not a second send()
    expect(new Set(appends.map((a) => JSON.stringify(a.origins)))).toHaveProperty('size', 1);
    expect(r.data('order-status-0').map((x) => [x.offset, x.key])).toEqual([
      [0, 'order-123'],
      [1, 'order-123'],
    ]);
    expect(r.facts('duplicate')).toEqual([]);
  });

  it('the bump is caused by the keyless record refused INVALID_RECORD (epoch 0, sequence 0), after the first copy was sent', () => {
    const rejected = r.facts('rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ topic: 'order-status', producerEpoch: 0, baseSequence: 0, error: 'INVALID_RECORD' });
    const bumps = r.facts('producerId').filter((f) => f.client === 'order-service');
    expect(bumps.map((f) => f.producerEpoch)).toEqual([0, 1]);
    const bump = steps.find((s) =>
      (s.facts as { kind: string; producerEpoch?: number }[]).some((f) => f.kind === 'producerId' && f.producerEpoch === 1),
    );
    const bumpFacts = (bump?.facts ?? []) as { kind: string; error?: string; text?: string }[];
    // the INVALID_RECORD answer and the bump are one step: Sender.failBatch → handleFailedBatch
    expect(bumpFacts.some((f) => f.kind === 'clientError' && f.error === 'INVALID_RECORD')).toBe(true);
    const note = bumpFacts.find((f) => f.kind === 'note')?.text ?? '';
    expect(note).toBe(
      'bumped its own epoch to 1 after a batch failed or could not be confirmed; order-status-0 restarts at sequence 0; batches in flight rewritten: order-status-0 epoch 0 sequence 1 → epoch 1 sequence 0',
    );
    expect(translateNote(note, 'ko')).toContain('order-status-0 epoch 0 시퀀스 1 → epoch 1 시퀀스 0');
    // order-123's first request left before the answer to the keyless record came back: the first
    // copy (epoch 0) is appended no later than the bump
    const first = steps.find((s) =>
      (s.facts as { kind: string; producerEpoch?: number }[]).some((f) => f.kind === 'append' && f.producerEpoch === 0),
    );
    expect(first?.t).toBeLessThanOrEqual(bump?.t ?? -1);
  });

  it("order-123's answer is lost: its request times out and the retry carries the rewritten epoch and sequence", () => {
    expect(r.errors('order-service')).toEqual(['INVALID_RECORD', 'REQUEST_TIMED_OUT']);
    const second = steps.find((s) =>
      (s.facts as { kind: string; producerEpoch?: number }[]).some((f) => f.kind === 'append' && f.producerEpoch === 1),
    );
    expect(second?.t).toBeGreaterThan(30000);
    const results = r.facts('sendResult').filter((f) => f.client === 'order-service');
    expect(results.map((f) => [f.eventId, f.offset, f.error])).toEqual([
      [null, null, 'INVALID_RECORD'],
      ['evt-123-shipped', 1, null],
    ]);
  });

  it('the narration says the retry is the rewritten batch and the second append a copy the broker cannot match (en, ko)', () => {
    const retry = steps.findIndex((s) => s.label === 'retryBackoffExpired' && s.sent.length > 0);
    expect(narrate(r.trace, retry, 'en')).toContain(
      'the same batch, rewritten by its epoch bump: epoch 1, sequence 0 (first sent as epoch 0, sequence 1)',
    );
    expect(narrate(r.trace, retry, 'ko')).toContain(
      'epoch 증가로 다시 쓰여 epoch 1, 시퀀스 0입니다(처음에는 epoch 0, 시퀀스 1로 보냈습니다)',
    );
    const second = steps.findIndex((s) =>
      (s.facts as { kind: string; producerEpoch?: number }[]).some((f) => f.kind === 'append' && f.producerEpoch === 1),
    );
    const en = narrate(r.trace, second, 'en');
    expect(en).toContain('at offset 1 (producerId 1000, epoch 1, seq 0)');
    expect(en).toContain('already wrote at offset 0 (epoch 0, seq 1), rewritten by the producer');
    expect(en).toContain('the log now holds it twice, with idempotence on');
    expect(narrate(r.trace, second, 'ko')).toContain('멱등성을 켠 채 로그에 두 번 남습니다');
  });

  it('the verdict: a duplicate at the log layer with idempotence on, because of the epoch bump; notifier reads it twice', () => {
    const log = r.layer('log', 'order-status');
    expect(log?.status).toBe('more-than-once');
    expect(log?.sentence).toContain('evt-123-shipped twice');
    expect(log?.sentence).toContain('under a new epoch: idempotence was on');
    expect(log?.sentence).toContain('bumped its epoch (0 → 1)');
    expect(log?.sentence).not.toContain('without idempotence');
    expect(r.layer('delivery', 'notifier')?.status).toBe('more-than-once');
    expect(r.layer('loss')?.status).toBe('once');
    expect(r.received('notifier').map((x) => [x.offset, x.headers.event_id])).toEqual([
      [0, 'evt-123-shipped'],
      [1, 'evt-123-shipped'],
    ]);
  });

  it("the preset's texts say what the run shows: a duplicate in the log with idempotence on, from the epoch bump", () => {
    const p = findPreset('epoch-bump-duplicate');
    expect(p?.title).toMatch(/Idempotence on, and the log still holds a send twice/);
    expect(p?.title).toMatch(/epoch bump/);
    expect(p?.expected).toContain('(epoch 0, sequence 1) at offset 0');
    expect(p?.expected).toContain('epoch 1, sequence 0');
    expect(p?.expected).toContain('A duplicate in the log with idempotence on');
    expect(p?.scenario.clients[0]).toMatchObject({ config: { 'enable.idempotence': true, acks: 'all' } });
  });
});
