/**
 * A send() told it failed although the broker wrote its record: the producer cannot tell a lost
 * acknowledgement or a request timeout (REQUEST_TIMED_OUT: NetworkClient gave up on the request, the
 * leader may have appended it), NOT_ENOUGH_REPLICAS_AFTER_APPEND or a forced close from "not
 * written". The log layer says so beside its count — the status stays what the copies say — and
 * only for a copy that is committed: one above the high watermark is the above-HW clause's.
 */
import { describe, expect, it } from 'vitest';
import type { TopicFinding } from '../../src/sim/checks/verdict';
import { findingText } from '../../src/sim/checks/verdictText';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize, verdictViewAt } from '../../src/sim/trace/summary';

/** retries=0 and the first ProduceResponse lost: the record is in the log, its send() fails. */
function lostAnswer(drop: boolean): Scenario {
  return {
    version: 1,
    seed: 1,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        config: { 'enable.idempotence': false, retries: 0, acks: 'all' },
        script: [{ op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e1' }, at: 100 }],
      },
      { id: 'billing', type: 'consumer', config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest' }, topics: ['orders'] },
    ],
    ...(drop ? { faults: [{ type: 'drop', rpc: 'ProduceResponse', nth: 1 }] } : {}),
  } as Scenario;
}

/** The first step with a fact of `kind` whose fields match. */
function stepOf(trace: ReturnType<typeof runScenario>, kind: string, fields: Record<string, unknown> = {}): number {
  return trace.steps.findIndex((s) =>
    s.facts.some((f) => {
      const r = f as unknown as Record<string, unknown>;
      return r.kind === kind && Object.entries(fields).every(([k, v]) => (v === '*' ? r[k] !== null : r[k] === v));
    }),
  );
}

function logOf(layers: readonly { layer: string; subject: string | null }[], topic = 'orders'): TopicFinding {
  return layers.find((l) => l.layer === 'log' && l.subject === topic) as TopicFinding;
}

describe('written although its send() failed', () => {
  it('a lost ProduceResponse with retries=0: e1 is in the log once, its send() failed with REQUEST_TIMED_OUT, and the verdict says both', () => {
    const trace = runScenario(lostAnswer(true));
    const log = logOf(summarize(trace).verdict.layers);
    expect(log.status).toBe('once');
    expect(log.writtenThoughFailed).toEqual([
      { eventId: 'e1', topic: 'orders', partition: 0, offset: 0, writer: 'orders-service', error: 'REQUEST_TIMED_OUT' },
    ]);
    expect(log.sentence).toBe(
      'Kafka log orders: the one event once; e1 (orders-0@0) written although the send() by orders-service that wrote it was told it failed (REQUEST_TIMED_OUT): a failed send() does not mean the broker wrote nothing.',
    );
    expect(findingText(log, 'ko')).toBe(
      'Kafka 로그 orders: 이벤트 1개가 한 번 있습니다. e1(orders-0@0)은 기록됐지만, 그것을 쓴 orders-service의 send()는 실패했다고 통보받았습니다(REQUEST_TIMED_OUT). send()가 실패했다고 해서 브로커가 아무것도 기록하지 않은 것은 아닙니다.',
    );
    // the reader got it: the failure told the application nothing about the log
    const delivery = summarize(trace).verdict.layers.find((l) => l.layer === 'delivery');
    expect(delivery?.status).toBe('once');
    // the steps of the copy and of the failure are the finding's
    const failedAt = stepOf(trace, 'sendResult', { error: '*' });
    const appendedAt = stepOf(trace, 'append', { topic: 'orders' });
    expect(log.steps).toEqual(expect.arrayContaining([failedAt, appendedAt]));
  });

  it('is said from the step the send() is told it failed, not before — the view at a step reads the same as the whole run cut there', () => {
    const trace = runScenario(lostAnswer(true));
    const failedAt = stepOf(trace, 'sendResult', { error: '*' });
    expect(failedAt).toBeGreaterThan(0);
    const before = logOf(verdictViewAt(trace, stateAt(trace, failedAt)).layers);
    expect(before.writtenThoughFailed).toBeUndefined();
    const after = logOf(verdictViewAt(trace, stateAt(trace, failedAt + 1)).layers);
    expect(after.writtenThoughFailed?.map((w) => w.eventId)).toEqual(['e1']);
    expect(logOf(verdictViewAt(trace, stateAt(trace, trace.steps.length)).layers).sentence).toBe(
      logOf(summarize(trace).verdict.layers).sentence,
    );
  });

  it('says nothing when the send() was acknowledged', () => {
    const log = logOf(summarize(runScenario(lostAnswer(false))).verdict.layers);
    expect(log.status).toBe('once');
    expect(log.writtenThoughFailed).toBeUndefined();
    expect(log.sentence).toBe('Kafka log orders: the one event once.');
  });

  it('producer-close-timeout-zero: the forced close failed evt-42 that the broker wrote, and the resend made the duplicate', () => {
    const preset = findPreset('producer-close-timeout-zero');
    const log = logOf(summarize(runScenario(preset?.scenario as Scenario)).verdict.layers);
    expect(log.status).toBe('more-than-once');
    expect(log.writtenThoughFailed).toEqual([
      {
        eventId: 'evt-42',
        topic: 'orders',
        partition: 0,
        offset: 0,
        writer: 'orders-service',
        error: 'KafkaException',
        closedForcefully: true,
      },
    ]);
    expect(log.sentence).toContain(
      'evt-42 (orders-0@0) written although the send() by orders-service that wrote it was told it failed (KafkaException: Producer is closed forcefully.)',
    );
    // Korean quotes no English prose: the exception and what it means
    expect(findingText(log, 'ko')).toContain(
      'evt-42(orders-0@0)는 기록됐지만, 그것을 쓴 orders-service의 send()는 실패했다고 통보받았습니다(KafkaException, 프로듀서 강제 종료).',
    );
  });

  it('min-insync-blocks-writes: e3 is above the high watermark, so the above-HW clause tells its failed send(), not this one', () => {
    const preset = findPreset('min-insync-blocks-writes');
    const log = logOf(summarize(runScenario(preset?.scenario as Scenario)).verdict.layers);
    expect(log.aboveHighWatermark?.map((a) => [a.eventId, a.told])).toEqual([['e3', 'TimeoutException']]);
    expect(log.writtenThoughFailed).toBeUndefined();
  });

  it('lost-ack-no-idempotence: the retry wrote a second copy, but every send() was acknowledged', () => {
    const preset = findPreset('lost-ack-no-idempotence');
    const log = logOf(summarize(runScenario(preset?.scenario as Scenario)).verdict.layers);
    expect(log.status).toBe('more-than-once');
    expect(log.writtenThoughFailed).toBeUndefined();
  });
});
