/**
 * StreamThread.maybeCommit runs on every loop and, once more than commit.interval.ms has passed,
 * commits and sets lastCommitMs = now — also when there is nothing to commit. So commits fall on
 * the thread's clock, not one interval after the first record of an idle spell: a record that
 * arrives at 40 s under at_least_once (interval 30 s, from the thread's start) is committed at the
 * ~60 s tick, and a crash at 45 s processes it again. Before, the model committed it at once.
 */

import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { commitIsDue, lastCommitTick } from '../../src/sim/streams/processing';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { storeOf } from './storeOf';

describe("the Streams thread's commit clock", () => {
  it('lastCommitTick: the last commit plus whole periods of commit.interval.ms + 1, never past now', () => {
    const d = { lastCommitAt: 4, commitIntervalMs: 1000 };
    expect(lastCommitTick(d, 4)).toBe(4);
    expect(lastCommitTick(d, 1004)).toBe(4);
    expect(lastCommitTick(d, 1005)).toBe(1005);
    expect(lastCommitTick(d, 3502)).toBe(3007);
    // commit.interval.ms = 0: every loop commits
    expect(lastCommitTick({ lastCommitAt: 10, commitIntervalMs: 0 }, 17)).toBe(17);
    expect(commitIsDue({ lastCommitAt: 3007, commitIntervalMs: 1000, uncommitted: 1 } as never, 4008)).toBe(true);
    expect(commitIsDue({ lastCommitAt: 3007, commitIntervalMs: 1000, uncommitted: 0 } as never, 4008)).toBe(false);
  });

  it('at_least_once: a record at 40 s waits for the ~60 s tick, so a crash at 45 s processes it again', () => {
    const scenario = {
      version: 1,
      seed: 1,
      topics: [
        { name: 'in', partitions: 1 },
        { name: 'out', partitions: 1 },
      ],
      clients: [
        {
          id: 'src',
          type: 'producer',
          script: [{ op: 'send', topic: 'in', key: 'a', value: 'x', headers: { event_id: 'e1' }, at: 40000 }],
        },
        { id: 'counter', type: 'streams', config: { 'application.id': 'app' }, inputTopic: 'in', outputTopic: 'out' },
      ],
      faults: [{ type: 'crash', target: 'counter', at: 45000, durationMs: 1000 }],
      run: { maxTimeMs: 120000 },
    } as unknown as Scenario;
    const trace = runScenario(scenario);
    const processed = trace.steps.flatMap((s) =>
      (s.facts as readonly Fact[]).filter((f) => f.kind === 'processed' && (f as { app?: string }).app === 'counter'),
    );
    expect(processed).toHaveLength(2);
    const commits = trace.steps.filter((s) => s.actor === 'counter.app' && (s.detail as { call?: string } | null)?.call === 'commitSync');
    expect(commits.every((s) => s.t > 45000)).toBe(true);
    expect(storeOf(summarize(trace).streams[0])).toEqual({ a: 2 });
  });
});
