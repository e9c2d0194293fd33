/** Charts read from the machines, their Mermaid text, the per-instance charts and the page's layout. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actorChart, actorChartText, instanceLastTransition } from '../../src/sim/charts/actorChart';
import { activePaths, chartOf, edgeOf, nodesOf } from '../../src/sim/charts/chart';
import { DOCUMENTED, withCharts } from '../../src/sim/charts/docs';
import { mermaidId, toMermaid } from '../../src/sim/charts/mermaid';
import { canGroupTransition, classicGroupStateMachine } from '../../src/sim/coordinator/classicGroupState';
import { TXN_STATES, transactionStateMachine, VALID_PREVIOUS_STATES } from '../../src/sim/coordinator/transactionState';
import { findPreset } from '../../src/sim/presets';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import { runScenario, stateAt } from '../../src/sim/run';
import { layoutChart } from '../../src/ui/statechart/layout';

const producer = chartOf(producerMachine);

describe('chartOf', () => {
  it('reads the producer chart from the machine: TransactionManager states nested under live', () => {
    const live = producer.root.children.find((n) => n.key === 'live');
    expect(live?.type).toBe('compound');
    expect(live?.initial).toBe('live.UNINITIALIZED');
    expect(live?.children.map((c) => c.key)).toEqual([
      'UNINITIALIZED',
      'INITIALIZING',
      'READY',
      'IN_TRANSACTION',
      'COMMITTING_TRANSACTION',
      'ABORTING_TRANSACTION',
      'ABORTABLE_ERROR',
    ]);
    // the common handlers are on the parent, once
    expect(live?.handles).toContain('ProduceResponse');
    expect(live?.children.every((c) => !c.handles.includes('ProduceResponse'))).toBe(true);
  });

  it('keeps guarded eventless transitions as edges with their guard', () => {
    expect(producer.edges).toContainEqual({ source: 'live', target: 'FATAL_ERROR', event: null, guard: 'fatal' });
    expect(producer.edges).toContainEqual({ source: 'live.COMMITTING_TRANSACTION', target: 'live.READY', event: null, guard: 'completed' });
  });

  it('has exactly the transitions Kafka allows between TransactionState values', () => {
    const c = chartOf(transactionStateMachine);
    for (const from of TXN_STATES)
      for (const to of TXN_STATES) {
        const has = c.edges.some((e) => e.source === from && e.target === to);
        expect(has, `${from} → ${to}`).toBe(VALID_PREVIOUS_STATES[to].includes(from));
      }
  });

  it("has exactly ClassicGroupState's transitions between group states", () => {
    const c = chartOf(classicGroupStateMachine);
    expect(nodesOf(c).map((n) => n.key)).toEqual(['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead']);
    expect(c.edges.map((e) => `${e.source}>${e.target}`).sort()).toEqual(
      [
        'CompletingRebalance>Dead',
        'CompletingRebalance>PreparingRebalance',
        'CompletingRebalance>Stable',
        'Empty>Dead',
        'Empty>PreparingRebalance',
        'PreparingRebalance>CompletingRebalance',
        'PreparingRebalance>Dead',
        'PreparingRebalance>Empty',
        'Stable>Dead',
        'Stable>PreparingRebalance',
      ].sort(),
    );
    expect(canGroupTransition('Stable', 'Empty')).toBe(false);
    expect(canGroupTransition('PreparingRebalance', 'Empty')).toBe(true);
  });

  it('finds the edge a state change took, the most specific one', () => {
    expect(edgeOf(producer, 'live.IN_TRANSACTION', 'live.COMMITTING_TRANSACTION')?.event).toBe('commitTransaction');
    expect(edgeOf(producer, 'live.ABORTING_TRANSACTION', 'FATAL_ERROR')).toMatchObject({ source: 'live', guard: 'fatal' });
    expect(edgeOf(producer, 'down', 'live.UNINITIALIZED')).toMatchObject({ source: 'down', target: 'restarting' });
    expect([...activePaths('a.b|c.d')]).toEqual(['a', 'a.b', 'c', 'c.d']);
  });
});

describe('toMermaid', () => {
  it('writes a stateDiagram-v2 block with nesting, guards and the current state', () => {
    const text = toMermaid(producer, { current: 'live.READY' });
    expect(text.split('\n')[0]).toBe('stateDiagram-v2');
    expect(text).toContain('state "live" as live {');
    expect(text).toContain('  live_COMMITTING_TRANSACTION --> live_READY : always [completed]');
    expect(text).toContain('  live_READY --> live_IN_TRANSACTION : beginTransaction');
    expect(text).toContain('  class live_READY current');
    // every id Mermaid sees is a plain identifier
    for (const line of text.split('\n').filter((l) => l.includes('-->'))) expect(line).toMatch(/^\s+(\[\*\]|\w+) --> \w+( : .+)?$/);
  });

  it('draws a transition on the root (taken in any state) from every top-level state, never from an empty id', () => {
    for (const [name, , machine] of DOCUMENTED) {
      const chart = chartOf(machine);
      const text = toMermaid(chart);
      for (const line of text.split('\n').filter((l) => l.includes('-->'))) expect(line, name).toMatch(/^\s+(\[\*\]|\w+) --> \w+( : .+)?$/);
      for (const e of chart.edges.filter((x) => x.source === ''))
        for (const top of chart.root.children.filter((c) => c.path !== e.target))
          expect(text, name).toContain(`  ${mermaidId(top.path)} --> ${mermaidId(e.target)} : ${e.event}`);
    }
  });
});

describe('charts of a run', () => {
  const preset = findPreset('zombie-fencing');
  if (!preset) throw new Error('zombie-fencing is missing');
  const trace = runScenario(preset.scenario);

  it("follows the producer's state and last transition through the run", () => {
    const fenced = trace.steps.findIndex((s) => s.actor === 'instance-a.producer' && s.after === 'FATAL_ERROR');
    expect(fenced).toBeGreaterThan(0);
    const a = actorChart(trace, stateAt(trace, fenced + 1), 'instance-a.producer');
    expect(a?.state).toBe('FATAL_ERROR');
    expect(a?.last).toMatchObject({ step: fenced, after: 'FATAL_ERROR', edge: { guard: 'fatal' } });
    const before = actorChart(trace, stateAt(trace, fenced), 'instance-a.producer');
    expect(before?.state).toBe(trace.steps.at(fenced)?.before);
  });

  it('gives the transaction coordinator one chart per transactional.id, its last transition from the txnState facts', () => {
    const end = stateAt(trace, trace.steps.length);
    const a = actorChart(trace, end, 'txn-coordinator');
    expect(a?.state).toBe('serving');
    const txn = a?.instances.find((i) => i.instance === 'order-processor-0');
    expect(txn?.state).toBe('CompleteCommit');
    if (!a || !txn) throw new Error('no chart');
    const last = instanceLastTransition(trace, a, txn, trace.steps.length, () => stateAt(trace, trace.steps.length - 1));
    expect(last).toMatchObject({
      before: 'PrepareCommit',
      after: 'CompleteCommit',
      edge: { source: 'PrepareCommit', target: 'CompleteCommit' },
    });
  });

  it('gives the group coordinator one chart per group, and marks the change the step on screen made', () => {
    const i = trace.steps.findIndex((s, k) => {
      if (s.actor !== 'group-coordinator') return false;
      const g = (v: ReturnType<typeof stateAt>) =>
        (v.actors.get('group-coordinator')?.context as { groups: Record<string, { state: string }> }).groups['committed-reader']?.state;
      const before = g(stateAt(trace, k));
      return before !== undefined && before !== g(stateAt(trace, k + 1));
    });
    expect(i).toBeGreaterThanOrEqual(0);
    const view = stateAt(trace, i + 1);
    const a = actorChart(trace, view, 'group-coordinator');
    const group = a?.instances.find((x) => x.instance === 'committed-reader');
    if (!a || !group) throw new Error('no chart');
    const last = instanceLastTransition(trace, a, group, i + 1, () => stateAt(trace, i));
    expect(last?.after).toBe(group.state);
    expect(last && canGroupTransition(last.before as never, last.after as never)).toBe(true);
  });

  it('prints what --chart prints: the actor chart and each instance chart', () => {
    const a = actorChart(trace, stateAt(trace, trace.steps.length), 'txn-coordinator');
    if (!a) throw new Error('no chart');
    const text = actorChartText(a);
    expect(text.match(/stateDiagram-v2/g)?.length).toBe(2);
    expect(text).toContain('%% transactional.id order-processor-0 in state CompleteCommit');
    expect(text).toContain('  class CompleteCommit current');
  });
});

describe('layout', () => {
  it('puts every state of the chart in a box, children inside their parent, and draws every edge', () => {
    const l = layoutChart(producer);
    const boxes = new Map(l.boxes.map((b) => [b.path, b]));
    expect(new Set(boxes.keys())).toEqual(new Set(nodesOf(producer).map((n) => n.path)));
    const live = boxes.get('live');
    for (const b of l.boxes.filter((x) => x.path.startsWith('live.'))) {
      expect(live && b.x >= live.x && b.y >= live.y && b.x + b.w <= live.x + live.w && b.y + b.h <= live.y + live.h).toBe(true);
    }
    expect(l.lines).toHaveLength(producer.edges.length);
    for (const b of l.boxes) expect(b.x + b.w <= l.width && b.y + b.h <= l.height).toBe(true);
  });
});

describe('docs/architecture.md', () => {
  it('shows the charts as the machines define them (regenerate: npx tsx scripts/charts-doc.ts)', () => {
    const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    expect(withCharts(doc)).toBe(doc);
  });
});
