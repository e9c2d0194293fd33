/** A/B comparison of the gallery's defense pair db-sink-duplicate vs db-sink-inbox: only the sink layer differs. */
import { describe, expect, it } from 'vitest';
import { compareRuns, renderComparison } from '../../src/sim/compare/compare';
import { costOfRun } from '../../src/sim/cost/costOfRun';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';

const side = (id: string) => {
  const trace = runScenario(findPreset(id)?.scenario);
  const summary = summarize(trace);
  return { summary, cost: costOfRun(trace, summary) };
};

describe('A/B comparison', () => {
  it('db-sink-duplicate vs db-sink-inbox: the sink layer differs (twice vs once), nothing in Kafka does', () => {
    const c = compareRuns(side('db-sink-duplicate'), side('db-sink-inbox'));
    const differing = c.layers.filter((l) => l.differs);
    expect(differing.map((l) => [l.layer, l.subject, l.a, l.b])).toEqual([['sink', 'orders-db', 'more-than-once', 'once']]);
    expect(c.partitions.every((p) => !p.differs)).toBe(true);
    expect(c.differences).toBe(1);
    expect(renderComparison(c, ['A', 'B'])).toContain('* sink orders-db: A more-than-once | B once');
  });

  it('a run compared with itself has no difference', () => {
    const a = side('commit-two-partitions');
    expect(compareRuns(a, a).differences).toBe(0);
  });
});
