/**
 * The consumer's chart has parallel regions: read from the machine, written as Mermaid's concurrent
 * regions, laid out stacked, and in a run each region's active state and last transition marked.
 */
import { describe, expect, it } from 'vitest';
import { actorChart, actorChartText } from '../../src/sim/charts/actorChart';
import { activePaths, chartOf, edgesOf } from '../../src/sim/charts/chart';
import { toMermaid } from '../../src/sim/charts/mermaid';
import { consumerMachine, fetchingState, membershipState } from '../../src/sim/consumer/consumer.machine';
import { stateValueToString } from '../../src/sim/kernel/stateValue';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { layoutChart } from '../../src/ui/statechart/layout';

const chart = chartOf(consumerMachine);
const STABLE_IDLE = 'running.membership.STABLE|running.fetching.ASSIGNED.IDLE';

describe('the consumer chart', () => {
  it('is created, running (parallel: membership and fetching), closing, closed, down; membership has MemberState names', () => {
    expect(chart.root.children.map((c) => `${c.key}:${c.type}`)).toEqual([
      'created:atomic',
      'running:parallel',
      'closing:atomic',
      'closed:atomic',
      'down:atomic',
    ]);
    const running = chart.root.children[1];
    expect(running?.children.map((r) => r.path)).toEqual(['running.membership', 'running.fetching']);
    expect(running?.children[0]?.children.map((c) => c.key)).toEqual([
      'UNJOINED',
      'PREPARING_REBALANCE',
      'COMPLETING_REBALANCE',
      'STABLE',
      'JOIN_PREPARE',
      'REVOKING',
      'USER_ASSIGNED',
    ]);
    expect(running?.children[1]?.children.map((c) => c.key)).toEqual(['STOPPED', 'ASSIGNED']);
    expect(chart.edges).toContainEqual({
      source: 'running.membership.STABLE',
      target: 'running.membership.JOIN_PREPARE',
      event: 'HeartbeatResponse',
      guard: 'heartbeatRejoinsAfterCommit',
    });
    expect(chart.edges).toContainEqual({
      source: 'running.fetching.STOPPED',
      target: 'running.fetching.ASSIGNED',
      event: null,
      guard: 'partitionsAssigned',
    });
  });

  it('writes the regions as Mermaid concurrent regions (-- inside running) and marks the active state of each', () => {
    const text = toMermaid(chart, { current: STABLE_IDLE });
    const lines = text.split('\n');
    const open = lines.indexOf('  state "running" as running {');
    const separator = lines.indexOf('    --');
    expect(open).toBeGreaterThan(0);
    expect(lines[open + 1]).toBe('    state "membership" as running_membership {');
    expect(lines[separator + 1]).toBe('    state "fetching" as running_fetching {');
    expect(text).toContain('  class running_membership_STABLE current');
    expect(text).toContain('  class running_fetching_ASSIGNED_IDLE current');
  });

  it('a state value writes each region’s leaf with its full path; each is active with its ancestors', () => {
    const value = { running: { membership: 'STABLE', fetching: { ASSIGNED: 'IDLE' } } };
    expect(stateValueToString(value)).toBe(STABLE_IDLE);
    expect([...activePaths(STABLE_IDLE)]).toEqual([
      'running',
      'running.membership',
      'running.membership.STABLE',
      'running.fetching',
      'running.fetching.ASSIGNED',
      'running.fetching.ASSIGNED.IDLE',
    ]);
    expect(membershipState(STABLE_IDLE)).toBe('STABLE');
    expect(fetchingState(STABLE_IDLE)).toBe('ASSIGNED.IDLE');
    expect(membershipState('down')).toBe('down');
  });

  it('marks one edge per region that changed', () => {
    const both = edgesOf(
      chart,
      'running.membership.COMPLETING_REBALANCE|running.fetching.STOPPED',
      'running.membership.STABLE|running.fetching.ASSIGNED.INITIALIZING',
    );
    expect(both.map((e) => `${e.source}>${e.target}`)).toEqual([
      'running.membership.COMPLETING_REBALANCE>running.membership.STABLE',
      'running.fetching.STOPPED>running.fetching.ASSIGNED',
    ]);
    const one = edgesOf(
      chart,
      'running.membership.STABLE|running.fetching.ASSIGNED.IDLE',
      'running.membership.STABLE|running.fetching.ASSIGNED.FETCH_IN_FLIGHT',
    );
    expect(one.map((e) => `${e.source}>${e.target}`)).toEqual(['running.fetching.ASSIGNED.IDLE>running.fetching.ASSIGNED.FETCH_IN_FLIGHT']);
    expect(edgesOf(chart, 'created', 'running.membership.PREPARING_REBALANCE|running.fetching.STOPPED').map((e) => e.event)).toEqual([
      'boot',
    ]);
  });

  it('lays the regions out stacked inside running, each region’s states inside it', () => {
    const l = layoutChart(chart);
    const box = (p: string) => l.boxes.find((b) => b.path === p);
    const running = box('running');
    const membership = box('running.membership');
    const fetching = box('running.fetching');
    if (!running || !membership || !fetching) throw new Error('missing boxes');
    expect(running.parallel).toBe(true);
    expect(fetching.y).toBeGreaterThanOrEqual(membership.y + membership.h);
    const inside = (outer: typeof running, inner: typeof running) =>
      inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
    for (const r of [membership, fetching]) expect(inside(running, r)).toBe(true);
    for (const b of l.boxes.filter((x) => x.path.startsWith('running.fetching.'))) expect(inside(fetching, b)).toBe(true);
    for (const b of l.boxes.filter((x) => x.path.startsWith('running.membership.'))) expect(inside(membership, b)).toBe(true);
  });
});

describe('the consumer chart in a run (opening-story)', () => {
  const preset = findPreset('opening-story');
  if (!preset) throw new Error('opening-story is missing');
  const trace = runScenario(preset.scenario);

  it('the SyncGroup answer changes both regions: its step marks both transitions', () => {
    const i = trace.steps.findIndex((s) => s.actor === 'billing.consumer' && s.label === 'SyncGroupResponse');
    expect(i).toBeGreaterThan(0);
    const a = actorChart(trace, stateAt(trace, i + 1), 'billing.consumer');
    expect(membershipState(a?.state ?? '')).toBe('STABLE');
    expect(fetchingState(a?.state ?? '')).toMatch(/^ASSIGNED\./);
    expect(a?.last?.step).toBe(i);
    expect(a?.last?.edges.map((e) => e.event)).toEqual(['SyncGroupResponse', null]);
  });

  it('--chart prints the consumer with its active state in each region', () => {
    const a = actorChart(trace, stateAt(trace, trace.steps.length), 'billing.consumer');
    if (!a) throw new Error('no chart');
    const text = actorChartText(a);
    expect(text).toContain('  class running_membership_STABLE current');
    expect(text).toMatch(/ {2}class running_fetching_ASSIGNED_\w+ current/);
  });
});
