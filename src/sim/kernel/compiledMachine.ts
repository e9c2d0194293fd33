/**
 * A machine compiled for speed: the same XState definition, run without XState's interpreter.
 *
 * Most actors of the model are flat machines (states directly under the root, no history, parallel
 * or final states, no delays) whose actions are pure handlers (`handle()` in actors/out.ts) and
 * whose guards are functions of (context, event); the consumer, the applications and the Streams
 * thread are hierarchical and parallel statecharts, which XState runs. For a flat machine XState's
 * macrostep reduces to:
 * pick the first enabled transition of the current state for the event, else of the root; exit and
 * enter states as SCXML's transition domain says (a targetless or internal self-transition exits
 * nothing, a root transition re-enters even the current state); run the exit actions, the
 * transition's actions, then the entry actions, each handler seeing the context the one before it
 * returned; then take eventless (`always`) transitions and the raised events, in order, until none
 * is left. `compile` refuses any machine that uses more than that (the kernel then runs it with
 * XState), and a property test holds both to the same traceHash on every preset and random
 * scenarios.
 */
import type { AnyStateMachine } from 'xstate';
import { HANDLER, Out } from '../actors/out';
import type { Effect } from './effects';

type Ctx = unknown;
type Ev = { type: string } & Record<string, unknown>;
type Handler = (context: Ctx, event: Ev, out: Out) => Ctx;
type Guard = (context: Ctx, event: Ev) => boolean;

interface CTransition {
  readonly guard: Guard | null;
  /** null: targetless. */
  readonly target: CState | null;
  /** Defined on the root (it exits and re-enters even the current state). */
  readonly fromRoot: boolean;
  readonly reenter: boolean;
  readonly actions: readonly Handler[];
}

interface CState {
  readonly key: string;
  readonly on: Map<string, readonly CTransition[]>;
  always: readonly CTransition[];
  entry: readonly Handler[];
  exit: readonly Handler[];
}

export interface CompiledMachine {
  readonly states: ReadonlyMap<string, CState>;
  readonly root: CState;
  readonly initial: CState;
  readonly context: (input: unknown) => Ctx;
}

const cache = new WeakMap<AnyStateMachine, CompiledMachine | null>();

/** The compiled form of a machine, or null when it uses what the compiled runner does not do. */
export function compile(machine: AnyStateMachine): CompiledMachine | null {
  if (cache.has(machine)) return cache.get(machine) ?? null;
  let compiled: CompiledMachine | null = null;
  try {
    compiled = compileOrThrow(machine);
  } catch {
    compiled = null;
  }
  cache.set(machine, compiled);
  return compiled;
}

class Unsupported extends Error {}

function handlerOf(action: unknown): Handler {
  const h = (action as { [HANDLER]?: Handler } | null)?.[HANDLER];
  if (typeof h !== 'function') throw new Unsupported('an action that is not a handler');
  return h;
}

function guardOf(machine: AnyStateMachine, guard: unknown): Guard | null {
  if (guard === undefined) return null;
  const impl = typeof guard === 'string' ? (machine.implementations.guards as Record<string, unknown>)[guard] : guard;
  if (typeof impl !== 'function' || 'check' in impl) throw new Unsupported('a guard that is not a plain function');
  const fn = impl as (args: { context: Ctx; event: Ev }, params: undefined) => boolean;
  return (context, event) => fn({ context, event }, undefined);
}

// biome-ignore lint/suspicious/noExplicitAny: XState's state nodes are walked structurally
type Node = any;

function compileOrThrow(machine: AnyStateMachine): CompiledMachine {
  const root: Node = machine.root;
  if (root.type !== 'compound' || root.history !== false || root.config.after || root.invoke?.length) throw new Unsupported('root');
  const states = new Map<string, CState>();
  const nodes = new Map<Node, CState>();
  for (const [key, node] of Object.entries<Node>(root.states)) {
    if (node.type !== 'atomic' || node.config.after || node.invoke.length) throw new Unsupported(`state ${key}`);
    const s: CState = { key, on: new Map(), always: [], entry: node.entry.map(handlerOf), exit: node.exit.map(handlerOf) };
    states.set(key, s);
    nodes.set(node, s);
  }
  const rootState: CState = { key: '', on: new Map(), always: [], entry: root.entry.map(handlerOf), exit: root.exit.map(handlerOf) };
  nodes.set(root, rootState);
  const transition = (t: Node): CTransition => {
    const targets: Node[] = t.target ?? [];
    if (targets.length > 1) throw new Unsupported('several targets');
    const target = targets.length ? (nodes.get(targets[0]) ?? null) : null;
    if (targets.length && (!target || target === rootState)) throw new Unsupported('a target outside the flat states');
    return {
      guard: guardOf(machine, t.guard),
      target,
      fromRoot: t.source === root,
      reenter: t.reenter === true,
      actions: t.actions.map(handlerOf),
    };
  };
  for (const [node, s] of nodes) {
    for (const [event, list] of node.transitions as Map<string, Node[]>) {
      if (event.includes('*')) throw new Unsupported('a wildcard event');
      s.on.set(event, list.map(transition));
    }
    s.always = (node.always ?? []).map(transition);
  }
  const initial = nodes.get(root.initial?.target?.[0]);
  if (!initial || initial === rootState) throw new Unsupported('no initial state');
  const config = machine.config.context;
  return {
    states,
    root: rootState,
    initial,
    context: (input) => (typeof config === 'function' ? config({ input, self: undefined, spawn: undefined }) : config),
  };
}

/** One actor run by its compiled machine: its state and context, and what it emits. */
export class CompiledActor {
  private state: CState;
  private ctx: Ctx;

  /** Starts in `snapshot` (a checkpoint's), or in the initial state with the context made from `input`. */
  constructor(
    private readonly m: CompiledMachine,
    snapshot: { value: unknown; context: unknown } | undefined,
    input: unknown,
    private readonly emit: (effect: Effect) => void,
  ) {
    if (snapshot) {
      const s = m.states.get(snapshot.value as string);
      if (!s) throw new Error(`no state ${String(snapshot.value)}`);
      this.state = s;
      this.ctx = snapshot.context;
    } else {
      // XState's initial microstep: the root and the initial state are entered, then eventless transitions
      this.ctx = m.context(input);
      this.state = m.initial;
      const init: Ev = { type: 'xstate.init', input };
      const queue: Ev[] = [];
      this.run(m.root.entry, init, queue);
      this.run(m.initial.entry, init, queue);
      this.settle(init, queue, true);
    }
  }

  getSnapshot(): { value: unknown; context: unknown } {
    return { value: this.state.key, context: this.ctx };
  }

  get value(): string {
    return this.state.key;
  }

  send(event: Ev): void {
    const queue: Ev[] = [];
    this.microstep(this.select(event), event, queue);
    this.settle(event, queue, true);
  }

  /** Eventless transitions, then raised events, until neither is left (XState's macrostep loop). */
  private settle(first: Ev, queue: Ev[], selectEventless: boolean): void {
    let event = first;
    let eventless = selectEventless;
    for (;;) {
      let t = eventless ? this.pick(this.state.always, event) : null;
      const wasEventless = t !== null;
      if (!t) {
        const next = queue.shift();
        if (!next) return;
        event = next;
        t = this.select(event);
      }
      const changed = this.microstep(t, event, queue);
      eventless = wasEventless ? changed : true;
    }
  }

  private pick(list: readonly CTransition[] | undefined, event: Ev): CTransition | null {
    if (!list) return null;
    for (const t of list) if (!t.guard || t.guard(this.ctx, event)) return t;
    return null;
  }

  /** The current state's first enabled transition for the event, else the root's. */
  private select(event: Ev): CTransition | null {
    return this.pick(this.state.on.get(event.type), event) ?? this.pick(this.m.root.on.get(event.type), event);
  }

  /** Takes one transition; true when the state or the context changed. */
  private microstep(t: CTransition | null, event: Ev, queue: Ev[]): boolean {
    if (!t) return false;
    const before = this.state;
    const ctx = this.ctx;
    const target = t.target;
    const moves = target !== null && (t.fromRoot || t.reenter || target !== before);
    if (moves) this.run(before.exit, event, queue);
    this.run(t.actions, event, queue);
    if (moves) {
      this.state = target;
      this.run(target.entry, event, queue);
    }
    return this.state !== before || this.ctx !== ctx;
  }

  private run(handlers: readonly Handler[], event: Ev, queue: Ev[]): void {
    for (const h of handlers) {
      const out = new Out();
      this.ctx = h(this.ctx, event, out);
      for (const e of out.effects) this.emit(e);
      for (const r of out.raised) queue.push(r);
    }
  }
}
