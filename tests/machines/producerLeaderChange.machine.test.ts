/**
 * The producer follows a partition's leader (Sender.completeBatch on InvalidMetadataException,
 * KIP-951's currentLeader, RecordAccumulator.ready's unknown leaders, NetworkClient's metadata
 * update on disconnect), driven directly: NOT_LEADER_OR_FOLLOWER answers, hints, MetadataResponses
 * with a moved leader or an offline partition.
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerContext, ProducerInput } from '../../src/sim/producer/producerContext';
import type { PartitionMetadata } from '../../src/sim/protocol/replicationMessages';
import { type Driven, drive, inputOf, sends } from './harness';
import { metadataOfT, partitionT0 as part, threeBrokerScenario, withReplicatedT } from './replicatedTopic';

/** The producer's input with topic t replicated (its metadata carries leader epochs), or as built (one replica). */
const input = (config: Record<string, unknown>, replicated: boolean): ProducerInput =>
  withReplicatedT(
    inputOf(threeBrokerScenario([{ id: 'p', type: 'producer', config, script: [] }]), 'p.producer') as ProducerInput,
    replicated,
  );

type SendEffect = Extract<Effect, { type: 'send' }>;
const sent = (fx: readonly Effect[], rpc: string) => fx.filter((e): e is SendEffect => e.type === 'send' && e.rpc === rpc);
const only = (fx: readonly Effect[], rpc: string): SendEffect => {
  const list = sent(fx, rpc);
  expect(list.length, `${rpc} requests`).toBe(1);
  return list[0] as SendEffect;
};
const batchOf = (e: SendEffect) =>
  (e.payload as { partitions: { batch: { producerId: number; producerEpoch: number; baseSequence: number } }[] }).partitions[0]?.batch;
const corrOf = (e: SendEffect) => e.payload.correlationId as number;

/** An idempotent producer (linger.ms 0) with producer id 7, epoch 0, that has sent one record to broker-0. */
function sentOne(replicated = true) {
  const m = drive(producerMachine, input({ 'linger.ms': 0 }, replicated));
  const init = only(m.send({ type: 'boot' }), 'InitProducerId');
  m.send(
    {
      type: 'InitProducerIdResponse',
      from: 'txn-coordinator',
      envelopeId: 1,
      inReplyTo: 0,
      payload: { correlationId: corrOf(init), error: 'NONE', producerId: 7, producerEpoch: 0 },
    },
    1,
  );
  const fx = m.send({ type: 'send', from: 'p.app', args: { topic: 't', key: 'k', value: 'v' } }, 2);
  const produce = only(fx, 'Produce');
  expect(produce.to).toBe('broker-0');
  expect(batchOf(produce)).toMatchObject({ producerId: 7, producerEpoch: 0, baseSequence: 0 });
  return { m, produce };
}

const produceAnswer = (m: Driven, to: SendEffect, from: string, payload: Record<string, unknown>, now: number) =>
  m.send(
    {
      type: 'ProduceResponse',
      from,
      envelopeId: 5,
      inReplyTo: 4,
      payload: { correlationId: corrOf(to), responses: [{ topic: 't', partition: 0, baseOffset: -1, errorMessage: null, ...payload }] },
    },
    now,
  );

const metadataAnswer = (m: Driven, to: SendEffect, p: PartitionMetadata, now: number) =>
  m.send(
    {
      type: 'MetadataResponse',
      from: to.to,
      envelopeId: 9,
      inReplyTo: 8,
      payload: { correlationId: corrOf(to), ...metadataOfT(p) },
    },
    now,
  );

describe('the producer follows the leader', () => {
  it('NOT_LEADER_OR_FOLLOWER with a currentLeader hint: the batch goes at once to the new leader, same producer id, epoch and sequence, and metadata is refreshed', () => {
    const { m, produce } = sentOne();
    const fx = produceAnswer(
      m,
      produce,
      'broker-0',
      { error: 'NOT_LEADER_OR_FOLLOWER', currentLeader: { leaderId: 'broker-1', leaderEpoch: 1 } },
      10,
    );
    const retry = only(fx, 'Produce');
    expect(retry.to).toBe('broker-1');
    expect(batchOf(retry)).toEqual(batchOf(produce));
    // Sender.completeBatch still asks for a full update (Metadata to the least loaded node)
    expect(only(fx, 'Metadata')).toMatchObject({ to: 'broker-0', background: true, payload: { topics: ['t'] } });
    const ctx = m.context<ProducerContext>();
    expect(ctx.meta.topics.t?.leaders).toEqual(['broker-1']);
    expect(ctx.meta.topics.t?.leaderEpochs).toEqual([1]);
  });

  it('NOT_LEADER_OR_FOLLOWER without a hint: nothing to the old leader before the MetadataResponse names the new one, then the same batch goes there', () => {
    const { m, produce } = sentOne();
    const fx = produceAnswer(m, produce, 'broker-0', { error: 'NOT_LEADER_OR_FOLLOWER' }, 10);
    expect(sent(fx, 'Produce')).toEqual([]);
    const metadata = only(fx, 'Metadata');
    const after = metadataAnswer(m, metadata, part('broker-2', 1), 20);
    // the leader moved: the retry skips what is left of retry.backoff.ms (KIP-951)
    const retry = only(after, 'Produce');
    expect(retry.to).toBe('broker-2');
    expect(batchOf(retry)).toEqual(batchOf(produce));
    expect(m.context<ProducerContext>().metadata.updateRequested).toBe(false);
  });

  it('a MetadataResponse with an older leader epoch is ignored: the batch keeps waiting for the newer leader', () => {
    const { m, produce } = sentOne();
    const fx = produceAnswer(
      m,
      produce,
      'broker-0',
      { error: 'FENCED_LEADER_EPOCH', currentLeader: { leaderId: 'broker-1', leaderEpoch: 2 } },
      10,
    );
    expect(only(fx, 'Produce').to).toBe('broker-1');
    metadataAnswer(m, only(fx, 'Metadata'), part('broker-0', 1), 20);
    expect(m.context<ProducerContext>().meta.topics.t?.leaders).toEqual(['broker-1']);
  });

  it('an offline partition: nothing is drained, new records wait in the accumulator, metadata is asked again with backoff; when a leader is elected both go to it', () => {
    const { m, produce } = sentOne();
    const first = only(produceAnswer(m, produce, 'broker-0', { error: 'NOT_LEADER_OR_FOLLOWER' }, 10), 'Metadata');
    // LEADER_NOT_AVAILABLE, leader null, a newer epoch: no leader, and another update at once
    const offline = metadataAnswer(m, first, part(null, 1), 20);
    expect(sent(offline, 'Produce')).toEqual([]);
    const again = only(offline, 'Metadata');
    expect(m.context<ProducerContext>().meta.topics.t?.leaders).toEqual([null]);
    // a new record and the retry timer: still nothing drained
    const more = m.send({ type: 'send', from: 'p.app', args: { topic: 't', key: 'k', value: 'w' } }, 30);
    expect(sent(more, 'Produce')).toEqual([]);
    expect(sent(m.send({ type: 'retryBackoffExpired' }, 200), 'Produce')).toEqual([]);
    expect(m.context<ProducerContext>().accumulating['t-0']?.bytes).toBeGreaterThan(0);
    // the same answer again is equivalent: the next update waits retry.backoff.ms
    const same = metadataAnswer(m, again, part(null, 1), 210);
    expect(sent(same, 'Metadata')).toEqual([]);
    expect(same).toContainEqual(expect.objectContaining({ type: 'timer', name: 'metadataUpdateDue', delay: 100 }));
    const due = only(m.send({ type: 'metadataUpdateDue' }, 310), 'Metadata');
    // elected: the retry (sequence 0) and, behind it, the waiting record (sequence 1) go to the new leader
    const elected = sent(metadataAnswer(m, due, part('broker-1', 2), 320), 'Produce');
    expect(elected.map((e) => e.to)).toEqual(['broker-1', 'broker-1']);
    expect(batchOf(elected[0] as SendEffect)).toEqual(batchOf(produce));
    expect(batchOf(elected[1] as SendEffect)).toMatchObject({ producerId: 7, producerEpoch: 0, baseSequence: 1 });
  });

  it('NOT_ENOUGH_REPLICAS / NOT_ENOUGH_REPLICAS_AFTER_APPEND / REQUEST_TIMED_OUT: retried after retry.backoff.ms with the same sequence, no metadata update', () => {
    for (const error of ['NOT_ENOUGH_REPLICAS', 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', 'REQUEST_TIMED_OUT']) {
      const { m, produce } = sentOne();
      const fx = produceAnswer(m, produce, 'broker-0', { error }, 10);
      expect(sends(fx), error).toEqual([]);
      const retry = only(m.send({ type: 'retryBackoffExpired' }, 110), 'Produce');
      expect(retry.to).toBe('broker-0');
      expect(batchOf(retry)).toEqual(batchOf(produce));
    }
  });

  it('a disconnect from the leader of a replicated topic asks for metadata from another broker; the batch follows the answer', () => {
    const { m, produce } = sentOne();
    const fx = m.send(
      {
        type: 'disconnected',
        to: 'broker-0',
        rpc: 'Produce',
        envelopeId: 4,
        payload: produce.payload,
        timedOut: false,
        reason: 'peer-down',
      },
      10,
    );
    const metadata = only(fx, 'Metadata');
    expect(metadata.to).toBe('broker-1');
    const retry = only(metadataAnswer(m, metadata, part('broker-2', 1), 20), 'Produce');
    expect(retry.to).toBe('broker-2');
    expect(batchOf(retry)).toEqual(batchOf(produce));
  });

  it('a lost Metadata request is asked again after retry.backoff.ms, of the next broker', () => {
    const { m, produce } = sentOne();
    const first = only(produceAnswer(m, produce, 'broker-0', { error: 'NOT_LEADER_OR_FOLLOWER' }, 10), 'Metadata');
    const lost = m.send(
      { type: 'disconnected', to: 'broker-0', rpc: 'Metadata', envelopeId: 6, payload: first.payload, timedOut: true, reason: 'timeout' },
      30010,
    );
    expect(sent(lost, 'Metadata')).toEqual([]);
    expect(lost).toContainEqual(expect.objectContaining({ type: 'timer', name: 'metadataUpdateDue', delay: 100 }));
    expect(only(m.send({ type: 'metadataUpdateDue' }, 30110), 'Metadata').to).toBe('broker-1');
  });

  it('one replica (no leader epochs): a disconnect refreshes nothing, as before replication', () => {
    const { m, produce } = sentOne(false);
    const fx = m.send(
      { type: 'disconnected', to: 'broker-0', rpc: 'Produce', envelopeId: 4, payload: produce.payload, timedOut: true, reason: 'timeout' },
      30002,
    );
    expect(sends(fx)).toEqual([]);
    expect(m.context<ProducerContext>().metadata.updateRequested).toBe(false);
    // the timeout's close put broker-0 in its reconnect backoff (50 ms): the retry goes after both
    expect(sends(m.send({ type: 'retryBackoffExpired' }, 30102))).toEqual([]);
    expect(
      only(m.send({ type: 'reconnectBackoffExpired', key: 'reconnect:broker-0', data: { node: 'broker-0' } }, 30102), 'Produce').to,
    ).toBe('broker-0');
  });
});
