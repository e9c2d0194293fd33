/**
 * A machine compiled for speed: the same XState definition (compiledChart.ts turns it into plain
 * data), run without XState's interpreter — its snapshots, action objects and per-step sets.
 *
 * It follows XState v5's macrostep (stateUtils.ts), for atomic, compound and parallel states:
 * - an event: the deepest active states first, each parallel region in document order, the first
 *   enabled transition of each state (its guard passes), bubbling up to the parent when a state has
 *   none; transitions from several regions are all taken unless they exit a common state
 *   (removeConflictingTransitions);
 * - a microstep: the exit set (the active states inside each transition's domain) innermost and
 *   last-in-document-order first, then the transitions' actions in order, then the entry set
 *   (targets, their initial descendants, ancestors inside the domain and sibling regions) in
 *   document order; each handler sees the context the one before it returned;
 * - then eventless (`always`) transitions — from each active leaf in configuration order, the
 *   first enabled of it and its ancestors — while the last microstep changed the state or the
 *   context, and the raised events in order, until neither is left.
 * The configuration is kept in XState's order (`_nodes`: states added as entered), since eventless
 * selection and the state value follow it. `compile` refuses whatever compiledChart.ts does not
 * accept (the kernel then runs the machine with XState); unit tests compare both on small charts
 * (tests/compiledMachine.test.ts) and a property test holds them to one traceHash on every preset
 * and random scenarios.
 */
import type { AnyStateMachine } from 'xstate';
import { Out } from '../actors/out';
import {
  type Chart,
  type CNode,
  type CTransition,
  type Ctx,
  compileChart,
  type Ev,
  entrySet,
  exitSet,
  type Handler,
  inOrder,
  withoutConflicts,
} from './compiledChart';
import type { Effect } from './effects';
import { clear } from './reusedList';
import { stateValueToString } from './stateValue';

export type CompiledMachine = Chart;

const cache = new WeakMap<AnyStateMachine, Chart | null>();

/** The compiled form of a machine, or null when it uses what the compiled runner does not do. */
export function compile(machine: AnyStateMachine): Chart | null {
  if (cache.has(machine)) return cache.get(machine) ?? null;
  let compiled: Chart | null = null;
  try {
    compiled = compileChart(machine);
  } catch {
    compiled = null;
  }
  cache.set(machine, compiled);
  return compiled;
}

const NONE: readonly CTransition[] = [];

/** A configuration (in XState's order) and its state value and text. */
interface Rendered {
  readonly nodes: readonly CNode[];
  readonly value: unknown;
  readonly text: string;
}

const rendering = new WeakMap<Chart, Map<number, Rendered[]>>();

/** One actor run by its compiled machine: its configuration and context, and what it emits. */
export class CompiledActor {
  private ctx: Ctx;
  /** The active states in XState's `_nodes` order. */
  private active: CNode[] = [];
  /** By order: whether a node is active, and a compound node's active child. */
  private readonly on: Uint8Array;
  private readonly child: (CNode | null)[];
  private readonly out = new Out();
  /** The configuration's state value and its text (null: to be looked up). */
  private state: Rendered | null = null;
  private snap: { value: unknown; context: unknown } | null = null;
  private readonly isActive = (n: CNode): boolean => this.on[n.order] === 1;
  /** Reused by `select`. */
  private readonly picked: CTransition[] = [];
  /** Reused by `send`: the events raised during one macrostep. */
  private readonly raised: Ev[] = [];

  /** Starts in `snapshot` (a checkpoint's), or in the initial configuration with the context made from `input`. */
  constructor(
    private readonly m: Chart,
    snapshot: { value: unknown; context: unknown } | undefined,
    input: unknown,
    private readonly emit: (effect: Effect) => void,
  ) {
    this.on = new Uint8Array(m.nodes.length);
    this.child = new Array(m.nodes.length).fill(null);
    if (snapshot) {
      for (const n of configurationOf(m, snapshot.value)) this.add(n);
      this.ctx = snapshot.context;
    } else {
      // XState's initial microstep: the root and the initial configuration entered, then a macrostep
      this.ctx = m.context(input);
      const init: Ev = { type: 'xstate.init', input };
      const queue: Ev[] = [];
      this.add(m.root);
      for (const n of m.initialSet) {
        this.add(n);
        this.run(n.entry, init, queue);
      }
      this.settle(init, queue);
      this.flush();
    }
  }

  getSnapshot(): { value: unknown; context: unknown } {
    const value = this.rendered().value;
    if (this.snap === null || this.snap.context !== this.ctx || this.snap.value !== value) this.snap = { value, context: this.ctx };
    return this.snap;
  }

  /** The state value as the trace writes it ("READY", "running.membership.STABLE|running.fetching.IDLE"). */
  stateText(): string {
    return this.rendered().text;
  }

  send(event: Ev): void {
    // the raised events' queue, reused: a send drains it before it returns (a handler that throws leaves it to be cleared here)
    const queue = this.raised;
    clear(queue);
    clear(this.out.effects);
    this.microstep(this.select(event), event, queue);
    this.settle(event, queue);
    this.flush();
  }

  /**
   * Hands what the handlers emitted to `emit`, in the order they emitted it: once per send, not
   * after every handler (emptying an array is a runtime call).
   */
  private flush(): void {
    const effects = this.out.effects;
    if (effects.length === 0) return;
    for (const e of effects) this.emit(e);
    clear(effects);
  }

  /** XState's macrostep loop after the first microstep: eventless transitions, then raised events. */
  private settle(first: Ev, queue: Ev[]): void {
    let event = first;
    let eventless = true;
    for (;;) {
      let ts: readonly CTransition[] = eventless ? this.eventless(event) : NONE;
      const wasEventless = ts.length > 0;
      if (!wasEventless) {
        const next = queue.shift();
        if (!next) return;
        event = next;
        ts = this.select(event);
      }
      const changed = this.microstep(ts, event, queue);
      eventless = wasEventless ? changed : true;
    }
  }

  /** selectEventlessTransitions: for each active leaf, the first enabled eventless transition of it or an ancestor. */
  private eventless(event: Ev): readonly CTransition[] {
    let found: CTransition[] | null = null;
    for (const leaf of this.active) {
      if (leaf.type !== 'atomic' || leaf.alwaysChain.length === 0) continue;
      const t = this.firstEnabledOf(leaf.alwaysChain, event);
      if (!t) continue;
      if (!found) found = [t];
      else if (!found.includes(t)) found.push(t);
    }
    if (!found) return NONE;
    return found.length > 1 ? withoutConflicts(found, this.active) : found;
  }

  private firstEnabledOf(chain: readonly (readonly CTransition[])[], event: Ev): CTransition | null {
    for (const list of chain) for (const t of list) if (!t.guard || t.guard(this.ctx, event, this.isActive)) return t;
    return null;
  }

  /** XState's transitionNode from the root: the transitions an event enables. */
  private select(event: Ev): readonly CTransition[] {
    const picked = this.picked;
    clear(picked);
    this.selectIn(this.m.root, event);
    if (picked.length === 0) return NONE;
    // the reused list itself: it is read before the next selection
    return picked.length > 1 ? withoutConflicts(picked, this.active) : picked;
  }

  private selectIn(n: CNode, event: Ev): boolean {
    if (n.type === 'compound') {
      const c = this.child[n.order];
      if (c && this.selectIn(c, event)) return true;
    } else if (n.type === 'parallel') {
      let any = false;
      for (const region of n.children) if (this.selectIn(region, event)) any = true;
      if (any) return true;
    }
    const list = n.on.get(event.type);
    if (!list) return false;
    for (const t of list) {
      if (!t.guard || t.guard(this.ctx, event, this.isActive)) {
        this.picked.push(t);
        return true;
      }
    }
    return false;
  }

  /** Takes transitions together (one microstep); true when the configuration or the context changed. */
  private microstep(ts: readonly CTransition[], event: Ev, queue: Ev[]): boolean {
    if (ts.length === 0) return false;
    const ctx = this.ctx;
    const single = ts.length === 1 ? (ts[0] as CTransition) : null;
    const exits = single && !single.target ? NONE : exitSet(ts, this.active);
    const before = exits.length ? this.active.slice() : null;
    const size = this.active.length;
    for (const s of exits as readonly CNode[]) {
      this.run(s.exit, event, queue);
      this.remove(s);
    }
    for (const t of ts) this.run(t.actions, event, queue);
    const entries = single ? single.entrySet : entrySet(ts);
    for (const s of entries) {
      this.add(s);
      this.run(s.entry, event, queue);
    }
    let moved: boolean;
    if (before) {
      // XState keeps its configuration (and its order) when the set of states is the same
      moved = !sameSet(before, this.active);
      if (!moved) this.active = before;
    } else moved = this.active.length !== size;
    if (moved) {
      this.state = null;
    }
    return moved || this.ctx !== ctx;
  }

  private add(n: CNode): void {
    if (this.on[n.order] === 1) return;
    this.on[n.order] = 1;
    this.active.push(n);
    if (n.parent) this.child[n.parent.order] = n;
  }

  private remove(n: CNode): void {
    this.on[n.order] = 0;
    const i = this.active.indexOf(n);
    if (i >= 0) this.active.splice(i, 1);
    if (n.parent && this.child[n.parent.order] === n) this.child[n.parent.order] = null;
  }

  private run(handlers: readonly Handler[], event: Ev, queue: Ev[]): void {
    const out = this.out;
    for (const h of handlers) {
      this.ctx = h(this.ctx, event, out);
      // (its effects stay in `out` until the send ends: flush)
      if (out.raised.length) {
        for (const r of out.raised) queue.push(r);
        clear(out.raised);
      }
    }
  }

  /**
   * getStateValue: built from the configuration in its order (a parallel state's regions as they
   * were entered). Every actor of a machine shares one value and text per configuration (values are
   * never mutated), so a state change costs a lookup, not a new object and string.
   */
  private rendered(): Rendered {
    if (this.state !== null) return this.state;
    let key = 0;
    for (const n of this.active) key = (Math.imul(key, 31) + n.order + 1) | 0;
    let known = rendering.get(this.m);
    if (!known) {
      known = new Map();
      rendering.set(this.m, known);
    }
    const bucket = known.get(key) ?? [];
    let found = renderedOf(bucket, this.active);
    if (!found) {
      const value = stateValueOf(this.m.root, this.active);
      found = { nodes: this.active.slice(), value, text: stateValueToString(value) };
      bucket.push(found);
      known.set(key, bucket);
    }
    this.state = found;
    return found;
  }
}

/** The configuration `active` (in its order) among those rendered already, if it is. */
function renderedOf(bucket: readonly Rendered[], active: readonly CNode[]): Rendered | undefined {
  for (const r of bucket) if (sameList(r.nodes, active)) return r;
  return undefined;
}

function sameList(a: readonly CNode[], b: readonly CNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameSet(a: readonly CNode[], b: readonly CNode[]): boolean {
  return a.length === b.length && a.every((n) => b.includes(n));
}

function stateValueOf(n: CNode, active: readonly CNode[]): unknown {
  const children = active.filter((c) => c.parent === n);
  const first = children[0];
  if (n.type === 'compound') {
    if (!first) return {};
    if (first.type === 'atomic') return first.key;
  }
  const value: Record<string, unknown> = {};
  for (const c of children) value[c.key] = stateValueOf(c, active);
  return value;
}

/**
 * Each chart's configurations restored from a state value, by the value: a fork restores every actor
 * from a checkpoint, and a search forks hundreds of times from the same few values (the compiled
 * runner's values are shared per configuration, rendered()). A configuration is a function of the
 * chart and the value alone; object values are held weakly (a decoded checkpoint's are new objects).
 */
const restored = new WeakMap<Chart, RestoredConfigurations>();

interface RestoredConfigurations {
  /** By a state value that is a string (an atomic state of the root). */
  readonly byText: Map<string, readonly CNode[]>;
  readonly byObject: WeakMap<object, readonly CNode[]>;
}

function configurationOf(m: Chart, value: unknown): readonly CNode[] {
  let known = restored.get(m);
  if (!known) {
    known = { byText: new Map(), byObject: new WeakMap() };
    restored.set(m, known);
  }
  if (typeof value === 'string') {
    let nodes = known.byText.get(value);
    if (!nodes) {
      nodes = restoredNodes(m, value);
      known.byText.set(value, nodes);
    }
    return nodes;
  }
  if (typeof value !== 'object' || value === null) return restoredNodes(m, value);
  let nodes = known.byObject.get(value);
  if (!nodes) {
    nodes = restoredNodes(m, value);
    known.byObject.set(value, nodes);
  }
  return nodes;
}

/** The configuration XState restores from a state value (getAllStateNodes(getStateNodes(root, value))), in its order. */
function restoredNodes(m: Chart, value: unknown): CNode[] {
  const list: CNode[] = [];
  const childOf = (n: CNode, key: string): CNode => {
    const c = n.children.find((x) => x.key === key);
    if (!c) throw new Error(`no state ${key} in ${n.key || '(root)'}`);
    return c;
  };
  const walk = (n: CNode, v: unknown): void => {
    if (typeof v === 'string') {
      list.push(n, childOf(n, v));
      return;
    }
    const keys = Object.keys(v as object);
    const kids = keys.map((k) => childOf(n, k));
    list.push(m.root, n, ...kids);
    for (const [i, k] of kids.entries()) walk(k, (v as Record<string, unknown>)[keys[i] as string]);
  };
  walk(m.root, value);
  const set = new Set(list);
  // a compound state without an active child, a region missing: their initial states (as XState fills them in)
  for (const n of set) {
    if (n.type === 'compound' && !n.children.some((c) => set.has(c))) {
      for (const d of initialBelow(n)) set.add(d);
    } else if (n.type === 'parallel') {
      for (const c of n.children) if (!set.has(c)) for (const d of [c, ...initialBelow(c)]) set.add(d);
    }
  }
  return [...set];
}

function initialBelow(n: CNode): CNode[] {
  if (n.type === 'compound' && n.initial) return [n.initial, ...initialBelow(n.initial)];
  if (n.type === 'parallel') return inOrder(n.children.flatMap((c) => [c, ...initialBelow(c)]));
  return [];
}
