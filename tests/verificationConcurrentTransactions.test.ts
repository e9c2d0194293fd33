/**
 * Under transaction protocol v2 the partition leader adds a transaction's partitions itself, and
 * when the coordinator answers that AddPartitionsToTxn with CONCURRENT_TRANSACTIONS (the producer's
 * previous transaction is still completing: its markers are not all written), the leader asks again
 * itself (ReplicaManager.handleProduceAppend → maybeRetryOnConcurrentTransactions): every
 * add.partitions.to.txn.retry.backoff.ms (20) after an answer, until an answer comes when the
 * verification is min(add.partitions.to.txn.retry.backoff.max.ms = 100, request.timeout.ms) old;
 * then the Produce is answered with CONCURRENT_TRANSACTIONS as it is (postVerificationCallback
 * converts it to NOT_ENOUGH_REPLICAS under protocol v1 only), which the client retries.
 *
 * On the old code the leader answered NOT_ENOUGH_REPLICAS at the first CONCURRENT_TRANSACTIONS,
 * under v2 too: the client sent the batch again after retry.backoff.ms (100).
 *
 * The run: one transactional producer commits e1, then at once writes e2 in a second transaction,
 * while the first transaction's WriteTxnMarkers is delayed.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { runScenario } from '../src/sim/run';
import type { EnvelopeRecord } from '../src/sim/views';
import { backToBackTransactions } from './fixtures/backToBackTransactions';

const scenario = (markerDelayMs: number) =>
  backToBackTransactions('verification-concurrent-transactions', [
    { type: 'delay', rpc: 'WriteTxnMarkers', nth: 1, delayMs: markerDelayMs },
  ]);

function envelopesOf(markerDelayMs: number) {
  const trace = runScenario(scenario(markerDelayMs));
  // ended, not cut short (each broker's producer expiration check stays scheduled: never 'empty')
  expect(trace.stopReason).toBe('quiescent');
  const all = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  const produces = all.filter((e) => e.rpc === 'Produce');
  const second = produces.find(
    (e) => (e.payload as { partitions: { batch: { producerEpoch: number } }[] }).partitions[0]?.batch.producerEpoch === 1,
  ) as EnvelopeRecord;
  const verifications = all.filter(
    (e) => e.rpc === 'AddPartitionsToTxn' && e.from === 'broker-0' && e.sentAt >= (second.deliverAt as number),
  );
  const answerTo = (e: EnvelopeRecord) => all.find((x) => x.inReplyTo === e.id) as EnvelopeRecord;
  const errorOf = (e: EnvelopeRecord) => {
    // the leader's v4+ AddPartitionsToTxn: one result per transaction
    const p = answerTo(e).payload as { error: string; resultsByTransaction: { partitions: { error: string }[] }[] };
    return p.error !== 'NONE' ? p.error : (p.resultsByTransaction[0]?.partitions[0]?.error ?? 'NONE');
  };
  const produceErrors = all
    .filter((e) => e.rpc === 'ProduceResponse')
    .map((e) => (e.payload as { responses: { error: string }[] }).responses[0]?.error);
  return { all, produces, second, verifications, answerTo, errorOf, produceErrors };
}

describe('protocol v2: the leader retries CONCURRENT_TRANSACTIONS itself', () => {
  it('asks again every 20 ms while the markers are late, and appends once the coordinator adds the partition', () => {
    const r = envelopesOf(50);
    const errors = r.verifications.map(r.errorOf);
    expect(errors.slice(0, -1).every((e) => e === 'CONCURRENT_TRANSACTIONS')).toBe(true);
    expect(errors.length).toBeGreaterThan(1);
    expect(errors.at(-1)).toBe('NONE');
    // each retry goes 20 ms after the answer before it
    for (let i = 1; i < r.verifications.length; i++)
      expect((r.verifications[i] as EnvelopeRecord).sentAt).toBe(
        (r.answerTo(r.verifications[i - 1] as EnvelopeRecord).deliverAt as number) + 20,
      );
    // the client sent each batch once and never saw an error
    expect(r.produces).toHaveLength(2);
    expect(r.produceErrors).toEqual(['NONE', 'NONE']);
  });

  it('gives up when an answer comes 100 ms after the verification began: the client gets CONCURRENT_TRANSACTIONS and retries', () => {
    const r = envelopesOf(400);
    const began = r.second.deliverAt as number;
    const firstAnswer = r.all.find((e) => e.inReplyTo === r.second.id) as EnvelopeRecord;
    expect((firstAnswer.payload as { responses: { error: string }[] }).responses[0]?.error).toBe('CONCURRENT_TRANSACTIONS');
    // answered in the step the first coordinator answer at least 100 ms after the start came, and not before
    const answers = r.verifications.filter((v) => v.sentAt < firstAnswer.sentAt).map((v) => r.answerTo(v).deliverAt as number);
    expect(answers.every((t, i) => (i < answers.length - 1 ? t < began + 100 : t >= began + 100))).toBe(true);
    expect(firstAnswer.sentAt).toBe(answers.at(-1));
    expect(answers.length).toBeGreaterThan(3);
    // the batch is sent again, and lands once the first transaction has completed
    expect(r.produces.length).toBeGreaterThan(2);
    expect(r.produceErrors.at(-1)).toBe('NONE');
    expect(r.produceErrors).not.toContain('NOT_ENOUGH_REPLICAS');
  });
});

describe('the narration says who retries', () => {
  const trace = runScenario(scenario(50));
  const steps = [...Array(trace.steps.length).keys()];
  const retry = steps.find((i) => trace.steps.at(i)?.label === 'verificationRetry') as number;
  // the answer that armed the first retry: the last one broker-0 got before it
  const answered = steps.findLast(
    (i) => i < retry && trace.steps.at(i)?.label === 'AddPartitionsToTxnResponse' && trace.steps.at(i)?.actor === 'broker-0',
  ) as number;

  it('the leader holds the Produce and asks again after add.partitions.to.txn.retry.backoff.ms, in English and Korean', () => {
    expect(narrate(trace, answered, 'en')).toContain(
      'broker-0 asks again itself after add.partitions.to.txn.retry.backoff.ms (20 ms), holding the Produce',
    );
    expect(narrate(trace, answered, 'ko')).toContain('add.partitions.to.txn.retry.backoff.ms(20 ms) 뒤에 직접 다시 묻습니다');
    expect(narrate(trace, retry, 'en')).toContain(
      'add.partitions.to.txn.retry.backoff.ms (20 ms) passed: broker-0 asks the transaction coordinator again',
    );
    expect(narrate(trace, retry, 'ko')).toContain('트랜잭션 코디네이터에 다시 요청합니다');
  });
});
