/**
 * KafkaProducer.doSend → waitOnMetadata: a new producer knows no topic; its first send() to a topic
 * adds it to ProducerMetadata and blocks until a Metadata answer names the topic's partitions, at
 * most max.block.ms, then fails with TimeoutException("Topic <t> not present in metadata after <ms>
 * ms.") — an ApiException: send() returns, its future and callback fail. On the old code a producer
 * knew every topic from the start: send() never waited and no Metadata request preceded the Produce.
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { narrate } from '../../src/sim/narration/narrate';
import { metadataTimeoutClause } from '../../src/sim/narration/waitOnMetadata';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerContext } from '../../src/sim/producer/producerContext';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { onBrokerZero } from '../fixtures/oneBrokerMetadata';
import { type Driven, drive, inputOf, replies, sends } from '../machines/harness';

const scenario = (config: Record<string, unknown> = {}, script: unknown[] = []) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 2 }],
  clients: [{ id: 'p', type: 'producer', config, script }],
});

const send = (topic = 't', key = 'k') => ({ type: 'send', from: 'p.app', args: { topic, key, value: 'v' } });
const facts = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));
const metadataRequest = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'send' && e.rpc === 'Metadata' ? [e.payload as { correlationId: number; topics: string[] }] : []));

function producer(config: Record<string, unknown> = {}): Driven {
  const m = drive(producerMachine, inputOf(scenario({ 'enable.idempotence': false, ...config }), 'p.producer', { metadataKnown: false }));
  m.send({ type: 'boot' });
  return m;
}

const metadataAnswer = (correlationId: number, topics = ['t']) => ({
  type: 'MetadataResponse',
  from: 'broker-0',
  envelopeId: 9,
  inReplyTo: 0,
  payload: {
    correlationId,
    brokers: ['broker-0'],
    topics: topics.map((name) => ({
      name,
      partitions: [0, 1].map(onBrokerZero),
    })),
  },
});

describe('send() waits on metadata (waitOnMetadata)', () => {
  it('the first send() to a topic asks for it in a Metadata request and returns only once it is answered', () => {
    const m = producer();
    const fx = m.send(send(), 0);
    expect(replies(fx)).toEqual([]);
    expect(sends(fx)).toEqual(['Metadata→broker-0']);
    // a partial request: the new topic alone (ProducerMetadata.newMetadataRequestBuilderForNewTopics)
    const [req] = metadataRequest(fx);
    expect(req?.topics).toEqual(['t']);
    expect(facts(fx)).toEqual([expect.objectContaining({ kind: 'note', text: expect.stringContaining('blocks in waitOnMetadata') })]);
    expect(m.context<ProducerContext>().nextRef).toBe(0);

    const answered = m.send(metadataAnswer(req?.correlationId as number), 3);
    expect(replies(answered)).toEqual([expect.objectContaining({ call: 'send', ok: true, topic: 't', waitedMs: 3 })]);
    // the max.block.ms deadline is cancelled, the record is in the accumulator
    expect(answered).toContainEqual({ type: 'cancel', key: 'maxBlock:send' });
    expect(m.context<ProducerContext>().topicsKnown).toEqual(['t']);
    expect(m.context<ProducerContext>().newTopics).toEqual([]);
    // a one-replica topic keeps its static leaders: no epochs, so nothing makes the metadata age
    expect(m.context<ProducerContext>().meta.topics.t?.leaderEpochs).toBeUndefined();
    expect(m.context<ProducerContext>().metadata.lastSuccessfulRefreshMs).toBe(0);

    // the next send() to the same topic returns at once, with no request
    const next = m.send(send('t', 'k2'), 4);
    expect(sends(next)).toEqual([]);
    expect(replies(next)).toEqual([expect.objectContaining({ call: 'send', ok: true, topic: 't' })]);
    expect(replies(next)[0]).not.toHaveProperty('waitedMs');
  });

  it('a Metadata request precedes the first Produce of a run', () => {
    const trace = runScenario(scenario({}, [{ op: 'send', topic: 't', key: 'k', value: 'v' }]));
    const rpcs = trace.envelopes.filter((e) => e.from === 'p.producer').map((e) => e.rpc);
    expect(rpcs.indexOf('Metadata')).toBeGreaterThanOrEqual(0);
    expect(rpcs.indexOf('Metadata')).toBeLessThan(rpcs.indexOf('Produce'));
    const metadata = trace.envelopes.find((e) => e.rpc === 'Metadata');
    const produce = trace.envelopes.find((e) => e.rpc === 'Produce');
    expect((metadata?.sentAt ?? 0) < (produce?.sentAt ?? 0)).toBe(true);
  });

  it('fails with Kafka TimeoutException when the topic is not known within max.block.ms', () => {
    const m = producer({ 'max.block.ms': 5000 });
    const held = m.send(send(), 0);
    expect(held).toContainEqual(expect.objectContaining({ type: 'timer', key: 'maxBlock:send', name: 'maxBlockExpired', delay: 5000 }));
    const fx = m.send({ type: 'maxBlockExpired', key: 'maxBlock:send', data: { call: 'send' } }, 5000);
    // an ApiException: send() returns, its future fails (doSend's catch → FutureFailure)
    expect(replies(fx)).toEqual([expect.objectContaining({ call: 'send', ok: true, failed: 'TimeoutException', waitedMs: 5000 })]);
    expect(facts(fx)).toContainEqual(
      expect.objectContaining({
        kind: 'clientError',
        error: 'TimeoutException',
        during: 'send: Topic t not present in metadata after 5000 ms.',
      }),
    );
    expect(facts(fx)).toContainEqual(expect.objectContaining({ kind: 'sendResult', topic: 't', offset: null, error: 'TimeoutException' }));
    // nothing was appended; the topic stays in ProducerMetadata, still asked for
    expect(m.context<ProducerContext>().batches).toEqual([]);
    expect(m.context<ProducerContext>().newTopics).toEqual(['t']);
  });

  it('a timed-out send() inside a transaction makes it abortable (maybeTransitionToErrorState)', () => {
    const m = drive(producerMachine, inputOf(scenario({ 'transactional.id': 'tx' }), 'p.producer', { metadataKnown: false }));
    m.send({ type: 'boot' });
    m.send({ type: 'initTransactions', from: 'p.app', args: {} }, 0);
    const req = m.context<ProducerContext>().coordinatorRequest;
    const answer = { correlationId: req?.correlationId, error: 'NONE', producerId: 7, producerEpoch: 0 };
    m.send({ type: 'InitProducerIdResponse', from: 'txn-coordinator', envelopeId: 1, inReplyTo: 0, payload: answer }, 1);
    m.send({ type: 'beginTransaction', from: 'p.app', args: {} }, 2);
    m.send(send(), 2);
    expect(m.state()).toBe('live.IN_TRANSACTION');
    m.send({ type: 'maxBlockExpired', key: 'maxBlock:send', data: { call: 'send' } }, 60002);
    expect(m.state()).toBe('live.ABORTABLE_ERROR');
  });
});

describe('narration of waitOnMetadata', () => {
  it('says the send blocks, goes on, and returns after waiting, in English and Korean', () => {
    const trace = runScenario(scenario({}, [{ op: 'send', topic: 't', key: 'k', value: 'v' }]));
    const text = (lang: 'en' | 'ko') => trace.steps.map((_, i) => narrate(trace, i, lang)).join('\n');
    expect(text('en')).toContain('send() to t blocks in waitOnMetadata');
    expect(text('en')).toContain('the send() waiting in waitOnMetadata goes on');
    expect(text('en')).toContain('once the metadata came');
    expect(text('ko')).toContain('waitOnMetadata에서 멈춥니다');
    expect(text('ko')).toContain('기다리던 send()가 계속됩니다');
    expect(text('ko')).toContain('메타데이터가 도착해');
    expect(text('en')).toContain('answers the Metadata request of');
    expect(text('ko')).toContain('Metadata 요청(t)에');
  });

  it('says why send() gave up at max.block.ms, in English and Korean', () => {
    const message = 'Topic t not present in metadata after 60000 ms.';
    expect(metadataTimeoutClause('en', 'p', message)).toContain('waited max.block.ms in waitOnMetadata');
    expect(metadataTimeoutClause('ko', 'p', message)).toContain('60000 ms가 지나도록 메타데이터에 토픽 t가 없습니다');
    expect(metadataTimeoutClause('en', 'p', 'something else')).toBeNull();
  });
});
