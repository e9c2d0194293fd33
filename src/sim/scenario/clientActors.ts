/**
 * The Kafka clients an application process holds, as actor specs: a KafkaConsumer or a
 * KafkaProducer that the process's application actor (`app`) calls. Consumer applications, Kafka
 * Streams threads and the outbox relay build theirs here, so a client is wired the same way
 * wherever it lives.
 */
import type { AnyStateMachine } from 'xstate';
import { consumerMachine } from '../consumer/consumer.machine';
import type { ConsumerInput } from '../consumer/consumerContext';
import type { ActorId } from '../kernel/envelope';
import type { ActorSpec } from '../kernel/simulation';
import { producerMachine } from '../producer/producer.machine';
import type { ProducerInput } from '../producer/producerContext';

/** Started with the process at `bootAt` (the kernel's default, 0, when absent). */
const booted = (bootAt: number | undefined) => (bootAt === undefined ? { boot: true } : { boot: true, bootAt });

export function consumerActor(id: ActorId, app: ActorId, input: Omit<ConsumerInput, 'self' | 'app'>, bootAt?: number): ActorSpec {
  return {
    id,
    kind: 'consumer',
    logic: consumerMachine as AnyStateMachine,
    input: { self: id, app, ...input },
    // NetworkClient's connection states: every close counts, an idle connection's too
    connectionNotices: true,
    ...booted(bootAt),
  };
}

export function producerActor(id: ActorId, app: ActorId, input: Omit<ProducerInput, 'self' | 'app'>, bootAt?: number): ActorSpec {
  return {
    id,
    kind: 'producer',
    logic: producerMachine as AnyStateMachine,
    input: { self: id, app, ...input },
    connectionNotices: true,
    // its coordinators are broker nodes: one connection per broker (TransactionManager's Node)
    connectsByNode: true,
    ...booted(bootAt),
  };
}
