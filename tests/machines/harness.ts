/**
 * Runs one machine on its own, without the kernel: its input is built from a small scenario (as
 * `buildScenario` builds it for a run), events are sent by hand with a virtual time, and every
 * effect it emits is collected — so a test sees transitions, guards and effects directly.
 */
import { type AnyStateMachine, createActor } from 'xstate';
import { brokerMachine } from '../../src/sim/broker/broker.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { stateValueToString } from '../../src/sim/kernel/stateValue';
import { buildScenario } from '../../src/sim/scenario/build';
import { validateScenario } from '../../src/sim/scenario/validate';

/**
 * The input `buildScenario` gives actor `actorId` of this scenario. A producer's starts knowing every
 * topic's metadata, past waitOnMetadata (producer/waitOnMetadata.ts), and a consumer's its topics'
 * leaders, past its first Metadata answer (consumer/consumerMetadata.ts), unless `metadataKnown` is
 * false (as in a run).
 */
export function inputOf(scenario: unknown, actorId: string, options: { metadataKnown?: boolean } = {}): unknown {
  const v = validateScenario(scenario);
  if (!v.ok) throw new Error(v.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const spec = buildScenario(v.resolved).specs.find((s) => s.id === actorId);
  if (!spec) throw new Error(`no actor ${actorId}`);
  const input = spec.input as { transactionVersion?: unknown; meta?: { topics: Record<string, unknown> } };
  if (options.metadataKnown === false || !input.meta) return spec.input;
  // a consumer: past its first Metadata answer, knowing its topics' leaders (consumer/consumerMetadata.ts)
  if (spec.kind === 'consumer') return { ...input, metadataKnown: true };
  if (input.transactionVersion === undefined) return spec.input;
  return { ...input, knownTopics: Object.keys(input.meta.topics) };
}

export interface Driven {
  /** Sends an event at virtual time `now`; returns the effects it emitted. */
  send(event: { type: string } & Record<string, unknown>, now?: number): Effect[];
  /** The state value as the trace writes it ("live.READY"). */
  state(): string;
  context<C>(): C;
}

export function drive(machine: AnyStateMachine, input: unknown): Driven {
  const actor = createActor(machine, { input });
  let effects: Effect[] = [];
  actor.on('*', (e: unknown) => {
    effects.push(e as Effect);
  });
  actor.start();
  return {
    send(event, now = 0) {
      effects = [];
      // an application cannot call poll() while its previous poll() still waits (a consumer's pollWaiting)
      const waiting = (actor.getSnapshot().context as { pollWaiting?: string | null } | undefined)?.pollWaiting;
      if (event.type === 'poll' && waiting) throw new Error(`poll() called while ${waiting}'s poll() still waits`);
      actor.send({ ...event, now });
      return effects;
    },
    state: () => stateValueToString(actor.getSnapshot().value),
    context: <C>() => actor.getSnapshot().context as C,
  };
}

/** The requests among the effects, as "rpc→to". */
export const sends = (effects: readonly Effect[]) => effects.flatMap((e) => (e.type === 'send' ? [`${e.rpc}→${e.to}`] : []));

/** The local calls among the effects, as "name→to". */
export const calls = (effects: readonly Effect[]) =>
  effects.flatMap((e) => (e.type === 'call' ? [{ to: e.to, name: e.name, ...(e.args ?? {}) }] : []));

/** The replies among the effects (what a blocking call returned to its application). */
export const replies = (effects: readonly Effect[]) => calls(effects).filter((c) => c.name === 'reply');

/** A call from the application `p.app` to its client (initTransactions, send, commitTransaction …). */
export const appCall = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'p.app', args });

/** An answer to the client's first request, from `from` (the transaction coordinator unless named). */
export const answerOf = (type: string, payload: Record<string, unknown>, from = 'txn-coordinator') => ({
  type,
  from,
  envelopeId: 1,
  inReplyTo: 0,
  payload,
});

/** A broker of the scenario driven on its own, booted at 0 (its controller's first records applied when it replicates). */
export function bootedBroker(scenario: unknown, id: string): Driven {
  const b = drive(brokerMachine, inputOf(scenario, id));
  b.send({ type: 'boot' }, 0);
  return b;
}

let envelope = 1;
/** A request `type` from p.producer with `payload`, as the kernel hands it to the actor it is sent to. */
export const producerRpc = (type: string, payload: Record<string, unknown>) => ({
  type,
  from: 'p.producer',
  envelopeId: envelope++,
  inReplyTo: null,
  payload: { correlationId: envelope, ...payload },
});

let rejoinEnvelope = 1_000_000;

/**
 * A new dynamic member's JoinGroup `event` (no member id) delivered to the group coordinator `m` at
 * `now`, and — answered MEMBER_ID_REQUIRED, as a JoinGroup v4+ is — the same JoinGroup again with the
 * member id handed out (AbstractCoordinator.JoinGroupResponseHandler: the client joins again at once):
 * both steps' effects, the MEMBER_ID_REQUIRED answer left out.
 */
export function joinNewMember(
  m: Driven,
  event: { type: string; payload: Record<string, unknown> } & Record<string, unknown>,
  now = 0,
): Effect[] {
  const first = m.send(event, now);
  const required = first.find(
    (e): e is Extract<Effect, { type: 'send' }> =>
      e.type === 'send' && e.rpc === 'JoinGroupResponse' && (e.payload as { error?: string }).error === 'MEMBER_ID_REQUIRED',
  );
  if (!required) return first;
  const memberId = (required.payload as { memberId: string }).memberId;
  const rest = first.filter((e) => e !== required);
  return [...rest, ...m.send({ ...event, envelopeId: rejoinEnvelope++, payload: { ...event.payload, memberId } }, now)];
}
