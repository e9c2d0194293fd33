/**
 * A crash or pause at a named point is labelled in words a person reads, in English and Korean, in
 * the page's lists (the injected faults, Break it's counterexamples) and in narration: "crash billing
 * right after processing a record", not the engine's id "at afterProcess".
 */
import { describe, expect, it } from 'vitest';
import { faultSpecLabel, translateFaultLabel } from '../src/sim/narration';
import { describeFault } from '../src/sim/scenario/build';
import { CRASH_POINTS } from '../src/sim/scenario/crashPoints';
import type { FaultSpec } from '../src/sim/scenario/schema';

const crash = (point: string, extra: object = {}): FaultSpec => ({ type: 'crash', target: 'billing', point, ...extra }) as FaultSpec;

describe('crash points in words', () => {
  it('no label names a point by its id, in either language', () => {
    for (const point of CRASH_POINTS)
      for (const f of [
        crash(point),
        crash(point, { durationMs: 500, where: { offset: 2 }, nth: 2 }),
        { ...crash(point), type: 'pause', durationMs: 300 } as FaultSpec,
      ])
        for (const language of ['en', 'ko'] as const) {
          const label = faultSpecLabel(f, language);
          expect(label, `${point} ${language}`).not.toContain(point);
          expect(label).toContain('billing');
        }
  });

  it('reads as a sentence, Kafka’s names kept', () => {
    expect(faultSpecLabel(crash('afterProcess', { durationMs: 500 }), 'en')).toBe(
      'crash billing right after processing a record, restart 500 ms later',
    );
    expect(faultSpecLabel(crash('afterProcess', { durationMs: 500 }), 'ko')).toBe('레코드를 처리한 직후 billing 중단, 500 ms 뒤 재시작');
    expect(faultSpecLabel(crash('afterSendOffsets'), 'en')).toBe('crash billing right after sendOffsetsToTransaction()');
    expect(faultSpecLabel(crash('afterPoll', { where: { offset: 2 } }), 'ko')).toBe('poll()이 레코드를 돌려준 직후(offset=2) billing 중단');
  });

  it('inside the notes the page and Break it write around the engine’s label', () => {
    const bare = crash('afterSideEffect', { durationMs: 500 });
    const injected = { ...bare, note: `${describeFault(bare)} (injected at step 12)` } as FaultSpec;
    expect(faultSpecLabel(injected, 'en')).toBe(
      'crash billing right after its database write or API call took effect, restart 500 ms later (injected at step 12)',
    );
    const found = {
      ...bare,
      note: `${describeFault(bare)} — Break it: no business duplicate at orders-db breaks at the sink layer of orders-db`,
    } as FaultSpec;
    expect(faultSpecLabel(found, 'en')).toMatch(
      /^crash billing right after its database write or API call took effect, restart 500 ms later — Break it/,
    );
    expect(faultSpecLabel(found, 'ko')).not.toContain('afterSideEffect');
  });

  it('in narration: a trace’s fault label and the restart that follows it', () => {
    const f = crash('beforeCommit', { durationMs: 500 });
    const trace = { scenario: { faults: [f] } } as never;
    expect(translateFaultLabel(trace, describeFault(f), 'en')).toBe('crash billing just before committing, restart 500 ms later');
    expect(translateFaultLabel(trace, `restart billing 500 ms after: ${describeFault(f)}`, 'en')).toBe(
      'restart billing 500 ms after: crash billing just before committing, restart 500 ms later',
    );
    expect(translateFaultLabel(trace, describeFault(f), 'ko')).toBe('커밋하기 직전 billing 중단, 500 ms 뒤 재시작');
  });
});
