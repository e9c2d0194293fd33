/**
 * The actors panel's producer card: a batch in flight from a producer without idempotence has no
 * sequence (Kafka sends RecordBatch.NO_SEQUENCE, -1). The card read "orders-0 seq -1".
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { actorFields } from '../../src/ui/actors/fields';

function batchesInFlight(presetId: string, language: 'en' | 'ko'): string[] {
  const trace = runScenario(findPreset(presetId)!.scenario);
  const label = language === 'en' ? 'batches in flight' : '전송 중 배치';
  const seen: string[] = [];
  for (let step = 0; step <= Math.min(trace.steps.length, 60); step++) {
    const view = stateAt(trace, step);
    for (const [id, a] of view.actors) {
      if (!id.endsWith('.producer')) continue;
      const value = actorFields('producer', a.context, language).find((f) => f.label === label)?.value;
      if (value && value !== '0') seen.push(value);
    }
  }
  return seen;
}

describe('a producer batch in flight', () => {
  it('without idempotence: no sequence, said in words, never "seq -1"', () => {
    const en = batchesInFlight('lost-ack-no-idempotence', 'en');
    expect(en.length).toBeGreaterThan(0);
    expect(en).toContain('orders-0 (no sequence)');
    for (const v of en) expect(v).not.toMatch(/seq -/);
    expect(batchesInFlight('lost-ack-no-idempotence', 'ko')).toContain('orders-0 (시퀀스 없음)');
  });

  it('with idempotence: its sequence, as before', () => {
    expect(batchesInFlight('lost-ack-idempotent', 'en')).toContain('orders-0 seq 0');
  });
});
