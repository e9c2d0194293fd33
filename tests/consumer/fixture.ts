/** A consumer's context built as a run builds it, and a handler of one part run on a draft of it. */
import { Out } from '../../src/sim/actors/out';
import { type ConsumerContext, type ConsumerInput, type Draft, initialContext } from '../../src/sim/consumer/consumerContext';
import type { Effect } from '../../src/sim/kernel/effects';
import { inputOf } from '../machines/harness';

export function context(config: Record<string, unknown> = {}, partitions = 2, overrides: Partial<ConsumerContext> = {}): ConsumerContext {
  const scenario = {
    version: 1,
    seed: 1,
    topics: [{ name: 't', partitions }],
    clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', ...config }, topics: ['t'] }],
  };
  return { ...initialContext(inputOf(scenario, 'c.consumer') as ConsumerInput), ...overrides };
}

/** Runs `fn` on a draft of `ctx`: the draft after it, and what it emitted. */
export function run(ctx: ConsumerContext, fn: (d: Draft, out: Out) => void): { d: Draft; effects: Effect[] } {
  const d: Draft = { ...ctx };
  const out = new Out();
  fn(d, out);
  return { d, effects: out.effects };
}

export const sent = (effects: readonly Effect[]): (Record<string, unknown> & { rpc: string; to: string })[] =>
  effects.flatMap((e) => (e.type === 'send' ? [{ rpc: e.rpc, to: e.to, ...e.payload }] : []));
export const timers = (effects: readonly Effect[]) =>
  effects.flatMap((e) => (e.type === 'timer' ? [{ name: e.name, delay: e.delay }] : []));
export const replies = (effects: readonly Effect[]) => effects.flatMap((e) => (e.type === 'call' && e.name === 'reply' ? [e.args] : []));

export const tp0 = { topic: 't', partition: 0 };
export const tp1 = { topic: 't', partition: 1 };

/** A Fetch answer's partition that carries only an error (no records, no offsets known), as a broker sends it. */
export const fetchErrorPartition = <E extends string>(
  error: E,
  extra: Record<string, unknown> = {},
  tp: { topic: string; partition: number } = tp0,
) => ({
  ...tp,
  error,
  highWatermark: -1,
  lastStableOffset: -1,
  logStartOffset: -1,
  batches: [],
  abortedTransactions: [],
  ...extra,
});

let envelope = 1;
/** A response event of type `type` with this payload. */
export const response = <T extends string, P>(type: T, payload: P, now = 0) => ({
  type,
  now,
  from: 'group-coordinator',
  envelopeId: envelope++,
  inReplyTo: 0,
  payload,
});
export const appCall = <T extends string, A>(type: T, args: A, now = 0) => ({ type, now, from: 'c.app', args });
