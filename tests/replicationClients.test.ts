/**
 * Scenario-level: the producer and the consumer of a whole run follow a leader that is not where
 * their metadata says. Their metadata names broker-1 as t-0's leader (epoch 0); broker-1 is a stand-in
 * for a broker that lost the leadership — it answers Produce and Fetch NOT_LEADER_OR_FOLLOWER and a
 * Metadata request with the new leader, broker-0 (epoch 1), which holds the log. Until the replicated
 * broker exists (repl-core), this stand-in plays its side of the contract.
 */
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, setup } from 'xstate';
import { handle, type Out, pendingRequest } from '../src/sim/actors/out';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import type { EnvelopeRecord } from '../src/sim/kernel/envelope';
import { Simulation } from '../src/sim/kernel/simulation';
import type { ActorSpec } from '../src/sim/kernel/types';
import { finishTrace } from '../src/sim/run';
import { buildScenario } from '../src/sim/scenario/build';
import { validateScenario } from '../src/sim/scenario/validate';
import type { Fact } from '../src/sim/trace/facts';

type Ev = { type: string; from: string; envelopeId: number; payload: Record<string, unknown> };

/**
 * The broker that is no longer t-0's leader: Produce, Fetch and ListOffsets answered
 * NOT_LEADER_OR_FOLLOWER (with a KIP-951 hint on Produce when `hint`), Metadata naming broker-0.
 */
function staleLeader(hint: boolean): AnyStateMachine {
  const notLeader = (rpc: 'ProduceResponse' | 'FetchResponse' | 'ListOffsetsResponse', extra: Record<string, unknown>) =>
    handle((ctx: object, ev: Ev, out: Out) => {
      const answer = (tp: Record<string, unknown>) => ({
        topic: tp.topic,
        partition: tp.partition,
        error: 'NOT_LEADER_OR_FOLLOWER',
        ...extra,
      });
      const parts = ev.payload.partitions as Record<string, unknown>[] | undefined;
      // a Produce carries several partitions, and so do a consumer's Fetch and ListOffsets: each answered on its own
      const reply = !parts
        ? answer(ev.payload)
        : rpc === 'ProduceResponse'
          ? { responses: parts.map(answer) }
          : { partitions: parts.map(answer) };
      out.reply(pendingRequest(ev), rpc, reply);
      return ctx;
    });
  return setup({}).createMachine({
    context: {},
    on: {
      Produce: {
        actions: notLeader('ProduceResponse', {
          baseOffset: -1,
          errorMessage: null,
          ...(hint ? { currentLeader: { leaderId: 'broker-0', leaderEpoch: 1 } } : {}),
        }),
      },
      Fetch: {
        actions: notLeader('FetchResponse', {
          highWatermark: -1,
          lastStableOffset: -1,
          logStartOffset: -1,
          batches: [],
          abortedTransactions: [],
        }),
      },
      ListOffsets: { actions: notLeader('ListOffsetsResponse', { offset: -1 }) },
      Metadata: {
        actions: handle((ctx: object, ev: Ev, out: Out) => {
          out.reply(pendingRequest(ev), 'MetadataResponse', {
            brokers: ['broker-1', 'broker-0'],
            topics: [
              {
                name: 't',
                partitions: [
                  {
                    partition: 0,
                    error: 'NONE',
                    leader: 'broker-0',
                    leaderEpoch: 1,
                    replicas: ['broker-0', 'broker-1'],
                    isr: ['broker-0'],
                  },
                ],
              },
            ],
          });
          return ctx;
        }),
      },
    },
  }) as AnyStateMachine;
}

const SCENARIO = {
  version: 1,
  seed: 5,
  cluster: { brokers: 2 },
  topics: [{ name: 't', partitions: 1, leaders: [0] }],
  clients: [
    {
      id: 'p',
      type: 'producer',
      config: { 'linger.ms': 0 },
      script: [{ op: 'send', topic: 't', key: 'k', value: 'v{i}', count: 3 }, { op: 'flush' }],
    },
    { id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' }, topics: ['t'] },
  ],
};

/** The run with the clients' metadata pointing at broker-1 for t-0, and broker-1 replaced by the stale leader. */
function run(hint: boolean) {
  const v = validateScenario(SCENARIO);
  if (!v.ok) throw new Error('invalid');
  const built = buildScenario(v.resolved);
  const staleMeta = (meta: ClusterMetadata): ClusterMetadata => ({
    ...meta,
    brokers: ['broker-1', 'broker-0'],
    topics: { ...meta.topics, t: { name: 't', partitions: 1, leaders: ['broker-1'], leaderEpochs: [0] } },
  });
  const specs: ActorSpec[] = built.specs.map((s) => {
    if (s.id === 'broker-1') return { ...s, logic: staleLeader(hint), input: {} };
    // the producer already holds that stale metadata (past waitOnMetadata): a fresh Metadata answer would name the new leader
    if (s.kind === 'producer') {
      const meta = staleMeta((s.input as { meta: ClusterMetadata }).meta);
      return { ...s, input: { ...(s.input as object), meta, knownTopics: Object.keys(meta.topics) } };
    }
    // …and so does the consumer (past its first Metadata answer)
    if (s.kind === 'consumer')
      return { ...s, input: { ...(s.input as object), meta: staleMeta((s.input as { meta: ClusterMetadata }).meta), metadataKnown: true } };
    return s;
  });
  const sim = Simulation.create(specs, built.options);
  sim.run();
  const trace = finishTrace(v.resolved, { ...built, specs }, sim);
  const envelopes: EnvelopeRecord[] = [];
  for (let i = 0; i < trace.envelopes.length; i++) envelopes.push(trace.envelopes.at(i) as EnvelopeRecord);
  const facts: Fact[] = [];
  for (let i = 0; i < trace.steps.length; i++) facts.push(...((trace.steps.at(i)?.facts ?? []) as Fact[]));
  return { envelopes, facts };
}

describe('clients follow a moved leader through a whole run', () => {
  for (const hint of [true, false]) {
    it(`${hint ? 'with' : 'without'} a currentLeader hint: every record written once to the new leader with its first sequence, and read once from it`, () => {
      const { envelopes, facts } = run(hint);
      const produces = envelopes.filter((e) => e.rpc === 'Produce');
      const seq = (e: EnvelopeRecord) => (e.payload.partitions as { batch: { baseSequence: number } }[])[0]?.batch.baseSequence;
      // the first try went to the old leader; its retry to broker-0 carries the same sequence
      expect(produces[0]?.to).toBe('p.producer' === produces[0]?.from ? 'broker-1' : 'broker-1');
      const toNew = produces.filter((e) => e.to === 'broker-0');
      expect(toNew.length).toBeGreaterThan(0);
      expect(produces.filter((e) => e.to === 'broker-1').map(seq)).toEqual(
        toNew.map(seq).slice(0, produces.filter((e) => e.to === 'broker-1').length),
      );
      // no Produce after the first NOT_LEADER_OR_FOLLOWER went to the old leader again
      const metadata = envelopes.filter((e) => e.rpc === 'Metadata');
      expect(metadata.map((e) => e.from).sort()).toEqual(expect.arrayContaining(['c.consumer', 'p.producer']));
      const results = facts.filter((f): f is Extract<Fact, { kind: 'sendResult' }> => f.kind === 'sendResult');
      expect(results.map((r) => [r.offset, r.error])).toEqual([
        [0, null],
        [1, null],
        [2, null],
      ]);
      const delivered = facts.filter((f): f is Extract<Fact, { kind: 'delivered' }> => f.kind === 'delivered');
      expect(delivered.map((f) => [f.offset, f.value])).toEqual([
        [0, 'v0'],
        [1, 'v1'],
        [2, 'v2'],
      ]);
      // the consumer's reset (ListOffsets) was refused by the old leader and asked again of the new one;
      // every Fetch went to the new leader, with the epoch it learned
      const listOffsets = envelopes.filter((e) => e.rpc === 'ListOffsets');
      expect(listOffsets.map((e) => e.to)).toEqual(['broker-1', 'broker-0']);
      const fetches = envelopes.filter((e) => e.rpc === 'Fetch');
      expect(fetches.length).toBeGreaterThan(0);
      expect(
        fetches.every(
          (e) => e.to === 'broker-0' && (e.payload.partitions as { currentLeaderEpoch?: number }[])[0]?.currentLeaderEpoch === 1,
        ),
      ).toBe(true);
    });
  }
});
