/**
 * A stream thread's machine started in a state with a context, with no kernel: `send(event)` returns
 * what that one event emitted (calls, timers, cancels, facts). The thread tests drive it through this.
 */
import { type Actor, createActor, type InputFrom } from 'xstate';
import type { Effect } from '../../src/sim/kernel/effects';
import { stateValueToString } from '../../src/sim/kernel/stateValue';
import { streamThreadMachine } from '../../src/sim/streams/streamThread.machine';
import type { StreamThreadContext } from '../../src/sim/streams/streamThreadContext';

export function threadAt(value: string | Record<string, string>, context: StreamThreadContext) {
  return driven(createActor(streamThreadMachine, { input: context, snapshot: streamThreadMachine.resolveState({ value, context }) }));
}

/** The same machine from its boot with `input`; `all()` is every effect since the boot. */
export function threadFromBoot(input: InputFrom<typeof streamThreadMachine>) {
  return driven(createActor(streamThreadMachine, { input }));
}

function driven(actor: Actor<typeof streamThreadMachine>) {
  let fx: Effect[] = [];
  const all: Effect[] = [];
  actor.on('*', (e) => {
    fx.push(e as unknown as Effect);
    all.push(e as unknown as Effect);
  });
  actor.start();
  return {
    send(event: Record<string, unknown> & { type: string }): Effect[] {
      fx = [];
      actor.send(event as never);
      return fx;
    },
    state: () => stateValueToString(actor.getSnapshot().value),
    context: (): StreamThreadContext => actor.getSnapshot().context,
    all: (): readonly Effect[] => all,
  };
}
