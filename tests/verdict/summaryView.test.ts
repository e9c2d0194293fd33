/**
 * The summary view (src/sim/trace/summaryView.ts) is summarize's summary in pages: at steps in
 * random order, each list's count is the length summarize gives and each page is the slice of it
 * asked for; the partitions are summarize's rows without their records; the verdict is its verdict
 * less the row of every event.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { summaryViewAt } from '../../src/sim/trace/summaryView';

function expectPage<T>(
  page: { count: number; from: number; rows: readonly T[] },
  all: readonly T[],
  from: number | null,
  size: number,
): void {
  expect(page.count).toBe(all.length);
  const start = from === null ? Math.max(0, all.length - size) : Math.min(from, all.length);
  expect(page.from).toBe(start);
  expect(page.rows).toEqual(all.slice(start, start + size));
}

describe('summaryViewAt', () => {
  for (const id of ['db-sink-inbox', 'streams-eos-crash-restore', 'rebalance-zombie-fenced', 'acks-1-leader-failover-loss'])
    it(`${id}: counts and pages of summarize's lists at steps in random order`, () => {
      const trace = runScenario((PRESETS.find((p) => p.id === id) as (typeof PRESETS)[number]).scenario);
      const n = trace.steps.length;
      for (const [step, from, size] of [
        [n, null, 5],
        [Math.floor(n / 3), 0, 3],
        [Math.floor((2 * n) / 3), 2, 100],
        [1, null, 20],
        [Math.floor(n / 2), 4, 1],
      ] as const) {
        const view = stateAt(trace, step);
        const s = summarize(trace, step, view);
        const v = summaryViewAt(trace, view, { from, size });
        const { events: _, ...verdict } = s.verdict;
        expect(v.verdict).toEqual(verdict);
        expect(v.partitions).toEqual(s.partitions.map(({ records: __, replication: ___, ...head }) => head));
        expect(v.groups).toEqual(s.groups);
        expect(v.streams).toEqual(s.streams);
        for (const [k, c] of s.consumers.entries()) {
          const { received, ...rest } = c;
          const { received: page, ...restView } = v.consumers[k] as (typeof v.consumers)[number];
          expect(restView).toEqual(rest);
          expectPage(page, received, from, size);
        }
        for (const [k, c] of s.clients.entries()) {
          expect(v.clients[k]?.id).toBe(c.id);
          expect(v.clients[k]?.notes).toEqual(c.notes);
          expectPage(v.clients[k]?.errors as (typeof v.clients)[number]['errors'], c.errors, from, size);
        }
        expectPage(v.sideEffects, s.sideEffects, from, size);
      }
    });
});
