/**
 * An XState machine definition turned into plain data for the compiled runner (compiledMachine.ts):
 * its state nodes in document order, their transitions, eventless transitions, entry and exit
 * handlers and guards. Only what the model's machines use is accepted — atomic, compound and
 * parallel states; one target per transition; `reenter`; guards that are functions of (context,
 * event) or XState's `stateIn`, `not`, `and`, `or` of them; actions made by `handle()`
 * (actors/out.ts). Anything else (history or final states, delays, invoked actors, `onDone`,
 * wildcard events, initial actions, guard params) throws Unsupported: the kernel then runs the
 * machine with XState.
 */
import { type AnyStateMachine, and, not, or, stateIn } from 'xstate';
import { HANDLER, type Out } from '../actors/out';

export type Ctx = unknown;
export type Ev = { type: string } & Record<string, unknown>;
export type Handler = (context: Ctx, event: Ev, out: Out) => Ctx;
/** `active(node)`: whether a node is in the configuration (for stateIn). */
export type Guard = (context: Ctx, event: Ev, active: (node: CNode) => boolean) => boolean;

export interface CTransition {
  readonly source: CNode;
  readonly guard: Guard | null;
  /** null: targetless (exits and enters nothing). */
  readonly target: CNode | null;
  readonly reenter: boolean;
  readonly actions: readonly Handler[];
  /** The transition domain (SCXML): what it exits lies inside it; null when it has none (a re-entering root transition). */
  domain: CNode | null;
  /** The states it enters when taken alone, in document order. */
  entrySet: readonly CNode[];
}

export interface CNode {
  /** XState's `order`: the node's place in document order (pre-order). */
  readonly order: number;
  /** The largest order among its descendants (its own when it has none): descendants are (order, end]. */
  end: number;
  readonly key: string;
  readonly type: 'atomic' | 'compound' | 'parallel';
  readonly parent: CNode | null;
  readonly children: CNode[];
  initial: CNode | null;
  readonly on: Map<string, readonly CTransition[]>;
  always: readonly CTransition[];
  readonly entry: readonly Handler[];
  readonly exit: readonly Handler[];
  /** The non-empty eventless lists of this node and its ancestors, innermost first. */
  alwaysChain: readonly (readonly CTransition[])[];
}

export interface Chart {
  readonly root: CNode;
  /** Every node, indexed by order. */
  readonly nodes: readonly CNode[];
  /** The initial configuration, in document order. */
  readonly initialSet: readonly CNode[];
  readonly context: (input: unknown) => Ctx;
}

export class Unsupported extends Error {}

/** A strict descendant of `d`; every node is one of `null` (XState's undefined domain). */
export function isDescendant(a: CNode, d: CNode | null): boolean {
  return d === null || (a.order > d.order && a.order <= d.end);
}

// biome-ignore lint/suspicious/noExplicitAny: XState's state nodes are walked structurally
type XNode = any;

const CHECK = {
  stateIn: (stateIn('x') as unknown as { check: unknown }).check,
  not: (not('x') as unknown as { check: unknown }).check,
  and: (and(['x']) as unknown as { check: unknown }).check,
  or: (or(['x']) as unknown as { check: unknown }).check,
};

function handlerOf(action: unknown): Handler {
  const h = (action as { [HANDLER]?: Handler } | null)?.[HANDLER];
  if (typeof h !== 'function') throw new Unsupported('an action that is not a handler');
  return h;
}

export function compileChart(machine: AnyStateMachine): Chart {
  const nodes: CNode[] = [];
  const byX = new Map<XNode, CNode>();
  const build = (x: XNode, parent: CNode | null): CNode => {
    const c = x.config;
    if (!['atomic', 'compound', 'parallel'].includes(x.type)) throw new Unsupported(`a ${x.type} state`);
    if (c.after || c.onDone || x.invoke?.length || x.history) throw new Unsupported(`state ${x.id}`);
    if (x.initial?.actions?.length) throw new Unsupported('initial actions');
    if (x.order !== nodes.length) throw new Unsupported('document order');
    const node: CNode = {
      order: x.order,
      end: x.order,
      key: x.key,
      type: x.type,
      parent,
      children: [],
      initial: null,
      on: new Map(),
      always: [],
      entry: x.entry.map(handlerOf),
      exit: x.exit.map(handlerOf),
      alwaysChain: [],
    };
    nodes.push(node);
    byX.set(x, node);
    for (const child of Object.values<XNode>(x.states)) node.children.push(build(child, node));
    node.end = nodes.length - 1;
    return node;
  };
  const root = build(machine.root, null);
  for (const [x, node] of byX) if (node.type === 'compound') node.initial = byX.get(x.initial?.target?.[0]) ?? null;
  for (const node of nodes) if (node.type === 'compound' && !node.initial) throw new Unsupported('no initial state');

  const guard = (g: unknown): Guard | null => (g === undefined ? null : guardOf(machine, g, byX));
  const transition = (t: XNode): CTransition => {
    const targets: XNode[] = t.target ?? [];
    if (targets.length > 1) throw new Unsupported('several targets');
    const target = targets.length ? (byX.get(targets[0]) ?? null) : null;
    if (targets.length && !target) throw new Unsupported('a target outside the machine');
    const source = byX.get(t.source);
    if (!source) throw new Unsupported('a transition from outside the machine');
    return {
      source,
      guard: guard(t.guard),
      target,
      reenter: t.reenter === true,
      actions: t.actions.map(handlerOf),
      domain: null,
      entrySet: [],
    };
  };
  for (const [x, node] of byX) {
    for (const [event, list] of x.transitions as Map<string, XNode[]>) {
      if (event.includes('*') || event.startsWith('xstate.')) throw new Unsupported(`event ${event}`);
      node.on.set(event, list.map(transition));
    }
    node.always = (x.always ?? []).map(transition);
  }
  for (const node of nodes) {
    const chain: CTransition[][] = [];
    for (let n: CNode | null = node; n; n = n.parent) if (n.always.length) chain.push(n.always as CTransition[]);
    node.alwaysChain = chain;
    for (const t of [...node.always, ...[...node.on.values()].flat()]) {
      t.domain = domainOf(t, root);
      t.entrySet = entrySet([t]);
    }
  }
  const initialSet = new Set<CNode>([root]);
  addDescendants(root, initialSet);
  const config = machine.config.context;
  return {
    root,
    nodes,
    initialSet: inOrder(initialSet),
    context: (input) => (typeof config === 'function' ? config({ input, self: undefined, spawn: undefined }) : config),
  };
}

function guardOf(machine: AnyStateMachine, g: unknown, byX: Map<XNode, CNode>): Guard {
  const impl = typeof g === 'string' ? (machine.implementations.guards as Record<string, unknown>)[g] : g;
  if (typeof impl === 'string') return guardOf(machine, impl, byX);
  if (typeof impl !== 'function') throw new Unsupported('a guard object (params)');
  if (!('check' in impl)) {
    const fn = impl as (args: { context: Ctx; event: Ev }, params: undefined) => boolean;
    // one arguments object per guard, filled for each call (guards read it and keep nothing; a
    // guard never runs inside itself): no object per guard evaluation
    const args: { context: Ctx; event: Ev | undefined } = { context: undefined, event: undefined };
    return (context, event) => {
      args.context = context;
      args.event = event;
      const pass = fn(args as { context: Ctx; event: Ev }, undefined);
      args.context = undefined;
      args.event = undefined;
      return pass;
    };
  }
  const b = impl as unknown as { check: unknown; guards?: unknown[]; stateValue?: unknown };
  const inner = () => (b.guards ?? []).map((x) => guardOf(machine, x, byX));
  if (b.check === CHECK.stateIn) {
    const wanted = stateInNodes(machine, b.stateValue, byX);
    return (_c, _e, active) => wanted.every(active);
  }
  if (b.check === CHECK.not) {
    const [first] = inner();
    if (!first) throw new Unsupported('not() without a guard');
    return (c, e, active) => !first(c, e, active);
  }
  // loops, not every/some with a callback: a guard runs at every event, and the callback was a closure made for each run
  if (b.check === CHECK.and) {
    const all = inner();
    return (c, e, active) => {
      for (const x of all) if (!x(c, e, active)) return false;
      return true;
    };
  }
  if (b.check === CHECK.or) {
    const any = inner();
    return (c, e, active) => {
      for (const x of any) if (x(c, e, active)) return true;
      return false;
    };
  }
  throw new Unsupported('a built-in guard the compiled runner does not know');
}

/** The nodes `stateIn(value)` requires (XState: snapshot.matches(value), or the node of a #id). */
function stateInNodes(machine: AnyStateMachine, value: unknown, byX: Map<XNode, CNode>): CNode[] {
  if (typeof value === 'string' && value.startsWith('#')) {
    const n = byX.get(machine.getStateNodeById(value));
    if (!n) throw new Unsupported('stateIn of an unknown state');
    return [n];
  }
  const out: CNode[] = [];
  const walk = (x: XNode, v: unknown): void => {
    // XState's toStateValue: "a.b" is { a: "b" }
    const tree = typeof v === 'string' ? pathValue(v.split('.')) : v;
    const entries: [string, unknown][] = typeof tree === 'string' ? [[tree, null]] : Object.entries(tree as object);
    for (const [key, sub] of entries) {
      const child = x.states?.[key];
      const n = byX.get(child);
      if (!n) throw new Unsupported('stateIn of an unknown state');
      out.push(n);
      if (sub !== null && sub !== undefined) walk(child, sub);
    }
  };
  walk(machine.root, value);
  return out;
}

function pathValue(parts: readonly string[]): unknown {
  return parts.length === 1 ? parts[0] : { [parts[0] as string]: pathValue(parts.slice(1)) };
}

function properAncestors(s: CNode, to: CNode | null): CNode[] {
  const out: CNode[] = [];
  for (let m = s.parent; m && m !== to; m = m.parent) out.push(m);
  return out;
}

/** getTransitionDomain (XState stateUtils): the source itself for an internal transition into it, else the targets' and source's least common ancestor. */
function domainOf(t: CTransition, root: CNode): CNode | null {
  const target = t.target;
  if (!target) return null;
  if (!t.reenter && (target === t.source || isDescendant(target, t.source))) return t.source;
  for (const anc of properAncestors(target, null)) if (isDescendant(t.source, anc)) return anc;
  return t.reenter ? null : root;
}

export function inOrder(set: Iterable<CNode>): CNode[] {
  return [...set].sort((a, b) => a.order - b.order);
}

function hasDescendantIn(set: Set<CNode>, n: CNode): boolean {
  for (const s of set) if (isDescendant(s, n)) return true;
  return false;
}

/** addDescendantStatesToEnter: a compound state's initial state, every region of a parallel one, down to the leaves. */
function addDescendants(n: CNode, set: Set<CNode>): void {
  if (n.type === 'compound') {
    const init = n.initial as CNode;
    set.add(init);
    addDescendants(init, set);
    addAncestors(properAncestors(init, n), null, set);
  } else if (n.type === 'parallel') {
    for (const child of n.children) {
      if (hasDescendantIn(set, child)) continue;
      set.add(child);
      addDescendants(child, set);
    }
  }
}

/** addAncestorStatesToEnter: the ancestors inside the domain, and the other regions of a parallel one. */
function addAncestors(ancestors: readonly CNode[], domain: CNode | null, set: Set<CNode>): void {
  for (const anc of ancestors) {
    if (domain === null || isDescendant(anc, domain)) set.add(anc);
    if (anc.type === 'parallel') {
      for (const child of anc.children) {
        if (hasDescendantIn(set, child)) continue;
        set.add(child);
        addDescendants(child, set);
      }
    }
  }
}

/** computeEntrySet of transitions taken together, in document order (no history states). */
export function entrySet(transitions: readonly CTransition[]): CNode[] {
  const set = new Set<CNode>();
  for (const t of transitions) {
    const s = t.target;
    if (!s) continue;
    const domain = t.domain;
    if (t.source !== s || t.source !== domain || t.reenter) set.add(s);
    addDescendants(s, set);
    const ancestors = properAncestors(s, domain);
    if (domain?.type === 'parallel') ancestors.push(domain);
    addAncestors(ancestors, !t.source.parent && t.reenter ? null : domain, set);
  }
  return inOrder(set);
}

/** computeExitSet: the active states inside each transition's domain (and the domain of a re-entering one), innermost first. */
export function exitSet(transitions: readonly CTransition[], active: readonly CNode[]): CNode[] {
  const set = new Set<CNode>();
  for (const t of transitions) {
    if (!t.target) continue;
    if (t.reenter && t.source === t.domain) set.add(t.domain);
    for (const s of active) if (isDescendant(s, t.domain)) set.add(s);
  }
  return [...set].sort((a, b) => b.order - a.order);
}

/** removeConflictingTransitions: of two transitions exiting a common state, the one from the deeper source wins, else the first. */
export function withoutConflicts(enabled: readonly CTransition[], active: readonly CNode[]): CTransition[] {
  const kept: CTransition[] = [];
  for (const t1 of enabled) {
    if (kept.includes(t1)) continue;
    const exit1 = exitSet([t1], active);
    let preempted = false;
    const remove: CTransition[] = [];
    for (const t2 of kept) {
      const exit2 = exitSet([t2], active);
      if (!exit1.some((s) => exit2.includes(s))) continue;
      if (isDescendant(t1.source, t2.source)) remove.push(t2);
      else {
        preempted = true;
        break;
      }
    }
    if (preempted) continue;
    for (const t of remove) kept.splice(kept.indexOf(t), 1);
    kept.push(t1);
  }
  return kept;
}
