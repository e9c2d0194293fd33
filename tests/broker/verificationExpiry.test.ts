/**
 * A transaction verification entry left on a partition leader expires with producer.id.expiration.ms
 * (ProducerStateManager.removeExpiredProducers: "Also expire any verification state entries that are
 * lingering as unverified", counted from VerificationStateEntry.timestamp, its creation), and a
 * verified Produce that arrives afterwards meets no guard: InvalidTxnStateException, which the
 * producer takes as an abortable error of the transaction (TransactionManager.maybeTransitionToErrorState)
 * and the canonical application answers by aborting.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import { findPreset } from '../../src/sim/presets';
import { stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { actorFields } from '../../src/ui/actors/fields';
import { runWith } from '../presets/helpers';

/** One transaction whose broker-to-coordinator verification (AddPartitionsToTxn) takes 12 s. */
function slowVerification(cluster?: Scenario['cluster']): Scenario {
  return {
    version: 1,
    seed: 5,
    ...(cluster ? { cluster } : {}),
    topics: [{ name: 'payments', partitions: 1 }],
    clients: [
      {
        id: 'payment-service',
        type: 'producer',
        config: { 'transactional.id': 'payment-service-1' },
        script: [{ op: 'beginTransaction' }, { op: 'send', topic: 'payments', key: 'pay-1', value: 'v' }, { op: 'commitTransaction' }],
      },
    ],
    faults: [{ type: 'delay', rpc: 'AddPartitionsToTxn', from: 'broker-0', delayMs: 12000 }],
  } as Scenario;
}

const LOWERED = { 'producer.id.expiration.ms': 10000, 'producer.id.expiration.check.interval.ms': 1000 };

const expiries = (r: ReturnType<typeof runWith>) =>
  r.trace.steps.flatMap((s, i) => (s.facts as Fact[]).filter((f) => f.kind === 'producerStateExpired').map((f) => ({ i, t: s.t, f })));

const notes = (r: ReturnType<typeof runWith>) => r.facts('note').map((f) => f.text);

describe('verification entries expire with producer.id.expiration.ms', () => {
  it('an entry still waiting for its answer is dropped at the first check run 10 s after its creation', () => {
    const r = runWith(slowVerification(LOWERED));
    expect(expiries(r).map(({ t, f }) => ({ t, ...f }))[0]).toEqual({
      t: 11000,
      kind: 'producerStateExpired',
      broker: 'broker-0',
      topic: 'payments',
      partition: 0,
      producers: [],
      verifications: [{ producerId: 1000, producerEpoch: 0, createdAt: 5 }],
      expirationMs: 10000,
    });
  });

  it('the verified Produce that arrives afterwards is refused INVALID_TXN_STATE; the application aborts and goes on', () => {
    const r = runWith(slowVerification(LOWERED));
    expect(r.facts('rejected').map((f) => [f.error, f.reason])).toEqual([
      ['INVALID_TXN_STATE', 'Record was not part of an ongoing transaction'],
    ]);
    expect(r.facts('clientError').find((f) => f.error === 'INVALID_TXN_STATE')).toMatchObject({
      during: 'Produce to payments-0',
      fatal: false,
    });
    expect(notes(r)).toContain('commitTransaction failed (INVALID_TXN_STATE); the application aborts the transaction');
    expect(notes(r).some((t) => /stops|closes/.test(t))).toBe(false);
    const markers = r.facts('append').filter((f) => f.topic === 'payments');
    expect(markers.map((f) => f.control ?? 'data')).toEqual(['ABORT']);
    expect(r.data('payments-0')).toEqual([]);
  });

  it('with Kafka’s default (a day) the same slow verification starts the transaction and it commits', () => {
    const r = runWith(slowVerification());
    expect(expiries(r)).toEqual([]);
    expect(r.facts('rejected')).toEqual([]);
    expect(r.facts('append').map((f) => f.control ?? 'data')).toEqual(['data', 'COMMIT']);
  });

  it('zombie-fencing with the setting lowered: the zombie’s lingering entry goes with the producer’s state', () => {
    const s = structuredClone(findPreset('zombie-fencing')?.scenario as Scenario);
    s.cluster = { ...(s.cluster ?? {}), 'producer.id.expiration.ms': 10000, 'producer.id.expiration.check.interval.ms': 5000 };
    const r = runWith(s);
    const [first] = expiries(r);
    expect(first?.t).toBe(15000);
    expect(first?.f).toMatchObject({
      producers: [{ producerId: 1000, producerEpoch: 2 }],
      verifications: [{ producerId: 1000, producerEpoch: 0, createdAt: 3013 }],
    });
  });

  it('narrates the dropped entry in English and Korean', () => {
    const r = runWith(slowVerification(LOWERED));
    const [e] = expiries(r);
    const i = e?.i ?? -1;
    expect(narrate(r.trace, i, 'en')).toContain(
      "broker-0's producer expiration check dropped the transaction verification entry of producerId 1000 (epoch 0, since 5 ms) on payments-0",
    );
    expect(narrate(r.trace, i, 'en')).toContain('refused INVALID_TXN_STATE');
    expect(narrate(r.trace, i, 'ko')).toContain('payments-0의 producerId 1000 (epoch 0, 5 ms부터) 트랜잭션 검증 항목을 지웠습니다');
  });

  it('narrates the refused Produce with the leader’s own reason, not the coordinator’s', () => {
    const r = runWith(slowVerification(LOWERED));
    const i = r.trace.steps.findIndex((s) => (s.facts as Fact[]).some((f) => f.kind === 'rejected'));
    const en = narrate(r.trace, i, 'en');
    expect(en).toContain('with INVALID_TXN_STATE: "Record was not part of an ongoing transaction"');
    expect(en).toContain('the producer expiration check dropped it');
    expect(en).not.toContain('the transaction state the coordinator holds');
    expect(narrate(r.trace, i, 'ko')).toContain('프로듀서 만료 검사가 항목을 지웠습니다');
    const answered = r.trace.steps.findIndex((s) =>
      (s.facts as Fact[]).some((f) => f.kind === 'clientError' && f.error === 'INVALID_TXN_STATE'),
    );
    expect(narrate(r.trace, answered, 'en')).toContain('for the producer an abortable error — its transaction can only be aborted');
    expect(narrate(r.trace, answered, 'ko')).toContain('취소 가능한 오류');
  });

  it('the actors panel shows the entry while it lingers, and not once it expired', () => {
    const r = runWith(slowVerification(LOWERED));
    const i = expiries(r)[0]?.i ?? -1;
    const fields = (step: number, lang: 'en' | 'ko') => actorFields('broker', stateAt(r.trace, step).actors.get('broker-0')?.context, lang);
    expect(fields(i, 'en')).toContainEqual({ label: 'payments-0 verifying', value: '1000 e0 · lowest seq 0 · since 5 ms' });
    expect(fields(i, 'ko')).toContainEqual({ label: 'payments-0 검증 중', value: '1000 e0 · 최저 seq 0 · 5 ms부터' });
    expect(fields(i + 1, 'en').some((f) => f.label === 'payments-0 verifying')).toBe(false);
  });
});
