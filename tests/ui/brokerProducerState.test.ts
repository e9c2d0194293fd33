/**
 * The actors panel shows what a broker's partition remembers of its producers (ProducerStateEntry:
 * producerId, epoch, last sequence, an open transaction's first offset) — idempotence's whole memory
 * on the broker side — so that a person sees it go when producer.id.expiration.ms drops it.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { actorFields } from '../../src/ui/actors/fields';

const trace = runScenario(findPreset('producer-state-expired')?.scenario as never);
const fieldsAt = (step: number, lang: 'en' | 'ko') => actorFields('broker', stateAt(trace, step).actors.get('broker-0')?.context, lang);

describe('a broker partition’s producer state in the actors panel', () => {
  it('names producerId, epoch and last sequence after the append, and nothing once the producer expired', () => {
    const steps = [...trace.steps];
    const appended = steps.findIndex((s) => s.facts.some((f) => f.kind === 'append'));
    const expired = steps.findIndex((s) => s.facts.some((f) => f.kind === 'producerStateExpired'));
    const fieldsAfter = (i: number, lang: 'en' | 'ko') => fieldsAt(i + 1, lang);
    expect(fieldsAfter(appended, 'en')).toContainEqual({ label: 'orders-0 producers', value: '1000 e0 · last seq 0' });
    expect(fieldsAfter(appended, 'ko')).toContainEqual({ label: 'orders-0 프로듀서', value: '1000 e0 · 마지막 seq 0' });
    expect(fieldsAfter(expired, 'en').some((f) => f.label === 'orders-0 producers')).toBe(false);
    expect(fieldsAfter(expired, 'en')).toContainEqual({ label: 'orders-0', value: 'LEO 1 · HW 1 · LSO 1' });
  });
});
