/**
 * A transactional producer's requests to its coordinator share its connection to the coordinator's
 * broker (TransactionManager's coordinator is a plain `Node`; NetworkClient keeps one connection per
 * node id), and the broker reads one request of a connection at a time (SocketServer mutes the
 * channel until the response is sent). So under protocol 1, an AddPartitionsToTxn for a second
 * partition, sent while the producer's acks=all Produce to the same broker waits in the purgatory
 * for a slow follower, is read only after that Produce has been answered — and the record for the
 * second partition waits with it.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { EnvelopeRecord } from '../../src/sim/views';

/** orders (RF 3) led by broker-0 and broker-1; __transaction_state on broker-0 and broker-1 only, so broker-2's slow link slows orders alone. */
const scenario = {
  version: 1,
  id: 'txn-request-behind-produce',
  title: 'AddPartitionsToTxn behind a Produce in the purgatory of the same broker',
  seed: 1,
  cluster: {
    brokers: 3,
    'min.insync.replicas': 2,
    'replica.lag.time.max.ms': 2000,
    'transaction.version': 1,
    'transaction.state.log.replication.factor': 2,
    'transaction.state.log.min.isr': 1,
    'transaction.state.log.num.partitions': 1,
  },
  topics: [{ name: 'orders', partitions: 2, replicationFactor: 3 }],
  clients: [
    {
      id: 'orders-service',
      type: 'producer',
      config: { 'transactional.id': 'orders-1', acks: 'all' },
      script: [
        { op: 'beginTransaction', at: 4000 },
        { op: 'send', topic: 'orders', partition: 0, key: 'a', value: 'a', headers: { event_id: 'e1' } },
        { op: 'send', at: 5000, topic: 'orders', partition: 1, key: 'b', value: 'b', headers: { event_id: 'e2' } },
        { op: 'commitTransaction' },
      ],
    },
  ],
  faults: [{ type: 'slowReplication', target: 'broker-2', at: 4001, durationMs: 3000, delayMs: 2500 }],
};

describe('a transactional request waits behind a Produce on the producer’s one connection to a broker', () => {
  const trace = runScenario(scenario);
  const envelopes = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  const fromProducer = (rpc: string) => envelopes.filter((e) => e.rpc === rpc && e.from === 'orders-service.producer');
  const answerTo = (request: EnvelopeRecord) => envelopes.find((e) => e.inReplyTo === request.id) as EnvelopeRecord;
  const [addFirst, addSecond] = fromProducer('AddPartitionsToTxn') as [EnvelopeRecord, EnvelopeRecord];
  const [produceE1, produceE2] = fromProducer('Produce') as [EnvelopeRecord, EnvelopeRecord];

  it('the coordinator’s requests and the Produce to broker-0 travel on one connection', () => {
    expect(addFirst.to).toBe('broker-0.txn-coordinator');
    expect(produceE1.to).toBe('broker-0');
    expect(new Set([addFirst.connection, addSecond.connection, produceE1.connection])).toEqual(
      new Set(['orders-service.producer>broker-0']),
    );
  });

  it('e1’s Produce waits in broker-0’s purgatory until broker-2 leaves the ISR', () => {
    expect(produceE1.deliverAt).toBeLessThan(5000);
    expect(answerTo(produceE1).sentAt).toBeGreaterThan(6000);
  });

  it('AddPartitionsToTxn(orders-1) reaches broker-0 meanwhile and is answered only after e1’s Produce', () => {
    expect(addSecond.sentAt).toBe(5000);
    expect(addSecond.deliverAt).toBeLessThan(answerTo(produceE1).sentAt);
    expect(answerTo(addSecond).sentStep).toBeGreaterThan(answerTo(produceE1).sentStep);
  });

  it('so e2 goes to orders-1’s leader only after that answer (the Sender holds data while a transactional request is out)', () => {
    expect(produceE2.to).toBe('broker-1');
    expect(produceE2.sentAt).toBeGreaterThanOrEqual(answerTo(addSecond).deliverAt as number);
    expect(produceE2.sentAt).toBeGreaterThan(6000);
  });
});
