/**
 * Two client timers that read as the model's internal names ("timer txnCommitDue fired", "timer
 * metadataUpdateDue fired"): each now says what came due, in English and Korean.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration/narrate';
import { findPreset } from '../src/sim/presets';
import { runScenario, type Trace } from '../src/sim/run';
import { failoverOrders } from './fixtures/failoverOrders';

function firstTimer(id: string, label: string): { trace: Trace; step: number } {
  const trace = runScenario(findPreset(id)?.scenario);
  for (let i = 0; i < trace.steps.length; i++) {
    const s = trace.steps.at(i);
    if (s?.kind === 'timer' && s.label === label) return { trace, step: i };
  }
  throw new Error(`${id}: no ${label} timer`);
}

describe('client timers in words', () => {
  it("txnCommitDue: a consume-transform-produce application's batched transaction reached its commit interval", () => {
    const { trace, step } = firstTimer('throughput-exactly-once', 'txnCommitDue');
    expect(narrate(trace, step, 'en')).toBe(
      "The enricher application's transaction has been open for its commit interval: it is committed after the record in hand.",
    );
    expect(narrate(trace, step, 'ko')).toBe(
      'enricher 애플리케이션의 트랜잭션이 커밋 간격만큼 열려 있었습니다. 처리 중인 레코드 다음에 커밋합니다.',
    );
  });

  it('metadataUpdateDue: a client refreshes its metadata', () => {
    const { trace, step } = firstTimer('min-insync-blocks-writes', 'metadataUpdateDue');
    expect(narrate(trace, step, 'en')).toContain('is due to refresh its metadata (metadata.max.age.ms');
    expect(narrate(trace, step, 'en')).not.toContain('timer');
    expect(narrate(trace, step, 'ko')).toContain('메타데이터를 새로 받을 때가 됐습니다');
  });

  it('retryBackoffExpired with nothing to send: a stale retry timer does not claim a retry', () => {
    // the leader is paused (a crash would make the later tries silent connection attempts, no retries):
    // the Produce held there times out (REQUEST_TIMED_OUT), and its retry goes to the new leader at once
    // once the metadata shows a newer leader epoch (KIP-951), so its retry timer later finds nothing to send
    const trace = runScenario(
      failoverOrders({ secondAt: 5000, faults: [{ type: 'pause', target: 'broker-0', at: 3600, durationMs: 40000 }] }),
    );
    const idle: number[] = [];
    for (let i = 0; i < trace.steps.length; i++) {
      const s = trace.steps.at(i);
      if (s?.kind === 'timer' && s.label === 'retryBackoffExpired' && s.sent.length === 0) idle.push(i);
    }
    expect(idle.length).toBeGreaterThan(0);
    for (const i of idle) {
      expect(narrate(trace, i, 'en')).toBe("retry.backoff.ms passed for orders-service's producer, with nothing to send now.");
      expect(narrate(trace, i, 'ko')).toBe('orders-service 프로듀서의 retry.backoff.ms가 지났지만 지금 보낼 것이 없습니다.');
    }
  });
});
