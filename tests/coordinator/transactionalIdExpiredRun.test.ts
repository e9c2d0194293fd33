/**
 * A whole run of transactional.id.expiration.ms (scenarios/transactional-id-expired.json): a
 * transactional producer commits evt-1 at 13 ms, idles 8 s while the coordinator expires its
 * transactional.id (expiration 5000 ms, runs every 1000 ms: at 6000), then begins a transaction with
 * evt-2. What it meets is Kafka 4.0's: under protocol 1 its AddPartitionsToTxn, under protocol 2 its
 * Produce (the leader's AddPartitionsToTxn for it), is refused INVALID_PRODUCER_ID_MAPPING, fatal for
 * the producer (KAFKA-18019), so commitTransaction() fails and evt-2 is lost. With Kafka's defaults
 * (7 days, hourly) nothing expires and both records commit.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import expired from './scenarios/transactional-id-expired.json';

const withCluster = (cluster: Record<string, unknown>): Scenario =>
  ({ ...expired, cluster: { ...expired.cluster, ...cluster } }) as unknown as Scenario;

type AnyFact = { kind: string } & Record<string, unknown>;
const factsOf = (trace: Trace, kind: string) =>
  trace.steps.flatMap((s) => (s.facts as readonly AnyFact[]).filter((f) => f.kind === kind).map((f) => ({ t: s.t, i: s.i, f })));

const sendResults = (trace: Trace) =>
  Object.fromEntries(factsOf(trace, 'sendResult').map(({ f }) => [f.eventId as string, (f.error as string | null) ?? 'NONE']));

describe('a transactional producer idle past transactional.id.expiration.ms', () => {
  it('protocol 1: the id expires at the run of 6000; the next AddPartitionsToTxn is refused INVALID_PRODUCER_ID_MAPPING, fatal; evt-2 is lost', () => {
    const trace = runScenario(expired as unknown as Scenario);
    const dead = factsOf(trace, 'txnState').filter(({ f }) => f.to === 'Dead');
    expect(dead.map(({ t, f }) => `${f.from}>Dead@${t}`)).toEqual(['CompleteCommit>Dead@6000']);
    const errors = factsOf(trace, 'clientError').map(({ f }) => `${f.error} ${f.during} ${f.fatal}`);
    expect(errors).toContain('INVALID_PRODUCER_ID_MAPPING AddPartitionsToTxn true');
    expect(sendResults(trace)).toEqual({ 'evt-1': 'NONE', 'evt-2': 'INVALID_PRODUCER_ID_MAPPING' });
    const narrated = narrate(trace, dead[0]?.i ?? -1, 'en');
    expect(narrated).toContain('expired transactional.id orders-tx');
    expect(narrated).toContain('transactional.id.expiration.ms (5,000 ms)');
    expect(narrate(trace, dead[0]?.i ?? -1, 'ko')).toContain('만료시켰습니다');
  });

  it('protocol 2: the leader’s AddPartitionsToTxn for the Produce is refused; the Produce fails INVALID_PRODUCER_ID_MAPPING and commitTransaction() fails at once', () => {
    const trace = runScenario(withCluster({ 'transaction.version': 2 }));
    expect(factsOf(trace, 'txnState').filter(({ f }) => f.to === 'Dead')).toHaveLength(1);
    expect(sendResults(trace)).toEqual({ 'evt-1': 'NONE', 'evt-2': 'INVALID_PRODUCER_ID_MAPPING' });
    const refusedAt = factsOf(trace, 'sendResult').find(({ f }) => f.eventId === 'evt-2')?.t ?? -1;
    // the application's commitTransaction() is answered in the same step (transitionToFatalError), not at max.block.ms
    const appLine = trace.steps.filter((s) => s.t === refusedAt && s.actor === 'orders-service.app').map((s) => narrate(trace, s.i, 'en'));
    expect(appLine.join(' ')).toContain('commitTransaction failed (INVALID_PRODUCER_ID_MAPPING)');
    expect(trace.steps.at(-1)?.t ?? 0).toBeLessThan(60000);
  });

  it('a replicated __transaction_state: the leader’s coordinator writes the tombstone at 6000 and forgets the id once it is acknowledged', () => {
    const trace = runScenario(
      withCluster({ brokers: 3, 'transaction.state.log.replication.factor': 3, 'transaction.state.log.min.isr': 2 }),
    );
    const run = trace.steps.find((s) => s.kind === 'timer' && s.label === 'txnIdExpirationCheck');
    expect(run?.t).toBe(6000);
    expect(narrate(trace, run?.i ?? -1, 'en')).toContain('writes a tombstone for it to __transaction_state (acks=-1)');
    const dead = factsOf(trace, 'txnState').filter(({ f }) => f.to === 'Dead');
    expect(dead).toHaveLength(1);
    expect(dead[0]?.t).toBeGreaterThan(6000);
    expect(sendResults(trace)).toEqual({ 'evt-1': 'NONE', 'evt-2': 'INVALID_PRODUCER_ID_MAPPING' });
  });

  it('with Kafka’s defaults (7 days, checked hourly) nothing expires: both transactions commit', () => {
    const trace = runScenario(
      withCluster({
        'transactional.id.expiration.ms': 604800000,
        'transaction.remove.expired.transaction.cleanup.interval.ms': 3600000,
      }),
    );
    expect(factsOf(trace, 'txnState').filter(({ f }) => f.to === 'Dead')).toEqual([]);
    expect(sendResults(trace)).toEqual({ 'evt-1': 'NONE', 'evt-2': 'NONE' });
  });

  it('an idle time shorter than the expiration keeps the id: the second transaction commits under the same producer id', () => {
    const trace = runScenario(withCluster({ 'transactional.id.expiration.ms': 9000 }));
    expect(factsOf(trace, 'txnState').filter(({ f }) => f.to === 'Dead')).toEqual([]);
    expect(sendResults(trace)).toEqual({ 'evt-1': 'NONE', 'evt-2': 'NONE' });
  });
});
