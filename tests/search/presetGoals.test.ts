/**
 * Every preset has a Break it goal whose outcome is read from its expectedVerdict. The full k = 1
 * check of every preset (minutes on a loaded machine) runs in `npm run bench`; here a pitfall and a
 * defense whose goals are cheap run in full.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, PRESETS } from '../../src/sim/presets';
import { checkPreset } from '../../src/sim/search/presetCheck';
import { expectedOutcome, goalFor, PRESET_GOALS } from '../../src/sim/search/presetGoals';

describe('preset goals', () => {
  it('every preset has one, about a subject its expectedVerdict names', () => {
    for (const p of PRESETS) {
      const goal = PRESET_GOALS[p.id];
      expect(goal, p.id).toBeDefined();
      expect(
        p.expectedVerdict.some((f) => f.subject === goal?.property.at),
        `${p.id}: ${goal?.property.at}`,
      ).toBe(true);
    }
    expect(goalFor('my-own-scenario').property.id).toBe('any');
  });

  it('pitfalls are those whose expectedVerdict shows the finding broken; defenses show it once', () => {
    const outcome = (id: string) => {
      const p = findPreset(id);
      if (!p) throw new Error(id);
      return expectedOutcome(p, goalFor(id)).kind;
    };
    expect(outcome('db-sink-duplicate')).toBe('breaks');
    expect(outcome('db-sink-inbox')).toBe('holds');
    expect(outcome('ctp-exactly-once-crash')).toBe('holds');
    expect(outcome('hanging-transaction')).toBe('breaks');
    // a record left above the high watermark is neither lost nor a duplicate: the defense holds
    expect(outcome('min-insync-blocks-writes')).toBe('holds');
  });

  it("offset-reset-replays-output keeps its scripted stop and the operator's reset (keepFaults): the configuration alone breaks it", () => {
    const p = findPreset('offset-reset-replays-output');
    if (!p) throw new Error('offset-reset-replays-output');
    expect(goalFor(p.id).keepFaults).toBe(true);
    const c = checkPreset(p);
    expect(c.pass).toBe(true);
    expect(c.result.counterexample?.k).toBe(0);
    expect(c.result.counterexample?.violation).toMatchObject({ layer: 'output', subject: 'settlements', status: 'more-than-once' });
  });

  it('transactional-id-expired: the idle time alone loses evt-2, so the search finds it with no fault (k = 0)', () => {
    const p = findPreset('transactional-id-expired');
    if (!p) throw new Error('transactional-id-expired');
    expect(expectedOutcome(p, goalFor(p.id))).toMatchObject({ kind: 'breaks', layer: 'log', subject: 'orders', status: 'lost' });
    const c = checkPreset(p);
    expect(c.why).toBe('');
    expect(c.pass).toBe(true);
    expect(c.result.counterexample?.k).toBe(0);
    expect(c.result.counterexample?.violation).toMatchObject({ layer: 'log', subject: 'orders', status: 'lost', eventIds: ['evt-2'] });
  });

  it.each(['acks-0-loss', 'zombie-fencing', 'sequence-gap', 'db-sink-offsets-in-db'])(
    '%s: exhaustive k = 1 gives the outcome its expectedVerdict implies',
    (id) => {
      const p = findPreset(id);
      if (!p) throw new Error(id);
      const c = checkPreset(p);
      expect(c.why).toBe('');
      expect(c.pass).toBe(true);
    },
    120_000,
  );
});
