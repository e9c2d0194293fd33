/**
 * A machine's statechart as plain data, read from the machine definition itself (its state nodes
 * and transitions): what the page draws, what `--chart` prints as Mermaid, what the docs show.
 *
 * Transitions that change state are the chart's edges; an event a state handles without leaving it
 * (a reducer on the context) is listed on the state as `handles`.
 */
import type { AnyStateMachine } from 'xstate';

export type ChartNodeType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface ChartNode {
  /** Dotted path from the root, as the trace writes state values: "live.READY". */
  readonly path: string;
  readonly key: string;
  readonly type: ChartNodeType;
  /** Path of the initial child (compound states). */
  readonly initial: string | null;
  readonly children: readonly ChartNode[];
  /** Events this state handles without a transition (targetless), in definition order. */
  readonly handles: readonly string[];
}

export interface ChartEdge {
  readonly source: string;
  readonly target: string;
  /** The event, or null for an eventless (`always`) transition. */
  readonly event: string | null;
  readonly guard: string | null;
}

export interface Chart {
  readonly id: string;
  readonly root: ChartNode;
  /** Path of the root's initial state. */
  readonly initial: string | null;
  readonly edges: readonly ChartEdge[];
}

// biome-ignore lint/suspicious/noExplicitAny: XState's StateNode is generic over every machine's types
type AnyNode = any;

function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'guard';
}

const pathOf = (node: AnyNode): string => (node.path as string[]).join('.');

export function chartOf(machine: AnyStateMachine): Chart {
  const edges: ChartEdge[] = [];
  const visit = (node: AnyNode): ChartNode => {
    const path = pathOf(node);
    const handles: string[] = [];
    const transitions: [string | null, AnyNode][] = [];
    for (const [event, list] of node.transitions as Map<string, AnyNode[]>) for (const t of list) transitions.push([event, t]);
    for (const t of (node.always ?? []) as AnyNode[]) transitions.push([null, t]);
    for (const [event, t] of transitions) {
      const targets = (t.target ?? []) as AnyNode[];
      if (targets.length === 0) {
        if (event !== null && !handles.includes(event)) handles.push(event);
        continue;
      }
      for (const target of targets) edges.push({ source: path, target: pathOf(target), event, guard: guardName(t.guard) });
    }
    const children = Object.values(node.states as Record<string, AnyNode>).map(visit);
    const initial = node.type === 'compound' && node.initial ? pathOf(node.initial.target[0]) : null;
    return { path, key: node.key as string, type: node.type as ChartNodeType, initial, children, handles };
  };
  const root = visit(machine.root);
  return { id: machine.id, root, initial: root.initial, edges };
}

/** Every node of a chart, depth first (the root excluded). */
export function nodesOf(chart: Chart): ChartNode[] {
  const out: ChartNode[] = [];
  const walk = (n: ChartNode) => {
    for (const c of n.children) {
      out.push(c);
      walk(c);
    }
  };
  walk(chart.root);
  return out;
}

/**
 * The active state paths of a state value as the trace writes it ("live.READY", "a.b|c.d" for
 * parallel regions): each active leaf and its ancestors.
 */
export function activePaths(state: string): Set<string> {
  const out = new Set<string>();
  for (const leaf of state.split('|')) {
    const parts = leaf.split('.');
    for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('.'));
  }
  return out;
}

/** The edge a change of state value `before` → `after` took, if the chart has one (the most specific). */
export function edgeOf(chart: Chart, before: string, after: string, event?: string): ChartEdge | null {
  const from = [...activePaths(before)];
  const to = activePaths(after);
  const reaches = (target: string) => to.has(target) || [...to].some((p) => p.startsWith(`${target}.`));
  const candidates = chart.edges.filter((e) => from.includes(e.source) && reaches(e.target));
  const byEvent = event ? candidates.filter((e) => e.event === event) : [];
  const pick = (list: ChartEdge[]) =>
    [...list].sort((a, b) => b.source.length - a.source.length || b.target.length - a.target.length)[0] ?? null;
  const direct = pick(byEvent) ?? pick(candidates);
  if (direct) return direct;
  // through a transient state (one left at once by eventless transitions, as `restarting` is): the edge into it
  const via = chart.edges.filter(
    (e) => from.includes(e.source) && chart.edges.some((f) => f.source === e.target && f.event === null && reaches(f.target)),
  );
  return pick(via);
}

/**
 * The edges a change of state value took, one per region that changed: in a parallel state each
 * leaf entered (a leaf of `after` not in `before`) was reached by its own transition, unless one
 * transition entered several (entering the parallel state enters every region).
 */
export function edgesOf(chart: Chart, before: string, after: string): ChartEdge[] {
  const left = new Set(before.split('|'));
  const out: ChartEdge[] = [];
  for (const leaf of after.split('|')) {
    if (left.has(leaf)) continue;
    const e = edgeOf(chart, before, leaf);
    if (e && !out.includes(e)) out.push(e);
  }
  return out;
}
