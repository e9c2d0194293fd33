/**
 * The A/B view's shared clock ("the two runs' virtual time") writes its milliseconds as the step
 * counter and the narration do, with digit groups (61,745 ms), not as a bare 61745 ms.
 */
import { describe, expect, it } from 'vitest';
import { compareStrings } from '../../src/ui/compare/compareStrings';

describe('the A/B clock', () => {
  it('groups the digits of its milliseconds in English and Korean', () => {
    expect(compareStrings('en').at(61745)).toBe('61,745 ms');
    expect(compareStrings('ko').at(61745)).toBe('61,745 ms');
    expect(compareStrings('en').at(0)).toBe('0 ms');
  });
});
