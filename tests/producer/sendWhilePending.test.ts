/**
 * send() while a timed-out transactional call must be retried: KafkaProducer.doSend appends the record,
 * then TransactionManager.maybeAddPartition runs maybeFailWithError and throwIfPendingState("send"),
 * which throws IllegalStateException ("Cannot attempt operation `send` because the previous call to
 * `commitTransaction` timed out and must be retried"). On the old code send() threw maybeAddPartition's
 * state check instead ("Cannot add partition t-0 to transaction while in state  COMMITTING_TRANSACTION").
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { heldRecordNote } from '../../src/sim/narration/sendOutsideTransaction';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerContext } from '../../src/sim/producer/producerContext';
import type { Fact } from '../../src/sim/trace/facts';
import { answerOf, appCall, type Driven, drive, inputOf, replies } from '../machines/harness';

const scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] }],
};

const errors = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'fact' && (e.fact as Fact).kind === 'clientError' ? [e.fact as Extract<Fact, { kind: 'clientError' }>] : [],
  );
const PENDING = 'Cannot attempt operation `send` because the previous call to `commitTransaction` timed out and must be retried';

function coordinatorAnswer(m: Driven, rpc: string, now: number, extra: Record<string, unknown> = {}) {
  const req = m.context<ProducerContext>().coordinatorRequest;
  expect(req?.rpc).toBe(rpc);
  return m.send(
    answerOf(`${rpc}Response`, { correlationId: req?.correlationId, error: 'NONE', producerId: 7, producerEpoch: 0, ...extra }),
    now,
  );
}

/** A transaction with one acknowledged record whose commitTransaction() timed out: EndTxn still out. */
function commitTimedOut(): Driven {
  const m = drive(producerMachine, inputOf(scenario, 'p.producer'));
  m.send({ type: 'boot' });
  m.send(appCall('initTransactions'), 0);
  coordinatorAnswer(m, 'InitProducerId', 1);
  m.send(appCall('beginTransaction'), 2);
  m.send(appCall('send', { topic: 't', key: 'k', value: 'v' }), 2);
  if (m.context<ProducerContext>().coordinatorRequest?.rpc === 'AddPartitionsToTxn') coordinatorAnswer(m, 'AddPartitionsToTxn', 3);
  m.send({ type: 'lingerExpired', key: 'linger:t-0', data: {} }, 7);
  const b = m.context<ProducerContext>().batches[0];
  const payload = { correlationId: b?.correlationId, responses: [{ topic: 't', partition: 0, error: 'NONE', baseOffset: 0 }] };
  m.send({ type: 'ProduceResponse', from: 'broker-0', envelopeId: 2, inReplyTo: 0, payload }, 8);
  m.send(appCall('commitTransaction'), 10);
  const fx = m.send({ type: 'maxBlockExpired', key: 'maxBlock', data: { call: 'commitTransaction' } }, 60010);
  expect(replies(fx)).toEqual([expect.objectContaining({ call: 'commitTransaction', error: 'TimeoutException' })]);
  return m;
}

describe('send() while a timed-out commitTransaction() must be retried (throwIfPendingState("send"))', () => {
  it('throws IllegalStateException with Kafka message while EndTxn is out; the record is appended first', () => {
    const m = commitTimedOut();
    const fx = m.send(appCall('send', { topic: 't', key: 'k2', value: 'v2' }), 60011);
    expect(replies(fx)).toEqual([expect.objectContaining({ call: 'send', ok: false, error: PENDING })]);
    expect(errors(fx)).toEqual([expect.objectContaining({ error: 'IllegalStateException', during: `send: ${PENDING}` })]);
    expect(m.state()).toBe('live.COMMITTING_TRANSACTION');
    // doSend appended it before maybeAddPartition threw
    expect(m.context<ProducerContext>().nextRef).toBe(2);
  });

  it('still throws it once the commit completed, until commitTransaction() is called again', () => {
    const m = commitTimedOut();
    coordinatorAnswer(m, 'EndTxn', 61000, { producerEpoch: 1 });
    expect(m.state()).toBe('live.READY');
    const refused = m.send(appCall('send', { topic: 't', key: 'k2', value: 'v2' }), 61001);
    expect(replies(refused)).toEqual([expect.objectContaining({ call: 'send', ok: false, error: PENDING })]);
    // the retry takes the cached result (and acknowledges it); send's refusal is the state's own again
    m.send(appCall('commitTransaction'), 61002);
    expect(m.context<ProducerContext>().pendingTransition).toBeNull();
    const after = m.send(appCall('send', { topic: 't', key: 'k3', value: 'v3' }), 61003);
    expect(replies(after)).toEqual([
      expect.objectContaining({ call: 'send', ok: false, error: 'Cannot add partition t-0 to transaction while in state  READY' }),
    ]);
  });
});

describe('narration of that refusal', () => {
  it('says, in English and Korean, that the record stays in the accumulator', () => {
    expect(heldRecordNote(PENDING, 'en')).toContain("stays in the producer's accumulator");
    expect(heldRecordNote(PENDING, 'ko')).toContain('accumulator에 남습니다');
  });
});
