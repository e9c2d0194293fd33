/**
 * The verdict's counts of events group their thousands ("each of 2,000 events"), as every other
 * count on screen does (groupDigits), in English and Korean.
 */
import { describe, expect, it } from 'vitest';
import { findingText } from '../../src/sim/checks/verdictText';
import type { ProcessingFinding } from '../../src/sim/checks/verdictTypes';

describe('wording', () => {
  it('the verdict groups the thousands of its counts, in English and Korean', () => {
    const f: ProcessingFinding = {
      layer: 'processing',
      subject: 'billing',
      status: 'once',
      sentence: '',
      eventIds: [],
      steps: [],
      groupId: 'billing',
      events: 2000,
      repeated: [],
      losses: [],
      stalls: [],
    };
    expect(findingText(f, 'en')).toBe('Processing in billing: each of 2,000 events processed once.');
    expect(findingText(f, 'ko')).toContain('이벤트 2,000개가 각각 한 번씩 처리됐습니다');
  });
});
