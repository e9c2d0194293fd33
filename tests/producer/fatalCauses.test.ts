/**
 * Why a transactional producer is in FATAL_ERROR, per cause, wherever it is read: the refused call's
 * words (fatalReason), their Korean, its application's stop, the actor details' "why fatal". Kafka's
 * client (TransactionManager, 4.0 line): `fatalError` for PRODUCER_FENCED and INVALID_PRODUCER_EPOCH
 * (made `Errors.PRODUCER_FENCED.exception()` by every coordinator handler), INVALID_TXN_STATE,
 * INVALID_PRODUCER_ID_MAPPING (KAFKA-18019), an unexpected InitProducerId error such as
 * INVALID_TRANSACTION_TIMEOUT; `maybeTransitionToErrorState` for a batch refused PRODUCER_FENCED (or,
 * 4.0, INVALID_PRODUCER_ID_MAPPING); Sender.run's poisoned invalid transition (IllegalStateException).
 * Only a fence is called a fence: before, every cause but INVALID_PRODUCER_ID_MAPPING read "(fenced)",
 * and a poisoned producer's application stopped saying "this instance was fenced".
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { fatalByFencing } from '../../src/sim/application/consumerAppGuards';
import { resolveProducerConfig } from '../../src/sim/config/producerConfig';
import { narrate } from '../../src/sim/narration/narrate';
import { FATAL_CAUSE_KO, translateNote, translateRefusal } from '../../src/sim/narration/notes';
import { findPreset } from '../../src/sim/presets';
import { FATAL_CAUSE_WORDS, type FatalCause, fatalReason } from '../../src/sim/producer/fatalReason';
import { initialProducerContext } from '../../src/sim/producer/producerContext';
import type { ProducerDraft } from '../../src/sim/producer/sender';
import { type CoordinatorResponse, onCoordinatorResponse } from '../../src/sim/producer/transactionManager';
import { runScenario, stateAt, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { isTaskMigrated } from '../../src/sim/streams/migration';
import { actorFields } from '../../src/ui/actors/fields';
import { oneBrokerMetadata } from '../fixtures/oneBrokerMetadata';

type AnyFact = { kind: string } & Record<string, unknown>;
const factsOf = (trace: Trace, kind: string) =>
  trace.steps.flatMap((s) => (s.facts as readonly AnyFact[]).filter((f) => f.kind === kind).map((f) => ({ t: s.t, i: s.i, f })));
const notes = (trace: Trace) => factsOf(trace, 'note').map(({ f }) => String(f.text));
const stopOf = (trace: Trace) => factsOf(trace, 'note').find(({ f }) => / (?:stops|closes)$/.test(String(f.text)));

const producer = (config: Record<string, unknown>, script: unknown[], cluster: Record<string, unknown> = {}): Scenario =>
  ({
    version: 1,
    seed: 1,
    cluster,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx', ...config }, script }],
  }) as unknown as Scenario;
const send = (id: string) => ({ op: 'send', topic: 'orders', key: 'k', value: id, headers: { event_id: id } });

/** The producer's "why fatal" field at the end of the run (the actor details), in both languages. */
function whyFatal(trace: Trace, actor: string): { en?: string; ko?: string } {
  const snap = stateAt(trace, trace.steps.length).actors.get(actor);
  const state = String(snap?.value);
  const field = (lang: 'en' | 'ko') =>
    actorFields('producer', snap?.context, lang, (t) => translateNote(t, lang), undefined, state).find((f) =>
      ['why fatal', '치명적 오류의 이유'].includes(f.label),
    )?.value;
  return { en: field('en'), ko: field('ko') };
}

describe('fatalReason: one reason per cause', () => {
  it('a fence keeps its words; every other cause is named with what it means', () => {
    expect(fatalReason('PRODUCER_FENCED')).toBe('The producer is in a fatal error state (fenced) and must be closed');
    // Kafka's handlers make a coordinator's INVALID_PRODUCER_EPOCH a ProducerFencedException
    expect(fatalReason('INVALID_PRODUCER_EPOCH')).toBe(fatalReason('PRODUCER_FENCED'));
    expect(fatalReason('INVALID_PRODUCER_ID_MAPPING')).toBe(
      'The producer is in a fatal error state (INVALID_PRODUCER_ID_MAPPING: its producer id is no longer known to the coordinator, its transactional.id expired) and must be closed',
    );
    expect(fatalReason('INVALID_TXN_STATE')).toContain('(INVALID_TXN_STATE: the transaction coordinator refused its request');
    expect(fatalReason('INVALID_TRANSACTION_TIMEOUT')).toContain(
      "(INVALID_TRANSACTION_TIMEOUT: its transaction.timeout.ms is above the brokers' transaction.max.timeout.ms)",
    );
    expect(fatalReason('IllegalStateException')).toContain('(IllegalStateException: an invalid state transition on its Sender thread)');
    // an error the model never makes fatal is named as it is, never as a fence
    expect(fatalReason('TRANSACTION_COORDINATOR_FENCED')).toBe(
      'The producer is in a fatal error state (TRANSACTION_COORDINATOR_FENCED) and must be closed',
    );
    expect(fatalReason(null)).toBe('The producer is in a fatal error state (unknown error) and must be closed');
    for (const cause of ['INVALID_PRODUCER_ID_MAPPING', 'INVALID_TXN_STATE', 'INVALID_TRANSACTION_TIMEOUT', 'IllegalStateException', null])
      expect(fatalReason(cause)).not.toContain('(fenced)');
  });

  it('every cause’s words have Korean, and the Korean sentence carries no English words but the error’s name', () => {
    expect(Object.keys(FATAL_CAUSE_KO).sort()).toEqual(Object.keys(FATAL_CAUSE_WORDS).sort());
    for (const cause of Object.keys(FATAL_CAUSE_WORDS) as FatalCause[]) {
      const ko = translateRefusal(fatalReason(cause), 'ko');
      expect(ko).toBe(`프로듀서가 치명적 오류 상태(${FATAL_CAUSE_KO[cause]})이므로 닫아야 합니다`);
      expect(ko.replace(/[A-Za-z_.]*[A-Z_.][A-Za-z_.]*|transaction\.\w+(\.\w+)*|producerId|Sender/g, '')).not.toMatch(/[a-z]{3,}/);
    }
    expect(translateRefusal(fatalReason('TRANSACTION_COORDINATOR_FENCED'), 'ko')).toBe(
      '프로듀서가 치명적 오류 상태(TRANSACTION_COORDINATOR_FENCED)이므로 닫아야 합니다',
    );
    expect(translateRefusal(fatalReason(null), 'ko')).toBe('프로듀서가 치명적 오류 상태(알 수 없는 오류)이므로 닫아야 합니다');
    expect(FATAL_CAUSE_KO.PRODUCER_FENCED).toBe('펜싱됨');
    expect(FATAL_CAUSE_KO.INVALID_TXN_STATE).not.toContain('펜싱');
  });

  it('Streams reads a fence or an expired id as a migrated task, and no other fatal cause', () => {
    expect(isTaskMigrated(fatalReason('PRODUCER_FENCED'))).toBe(true);
    expect(isTaskMigrated(fatalReason('INVALID_PRODUCER_ID_MAPPING'))).toBe(true);
    for (const cause of ['INVALID_TXN_STATE', 'INVALID_TRANSACTION_TIMEOUT', 'IllegalStateException', 'TRANSACTION_COORDINATOR_FENCED'])
      expect(isTaskMigrated(fatalReason(cause))).toBe(false);
  });

  it('an application calls its instance fenced only for a fence', () => {
    for (const error of ['PRODUCER_FENCED', 'ProducerFencedException', 'INVALID_PRODUCER_EPOCH', 'INVALID_TXN_STATE'])
      expect(fatalByFencing({ error })).toBe(true);
    expect(fatalByFencing({ error: 'KafkaException', cause: 'INVALID_TXN_STATE' })).toBe(true);
    expect(fatalByFencing({ error: fatalReason('INVALID_PRODUCER_ID_MAPPING'), cause: 'INVALID_PRODUCER_ID_MAPPING' })).toBe(false);
    expect(fatalByFencing({ error: 'IllegalStateException', cause: 'IllegalStateException' })).toBe(false);
    expect(fatalByFencing({ error: 'INVALID_TRANSACTION_TIMEOUT' })).toBe(false);
  });
});

describe('INVALID_PRODUCER_EPOCH from a coordinator is a fence (TransactionManager’s handlers)', () => {
  it.each(['EndTxn', 'InitProducerId'] as const)('%s: the producer is fatal with PRODUCER_FENCED, and its waiting call fails so', (rpc) => {
    const config = resolveProducerConfig({ 'transactional.id': 'tx' }).config;
    const d: ProducerDraft = {
      ...initialProducerContext({ self: 'p.producer', app: 'p.app', client: 'p', meta: oneBrokerMetadata, config, transactionVersion: 1 }),
    };
    d.producerId = 7;
    d.producerEpoch = 0;
    if (rpc === 'EndTxn') d.endTxn = 'COMMIT';
    else d.initPending = true;
    d.waiting = { call: rpc === 'EndTxn' ? 'commitTransaction' : 'initTransactions', from: 'p.app' };
    d.coordinatorRequest = { rpc, correlationId: 5, attempts: 1 };
    const out = new Out();
    const payload = { correlationId: 5, error: 'INVALID_PRODUCER_EPOCH', producerId: -1, producerEpoch: -1 };
    const signal = onCoordinatorResponse(d, { type: `${rpc}Response`, payload } as unknown as CoordinatorResponse, out);
    expect(signal).toBe('fatal');
    expect(d.lastError).toBe('PRODUCER_FENCED');
    // the fact names what the coordinator answered; the application's call fails with the fence
    const facts = out.effects.flatMap((e) => (e.type === 'fact' ? [e.fact as AnyFact] : []));
    expect(facts.find((f) => f.kind === 'clientError')).toMatchObject({ error: 'INVALID_PRODUCER_EPOCH', fatal: true });
    const reply = out.effects.find((e) => e.type === 'call' && e.name === 'reply');
    expect(reply).toMatchObject({ args: { ok: false, error: 'PRODUCER_FENCED' } });
  });
});

describe('whole runs: each fatal cause the model reaches, as the user reads it', () => {
  it('PRODUCER_FENCED (zombie-fencing): the refusals and the stop say fenced', () => {
    const preset = findPreset('zombie-fencing');
    const trace = runScenario(preset?.scenario);
    const fatal = factsOf(trace, 'clientError').filter(({ f }) => f.fatal);
    expect(fatal.map(({ f }) => f.error)).toEqual(['PRODUCER_FENCED']);
    expect(String(stopOf(trace)?.f.text)).toMatch(/this instance was fenced and stops$/);
    expect(narrate(trace, stopOf(trace)?.i ?? -1, 'ko')).toContain('펜싱되어 멈춥니다');
    const client = String(fatal[0]?.f.client);
    const why = whyFatal(trace, `${client}.producer`);
    expect(why.en).toBe('The producer is in a fatal error state (fenced) and must be closed');
    expect(why.ko).toBe('프로듀서가 치명적 오류 상태(펜싱됨)이므로 닫아야 합니다');
  });

  it('INVALID_PRODUCER_ID_MAPPING (transactional-id-expired): the Produce’s error is fatal, and nothing says fenced', () => {
    const trace = runScenario(findPreset('transactional-id-expired')?.scenario);
    const refused = factsOf(trace, 'clientError').find(({ f }) => f.error === 'INVALID_PRODUCER_ID_MAPPING');
    // maybeTransitionToErrorState (4.0: InvalidPidMappingException among the fatal exceptions)
    expect(refused?.f).toMatchObject({ during: 'Produce to orders-0', fatal: true });
    expect(narrate(trace, refused?.i ?? -1, 'en')).toContain('a fatal error: this producer can only be closed');
    expect(narrate(trace, refused?.i ?? -1, 'en')).toContain('the id expired (transactional.id.expiration.ms)');
    expect(String(stopOf(trace)?.f.text)).toMatch(/this instance's producer can only be closed, and it stops$/);
    const why = whyFatal(trace, 'orders-service.producer');
    expect(why.en).toBe(fatalReason('INVALID_PRODUCER_ID_MAPPING'));
    expect(why.ko).toContain('transactional.id가 만료되어');
    expect(`${why.en} ${why.ko}`).not.toMatch(/fenced|펜싱/);
  });

  it('INVALID_TXN_STATE (protocol 2, the coordinator aborted the transaction for transaction.timeout.ms): its own words; the instance was fenced', () => {
    const trace = runScenario(
      producer(
        { 'transaction.timeout.ms': 1000 },
        [{ op: 'beginTransaction' }, send('evt-1'), { op: 'sleep', ms: 15000 }, { op: 'commitTransaction' }],
        {
          'transaction.version': 2,
        },
      ),
    );
    expect(notes(trace).some((n) => /more than transaction\.timeout\.ms=1000: fencing epoch 0 and aborting/.test(n))).toBe(true);
    const fatal = factsOf(trace, 'clientError').filter(({ f }) => f.fatal);
    expect(fatal.map(({ f }) => `${f.error} ${f.during}`)).toEqual(['INVALID_TXN_STATE EndTxn(COMMIT)']);
    // the canonical loop aborts after commitTransaction's KafkaException; the abort is refused with the fatal reason
    const refusal = factsOf(trace, 'clientError').find(({ f }) => String(f.during).startsWith('abortTransaction: '));
    // maybeFailWithError's KafkaException in Kafka's words, the model's words of its cause in parentheses
    expect(refusal?.f).toMatchObject({
      error: 'KafkaException',
      during: `abortTransaction: Cannot execute transactional method because we are in an error state (${fatalReason('INVALID_TXN_STATE')})`,
    });
    expect(narrate(trace, refusal?.i ?? -1, 'ko')).toContain(FATAL_CAUSE_KO.INVALID_TXN_STATE);
    expect(narrate(trace, refusal?.i ?? -1, 'ko')).toContain('오류 상태이므로 트랜잭션 메서드를 실행할 수 없습니다(');
    // the coordinator fenced the epoch itself (prepareFenceProducerEpoch): the instance was fenced
    expect(String(stopOf(trace)?.f.text)).toMatch(/this instance was fenced and stops$/);
    expect(whyFatal(trace, 'p.producer').en).toBe(fatalReason('INVALID_TXN_STATE'));
  });

  it('INVALID_TRANSACTION_TIMEOUT (transaction.timeout.ms above the cluster’s maximum): initTransactions() fails, the producer is fatal, not fenced', () => {
    const trace = runScenario(
      producer({ 'transaction.timeout.ms': 900001 }, [{ op: 'beginTransaction' }, send('evt-1'), { op: 'commitTransaction' }]),
    );
    const fatal = factsOf(trace, 'clientError').filter(({ f }) => f.fatal);
    expect(fatal.map(({ f }) => `${f.error} ${f.during}`)).toEqual(['INVALID_TRANSACTION_TIMEOUT InitProducerId']);
    expect(notes(trace)).toContain('INVALID_TRANSACTION_TIMEOUT');
    const why = whyFatal(trace, 'p.producer');
    expect(why.en).toBe(fatalReason('INVALID_TRANSACTION_TIMEOUT'));
    expect(why.ko).toContain('transaction.max.timeout.ms보다 큼');
  });

  it('IllegalStateException (a batch expired outside a transaction poisoned the producer): the instance stops unfenced', () => {
    const trace = runScenario(
      producer({ 'delivery.timeout.ms': 5000, 'request.timeout.ms': 1000, 'linger.ms': 0 }, [
        send('evt-0'),
        { op: 'sleep', ms: 6000 },
        { op: 'beginTransaction' },
        send('evt-1'),
        { op: 'commitTransaction' },
      ]),
    );
    const fatal = factsOf(trace, 'clientError').filter(({ f }) => f.fatal);
    expect(fatal.map(({ f }) => f.error)).toEqual(['IllegalStateException']);
    // before: "abortTransaction failed with IllegalStateException: this instance was fenced and stops"
    expect(String(stopOf(trace)?.f.text)).toBe(
      "abortTransaction failed with IllegalStateException: this instance's producer can only be closed, and it stops",
    );
    const ko = narrate(trace, stopOf(trace)?.i ?? -1, 'ko');
    expect(ko).toContain('닫을 수밖에 없으므로');
    expect(ko).not.toContain('펜싱');
    expect(whyFatal(trace, 'p.producer').en).toBe(fatalReason('IllegalStateException'));
  });

  it('a producer that is not fatal has no “why fatal” field', () => {
    const trace = runScenario(producer({}, [{ op: 'beginTransaction' }, send('evt-1'), { op: 'commitTransaction' }]));
    expect(whyFatal(trace, 'p.producer')).toEqual({ en: undefined, ko: undefined });
  });
});
