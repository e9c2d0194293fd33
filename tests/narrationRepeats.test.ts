import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';

const occurrences = (text: string, word: string): number => text.split(word).length - 1;

describe('a disconnect tells its request’s error once', () => {
  it('lost-ack-idempotent, step 223: the timed-out Produce is told once, not again as the client’s error', () => {
    const preset = findPreset('lost-ack-idempotent');
    if (!preset) throw new Error('no preset');
    const trace = runScenario(preset.scenario);
    const step = trace.steps.at(222);
    expect(step?.kind).toBe('disconnected');
    const en = narrate(trace, 222, 'en');
    const ko = narrate(trace, 222, 'ko');
    expect(occurrences(en, 'REQUEST_TIMED_OUT')).toBe(1);
    expect(occurrences(en, 'whether it took effect')).toBe(1);
    expect(occurrences(ko, 'REQUEST_TIMED_OUT')).toBe(1);
    expect(occurrences(ko, '반영됐는지 알 수 없')).toBe(1);
  });

  it('every disconnect of every shipped run names the failed request’s error once', () => {
    const twice: string[] = [];
    for (const p of PRESETS) {
      const trace = runScenario(p.scenario);
      trace.steps.forEach((s, i) => {
        if (s.kind !== 'disconnected') return;
        for (const lang of ['en', 'ko'] as const) {
          const text = narrate(trace, i, lang);
          for (const code of ['REQUEST_TIMED_OUT', 'NETWORK_EXCEPTION'])
            if (occurrences(text, code) > 1) twice.push(`${p.id} step ${i + 1} ${lang}: ${text}`);
        }
      });
    }
    expect(twice).toEqual([]);
  });
});
