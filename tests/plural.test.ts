/** Counts read as sentences: "1 record", "2 records", "the one event … once", never "event(s)". */
import { describe, expect, it } from 'vitest';
import { findingSentence } from '../src/sim/checks/verdictText';
import { narrate, narrateEnd } from '../src/sim/narration';
import { count, eachOnce } from '../src/sim/narration/language';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { summarize } from '../src/sim/trace/summary';

describe('plural rules', () => {
  it('count and eachOnce follow the number in English and Korean', () => {
    expect(count(1, 'record')).toBe('1 record');
    expect(count(2, 'record')).toBe('2 records');
    expect(count(0, 'record')).toBe('0 records');
    expect(eachOnce('en', 1, 'processed once', '처리됐습니다')).toBe('the one event processed once');
    expect(eachOnce('en', 3, 'processed once', '처리됐습니다')).toBe('each of 3 events processed once');
    expect(eachOnce('ko', 1, 'processed once', '처리됐습니다')).toBe('이벤트 1개가 한 번 처리됐습니다');
    expect(eachOnce('ko', 3, 'processed once', '처리됐습니다')).toBe('이벤트 3개가 각각 한 번씩 처리됐습니다');
  });

  it('count and eachOnce group the thousands as every count on screen (groupDigits)', () => {
    expect(count(2000, 'record')).toBe('2,000 records');
    expect(count(1234567, 'event')).toBe('1,234,567 events');
    expect(count(999, 'record')).toBe('999 records');
    expect(eachOnce('en', 2000, 'received once', '전달됐습니다')).toBe('each of 2,000 events received once');
    expect(eachOnce('ko', 2000, 'received once', '전달됐습니다')).toBe('이벤트 2,000개가 각각 한 번씩 전달됐습니다');
  });

  it('a run with one event says so without "(s)" or "each of 1"', () => {
    const trace = runScenario(findPreset('lost-ack-idempotent')?.scenario);
    const verdict = summarize(trace, trace.steps.length).verdict;
    const en = verdict.layers.map((f) => findingSentence(f, verdict, 'en')).join(' ');
    expect(en).toContain('the one event');
    const ko = verdict.layers.map((f) => findingSentence(f, verdict, 'ko')).join(' ');
    expect(ko).not.toMatch(/1개가 각각/);
  });

  it('no verdict sentence or narration of a shipped run writes "(s)" or "each of 1 "', () => {
    const bad: string[] = [];
    for (const p of PRESETS) {
      const trace = runScenario(p.scenario);
      const verdict = summarize(trace, trace.steps.length).verdict;
      const texts = [
        ...verdict.layers.map((f) => findingSentence(f, verdict, 'en')),
        narrateEnd(trace, 'en'),
        ...trace.steps.map((_, i) => narrate(trace, i, 'en')),
      ];
      // Kafka's own message (RecordAccumulator's "Expiring 1 record(s) for …") stays as Kafka writes it
      for (const t of texts)
        if (/\w\(s\)|each of 1 /.test(t.replace(/Expiring \d+ record\(s\)/g, '')) && bad.length < 10) bad.push(`${p.id}: ${t}`);
    }
    expect(bad).toEqual([]);
  });
});
