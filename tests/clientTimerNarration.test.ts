/**
 * Two client timers that read as the model's internal names ("timer txnCommitDue fired", "timer
 * metadataUpdateDue fired"): each now says what came due, in English and Korean.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration/narrate';
import { findPreset } from '../src/sim/presets';
import { runScenario, type Trace } from '../src/sim/run';

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
});
