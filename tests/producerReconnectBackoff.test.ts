/**
 * The producer and its connection states (Kafka trunk, Oct 2024): Sender.sendProducerData removes
 * every ready node for which `client.ready(node, now)` is false — a node whose connection failed and
 * is still in its reconnect backoff (ClusterConnectionStates.canConnect false) — so its batches are
 * not drained: no Produce, no `batch.attempts()` counted, no NETWORK_EXCEPTION. They wait until the
 * metadata names a leader the producer can reach, or delivery.timeout.ms. Only the batches in flight
 * when a connection broke fail (NETWORK_EXCEPTION, one attempt). The model's connection attempt is
 * the first request after the backoff: refused by a dead broker, it was never sent.
 *
 * On the old code every retry went to the dead leader, was refused and counted: with retries=3 the
 * audit scenario (a producer whose partition leader died) lost e2 with NETWORK_EXCEPTION.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import { backoffOver, disconnected, NO_CONNECTION_STATES } from '../src/sim/cluster/connectionStates';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import type { Effect } from '../src/sim/kernel/effects';
import type { TraceStep } from '../src/sim/kernel/types';
import {
  abortUndrained,
  accumulate,
  drain,
  onConnectRefused,
  onDeliveryTimeout,
  onProduceResponse,
  type ProducerDraft,
} from '../src/sim/producer/sender';
import type { Scenario } from '../src/sim/scenario/schema';
import type { Fact } from '../src/sim/trace/facts';
import { failoverOrders } from './fixtures/failoverOrders';
import { producerDraft } from './fixtures/producerDraft';
import { runWith } from './presets/helpers';

const meta: ClusterMetadata = {
  brokers: ['broker-0', 'broker-1'],
  topics: { orders: { name: 'orders', partitions: 2, leaders: ['broker-0', 'broker-1'] } },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 3,
  consumerOffsetsPartitions: 3,
};

const RECONNECT = { 'reconnect.backoff.ms': 50, 'reconnect.backoff.max.ms': 1000 };

function send(d: ProducerDraft, value: string, partition: number, now: number): Out {
  accumulate(d, { topic: 'orders', key: null, value, partition }, now, new Out());
  const out = new Out();
  drain(d, now, out);
  return out;
}

/** The Produce requests among the effects: (broker, first record's value, baseSequence). */
function produced(out: Out): [string, string, number][] {
  return out.effects
    .filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.rpc === 'Produce')
    .flatMap((e) =>
      (e.payload as { partitions: { batch: { baseSequence: number; records: { value: string }[] } }[] }).partitions.map(
        (p) => [e.to, p.batch.records[0]?.value as string, p.batch.baseSequence] as [string, string, number],
      ),
    );
}

const facts = (out: Out): Fact[] => out.effects.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));

describe('the Sender drains no batch for a node in its reconnect backoff (Sender.sendProducerData: !client.ready → iter.remove)', () => {
  it('nothing of it is drained — no Produce, no sequence, no attempt — while another broker is; the backoff over, it goes', () => {
    const d = producerDraft(meta);
    d.connections = disconnected(NO_CONNECTION_STATES, 'broker-0', 0, RECONNECT);
    const out = send(d, 'a', 0, 10);
    expect(produced(out)).toEqual([]);
    expect(d.batches).toEqual([]);
    expect(d.nextSequence['orders-0']).toBeUndefined();
    // broker-1 is reachable: its partition is drained meanwhile
    expect(produced(send(d, 'b', 1, 20))).toEqual([['broker-1', 'b', 0]]);
    // the producer's timer at the backoff's end: the next drain sends orders-0 (its connection attempt)
    d.connections = backoffOver(d.connections, 'broker-0');
    const later = new Out();
    drain(d, 50, later);
    expect(produced(later)).toEqual([['broker-0', 'a', 0]]);
  });

  it('a refused connection attempt drained nothing: not in flight, attempts as they were, no error; it waits for a reachable leader', () => {
    const d = producerDraft(meta);
    send(d, 'a', 0, 0);
    const a = d.batches[0];
    expect(a).toMatchObject({ inFlight: true, attempts: 1, baseSequence: 0 });
    onConnectRefused(d, 'broker-0');
    expect(d.batches).toEqual([{ ...a, inFlight: false, correlationId: null, attempts: 0 }]);
    // a retried batch refused the same way keeps the attempts it had
    const retried = new Out();
    drain(d, 1, retried);
    expect(produced(retried)).toEqual([['broker-0', 'a', 0]]);
    const out = new Out();
    onProduceResponse(
      d,
      {
        correlationId: d.batches[0]?.correlationId as number,
        responses: [{ topic: 'orders', partition: 0, error: 'NOT_ENOUGH_REPLICAS', baseOffset: -1 }],
      } as never,
      2,
      out,
    );
    drain(d, 200, new Out());
    expect(d.batches[0]).toMatchObject({ inFlight: true, attempts: 2 });
    onConnectRefused(d, 'broker-0');
    expect(d.batches[0]).toMatchObject({ inFlight: false, attempts: 1 });
  });

  it('a batch that only rode on refused attempts expires without having held a sequence (RecordAccumulator.expiredBatches): the next batch takes it', () => {
    const d = producerDraft(meta, { 'delivery.timeout.ms': 1000, 'request.timeout.ms': 500 });
    send(d, 'a', 0, 0);
    onConnectRefused(d, 'broker-0');
    d.connections = disconnected(NO_CONNECTION_STATES, 'broker-0', 2, RECONNECT);
    const expiry = new Out();
    onDeliveryTimeout(d, d.batches[0]?.id as number, 1000, expiry);
    expect(facts(expiry).filter((f) => f.kind === 'sendResult')).toMatchObject([{ error: 'TimeoutException' }]);
    // Sender.sendProducerData: "Expiring " + recordCount + " record(s) for " + tp + ":" + (now - createdMs) + " ms has passed since batch creation"
    expect(facts(expiry).flatMap((f) => (f.kind === 'clientError' ? [f.during] : []))).toEqual([
      'Expiring 1 record(s) for orders-0:1000 ms has passed since batch creation',
    ]);
    // no epoch bump, no gap: b is sequence 0, as if a had never been drained
    expect(d.epochBumpPending).toBe(false);
    d.connections = NO_CONNECTION_STATES;
    expect(produced(send(d, 'b', 0, 1100))).toEqual([['broker-0', 'b', 0]]);
  });

  it('an abort fails it as undrained (RecordAccumulator.abortUndrainedBatches), its sequence given back', () => {
    const d = producerDraft(meta, { 'transactional.id': 'tx' });
    d.txnPartitions = ['orders-0'];
    send(d, 'a', 0, 0);
    onConnectRefused(d, 'broker-0');
    const out = new Out();
    abortUndrained(d, out, 'TransactionAbortedException');
    expect(facts(out).filter((f) => f.kind === 'sendResult')).toMatchObject([{ error: 'TransactionAbortedException' }]);
    expect(d.batches).toEqual([]);
    expect(d.nextSequence['orders-0']).toBe(0);
  });
});

/** The audit's scenario: broker-0, leader of orders-0, crashes at 3600 for 30 s; e1 is sent at 3500, e2 at 5000. */
function deadLeader(config: Record<string, unknown>): Scenario {
  return failoverOrders({
    id: 'audit-producer-dead-leader',
    title: 'A producer whose leader is down',
    secondAt: 5000,
    producerConfig: config,
    faults: [{ type: 'crash', target: 'broker-0', at: 3600, durationMs: 30000 }],
  });
}

describe('a producer whose leader is down (audit-net finding 1)', () => {
  const r = runWith(deadLeader({ retries: 3 }));
  const steps = r.trace.steps;
  const producer = (s: TraceStep) => s.actor === 'orders-service.producer';

  it('retries=3: e2 is delivered once, to the new leader broker-1 — its refused connection attempts were no retries', () => {
    expect(r.facts('sendResult').map((f) => [f.eventId, f.error, f.offset])).toEqual([
      ['e1', null, 0],
      ['e2', null, 1],
    ]);
    expect(r.errors('orders-service')).toEqual([]);
    expect(r.layer('log', 'orders')?.status).toBe('once');
    expect(r.layer('loss')?.status).toBe('once');
  });

  it('the attempts to broker-0 follow the reconnect backoff (50 ms doubling to 1 s), each refused, until the metadata names broker-1', () => {
    const refused = steps.filter((s) => producer(s) && s.kind === 'disconnected' && (s.detail as { reason?: string }).reason === 'refused');
    const produces = r.trace.envelopes.filter((e) => e.rpc === 'Produce' && e.to === 'broker-0' && e.sentAt > 3600);
    expect(produces.length).toBe(refused.length);
    const gaps = produces.slice(1).map((e, i) => e.sentAt - (refused[i]?.t as number));
    expect(gaps.slice(0, 6)).toEqual([100, 200, 400, 800, 1000, 1000]);
    // the last attempt before broker-1 took over, then e2 on broker-1
    const toBroker1 = r.trace.envelopes.find((e) => e.rpc === 'Produce' && e.to === 'broker-1');
    expect(toBroker1?.sentAt).toBeGreaterThan(11001);
  });

  it('the idle connection to broker-0 closing at the crash is a disconnect too: backoff, and a metadata update (handleServerDisconnect)', () => {
    const idle = steps.find((s) => producer(s) && s.label === 'connectionClosed');
    expect(idle).toMatchObject({ kind: 'disconnected', t: 3601, from: 'broker-0', envelope: null });
    expect(idle?.sent.map((id) => r.trace.envelopes.at(id)?.rpc)).toEqual(['Metadata']);
    expect(r.trace.envelopes.at(idle?.sent[0] as number)?.to).toBe('broker-1');
  });

  it('with the default retries the producer reports no NETWORK_EXCEPTION either (the audit counted ten)', () => {
    const d = runWith(deadLeader({}));
    expect(d.errors('orders-service')).toEqual([]);
    expect(d.facts('sendResult').map((f) => [f.eventId, f.error, f.offset])).toEqual([
      ['e1', null, 0],
      ['e2', null, 1],
    ]);
  });
});
