/**
 * An engine note writes its durations bare ("has been open 9995 ms"); the narration groups them by
 * thousands as every other time on screen, and leaves configuration values (transaction.timeout.ms=5000)
 * as written.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import type { Fact } from '../../src/sim/trace/facts';
import { runPreset } from '../presets/helpers';

describe('durations in narrated engine notes', () => {
  it('transaction-timeout: "open 9,995 ms", the configured value untouched, in English and Korean', () => {
    const r = runPreset('transaction-timeout');
    const i = r.trace.steps.findIndex((s) => (s.facts as Fact[]).some((f) => f.kind === 'note' && /has been open/.test(f.text)));
    expect(narrate(r.trace, i, 'en')).toContain('has been open 9,995 ms, more than transaction.timeout.ms=5000');
    expect(narrate(r.trace, i, 'ko')).toContain('9,995 ms 동안 열려 있어 transaction.timeout.ms=5000을 넘었습니다');
  });
});
