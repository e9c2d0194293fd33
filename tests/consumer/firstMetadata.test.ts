/**
 * A new consumer knows no leader of its topics (ClassicKafkaConsumer.subscribe / assign →
 * metadata.requestUpdateForNewTopics): its first request is a Metadata request naming them, sent
 * before any other (NetworkClient.isReady: "make metadata requests first priority"); FindCoordinator
 * and JoinGroup go once it is in flight, without waiting for its answer; ListOffsets and Fetch wait
 * for the leaders it names (OffsetFetcher.groupListOffsetRequests, AbstractFetch.prepareFetchRequests);
 * the group leader's SyncGroup waits for it too (ConsumerCoordinator.onLeaderElected →
 * updateGroupSubscription → ensureFreshMetadata). On the old code the consumer started knowing every
 * leader from the scenario and sent no Metadata request at all.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, consumerMachine } from '../../src/sim/consumer/consumer.machine';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import { narrate } from '../../src/sim/narration/narrate';
import { translateNote } from '../../src/sim/narration/notes';
import type { Scenario } from '../../src/sim/scenario/schema';
import { answer, sent } from '../machines/consumerDriver';
import { drive, inputOf, sends } from '../machines/harness';
import { runWith } from '../presets/helpers';

const scenario = (config: Record<string, unknown>, partitions = 2) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions }],
  clients: [{ id: 'c', type: 'consumer', config: { 'auto.offset.reset': 'earliest', ...config }, topics: ['t'] }],
});

/** The consumer as a run builds it: knowing no leader of `t`. */
const fresh = (config: Record<string, unknown>, partitions = 2) =>
  drive(consumerMachine, inputOf(scenario(config, partitions), 'c.consumer', { metadataKnown: false }));

/** The broker's answer naming t's partitions, both led by broker-0. */
const metadataAnswer = (correlationId: number, partitions = 2) =>
  answer(
    'MetadataResponse',
    correlationId,
    {
      brokers: ['broker-0'],
      topics: [
        {
          name: 't',
          partitions: Array.from({ length: partitions }, (_, p) => ({
            partition: p,
            error: 'NONE',
            leader: 'broker-0',
            leaderEpoch: 0,
            replicas: ['broker-0'],
            isr: ['broker-0'],
          })),
        },
      ],
    },
    'broker-0',
  );

/** The application's poll() (the first one joins the group). */
const poll = { type: 'poll', from: 'c.app', args: {} };

describe("a new consumer asks for its topics' metadata first", () => {
  it('subscribe(): Metadata for its topics goes first; the first poll() sends JoinGroup without waiting for the answer', () => {
    const m = fresh({ 'group.id': 'g' });
    const boot = m.send({ type: 'boot' }, 0);
    expect(sends(boot)).toEqual(['Metadata→broker-0']);
    expect(sent(boot, 'Metadata')?.payload.topics).toEqual(['t']);
    expect(sends(m.send(poll, 0))).toEqual(['JoinGroup→group-coordinator']);
    expect(m.context<ConsumerContext>().meta.topics.t?.leaders).toEqual([null, null]);
  });

  it("the group leader's SyncGroup waits for the Metadata answer (ensureFreshMetadata); then it goes out", () => {
    const m = fresh({ 'group.id': 'g' });
    const boot = m.send({ type: 'boot' }, 0);
    const metadata = sent(boot, 'Metadata');
    const join = sent(m.send(poll, 0), 'JoinGroup');
    const joined = m.send(
      answer('JoinGroupResponse', join?.payload.correlationId as number, {
        error: 'NONE',
        generationId: 1,
        memberId: 'c-0',
        leader: 'c-0',
      }),
      1,
    );
    expect(sends(joined)).toEqual([]);
    expect(m.context<ConsumerContext>().syncAwaitingMetadata).toEqual({ generationId: 1, memberId: 'c-0' });
    const answered = m.send(metadataAnswer(metadata?.payload.correlationId as number), 2);
    expect(sends(answered)).toEqual(['SyncGroup→group-coordinator']);
    expect(sent(answered, 'SyncGroup')?.payload).toMatchObject({ generationId: 1, memberId: 'c-0' });
    expect(m.context<ConsumerContext>().meta.topics.t?.leaders).toEqual(['broker-0', 'broker-0']);
  });

  it("a follower's SyncGroup does not wait: only the leader computes the assignment", () => {
    const m = fresh({ 'group.id': 'g' });
    m.send({ type: 'boot' }, 0);
    const join = sent(m.send(poll, 0), 'JoinGroup');
    const joined = m.send(
      answer('JoinGroupResponse', join?.payload.correlationId as number, {
        error: 'NONE',
        generationId: 1,
        memberId: 'c-1',
        leader: 'c-0',
      }),
      1,
    );
    expect(sends(joined)).toEqual(['SyncGroup→group-coordinator']);
  });

  it('assign() without a group: no ListOffsets before the answer names the leaders; then one, to the leader', () => {
    const m = fresh({ 'group.id': null });
    const boot = m.send({ type: 'boot' }, 0);
    expect(sends(boot)).toEqual(['Metadata→broker-0']);
    expect(m.context<ConsumerContext>().assignment).toHaveLength(2);
    const polled = m.send(poll, 1);
    expect(sends(polled)).toEqual([]);
    const answered = m.send(metadataAnswer(sent(boot, 'Metadata')?.payload.correlationId as number), 2);
    expect(sends(answered)).toEqual(['ListOffsets→broker-0']);
  });

  it('a one-replica topic keeps no leader epochs after the answer: no periodic refresh follows', () => {
    const m = fresh({ 'group.id': null });
    const boot = m.send({ type: 'boot' }, 0);
    const answered = m.send(metadataAnswer(sent(boot, 'Metadata')?.payload.correlationId as number), 2);
    const t = m.context<ConsumerContext>().meta.topics.t;
    expect(t?.leaderEpochs).toBeUndefined();
    expect(answered.filter((e) => e.type === 'timer' && e.name === 'metadataUpdateDue')).toEqual([]);
  });
});

describe('in a run', () => {
  const run = runWith({
    version: 1,
    seed: 3,
    id: 'first-metadata',
    title: 'A consumer asks for its metadata first',
    topics: [{ name: 'orders', partitions: 2 }],
    clients: [
      {
        id: 'shop',
        type: 'producer',
        script: [{ op: 'send', topic: 'orders', key: 'k', value: 'v{i}', count: 2 }, { op: 'flush' }],
      },
      {
        id: 'billing',
        type: 'consumer',
        config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest' },
        topics: ['orders'],
        processing: { mode: 'at-least-once' },
      },
    ],
  } as unknown as Scenario);
  const envelopes: EnvelopeRecord[] = [];
  for (let i = 0; i < run.trace.envelopes.length; i++) envelopes.push(run.trace.envelopes.at(i) as EnvelopeRecord);
  const fromConsumer = envelopes.filter((e) => e.from === 'billing.consumer');

  it('the consumer sends a Metadata request for its topics first, and nothing that needs a leader before its answer', () => {
    const first = fromConsumer[0];
    expect(first?.rpc).toBe('Metadata');
    expect(first?.payload.topics).toEqual(['orders']);
    const answer = envelopes.find((e) => e.inReplyTo === first?.id);
    expect(answer?.fate).toBe('delivered');
    const answeredAt = answer?.deliverAt as number;
    const needLeader = fromConsumer.filter((e) => ['Fetch', 'ListOffsets', 'OffsetsForLeaderEpoch'].includes(e.rpc));
    expect(needLeader.length).toBeGreaterThan(0);
    expect(needLeader.every((e) => e.sentAt >= answeredAt)).toBe(true);
    // the group leader's SyncGroup, too, after the answer
    const sync = fromConsumer.find((e) => e.rpc === 'SyncGroup');
    expect(sync?.sentAt).toBeGreaterThanOrEqual(answeredAt);
    expect(run.received('billing').map((r) => r.offset)).toHaveLength(2);
  });
});

describe('narration of the first metadata', () => {
  it("says the consumer asks first and the leader's SyncGroup waits, in English and Korean", () => {
    const trace = runWith({
      version: 1,
      seed: 3,
      id: 'first-metadata-narration',
      title: 'A consumer asks for its metadata first',
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [{ id: 'billing', type: 'consumer', config: { 'group.id': 'billing' }, topics: ['orders'] }],
    } as unknown as Scenario).trace;
    const text = (lang: 'en' | 'ko') => trace.steps.map((_, i) => narrate(trace, i, lang)).join('\n');
    expect(text('en')).toContain("billing's consumer: it starts knowing no leader of orders: its first request is a Metadata request");
    expect(text('ko')).toContain('orders의 리더를 모르는 채로 시작합니다. 첫 요청은');
    expect(text('en')).toContain("broker-0 answers the Metadata request of billing's consumer for orders");
    expect(text('ko')).toContain('Metadata 요청(orders)에');
  });

  it("the leader's notes, in Korean", () => {
    const m = fresh({ 'group.id': 'g' });
    const boot = m.send({ type: 'boot' }, 0);
    const join = sent(m.send(poll, 0), 'JoinGroup');
    const held = m.send(
      answer('JoinGroupResponse', join?.payload.correlationId as number, {
        error: 'NONE',
        generationId: 1,
        memberId: 'c-0',
        leader: 'c-0',
      }),
      1,
    );
    const released = m.send(metadataAnswer(sent(boot, 'Metadata')?.payload.correlationId as number), 2);
    const notes = [...held, ...released].flatMap((e) =>
      e.type === 'fact' && e.fact.kind === 'note' ? [(e.fact as unknown as { text: string }).text] : [],
    );
    expect(notes.map((n) => translateNote(n, 'ko'))).toEqual([
      '그룹의 리더입니다. 할당을 계산하기 전에 Metadata 응답을 기다리고(ensureFreshMetadata), 그 뒤에 SyncGroup을 보냅니다',
      'Metadata 응답이 왔습니다. 그룹의 리더로서 할당을 계산하고 SyncGroup을 보냅니다',
    ]);
  });
});
