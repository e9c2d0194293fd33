/**
 * How the kernel runs an actor: with XState's interpreter (the reference), or with the machine's
 * compiled form (compiledMachine.ts: the same definition and handlers, without the interpreter's
 * bookkeeping). Either way the kernel sends it events, reads its state value and context, and
 * receives what it emits; a checkpoint keeps { value, context }, so a run recorded with one can be
 * replayed with the other.
 */
import { createActor } from 'xstate';
import { CompiledActor, compile } from './compiledMachine';
import type { Effect } from './effects';
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
  // one taken by the compiled runner holds { value, context }, a snapshot of a flat machine
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
  return ref;
}
