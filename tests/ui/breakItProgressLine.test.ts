/**
 * Break it's running count (src/ui/search/strings.ts, `progressLine`): one worker on two cores is the
 * common case now, so the line says "1 worker", not "1 workers"; and "1 schedule tried" when the
 * configuration alone breaks the property.
 */
import { describe, expect, it } from 'vitest';
import { BREAK_IT_TEXT } from '../../src/ui/search/strings';

describe('Break it: the progress line', () => {
  it('counts in English with singular and plural', () => {
    const line = BREAK_IT_TEXT.en.progressLine;
    expect(line(1, 0, 0, 1)).toBe('1 schedule tried · 0 schedules/s · faults per schedule 0 · 1 worker');
    expect(line(537, 151, 1, 3)).toBe('537 schedules tried · 151 schedules/s · faults per schedule 1 · 3 workers');
  });

  it('counts in Korean with the counter word after each number', () => {
    expect(BREAK_IT_TEXT.ko.progressLine(537, 151, 1, 1)).toBe('시도한 스케줄 537개 · 초당 151개 · 스케줄당 결함 수 1 · 워커 1개');
  });
});
