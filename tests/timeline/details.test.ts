import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { partitionRows, type RecordRow } from '../../src/sim/trace/logView';
import { envelopeDetails, headersText, payloadSummary, recordDetails } from '../../src/ui/timeline/details';
import { openingStory } from './fixtures';

const failoverMidCommit = () => runScenario(findPreset('coordinator-failover-mid-commit')?.scenario);

describe('details', () => {
  const trace = openingStory();
  const rows = partitionRows(stateAt(trace, trace.steps.length).actors);
  const records = rows.find((r) => r.topic === 'orders')?.records as RecordRow[];

  it('shows what a record is and where it came from', () => {
    const d = recordDetails('orders-0', records[1] as RecordRow);
    const map = new Map(d.lines);
    expect(d.title).toBe('orders-0 @ 101');
    expect(map.get('key')).toBe('order-123');
    expect(map.get('headers')).toBe('event_id=evt-789');
    expect(map.get('producerId')).toBe('1000');
    expect(map.get('producerEpoch')).toBe('0');
    expect(map.get('sequence')).toBe('1');
    expect(map.get('transaction')).toBe('none (not transactional)');
    expect(map.get('origin')).toMatch(/^send\(\) #\d+ of orders-service$/);
    expect(d.sentence).toContain('event_id=evt-789');
  });

  it('says what a control record is', () => {
    const marker: RecordRow = { ...(records[0] as RecordRow), control: 'ABORT', key: null, value: null, headers: {}, origin: null };
    const map = new Map(recordDetails('t-0', marker).lines);
    expect(map.get('transaction')).toBe('ABORT marker (control record)');
    expect(map.get('value')).toBe('ABORT control record');
    // the coordinator epoch of the coordinator that wrote it, when the row carries it
    expect(map.has('coordinatorEpoch')).toBe(false);
    expect(new Map(recordDetails('t-0', { ...marker, coordinatorEpoch: 3 }).lines).get('coordinatorEpoch')).toBe('3');
  });

  it("a run's marker rows carry the coordinator epoch they were written with", () => {
    // the restarted coordinator (epoch 1) finishes the commit its crashed predecessor prepared
    const epochs = partitionRows(stateAt(failoverMidCommit(), Number.POSITIVE_INFINITY).actors)
      .flatMap((p) => p.records)
      .filter((r) => r.control !== null)
      .map((r) => r.coordinatorEpoch);
    expect(epochs).toEqual([1, 1]);
    expect(records.every((r) => r.control !== null || r.coordinatorEpoch === undefined)).toBe(true);
  });

  it('summarises RPC payloads in a line', () => {
    const produce = trace.envelopes.find((e) => e.rpc === 'Produce');
    expect(produce && payloadSummary(produce.payload)).toBe(
      'acks=-1 transactionalId=null partitions=[orders-0 batch(producerId=1000, epoch=0, baseSequence=0, 1 record)]',
    );
    // a request with two partitions, and its answer: each partition with its batch, or its result
    const two = [0, 1].map((partition) => ({
      topic: 'orders',
      partition,
      batch: { producerId: 7, producerEpoch: 0, baseSequence: 3, records: [{}], isTransactional: true },
    }));
    expect(payloadSummary({ correlationId: 2, acks: -1, transactionalId: 'tx', partitions: two })).toBe(
      'acks=-1 transactionalId=tx partitions=[orders-0 batch(producerId=7, epoch=0, baseSequence=3, 1 record, transactional), orders-1 batch(producerId=7, epoch=0, baseSequence=3, 1 record, transactional)]',
    );
    const answers = [
      { topic: 'orders', partition: 0, error: 'NONE', baseOffset: 5, errorMessage: null },
      { topic: 'orders', partition: 1, error: 'NOT_ENOUGH_REPLICAS', baseOffset: -1, errorMessage: 'x' },
    ];
    expect(payloadSummary({ correlationId: 2, responses: answers }, 200, 'ko')).toBe(
      'responses=[orders-0 baseOffset=5, orders-1 NOT_ENOUGH_REPLICAS]',
    );
    // a consumer's Fetch names every partition it fetches from the broker, and its answer each one's result
    const fetch = [0, 1].map((partition) => ({ topic: 'orders', partition, fetchOffset: 3 + partition, maxRecords: 500 }));
    expect(payloadSummary({ correlationId: 4, isolationLevel: 'read_committed', maxWaitMs: 500, minBytes: 1, partitions: fetch })).toBe(
      'isolationLevel=read_committed maxWaitMs=500 minBytes=1 partitions=[orders-0 fetchOffset=3, orders-1 fetchOffset=4]',
    );
    const fetched = [
      { topic: 'orders', partition: 0, error: 'NONE', highWatermark: 5, batches: [{}] },
      { topic: 'orders', partition: 1, error: 'NOT_LEADER_OR_FOLLOWER', highWatermark: -1, batches: [] },
    ];
    expect(payloadSummary({ correlationId: 4, partitions: fetched })).toBe(
      'partitions=[orders-0 batches=1 highWatermark=5, orders-1 NOT_LEADER_OR_FOLLOWER]',
    );
    expect(payloadSummary({ correlationId: 1, offsets: [1, 2], nested: { a: 1 } })).toBe('offsets=[2] nested={…}');
    expect(headersText({})).toBe('none');
  });

  it('shows an envelope with its route, times and fate', () => {
    const e = trace.envelopes.find((x) => x.rpc === 'ProduceResponse');
    if (!e) throw new Error('no ProduceResponse');
    const d = envelopeDetails(e, 'delivered', 'en', (label) => label, e.payload);
    const map = new Map(d.lines);
    expect(d.title).toBe(`ProduceResponse #${e.id}`);
    expect(map.get('from → to')).toBe('broker-0 → orders-service.producer');
    expect(map.get('sent')).toBe(`${e.sentAt} ms (step ${e.sentStep})`);
    expect(map.get('fate')).toBe('delivered');
    expect(map.get('fault')).toBe('none');
    expect(map.get('payload')).toContain('baseOffset=100');
  });
});
