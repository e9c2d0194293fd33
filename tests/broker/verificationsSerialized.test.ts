/**
 * A partition leader's transaction verifications to one coordinator are serialized and batched
 * (Kafka's AddPartitionsToTxnManager: `inflightNodes`, `generateRequests`): the leader keeps one
 * AddPartitionsToTxn in flight per coordinator; a verification that comes meanwhile waits, and
 * goes out when the answer (or its failure) comes back, together with every other one waiting, as
 * one v4+ request (a list of transactions). The coordinator answers every transaction of it in one
 * response (KafkaApis.handleAddPartitionsToTxnRequest's `addResultAndMaybeSendResponse`).
 *
 * On the old code the leader sent an AddPartitionsToTxn for every Produce at once: b's left at
 * 1011 while a's was unanswered and reached the coordinator at 1061 (audit-broker Finding 2).
 */

import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { onProduce } from '../../src/sim/broker/produceRequest';
import { DEFAULT_PRODUCER_EXPIRATION } from '../../src/sim/broker/producerExpirationCheck';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import type { RpcEvent } from '../../src/sim/kernel/effects';
import { createPartitionLog } from '../../src/sim/log/partitionLog';
import { narrate } from '../../src/sim/narration';
import type { ProduceRequest } from '../../src/sim/protocol/messages';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { EnvelopeRecord } from '../../src/sim/views';

const producer = (id: string, at: number) => ({
  id,
  type: 'producer',
  config: { 'transactional.id': `${id}-1`, 'linger.ms': 0 },
  script: [
    { op: 'beginTransaction', at },
    { op: 'send', topic: 'events', key: id, value: `${id}1`, headers: { event_id: `evt-${id}1` } },
    { op: 'flush' },
    { op: 'commitTransaction' },
  ],
});

/** The audit's scenario (two-verifications.json), with `ids` producers starting 10 ms apart; the leader→coordinator link takes 50 ms. */
const scenario = (ids: readonly string[], cluster: Record<string, unknown> = {}, links?: object[]) =>
  ({
    version: 1,
    id: 'verifications-serialized',
    seed: 5,
    cluster,
    network: { latencyMs: 1, links: links ?? [{ from: 'broker-0', to: 'txn-coordinator', latencyMs: 50 }] },
    topics: [{ name: 'events', partitions: 1 }],
    clients: ids.map((id, i) => producer(id, 1000 + 10 * i)),
  }) as unknown as Scenario;

type Txn = { transactionalId: string; verifyOnly: boolean };
type Result = { transactionalId: string; partitions: { error: string }[] };

function run(s: Scenario) {
  const trace = runScenario(s);
  expect(['empty', 'quiescent']).toContain(trace.stopReason);
  const all = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  const verifications = all.filter((e) => e.rpc === 'AddPartitionsToTxn' && e.from === 'broker-0');
  const answerTo = (e: EnvelopeRecord) => all.find((x) => x.inReplyTo === e.id) as EnvelopeRecord;
  // the transactional.ids a leader's request asks about (v4+: a list; the old model's: one)
  const txnsOf = (e: EnvelopeRecord) => {
    const p = e.payload as { transactions?: Txn[]; transactionalId?: string };
    return p.transactions?.map((t) => t.transactionalId) ?? [p.transactionalId];
  };
  const produceAnswer = (client: string) => all.find((e) => e.rpc === 'ProduceResponse' && e.to === `${client}.producer`) as EnvelopeRecord;
  return { trace, all, verifications, answerTo, txnsOf, produceAnswer };
}

describe('the audit scenario: two transactional producers verified by broker-0', () => {
  const r = run(scenario(['a', 'b']));

  it("b's verification leaves when a's answer arrives, not before", () => {
    const [a, b] = r.verifications as [EnvelopeRecord, EnvelopeRecord];
    expect(r.txnsOf(a)).toEqual(['a-1']);
    expect(r.txnsOf(b)).toEqual(['b-1']);
    expect(a.sentAt).toBe(1003);
    expect(b.sentAt).toBe(r.answerTo(a).deliverAt);
    expect(b.sentAt).toBe(1054);
    expect(b.deliverAt).toBe(1104);
    expect(r.produceAnswer('b').deliverAt).toBe(1106);
  });

  it('the narration says why the Produce waits, and what leaves with the answer, in English and Korean', () => {
    const steps = [...Array(r.trace.steps.length).keys()];
    const held = steps.find((i) => r.trace.steps.at(i)?.label === 'Produce' && r.trace.steps.at(i)?.t === 1013) as number;
    expect(narrate(r.trace, held, 'en')).toContain('its verification waits');
    expect(narrate(r.trace, held, 'ko')).toContain('검증이 기다립니다');
    const freed = steps.find(
      (i) => r.trace.steps.at(i)?.label === 'AddPartitionsToTxnResponse' && r.trace.steps.at(i)?.t === 1054,
    ) as number;
    expect(narrate(r.trace, freed, 'en')).toContain('the coordinator is free again');
    expect(narrate(r.trace, freed, 'ko')).toContain('AddPartitionsToTxn 하나로 보냅니다');
  });
});

describe('what waits meanwhile goes out together, answered in one response', () => {
  for (const [name, cluster] of [
    ['protocol v2 (the coordinator adds the partitions)', {}],
    ['protocol v1 with verification (verifyOnly)', { 'transaction.version': 1 }],
  ] as const)
    it(name, () => {
      const r = run(scenario(['a', 'b', 'c'], cluster));
      const [a, bc, ...rest] = r.verifications as EnvelopeRecord[];
      expect(rest).toEqual([]);
      expect(r.txnsOf(bc as EnvelopeRecord)).toEqual(['b-1', 'c-1']);
      const v1 = cluster['transaction.version' as keyof typeof cluster] === 1;
      expect((bc?.payload as { transactions: Txn[] }).transactions.every((t) => t.verifyOnly === v1)).toBe(true);
      expect(bc?.sentAt).toBe(r.answerTo(a as EnvelopeRecord).deliverAt);
      const answer = r.answerTo(bc as EnvelopeRecord).payload as { error: string; resultsByTransaction: Result[] };
      expect(answer.error).toBe('NONE');
      expect(answer.resultsByTransaction.map((t) => [t.transactionalId, t.partitions.map((p) => p.error)])).toEqual([
        ['b-1', ['NONE']],
        ['c-1', ['NONE']],
      ]);
      expect(r.produceAnswer('b').deliverAt).toBe(r.produceAnswer('c').deliverAt);
    });

  it('the narration of the batched verification names every transaction, in English and Korean', () => {
    const r = run(scenario(['a', 'b', 'c'], { 'transaction.version': 1 }));
    const bc = r.verifications[1] as EnvelopeRecord;
    const step = [...Array(r.trace.steps.length).keys()].find((i) => r.trace.steps.at(i)?.envelope === bc.id) as number;
    expect(narrate(r.trace, step, 'en')).toContain('in one AddPartitionsToTxn about 2 transactions');
    expect(narrate(r.trace, step, 'en')).toContain('events-0 (b-1) and events-0 (c-1)');
    expect(narrate(r.trace, step, 'ko')).toContain('AddPartitionsToTxn 하나로');
  });

  it("a hosted coordinator (replicated __transaction_state) answers once every transaction's write is done", () => {
    const links = [0, 1, 2].map((i) => ({ from: 'broker-0', to: `broker-${i}.txn-coordinator`, latencyMs: 50 }));
    const s = {
      ...scenario(
        ['a', 'b', 'c'],
        { brokers: 3, 'transaction.state.log.replication.factor': 3, 'transaction.state.log.num.partitions': 1 },
        links,
      ),
      topics: [{ name: 'events', partitions: 1, replicationFactor: 3 }],
    } as unknown as Scenario;
    const r = run(s);
    const [, bc] = r.verifications as EnvelopeRecord[];
    expect(r.txnsOf(bc as EnvelopeRecord)).toEqual(['b-1', 'c-1']);
    const answers = r.all.filter((e) => e.inReplyTo === bc?.id);
    expect(answers).toHaveLength(1);
    // both writes (b-1 and c-1 to Ongoing) finished before the one answer left
    const ongoing = [...Array(r.trace.steps.length).keys()]
      .map((i) => r.trace.steps.at(i))
      .filter((st) => st?.label === 'txnStateAppended' && (st.t ?? 0) > (bc?.deliverAt ?? 0));
    expect(ongoing.length).toBeGreaterThanOrEqual(2);
    expect(answers[0]?.sentAt).toBe(ongoing[1]?.t);
  });
});

describe('the leader answers a replaced queued verification as Kafka does (addTxnData)', () => {
  const meta: ClusterMetadata = {
    brokers: ['broker-0'],
    topics: { t: { name: 't', partitions: 2, leaders: ['broker-0', 'broker-0'] } },
    transactionCoordinator: 'txn-coordinator',
    groupCoordinator: 'group-coordinator',
    transactionStatePartitions: 1,
    consumerOffsetsPartitions: 1,
  } as ClusterMetadata;
  const broker = (): BrokerContext => ({
    id: 'broker-0',
    partitions: { 't-0': createPartitionLog('t', 0), 't-1': createPartitionLog('t', 1) },
    parked: [],
    nextParkId: 0,
    verification: true,
    transactionVersion: 1,
    transactionCoordinator: 'txn-coordinator',
    verifying: [],
    verificationQueue: [],
    nextCorrelationId: 0,
    meta,
    producerExpiration: DEFAULT_PRODUCER_EXPIRATION,
    logsOpenedAtMs: 0,
    expiryChecks: {},
  });
  const produce = (envelopeId: number, transactionalId: string, producerEpoch: number, partition = 0) =>
    ({
      type: 'Produce',
      from: `${transactionalId}.producer`,
      envelopeId,
      inReplyTo: null,
      now: 10,
      payload: {
        correlationId: envelopeId,
        acks: -1,
        transactionalId,
        timeoutMs: 30000,
        partitions: [
          {
            topic: 't',
            partition,
            batch: {
              producerId: transactionalId === 'x' ? 1 : 2,
              producerEpoch,
              baseSequence: 0,
              isTransactional: true,
              records: [{ key: 'k', value: 'v', headers: {}, timestamp: 0 }],
            },
          },
        ],
      },
    }) as unknown as RpcEvent<ProduceRequest>;
  const sent = (out: Out) => out.effects.flatMap((e) => (e.type === 'send' ? [{ to: e.to, rpc: e.rpc, payload: e.payload }] : []));

  function queued(epochs: [number, number]) {
    let c = onProduce(broker(), produce(1, 'x', 0, 1), new Out()); // x's verification in flight
    c = onProduce(c, produce(2, 'a', epochs[0]), new Out()); // waits
    const out = new Out();
    c = onProduce(c, produce(3, 'a', epochs[1]), out);
    return { c, out: sent(out) };
  }

  it('same epoch: the older Produce is answered NOT_ENOUGH_REPLICAS (NETWORK_EXCEPTION), the newer waits', () => {
    const { c, out } = queued([0, 0]);
    expect(out).toHaveLength(1);
    expect(out[0]?.rpc).toBe('ProduceResponse');
    expect(out[0]?.payload).toMatchObject({ correlationId: 2, responses: [{ error: 'NOT_ENOUGH_REPLICAS' }] });
    expect(c.verificationQueue[0]?.waiting.map((t) => t.verification)).toEqual([2]);
    expect(c.verifying.map((v) => v.request.envelopeId)).toEqual([1, 3]);
  });

  it('a higher epoch: the older is answered INVALID_PRODUCER_EPOCH', () => {
    const { out } = queued([0, 1]);
    expect(out[0]?.payload).toMatchObject({ correlationId: 2, responses: [{ error: 'INVALID_PRODUCER_EPOCH' }] });
  });

  it('a lower epoch: the newer is answered INVALID_PRODUCER_EPOCH and the older keeps its place', () => {
    const { c, out } = queued([1, 0]);
    expect(out[0]?.payload).toMatchObject({ correlationId: 3, responses: [{ error: 'INVALID_PRODUCER_EPOCH' }] });
    expect(c.verificationQueue[0]?.waiting.map((t) => t.verification)).toEqual([1]);
  });
});
