/** Properties are read off the verdict: each names the finding that breaks it. */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { checkProperty, describeProperty } from '../../src/sim/search/property';
import { summarize } from '../../src/sim/trace/summary';
import { BREAK_IT_TEXT } from '../../src/ui/search/strings';

const verdictOf = (id: string) => {
  const trace = runScenario(findPreset(id)?.scenario);
  return { v: summarize(trace).verdict, end: trace.endTime };
};

describe('properties from the verdict', () => {
  const alo = verdictOf('at-least-once-consumer-crash');

  it('a redelivery breaks "processed once" and a duplicate at that application, not "no business duplicate" in topics and sinks', () => {
    expect(checkProperty({ id: 'processed-once', at: 'billing' }, alo.v, alo.end)).toMatchObject({
      layer: 'processing',
      subject: 'billing',
      status: 'more-than-once',
      eventIds: ['evt-1', 'evt-2'],
    });
    expect(checkProperty({ id: 'no-duplicates', at: 'billing' }, alo.v, alo.end)?.status).toBe('more-than-once');
    expect(checkProperty({ id: 'no-duplicates' }, alo.v, alo.end)).toBeNull();
    expect(checkProperty({ id: 'nothing-lost' }, alo.v, alo.end)).toBeNull();
  });

  it('"nothing acknowledged is lost": an acknowledged record lost breaks it; a send its writer saw fail does not', () => {
    const acks0 = verdictOf('acks-0-loss');
    expect(checkProperty({ id: 'nothing-lost' }, acks0.v, acks0.end)).toMatchObject({
      layer: 'log',
      subject: 'metrics',
      eventIds: ['m-1'],
    });
    const gap = verdictOf('sequence-gap');
    expect(checkProperty({ id: 'nothing-lost' }, gap.v, gap.end)).toBeNull();
    expect(checkProperty({ id: 'no-loss' }, gap.v, gap.end)).toMatchObject({ layer: 'log', status: 'lost', eventIds: ['evt-2'] });
  });

  it('a read_committed reader stalled at the end breaks "no stall" past its bound', () => {
    const hanging = verdictOf('hanging-transaction');
    const v = checkProperty({ id: 'no-stall', at: 'committed-reader', stallMs: 0 }, hanging.v, hanging.end);
    expect(v).toMatchObject({ layer: 'delivery', subject: 'committed-reader', status: 'stalled' });
    expect(checkProperty({ id: 'no-stall', stallMs: hanging.end }, hanging.v, hanging.end)).toBeNull();
  });

  it('is described in English and Korean', () => {
    expect(describeProperty({ id: 'no-duplicates', at: 'orders-db' })).toBe('no business duplicate at orders-db');
    expect(describeProperty({ id: 'no-duplicates', at: 'orders-db' }, 'ko')).toContain('비즈니스 중복 없음');
  });

  it('says reader in Korean as 컨슈머: 리더 is a partition leader on the page (it read "read_committed 리더가 멈추지 않음")', () => {
    expect(describeProperty({ id: 'no-stall', stallMs: 5000 }, 'ko')).toBe('read_committed 컨슈머가 5000 ms 넘게 멈추지 않음');
    expect(describeProperty({ id: 'no-stall', at: 'billing', stallMs: 5000 }, 'ko')).toBe(
      'read_committed 컨슈머 billing이 5000 ms 넘게 멈추지 않음',
    );
    expect(BREAK_IT_TEXT.ko.properties['no-stall']).toBe('read_committed 컨슈머가 멈추지 않음');
    for (const text of [describeProperty({ id: 'no-stall', stallMs: 1 }, 'ko'), BREAK_IT_TEXT.ko.properties['no-stall']])
      expect(text).not.toContain('리더');
  });
});
