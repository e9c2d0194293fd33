/**
 * The Produce's timeout (Sender.sendProduceRequest: ProduceRequestData.setTimeoutMs(request.timeout.ms);
 * KafkaApis.handleProduceRequest passes it to ReplicaManager.appendRecords): an acks=all produce waits
 * in the leader's purgatory for the producer's request.timeout.ms, not a fixed 30000.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import type { Effect } from '../../src/sim/kernel/effects';
import { findPreset } from '../../src/sim/presets';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerInput } from '../../src/sim/producer/producerContext';
import type { Scenario } from '../../src/sim/scenario/schema';
import { bootedBroker, drive, inputOf } from '../machines/harness';
import { runWith } from '../presets/helpers';

type SendEffect = Extract<Effect, { type: 'send' }>;
const produceOf = (fx: readonly Effect[]) => fx.find((e): e is SendEffect => e.type === 'send' && e.rpc === 'Produce');

/** A producer with request.timeout.ms 7000 that sends one record; `replicated`: topic t's metadata carries leader epochs. */
function producedPayload(replicated: boolean) {
  const scenario = {
    version: 1,
    seed: 1,
    cluster: { brokers: 3 },
    topics: [{ name: 't' }],
    clients: [
      { id: 'p', type: 'producer', config: { 'linger.ms': 0, 'request.timeout.ms': 7000, 'enable.idempotence': false }, script: [] },
    ],
  };
  const built = inputOf(scenario, 'p.producer') as ProducerInput;
  const t = built.meta.topics.t as ClusterMetadata['topics'][string];
  const input = replicated ? { ...built, meta: { ...built.meta, topics: { t: { ...t, leaderEpochs: [0] } } } } : built;
  const m = drive(producerMachine, input);
  m.send({ type: 'boot' }, 0);
  return produceOf(m.send({ type: 'send', from: 'p.app', args: { topic: 't', key: 'k', value: 'v' } }, 1))?.payload;
}

describe('the Produce carries request.timeout.ms and the leader waits that long', () => {
  it('the producer writes its request.timeout.ms into a Produce for a replicated topic', () => {
    expect(producedPayload(true)).toMatchObject({ acks: -1, timeoutMs: 7000 });
    // one replica: no leader waits for replicas, and the payload stays as it was
    expect(producedPayload(false)).not.toHaveProperty('timeoutMs');
  });

  it("the leader's delayed produce expires after the request's timeoutMs with REQUEST_TIMED_OUT", () => {
    const scenario = { version: 1, seed: 1, cluster: { brokers: 3 }, topics: [{ name: 't', replicationFactor: 3 }], clients: [] };
    const b = bootedBroker(scenario, 'broker-0');
    const fx = b.send(
      {
        type: 'Produce',
        from: 'p.producer',
        envelopeId: 1,
        inReplyTo: null,
        payload: {
          correlationId: 1,
          acks: -1,
          timeoutMs: 7000,
          transactionalId: null,
          partitions: [
            {
              topic: 't',
              partition: 0,
              batch: {
                producerId: -1,
                producerEpoch: -1,
                baseSequence: -1,
                isTransactional: false,
                records: [{ key: 'k', value: 'v', headers: {}, timestamp: 0 }],
              },
            },
          ],
        },
      },
      10,
    );
    const timer = fx.find((e) => e.type === 'timer' && e.name === 'produceTimeout') as Extract<Effect, { type: 'timer' }>;
    expect(timer.delay).toBe(7000);
    const expired = b.send({ type: 'produceTimeout', data: timer.data }, 7010);
    expect(expired).toContainEqual(
      expect.objectContaining({
        type: 'send',
        rpc: 'ProduceResponse',
        payload: expect.objectContaining({ responses: [expect.objectContaining({ error: 'REQUEST_TIMED_OUT' })] }),
      }),
    );
  });

  it('min-insync-blocks-writes with request.timeout.ms 12000: the leader answers REQUEST_TIMED_OUT 12 s after it took the Produce', () => {
    const base = findPreset('min-insync-blocks-writes')?.scenario as Scenario;
    const producer = base.clients[0] as Scenario['clients'][number] & { config: Record<string, unknown> };
    const r = runWith({ ...base, clients: [{ ...producer, config: { ...producer.config, 'request.timeout.ms': 12000 } }] } as Scenario);
    const envelopes = r.trace.envelopes;
    const timedOut = envelopes.find(
      (e) =>
        e.rpc === 'ProduceResponse' &&
        e.from === 'broker-0' &&
        (e.payload.responses as { error: string }[])[0]?.error === 'REQUEST_TIMED_OUT',
    );
    const request = envelopes.at(timedOut?.inReplyTo as number);
    expect(request?.payload).toMatchObject({ acks: -1, timeoutMs: 12000 });
    expect((timedOut?.sentAt as number) - (request?.deliverAt as number)).toBe(12000);
    expect(r.errors('orders-service')[0]).toBe('REQUEST_TIMED_OUT');
  });
});
