/**
 * The actors of a Streams client: the stream thread (the application), its main consumer (group =
 * application.id), its restore consumer (reads the changelog), and its producer — transactional
 * under exactly_once_v2 with transactional.id <application.id>-<process id>-<thread>, whose
 * transaction.timeout.ms Streams sets to 10000.
 */
import type { AnyStateMachine } from 'xstate';
import type { ClusterMetadata } from '../cluster/metadata';
import type { ConsumerConfig } from '../config/consumerConfig';
import { resolveProducerConfig } from '../config/producerConfig';
import type { StreamsConfig } from '../config/streamsConfig';
import type { ActorSpec } from '../kernel/simulation';
import { consumerActor, producerActor } from '../scenario/clientActors';
import type { StreamsClientSpec } from '../scenario/schema';
import { changelogTopic, repartitionTopic } from './streamsTopology';
import { streamThreadMachine } from './streamThread.machine';

const CONSUMER_DEFAULTS: ConsumerConfig = {
  'group.id': null,
  // a Streams client joins as a dynamic member (static membership is modelled for plain consumers)
  'group.instance.id': null,
  'isolation.level': 'read_uncommitted',
  'enable.auto.commit': false,
  'auto.commit.interval.ms': 5000,
  'auto.offset.reset': 'earliest',
  'session.timeout.ms': 45000,
  'heartbeat.interval.ms': 3000,
  'max.poll.records': 1000,
  'max.poll.interval.ms': 300000,
  'fetch.max.wait.ms': 500,
  'request.timeout.ms': 30000,
  'retry.backoff.ms': 100,
  'retry.backoff.max.ms': 1000,
  'reconnect.backoff.ms': 50,
  'reconnect.backoff.max.ms': 1000,
  'metadata.max.age.ms': 300000,
};

export function streamsSpecs(c: StreamsClientSpec, config: StreamsConfig, meta: ClusterMetadata, transactionVersion: 1 | 2): ActorSpec[] {
  const eos = config['processing.guarantee'] === 'exactly_once_v2';
  const appId = config['application.id'];
  const isolation = eos ? 'read_committed' : 'read_uncommitted';
  const repartition = c.groupBy ? repartitionTopic(appId) : null;
  const bootAt = c.startAt ?? 0;
  const producerConfig = resolveProducerConfig(
    eos
      ? // <application.id>-<processId>-<threadIdx> (ActiveTaskCreator), the client's id for the UUID, threads from 1
        { 'transactional.id': `${appId}-${c.id}-1`, 'transaction.timeout.ms': 10000, 'delivery.timeout.ms': 2147483647, 'linger.ms': 100 }
      : { 'linger.ms': 100 },
  ).config;
  return [
    {
      id: `${c.id}.app`,
      kind: 'streams-thread',
      logic: streamThreadMachine as AnyStateMachine,
      input: {
        self: `${c.id}.app`,
        consumer: `${c.id}.consumer`,
        restoreConsumer: `${c.id}.restore`,
        producer: `${c.id}.producer`,
        client: c.id,
        guarantee: config['processing.guarantee'],
        commitIntervalMs: config['commit.interval.ms'],
        inputTopic: c.inputTopic,
        outputTopic: c.outputTopic,
        changelogTopic: changelogTopic(appId),
        repartitionTopic: repartition,
        groupBy: c.groupBy ?? null,
      },
      boot: true,
      bootAt,
    },
    consumerActor(
      `${c.id}.consumer`,
      `${c.id}.app`,
      {
        client: c.id,
        meta,
        config: { ...CONSUMER_DEFAULTS, 'group.id': appId, 'isolation.level': isolation },
        topics: repartition ? [c.inputTopic, repartition] : [c.inputTopic],
        // StreamsRebalanceListener: the thread commits its tasks before they are revoked, and takes
        // the assignment (TaskManager.handleAssignment) in onPartitionsAssigned
        revocationListener: true,
        rebalanceListener: true,
      },
      bootAt,
    ),
    // the restore consumer (StoreChangelogReader's): no group, it reads the changelog
    consumerActor(
      `${c.id}.restore`,
      `${c.id}.app`,
      { client: `${c.id}-restore`, meta, config: { ...CONSUMER_DEFAULTS, 'isolation.level': isolation }, topics: [changelogTopic(appId)] },
      bootAt,
    ),
    producerActor(`${c.id}.producer`, `${c.id}.app`, { client: c.id, meta, config: producerConfig, transactionVersion }, bootAt),
  ];
}
