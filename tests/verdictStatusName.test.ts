/** The status word a person reads: the loss layer's "once" (nothing lost) reads "none"; every other layer keeps its word. */
import { describe, expect, it } from 'vitest';
import { STATUS_NAMES, statusNameOf } from '../src/sim/checks/verdictText';

describe('statusNameOf', () => {
  it('nothing lost reads "none" / "없음", not "once"', () => {
    expect(statusNameOf('loss', 'once')).toEqual(['none', '없음']);
    expect(statusNameOf('loss', 'lost')).toEqual(STATUS_NAMES.lost);
  });

  it('the other layers keep the status names', () => {
    for (const layer of ['log', 'delivery', 'processing', 'sink']) expect(statusNameOf(layer, 'once')).toEqual(['once', '한 번']);
  });
});
