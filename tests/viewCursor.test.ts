/**
 * Playback's cursor (src/sim/trace/cursor.ts) gives at every step exactly the view replayTo gives,
 * walking forwards step by step, jumping ahead, and stepping back; and a view it handed out does not
 * change when it runs on.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { ViewCursor } from '../src/sim/trace/cursor';
import { replayTo, type SimView } from '../src/sim/trace/trace';

/** A view as text, Maps and Sets included (JSON.stringify would write them as {}). */
function text(view: SimView): string {
  return JSON.stringify(view, (_k, v) =>
    v instanceof Map ? { map: [...v] } : v instanceof Set ? { set: [...v] } : typeof v === 'bigint' ? `${v}n` : v,
  );
}

const IDS = ['opening-story', 'zombie-fencing', 'streams-eos-crash-restore', 'rebalance-zombie-fenced', 'db-sink-inbox'];

describe('ViewCursor', () => {
  it.each(IDS)('%s: every step forwards, and jumps back and ahead, equal replayTo', (id) => {
    const trace = runScenario(PRESETS.find((p) => p.id === id)?.scenario);
    const n = trace.steps.length;
    expect(n).toBeGreaterThan(40);
    const cursor = new ViewCursor(trace);
    const kept: [number, string, SimView][] = [];
    for (let k = 0; k <= n; k++) {
      const view = cursor.at(k);
      expect(view.step).toBe(k);
      if (k % 97 === 0 || k === n) {
        const expected = text(replayTo(trace, k));
        expect(text(view)).toBe(expected);
        kept.push([k, expected, view]);
      }
    }
    // the views handed out earlier are what they were
    for (const [, expected, view] of kept) expect(text(view)).toBe(expected);
    // back, far ahead, and past the end
    for (const k of [Math.floor(n / 2), 3, n, 0, Math.floor(n / 3) + 300, n + 10, -5]) {
      const c = Math.max(0, Math.min(k, n));
      expect(text(cursor.at(k))).toBe(text(replayTo(trace, c)));
    }
  });
});
