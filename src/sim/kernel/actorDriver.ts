/**
 * How the kernel runs an actor: with XState's interpreter (the reference), or with the machine's
 * compiled form (compiledMachine.ts: the same definition and handlers, without the interpreter's
 * bookkeeping). Either way the kernel sends it events, reads its state value and context, and
 * receives what it emits; a checkpoint keeps { value, context }, so a run recorded with one can be
 * replayed with the other.
 */
import { type AnyActorRef, createActor } from 'xstate';
import { CompiledActor, compile } from './compiledMachine';
import type { Effect } from './effects';
import { stateValueToString } from './stateValue';
import type { ActorSpec } from './types';

export type Runner = 'xstate' | 'compiled';

/** An actor's state as a checkpoint keeps it (with XState: XState's snapshot, which has these two and more). */
export interface ActorSnapshot {
  readonly value: unknown;
  readonly context: unknown;
}

export interface ActorDriver {
  send(event: { type: string } & Record<string, unknown>): void;
  getSnapshot(): ActorSnapshot;
  /** The state value as the trace writes it (stateValue.ts), computed once per state. */
  stateText(): string;
}

/** An XState actor as a driver: its state text kept while its state value is the same object. */
class XStateDriver implements ActorDriver {
  private value: unknown = undefined;
  private text = '';
  constructor(private readonly ref: AnyActorRef) {}
  send(event: { type: string } & Record<string, unknown>): void {
    this.ref.send(event);
  }
  getSnapshot(): ActorSnapshot {
    return this.ref.getSnapshot();
  }
  stateText(): string {
    const value = this.ref.getSnapshot().value;
    if (value !== this.value || this.text === '') {
      this.value = value;
      this.text = stateValueToString(value);
    }
    return this.text;
  }
}

/** Starts an actor (in `snapshot`, or fresh from its input); its effects go to `emit`. */
export function startActor(
  spec: ActorSpec,
  snapshot: ActorSnapshot | undefined,
  runner: Runner,
  emit: (effect: Effect) => void,
): ActorDriver {
  if (runner === 'compiled') {
    const compiled = compile(spec.logic);
    if (compiled) return new CompiledActor(compiled, snapshot, spec.input, emit);
  }
  // a checkpoint taken with XState holds XState's own snapshot (history and children included);
  // one taken by the compiled runner holds { value, context } (no history states: it compiles none)
  const restored =
    snapshot === undefined || 'status' in snapshot
      ? snapshot
      : { value: snapshot.value, context: snapshot.context, status: 'active', children: {}, historyValue: {} };
  const ref =
    restored === undefined
      ? createActor(spec.logic, { input: spec.input })
      : // biome-ignore lint/suspicious/noExplicitAny: XState's restore takes its own snapshot type
        createActor(spec.logic, { input: spec.input, snapshot: restored as any });
  ref.on('*', emit);
  ref.start();
  return new XStateDriver(ref);
}
