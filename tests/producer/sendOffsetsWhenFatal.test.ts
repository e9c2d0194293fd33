/**
 * sendOffsetsToTransaction() when the producer becomes fatal (TransactionManager, 4.0 line): its
 * result is its own handler's (AddOffsetsToTxnHandler, then TxnOffsetCommitHandler), not a pending
 * transition. TxnRequestHandler.fatalError fails its own handler's result and transitionToFatalError
 * the pending transition's; Sender.runOnce sends nothing in FATAL_ERROR but still polls, so the
 * request in flight completes. Hence: the call fails at once only when its own request failed; when
 * another request (AddPartitionsToTxn, a Produce) made the producer fatal while its request was
 * queued, it waits max.block.ms (TimeoutException); when its request was in flight, that request's
 * answer completes it. Before, the model failed it at once with any fatal error, and in FATAL_ERROR
 * ignored both the answer and the max.block.ms deadline (a call waiting then never returned).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { resolveProducerConfig } from '../../src/sim/config/producerConfig';
import { initialProducerContext } from '../../src/sim/producer/producerContext';
import type { ProducerDraft } from '../../src/sim/producer/sender';
import { type CoordinatorResponse, onCoordinatorResponse, onOffsetsAnswerWhenFatal } from '../../src/sim/producer/transactionManager';
import type { KafkaError } from '../../src/sim/protocol/errors';
import { oneBrokerMetadata } from '../fixtures/oneBrokerMetadata';

type Rpc = 'AddPartitionsToTxn' | 'AddOffsetsToTxn' | 'TxnOffsetCommit';

/** A protocol v1 producer in a transaction whose sendOffsetsToTransaction() waits, with `rpc` in flight. */
function waiting(rpc: Rpc): ProducerDraft {
  const config = resolveProducerConfig({ 'transactional.id': 'tx' }).config;
  const d: ProducerDraft = {
    ...initialProducerContext({ self: 'p.producer', app: 'p.app', client: 'p', meta: oneBrokerMetadata, config, transactionVersion: 1 }),
  };
  d.producerId = 7;
  d.producerEpoch = 0;
  d.inTransaction = true;
  d.transactionStarted = true;
  if (rpc === 'AddPartitionsToTxn') d.pendingPartitions = ['orders-0'];
  d.pendingOffsets = {
    groupId: 'g',
    offsets: [{ topic: 'orders', partition: 0, offset: 1 }],
    phase: rpc === 'TxnOffsetCommit' ? 'TxnOffsetCommit' : 'AddOffsetsToTxn',
  } as unknown as ProducerDraft['pendingOffsets'];
  d.waiting = { call: 'sendOffsetsToTransaction', from: 'p.app', deadline: 60000 };
  d.coordinatorRequest = { rpc, correlationId: 5, attempts: 1 };
  return d;
}

const answer = (d: ProducerDraft, rpc: Rpc, error: KafkaError) => {
  const out = new Out();
  const payload = { correlationId: 5, error, partitions: [{ topic: 'orders', partition: 0, error }] };
  const signal = onCoordinatorResponse(d, { type: `${rpc}Response`, payload } as unknown as CoordinatorResponse, out);
  return { signal, replies: out.effects.filter((e) => e.type === 'call' && e.name === 'reply') };
};

describe('sendOffsetsToTransaction() and a fatal error', () => {
  it('another request made the producer fatal while its AddOffsetsToTxn was queued: no answer now (it waits max.block.ms)', () => {
    const d = waiting('AddPartitionsToTxn');
    const { signal, replies } = answer(d, 'AddPartitionsToTxn', 'INVALID_PRODUCER_ID_MAPPING');
    expect(signal).toBe('fatal');
    expect(replies).toEqual([]);
    expect(d.waiting?.call).toBe('sendOffsetsToTransaction');
  });

  it.each(['AddOffsetsToTxn', 'TxnOffsetCommit'] as const)('its own %s failed fatally: it fails at once with that error', (rpc) => {
    const d = waiting(rpc);
    const { signal, replies } = answer(d, rpc, 'INVALID_PRODUCER_ID_MAPPING');
    expect(signal).toBe('fatal');
    expect(replies).toMatchObject([{ args: { call: 'sendOffsetsToTransaction', ok: false, error: 'INVALID_PRODUCER_ID_MAPPING' } }]);
  });

  it('in FATAL_ERROR the answer of its request in flight completes it: TxnOffsetCommit NONE returns, an error fails it; lastError stays', () => {
    const ok = waiting('TxnOffsetCommit');
    ok.lastError = 'INVALID_PRODUCER_ID_MAPPING';
    const out = new Out();
    onOffsetsAnswerWhenFatal(ok, { type: 'TxnOffsetCommitResponse', payload: { correlationId: 5, error: 'NONE' } }, out);
    expect(out.effects.filter((e) => e.type === 'call')).toMatchObject([{ args: { call: 'sendOffsetsToTransaction', ok: true } }]);
    expect([ok.waiting, ok.coordinatorRequest, ok.lastError]).toEqual([null, null, 'INVALID_PRODUCER_ID_MAPPING']);

    const failed = waiting('TxnOffsetCommit');
    failed.lastError = 'PRODUCER_FENCED';
    const out2 = new Out();
    onOffsetsAnswerWhenFatal(failed, { type: 'TxnOffsetCommitResponse', payload: { correlationId: 5, error: 'PRODUCER_FENCED' } }, out2);
    expect(out2.effects.filter((e) => e.type === 'call')).toMatchObject([{ args: { ok: false, error: 'PRODUCER_FENCED' } }]);
    expect(failed.lastError).toBe('PRODUCER_FENCED');
  });

  it('in FATAL_ERROR an AddOffsetsToTxn answered NONE only queues the TxnOffsetCommit, never sent: the call keeps waiting; a stale answer is ignored', () => {
    const d = waiting('AddOffsetsToTxn');
    d.lastError = 'INVALID_PRODUCER_ID_MAPPING';
    const out = new Out();
    onOffsetsAnswerWhenFatal(d, { type: 'AddOffsetsToTxnResponse', payload: { correlationId: 5, error: 'NONE' } }, out);
    expect(out.effects.filter((e) => e.type === 'call' || e.type === 'send')).toEqual([]);
    expect(d.waiting?.call).toBe('sendOffsetsToTransaction');
    const stale = waiting('TxnOffsetCommit');
    const out2 = new Out();
    onOffsetsAnswerWhenFatal(stale, { type: 'TxnOffsetCommitResponse', payload: { correlationId: 4, error: 'NONE' } }, out2);
    expect(out2.effects).toEqual([]);
    expect(stale.coordinatorRequest?.correlationId).toBe(5);
  });
});
