/**
 * A TxnOffsetCommit's verification (KIP-890) goes through the AddPartitionsToTxnManager of the broker
 * the group coordinator runs on, the queue that broker's Produce verifications use
 * (CoordinatorPartitionWriter.maybeStartTransactionVerification →
 * ReplicaManager.maybeSendPartitionToTransactionCoordinator): one AddPartitionsToTxn in flight per
 * transaction coordinator, what waits meanwhile — Produce and TxnOffsetCommit verifications alike —
 * sent together in the next, the v4+ form from the broker.
 *
 * On the old code the group coordinator sent its own one-transaction AddPartitionsToTxn at once:
 * from `broker-1.group-coordinator` at 3220 ms while broker-1's own request was in flight, and three
 * requests at 3012 ms from the standalone `group-coordinator`.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations } from '../../src/sim/checks/invariants';
import { narrate } from '../../src/sim/narration';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { EnvelopeRecord } from '../../src/sim/views';

const transactional = (id: string, at: number) => ({
  id,
  type: 'producer',
  config: { 'transactional.id': `${id}-1`, 'linger.ms': 0 },
  script: [
    { op: 'beginTransaction', at },
    { op: 'send', topic: 'out', key: id, value: `${id}1`, headers: { event_id: `evt-${id}1` } },
    { op: 'flush' },
    { op: 'commitTransaction' },
  ],
});
const feeder = {
  id: 'feeder',
  type: 'producer',
  config: { acks: 'all', 'enable.idempotence': true },
  script: [{ op: 'send', topic: 'in', key: 'k', value: '1', headers: { event_id: 'e1' } }],
};
/** Exactly-once consume-transform-produce: reads `in`, writes `out`, commits its offsets in the transaction (TxnOffsetCommit). */
const eosApp = (id: string, group: string) => ({
  id,
  type: 'consumer',
  config: { 'group.id': group, 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
  topics: ['in'],
  processing: { mode: 'exactly-once', outputTopic: 'out', producerConfig: { 'transactional.id': `${id}-0` } },
});

/**
 * Three brokers, __consumer_offsets replicated: group enricher's partition (__consumer_offsets-1)
 * and out-0 are led by broker-1, whose link to the (standalone) transaction coordinator takes 50 ms.
 * app's TxnOffsetCommit reaches broker-1's group coordinator at 3226; the transactional producers
 * b and c write to out-0 at the given times.
 */
const hosted = (producers: readonly (readonly [string, number])[]) =>
  ({
    version: 1,
    id: 'group-verification-hosted',
    seed: 1,
    cluster: { brokers: 3, 'offsets.topic.replication.factor': 3, 'min.insync.replicas': 1 },
    network: { latencyMs: 1, links: [{ from: 'broker-1', to: 'txn-coordinator', latencyMs: 50 }] },
    topics: [
      { name: 'in', replicationFactor: 3 },
      { name: 'out', replicationFactor: 3 },
    ],
    clients: [feeder, eosApp('app', 'enricher'), ...producers.map(([id, at]) => transactional(id, at))],
  }) as unknown as Scenario;

type Txn = { transactionalId: string; verifyOnly: boolean; partitions: { topic: string; partition: number }[] };

function run(s: Scenario) {
  const trace = runScenario(s);
  expect(['empty', 'quiescent']).toContain(trace.stopReason);
  const all = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  const verifications = all.filter((e) => e.rpc === 'AddPartitionsToTxn');
  const answerTo = (e: EnvelopeRecord) => all.find((x) => x.inReplyTo === e.id) as EnvelopeRecord;
  // the transactional.ids a request carries (v4+: a list; the old group coordinator's: one)
  const txnsOf = (e: EnvelopeRecord) => {
    const p = e.payload as { transactions?: Txn[]; transactionalId?: string };
    return p.transactions?.map((t) => t.transactionalId) ?? [p.transactionalId];
  };
  const carrying = (id: string) => verifications.filter((e) => txnsOf(e).includes(id));
  const steps = [...Array(trace.steps.length).keys()];
  const stepOf = (pred: (s: NonNullable<ReturnType<typeof trace.steps.at>>) => boolean) =>
    steps.find((i) => pred(trace.steps.at(i) as NonNullable<ReturnType<typeof trace.steps.at>>)) as number;
  return { trace, all, verifications, answerTo, txnsOf, carrying, stepOf };
}

describe('the hosted group coordinator verifies through its broker (broker-1)', () => {
  it("b's Produce verification in flight holds the TxnOffsetCommit's, which leaves with c's in one AddPartitionsToTxn from broker-1", () => {
    const r = run(
      hosted([
        ['b', 3192],
        ['c', 3224],
      ]),
    );
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
    // nothing leaves from the group coordinator itself
    expect(r.verifications.filter((e) => e.from.endsWith('.group-coordinator'))).toEqual([]);
    const [b] = r.carrying('b-1') as [EnvelopeRecord];
    const [offsets] = r.carrying('app-0') as [EnvelopeRecord];
    expect(b.from).toBe('broker-1');
    expect(b.sentAt).toBe(3195);
    // the TxnOffsetCommit reached the coordinator at 3226; its verification waited for b's answer
    expect(offsets.from).toBe('broker-1');
    expect(offsets.sentAt).toBe(r.answerTo(b).deliverAt);
    expect(offsets.sentAt).toBe(3246);
    expect(r.txnsOf(offsets)).toEqual(['app-0', 'c-1']);
    const txns = (offsets.payload as { transactions: Txn[] }).transactions;
    expect(txns[0]).toMatchObject({ verifyOnly: false, partitions: [{ topic: '__consumer_offsets', partition: 1 }] });
    expect(txns[1]).toMatchObject({ partitions: [{ topic: 'out', partition: 0 }] });
    // one answer for both; the TxnOffsetCommit is written and answered after it
    const answer = r.answerTo(offsets);
    const commit = r.all.find((e) => e.rpc === 'TxnOffsetCommitResponse') as EnvelopeRecord;
    expect(commit.payload).toMatchObject({ error: 'NONE' });
    expect(commit.sentAt).toBeGreaterThan(answer.deliverAt as number);
  });

  it("the TxnOffsetCommit's verification in flight holds b's Produce verification until its answer", () => {
    const r = run(hosted([['b', 3226]]));
    const [offsets] = r
      .carrying('app-0')
      .filter(
        (e) =>
          r.txnsOf(e).length === 1 && (e.payload as { transactions: Txn[] }).transactions[0]?.partitions[0]?.topic === '__consumer_offsets',
      ) as [EnvelopeRecord];
    const [b] = r.carrying('b-1') as [EnvelopeRecord];
    expect(offsets.from).toBe('broker-1');
    expect(offsets.sentAt).toBe(3226);
    expect(b.sentAt).toBe(r.answerTo(offsets).deliverAt);
    expect(b.sentAt).toBe(3277);
  });

  it('the narration says the broker verifies it, and that it waits behind the request in flight, in English and Korean', () => {
    const r = run(
      hosted([
        ['b', 3192],
        ['c', 3224],
      ]),
    );
    const received = r.stepOf((s) => s.label === 'TxnOffsetCommit' && s.actor === 'broker-1.group-coordinator');
    expect(narrate(r.trace, received, 'en')).toContain(
      "through broker-1's AddPartitionsToTxnManager — the queue its Produce verifications use",
    );
    expect(narrate(r.trace, received, 'ko')).toContain('AddPartitionsToTxnManager, 곧 Produce 검증이 쓰는 그 큐를 거칩니다');
    const held = r.stepOf((s) => s.label === 'verifyTxnOffsetCommit');
    expect(narrate(r.trace, held, 'en')).toContain("broker-1 holds its group coordinator's verification of __consumer_offsets-1 (app-0)");
    expect(narrate(r.trace, held, 'ko')).toContain('Produce 검증까지 다음 요청에 함께 보냅니다');
    const freed = r.stepOf((s) => s.label === 'AddPartitionsToTxnResponse' && s.t === 3246);
    expect(narrate(r.trace, freed, 'en')).toContain('sends the 2 verifications that waited meanwhile in one AddPartitionsToTxn');
    const verified = r.stepOf((s) => s.label === 'txnOffsetCommitVerified');
    expect(narrate(r.trace, verified, 'en')).toContain("writes the TxnOffsetCommit's offsets as pending");
    expect(narrate(r.trace, verified, 'ko')).toContain('보류 상태로 씁니다');
  });
});

/** The standalone group coordinator (one replica of __consumer_offsets): three exactly-once apps of three groups; its link to the transaction coordinator takes 50 ms. */
const standalone = {
  version: 1,
  id: 'group-verification-standalone',
  seed: 1,
  cluster: {},
  network: { latencyMs: 1, links: [{ from: 'group-coordinator', to: 'txn-coordinator', latencyMs: 50 }] },
  topics: [{ name: 'in' }, { name: 'out' }],
  clients: [feeder, eosApp('a', 'a'), eosApp('b', 'b'), eosApp('c', 'c')],
} as unknown as Scenario;

describe("the standalone group coordinator keeps its broker's queue itself", () => {
  const r = run(standalone);

  it('one AddPartitionsToTxn in flight: the TxnOffsetCommits that came meanwhile are verified together in the next', () => {
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
    // the apps' Produce verifications leave from broker-0, the partition leader of out-0
    const [a, bc, ...rest] = r.verifications.filter((e) => e.from === 'group-coordinator');
    expect(rest).toEqual([]);
    expect(r.txnsOf(a as EnvelopeRecord)).toEqual(['a-0']);
    expect(a?.sentAt).toBe(3018);
    expect(r.txnsOf(bc as EnvelopeRecord)).toEqual(['b-0', 'c-0']);
    expect(bc?.sentAt).toBe(r.answerTo(a as EnvelopeRecord).deliverAt);
    const answers = r.all.filter((e) => e.rpc === 'TxnOffsetCommitResponse');
    expect(answers.map((e) => [e.to, (e.payload as { error: string }).error, e.sentAt])).toEqual([
      ['a.producer', 'NONE', 3069],
      ['b.producer', 'NONE', 3120],
      ['c.producer', 'NONE', 3120],
    ]);
  });

  it('the narration says why a TxnOffsetCommit waits, in English and Korean', () => {
    const held = r.stepOf((s) => s.label === 'TxnOffsetCommit' && s.sent.length === 0 && s.actor === 'group-coordinator');
    expect(narrate(r.trace, held, 'en')).toContain('its verification waits');
    expect(narrate(r.trace, held, 'ko')).toContain('검증이 기다립니다');
    const freed = r.stepOf((s) => s.label === 'AddPartitionsToTxnResponse' && s.t === 3069);
    expect(narrate(r.trace, freed, 'en')).toContain('the coordinator is free again');
    expect(narrate(r.trace, freed, 'ko')).toContain('AddPartitionsToTxn 하나로 보냅니다');
  });
});
