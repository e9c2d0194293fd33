/**
 * A send that fails under at_least_once (src/sim/streams/sendErrors.ts, after Kafka Streams'
 * RecordCollectorImpl.recordSendError and StreamThread's TaskCorruptedException handling): the
 * producer's Callback keeps the exception, the next flush() throws it, and the task is closed dirty,
 * its store restored from the changelog and its input processed again from the committed offsets —
 * nothing lost. Before, the model committed the input offsets past the failed sends: a loss Kafka
 * does not have.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProcessingFinding } from '../../src/sim/checks/verdictTypes';
import { narrate } from '../../src/sim/narration/narrate';
import { runScenario } from '../../src/sim/run';
import { sendErrorKind } from '../../src/sim/streams/sendErrors';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import type { TraceStep } from '../../src/sim/views';

describe('what RecordCollectorImpl.recordSendError makes of a failed send', () => {
  it('fenced, epoch, pid mapping and sequence errors: TaskMigratedException', () => {
    for (const e of [
      'PRODUCER_FENCED',
      'INVALID_PRODUCER_EPOCH',
      'INVALID_PRODUCER_ID_MAPPING',
      'OUT_OF_ORDER_SEQUENCE_NUMBER',
      'UNKNOWN_PRODUCER_ID',
    ])
      expect(sendErrorKind(e), e).toBe('migrated');
  });
  it('a RetriableException (the default handler answers RETRY): TaskCorruptedException', () => {
    for (const e of [
      'TimeoutException',
      'NOT_ENOUGH_REPLICAS',
      'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
      'NOT_LEADER_OR_FOLLOWER',
      'REQUEST_TIMED_OUT',
    ])
      expect(sendErrorKind(e), e).toBe('corrupted');
  });
  it('anything else (the default handler answers FAIL): a StreamsException', () => {
    for (const e of ['RecordTooLargeException', 'INVALID_RECORD', 'TRANSACTION_ABORTABLE']) expect(sendErrorKind(e), e).toBe('fatal');
  });
});

describe('at_least_once: the output partition down longer than delivery.timeout.ms', () => {
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, 'scenarios', 'alos-send-timeout.json'), 'utf8'));
  const trace = runScenario(scenario);
  const steps = [...Array(trace.steps.length).keys()].map((i) => trace.steps.at(i) as TraceStep);
  const facts = steps.flatMap((s) => s.facts as Fact[]);
  const summary = summarize(trace);

  it("the producer's Callback tells the stream thread of each expired send", () => {
    const failed = steps.filter((s) => s.kind === 'call' && s.label === 'sendFailed');
    expect(failed.length).toBeGreaterThan(0);
    expect(new Set(failed.map((s) => s.actor))).toEqual(new Set(['counter.app']));
    expect(failed.every((s) => (s.detail as { error: string }).error === 'TimeoutException')).toBe(true);
  });

  it('the next flush() throws it: TaskCorruptedException, the consumer back to the committed offsets, the store restored', () => {
    const note = steps.findIndex((s) =>
      (s.facts as Fact[]).some((f) => f.kind === 'note' && String(f.text).startsWith('TaskCorruptedException')),
    );
    expect(note).toBeGreaterThan(-1);
    const after = steps.slice(note);
    expect(after.some((s) => s.kind === 'call' && s.label === 'seekToCommitted' && s.actor === 'counter.consumer')).toBe(true);
    // between the first failed send and the corruption, no offset was committed (the flush threw first)
    const firstFailure = steps.findIndex((s) => s.kind === 'call' && s.label === 'sendFailed');
    expect(steps.slice(firstFailure, note).filter((s) => s.kind === 'call' && s.label === 'commitSync')).toEqual([]);
    // and the stream thread restored its store from the changelog after the seek
    expect(after.some((s) => s.kind === 'call' && s.label === 'endOffsets' && s.actor === 'counter.restore')).toBe(true);
  });

  it('the narration says what the Callback and the rewind are, in English and Korean', () => {
    const failed = steps.findIndex((s) => s.kind === 'call' && s.label === 'sendFailed');
    expect(narrate(trace, failed, 'en')).toBe(
      "counter's producer reports a failed send to view-counts-0 (TimeoutException) through the record's Callback: the counter application keeps the exception, and its next send() or flush() throws it.",
    );
    expect(narrate(trace, failed, 'ko')).toContain('view-counts-0으로의 전송 실패(TimeoutException)를 레코드의 Callback으로 알립니다');
    const rewind = steps.findIndex((s) => s.kind === 'call' && s.label === 'seekToCommitted');
    expect(narrate(trace, rewind, 'en')).toContain('the task is corrupted, and the records since the last commit are processed again');
    expect(narrate(trace, rewind, 'ko')).toContain('태스크가 손상되어');
  });

  it('nothing is lost: every event reaches the output, some twice, and the counts are inflated', () => {
    const results = facts.filter(
      (f): f is Extract<Fact, { kind: 'sendResult' }> => f.kind === 'sendResult' && f.topic === 'view-counts' && f.error === null,
    );
    expect(new Set(results.map((f) => f.eventId))).toEqual(new Set(['view-1', 'view-2', 'view-3', 'view-4', 'view-5']));
    const loss = summary.verdict.layers.find((l) => l.layer === 'loss');
    expect(loss?.status).toBe('once');
    const counter = summary.verdict.layers.find((l) => l.layer === 'processing' && l.subject === 'counter') as ProcessingFinding;
    expect(counter.store?.inflated.map((k) => k.key)).toEqual(['page-a', 'page-b']);
  });
});
