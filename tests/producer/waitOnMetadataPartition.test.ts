/**
 * KafkaProducer.waitOnMetadata with an explicit partition (read in the 4.x source): the cached
 * metadata is used only when `partitionsCount != null && (partition == null || partition <
 * partitionsCount)`; otherwise the loop asks for an update (`requestUpdateForTopic`: partial while the
 * topic is new, then full), awaits it for what is left of max.block.ms, and after each update checks
 * the time first — `elapsed >= maxWaitMs` throws TimeoutException("Partition <p> of topic <t> with
 * partition count <n> is not present in metadata after <ms> ms.", or "Topic <t> not present …" while
 * the count was unknown) — then its condition. awaitUpdate timing out throws "Topic <t> not present in
 * metadata after <ms> ms." On the old code a scenario naming such a partition was refused at
 * validation, and an answer at the deadline let the send go on.
 *
 * And the NetworkClient does not look at the transaction state: a send() waiting in waitOnMetadata
 * when the producer becomes fatal keeps waiting for its metadata, as doSend's waitOnMetadata comes
 * before maybeAddPartition's maybeFailWithError. On the old code it was refused at once.
 */
import { describe, expect, it } from 'vitest';
import { allowList, englishWords } from '../../e2e/korean-words';
import type { Effect } from '../../src/sim/kernel/effects';
import { narrate } from '../../src/sim/narration/narrate';
import { metadataTimeoutClause } from '../../src/sim/narration/waitOnMetadata';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerContext } from '../../src/sim/producer/producerContext';
import { runScenario } from '../../src/sim/run';
import { validateScenario } from '../../src/sim/scenario/validate';
import type { Fact } from '../../src/sim/trace/facts';
import { answerOf, type Driven, drive, inputOf, replies, sends } from '../machines/harness';

const scenario = (config: Record<string, unknown> = {}, script: unknown[] = [], cluster: Record<string, unknown> = {}) => ({
  version: 1,
  seed: 1,
  cluster,
  topics: [
    { name: 't', partitions: 2 },
    { name: 'a', partitions: 1 },
  ],
  clients: [{ id: 'p', type: 'producer', config, script }],
});

const send = (topic = 't', partition?: number) => ({
  type: 'send',
  from: 'p.app',
  args: { topic, key: 'k', value: 'v', ...(partition !== undefined ? { partition } : {}) },
});
const facts = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));
const metadataRequests = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'send' && e.rpc === 'Metadata' ? [e.payload as { correlationId: number; topics: string[] }] : []));

const metadataAnswer = (correlationId: number, topics: { name: string; partitions: number }[]) => ({
  type: 'MetadataResponse',
  from: 'broker-0',
  envelopeId: 9,
  inReplyTo: 0,
  payload: {
    correlationId,
    brokers: ['broker-0'],
    topics: topics.map(({ name, partitions }) => ({
      name,
      partitions: Array.from({ length: partitions }, (_, p) => ({
        partition: p,
        error: 'NONE',
        leader: 'broker-0',
        leaderEpoch: 0,
        replicas: ['broker-0'],
        isr: ['broker-0'],
      })),
    })),
  },
});

function producer(config: Record<string, unknown> = {}): Driven {
  const m = drive(producerMachine, inputOf(scenario({ 'enable.idempotence': false, ...config }), 'p.producer', { metadataKnown: false }));
  m.send({ type: 'boot' });
  return m;
}

/** A producer that knows topic t (2 partitions) from an answered first send() at t=0..1. */
function knowingT(config: Record<string, unknown> = {}): Driven {
  const m = producer(config);
  const [req] = metadataRequests(m.send(send('t', 0), 0));
  m.send(metadataAnswer(req?.correlationId as number, [{ name: 't', partitions: 2 }]), 1);
  return m;
}

describe('send() to a partition beyond the known partition count waits in waitOnMetadata', () => {
  it('a scenario may name such a partition: it is no validation error any more', () => {
    const v = validateScenario(scenario({}, [{ op: 'send', topic: 't', key: 'k', value: 'v', partition: 5 }]));
    expect(v.ok).toBe(true);
  });

  it('it blocks, asks for full updates while each answer still lacks the partition, and gives up at max.block.ms with "Topic … not present"', () => {
    const m = knowingT({ 'max.block.ms': 5000 });
    const held = m.send(send('t', 5), 2);
    expect(replies(held)).toEqual([]);
    expect(held).toContainEqual(expect.objectContaining({ type: 'timer', key: 'maxBlock:send', delay: 5000 }));
    expect(facts(held)).toContainEqual(
      expect.objectContaining({
        kind: 'note',
        text: "send() to t partition 5 blocks in waitOnMetadata: the producer's metadata has 2 partition(s) of t, so it asks for a metadata update and waits at most max.block.ms (5000 ms)",
      }),
    );
    // the topic is no longer new: a full update (ProducerMetadata.requestUpdateForTopic → requestUpdate(false))
    const [req] = metadataRequests(held);
    expect(req?.topics).toEqual(['t']);
    expect(m.context<ProducerContext>().newTopics).toEqual([]);
    // an answer that still has 2 partitions: no reply, another full update (its first leader epochs
    // were news, so no backoff yet)
    const again = m.send(metadataAnswer(req?.correlationId as number, [{ name: 't', partitions: 2 }]), 3);
    expect(replies(again)).toEqual([]);
    const [req2] = metadataRequests(again);
    expect(req2?.topics).toEqual(['t']);
    // the next equal answer: the update waits out the metadata backoff (equivalentResponseCount)
    const third = m.send(metadataAnswer(req2?.correlationId as number, [{ name: 't', partitions: 2 }]), 5);
    expect(replies(third)).toEqual([]);
    expect(m.context<ProducerContext>().metadata.updateRequested).toBe(true);
    expect(third).toContainEqual(expect.objectContaining({ type: 'timer', name: 'metadataUpdateDue', delay: 100 }));
    // awaitUpdate times out first: doSend's catch, "Topic … not present"
    const fx = m.send({ type: 'maxBlockExpired', key: 'maxBlock:send', data: { call: 'send' } }, 5002);
    expect(replies(fx)).toEqual([expect.objectContaining({ call: 'send', ok: true, failed: 'TimeoutException', waitedMs: 5000 })]);
    expect(facts(fx)).toContainEqual(
      expect.objectContaining({
        kind: 'clientError',
        error: 'TimeoutException',
        during: 'send: Topic t not present in metadata after 5000 ms.',
      }),
    );
    expect(facts(fx)).toContainEqual(expect.objectContaining({ kind: 'sendResult', topic: 't', partition: 5, error: 'TimeoutException' }));
    // nothing was appended to partition 5 (only partition 0's record is in flight)
    expect(Object.keys(m.context<ProducerContext>().accumulating)).not.toContain('t-5');
    expect(m.context<ProducerContext>().batches.map((b) => b.partition)).toEqual([0]);
  });

  it('an update that comes at max.block.ms fails it with "Partition <p> of topic <t> with partition count <n> …"', () => {
    const m = knowingT({ 'max.block.ms': 5000 });
    const [req] = metadataRequests(m.send(send('t', 5), 2));
    const fx = m.send(metadataAnswer(req?.correlationId as number, [{ name: 't', partitions: 2 }]), 5002);
    expect(replies(fx)).toEqual([expect.objectContaining({ call: 'send', ok: true, failed: 'TimeoutException' })]);
    expect(facts(fx)).toContainEqual(
      expect.objectContaining({
        kind: 'clientError',
        error: 'TimeoutException',
        during: 'send: Partition 5 of topic t with partition count 2 is not present in metadata after 5000 ms.',
      }),
    );
    expect(fx).toContainEqual({ type: 'cancel', key: 'maxBlock:send' });
  });

  it('the time is checked before the condition: a first answer at max.block.ms fails even a send() it would serve', () => {
    const m = producer({ 'max.block.ms': 5000 });
    const [req] = metadataRequests(m.send(send('t'), 0));
    const fx = m.send(metadataAnswer(req?.correlationId as number, [{ name: 't', partitions: 2 }]), 5000);
    // the count was unknown when the loop last read it: "Topic … not present"
    expect(facts(fx)).toContainEqual(
      expect.objectContaining({
        kind: 'clientError',
        error: 'TimeoutException',
        during: 'send: Topic t not present in metadata after 5000 ms.',
      }),
    );
    expect(replies(fx)).toEqual([expect.objectContaining({ call: 'send', failed: 'TimeoutException' })]);
  });

  it('in a run: Metadata requests back off over equal answers until max.block.ms, then the send fails', () => {
    const trace = runScenario(
      scenario({ 'max.block.ms': 3000 }, [
        { op: 'send', topic: 't', key: 'k', value: 'v', partition: 0, headers: { event_id: 'e0' } },
        { op: 'send', topic: 't', key: 'k', value: 'v', partition: 5, headers: { event_id: 'e5' } },
      ]),
    );
    const results = trace.steps.flatMap((s) =>
      (s.facts as Fact[]).flatMap((f) =>
        f.kind === 'sendResult' ? [{ t: s.t, eventId: f.eventId, error: f.error, partition: f.partition }] : [],
      ),
    );
    expect(results).toEqual([
      { t: 9, eventId: 'e0', error: null, partition: 0 },
      { t: 3002, eventId: 'e5', error: 'TimeoutException', partition: 5 },
    ]);
    const metadataSent = trace.envelopes.filter((e) => e.from === 'p.producer' && e.rpc === 'Metadata').map((e) => e.sentAt);
    // the first (partial) for t, then full ones backing off 100, 200, 400, 800, 1000 ms over equal answers
    expect(metadataSent.slice(0, 7)).toEqual([0, 2, 4, 106, 308, 710, 1512]);
    const step = trace.steps.findIndex((s) => (s.facts as Fact[]).some((f) => f.kind === 'clientError'));
    expect(narrate(trace, step, 'en')).toContain('Topic t not present in metadata after 3000 ms.');
    const hold = trace.steps.findIndex((s) =>
      (s.facts as Fact[]).some((f) => f.kind === 'note' && f.text.startsWith('send() to t partition 5 blocks')),
    );
    expect(narrate(trace, hold, 'ko')).toContain('t의 파티션 5로의 send()가 waitOnMetadata에서 멈춥니다');
    expect(narrate(trace, hold, 'ko')).toContain('파티션이 2개뿐이므로');
  });

  it('the partition message is narrated in English and Korean', () => {
    const message = 'Partition 5 of topic t with partition count 2 is not present in metadata after 60000 ms.';
    expect(metadataTimeoutClause('en', 'p', message)).toContain('for partition 5 of t, which has 2 partition(s)');
    expect(metadataTimeoutClause('ko', 'p', message)).toContain('파티션이 2개인 토픽 t의 파티션 5가 메타데이터에 없습니다');
  });

  it('the Korean clauses keep only Kafka’s names in Latin script (퓨처, 콜백)', () => {
    const words = allowList(['p', 't']);
    for (const message of [
      'Partition 5 of topic t with partition count 2 is not present in metadata after 60000 ms.',
      'Topic t not present in metadata after 60000 ms.',
    ])
      expect(englishWords(metadataTimeoutClause('ko', 'p', message) ?? '', words)).toEqual([]);
  });
});

describe('a producer in FATAL_ERROR still serves a send() waiting in waitOnMetadata', () => {
  /** A protocol v1 transactional producer in a transaction, its first record's AddPartitionsToTxn in flight. */
  function fencedWhileHeld(): { m: Driven; heldFx: Effect[]; fenceFx: Effect[] } {
    const m = drive(
      producerMachine,
      inputOf(scenario({ 'transactional.id': 'tx' }, [], { 'transaction.version': 1 }), 'p.producer', { metadataKnown: false }),
    );
    m.send({ type: 'boot' });
    m.send({ type: 'initTransactions', from: 'p.app', args: {} }, 0);
    const init = m.context<ProducerContext>().coordinatorRequest;
    m.send(answerOf('InitProducerIdResponse', { correlationId: init?.correlationId, error: 'NONE', producerId: 7, producerEpoch: 0 }), 1);
    m.send({ type: 'beginTransaction', from: 'p.app', args: {} }, 2);
    const [ra] = metadataRequests(m.send(send('a'), 2));
    m.send(metadataAnswer(ra?.correlationId as number, [{ name: 'a', partitions: 1 }]), 3);
    const add = m.context<ProducerContext>().coordinatorRequest;
    expect(add?.rpc).toBe('AddPartitionsToTxn');
    const heldFx = m.send(send('t'), 4);
    const fenceFx = m.send(
      answerOf('AddPartitionsToTxnResponse', { correlationId: add?.correlationId, error: 'PRODUCER_FENCED', partitions: [] }),
      5,
    );
    return { m, heldFx, fenceFx };
  }

  it('the held send() is not refused at the fence; the Metadata answer releases it, and then it is refused with the fatal error', () => {
    const { m, heldFx, fenceFx } = fencedWhileHeld();
    expect(m.state()).toBe('FATAL_ERROR');
    expect(replies(fenceFx)).toEqual([]);
    expect(m.context<ProducerContext>().heldSend).not.toBeNull();
    const [rt] = metadataRequests(heldFx);
    const fx = m.send(metadataAnswer(rt?.correlationId as number, [{ name: 't', partitions: 2 }]), 6);
    expect(facts(fx)).toContainEqual(
      expect.objectContaining({ kind: 'note', text: expect.stringContaining('the send() waiting in waitOnMetadata goes on') }),
    );
    expect(replies(fx)).toEqual([expect.objectContaining({ call: 'send', ok: false, error: 'ProducerFencedException' })]);
    expect(m.context<ProducerContext>().topicsKnown).toContain('t');
    expect(m.state()).toBe('FATAL_ERROR');
  });

  it('it still gives up at max.block.ms if no answer comes', () => {
    const { m } = fencedWhileHeld();
    const fx = m.send({ type: 'maxBlockExpired', key: 'maxBlock:send', data: { call: 'send' } }, 60004);
    expect(facts(fx)).toContainEqual(
      expect.objectContaining({
        kind: 'clientError',
        error: 'TimeoutException',
        during: 'send: Topic t not present in metadata after 60000 ms.',
      }),
    );
  });

  it('a new send() in FATAL_ERROR to a partition not known waits for its metadata first', () => {
    const { m, heldFx } = fencedWhileHeld();
    const [rt] = metadataRequests(heldFx);
    m.send(metadataAnswer(rt?.correlationId as number, [{ name: 't', partitions: 2 }]), 6);
    const fx = m.send(send('t', 7), 7);
    expect(replies(fx)).toEqual([]);
    expect(sends(fx)).toEqual(['Metadata→broker-0']);
    const [req] = metadataRequests(fx);
    const answered = m.send(metadataAnswer(req?.correlationId as number, [{ name: 't', partitions: 2 }]), 60007);
    // the update came at max.block.ms: TimeoutException, not the fatal error (waitOnMetadata throws first)
    expect(facts(answered)).toContainEqual(
      expect.objectContaining({
        kind: 'clientError',
        error: 'TimeoutException',
        during: 'send: Partition 7 of topic t with partition count 2 is not present in metadata after 60000 ms.',
      }),
    );
  });
});

describe('metadata.max.idle.ms: a topic not sent to for 5 minutes is forgotten at the next metadata update', () => {
  // ProducerMetadata.add(topic, nowMs) at every send sets the topic's expiry to now + 300000;
  // retainTopic drops it at an update past that, and the next send() to it is a new topic again
  const run = (idleMs: number) =>
    runScenario(
      scenario({}, [
        { op: 'send', topic: 'a', key: 'k', value: 'v', headers: { event_id: 'a1' } },
        { op: 'flush' },
        { op: 'send', topic: 't', key: 'k', value: 'v', headers: { event_id: 't1' }, at: idleMs },
        { op: 'flush' },
        { op: 'send', topic: 'a', key: 'k', value: 'v', headers: { event_id: 'a2' } },
        { op: 'flush' },
      ]),
    );
  const metadataTopics = (trace: ReturnType<typeof runScenario>) =>
    trace.envelopes.filter((e) => e.from === 'p.producer' && e.rpc === 'Metadata').map((e) => (e.payload as { topics: string[] }).topics);

  it("past 300000 ms, t's update forgets a: the next send() to a asks for it again", () => {
    const trace = run(301_000);
    expect(metadataTopics(trace)).toEqual([['a'], ['t'], ['a']]);
    const step = trace.steps.findIndex((s) =>
      (s.facts as Fact[]).some((f) => f.kind === 'note' && f.text.startsWith('no send() to a for metadata.max.idle.ms')),
    );
    expect(step).toBeGreaterThan(0);
    expect(narrate(trace, step, 'en')).toContain('this metadata update forgets a (ProducerMetadata.retainTopic)');
    expect(narrate(trace, step, 'ko')).toContain('이번 메타데이터 업데이트에서 a를 잊으므로');
  });

  it('within 300000 ms, a is kept: no second request for it', () => {
    const trace = run(200_000);
    expect(metadataTopics(trace)).toEqual([['a'], ['t']]);
  });
});
