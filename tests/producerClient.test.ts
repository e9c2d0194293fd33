/** The producer client's rules (RecordAccumulator, Sender, TransactionManager), one test per rule, through small scenarios. */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';

function scenario(config: Record<string, unknown>, script: unknown[], extra: Record<string, unknown> = {}) {
  return {
    version: 1,
    seed: 3,
    topics: [{ name: 't', partitions: 3 }],
    clients: [{ id: 'p1', type: 'producer', config, script }],
    ...extra,
  };
}

function run(s: unknown) {
  const trace = runScenario(s);
  const summary = summarize(trace);
  const facts = trace.steps.flatMap((st) => st.facts as Fact[]);
  const data = summary.partitions
    .filter((p) => !p.internal)
    .flatMap((p) => p.records.map((r) => ({ ...r, topic: p.topic, partition: p.partition })));
  return { trace, summary, facts, data };
}

describe('producer client', () => {
  it('groups records sent within linger.ms for one partition into one batch with consecutive sequences', () => {
    const { data } = run(scenario({}, [{ op: 'send', topic: 't', key: 'k', value: 'v{i}', count: 3 }]));
    expect(data.map((r) => [r.baseOffset, r.offset, r.sequence])).toEqual([
      [0, 0, 0],
      [0, 1, 1],
      [0, 2, 2],
    ]);
  });

  it('places keyed records with murmur2 and null keys on a sticky partition', () => {
    const { data } = run(
      scenario({}, [
        { op: 'send', topic: 't', key: 'a-little-bit-long-string', value: 'x' },
        { op: 'send', topic: 't', key: null, value: 'y', count: 2 },
      ]),
    );
    expect(data.find((r) => r.key === 'a-little-bit-long-string')?.partition).toBe(2);
    const nulls = data.filter((r) => r.key === null);
    expect(new Set(nulls.map((r) => r.partition)).size).toBe(1);
  });

  it('keeps at most max.in.flight.requests.per.connection Produce requests outstanding per broker', () => {
    const { trace } = run(
      scenario(
        { 'max.in.flight.requests.per.connection': 2, 'batch.size': 1 },
        [{ op: 'send', topic: 't', key: 'k', value: 'v{i}', count: 8 }],
        {
          network: { latencyMs: 10 },
        },
      ),
    );
    const produces = trace.envelopes.filter((e) => e.rpc === 'Produce');
    const answered = new Map(
      trace.envelopes.filter((e) => e.rpc === 'ProduceResponse').map((e) => [e.inReplyTo, e.deliverAt ?? Number.POSITIVE_INFINITY]),
    );
    expect(produces.length).toBe(8);
    let max = 0;
    for (const p of produces) {
      const open = produces.filter((q) => q.sentAt <= p.sentAt && (answered.get(q.id) ?? Number.POSITIVE_INFINITY) > p.sentAt);
      max = Math.max(max, open.length);
    }
    expect(max).toBe(2);
  });

  it('a leader that is down: connection attempts back off (reconnect.backoff.ms doubling), no retry counted, until delivery.timeout.ms fails the batch with TimeoutException', () => {
    const s = scenario({ 'request.timeout.ms': 1000, 'delivery.timeout.ms': 3000 }, [{ op: 'send', topic: 't', key: 'k', value: 'v' }], {
      // down once the producer's Metadata is answered (2 ms): with no broker at all its send() would wait in waitOnMetadata
      faults: [{ type: 'crash', target: 'broker-0', at: 3 }],
      topics: [{ name: 't', partitions: 1 }],
    });
    const { facts, data } = run(s);
    expect(data).toEqual([]);
    const result = facts.find((f) => f.kind === 'sendResult');
    expect(result).toMatchObject({ error: 'TimeoutException', offset: null });
    // each refused attempt is no failed send: no NETWORK_EXCEPTION (Sender drains nothing for a node NetworkClient.ready refuses)
    expect(facts.filter((f) => f.kind === 'clientError').map((f) => (f as { error: string }).error)).toEqual(['TimeoutException']);
    const produces = run(s).trace.envelopes.filter((e) => e.rpc === 'Produce');
    expect(produces.length).toBeGreaterThan(1);
    const gaps = produces.slice(1).map((p, i) => p.sentAt - (produces[i]?.sentAt ?? 0));
    expect(gaps.every((g) => g >= 50)).toBe(true);
    expect(gaps.every((g, i) => i === 0 || g >= (gaps[i - 1] as number))).toBe(true);
  });

  it('a retry keeps its sequence number (the broker recognises it)', () => {
    const { facts, data } = run(
      scenario({}, [{ op: 'send', topic: 't', key: 'k', value: 'v' }], {
        topics: [{ name: 't', partitions: 1 }],
        faults: [{ type: 'drop', rpc: 'ProduceResponse', nth: 1 }],
      }),
    );
    expect(data).toHaveLength(1);
    expect(facts.filter((f) => f.kind === 'duplicate')).toHaveLength(1);
  });

  it('an idempotent producer that cannot resolve a sequence bumps its own epoch and restarts at sequence 0', () => {
    const { data, facts } = run(
      scenario(
        { 'request.timeout.ms': 500, 'delivery.timeout.ms': 600, 'linger.ms': 0 },
        [
          { op: 'send', topic: 't', key: 'a', value: '1' },
          { op: 'flush' },
          { op: 'send', topic: 't', key: 'a', value: '2', delayMs: 10 },
          { op: 'flush' },
        ],
        {
          topics: [{ name: 't', partitions: 1 }],
          faults: [{ type: 'drop', rpc: 'Produce', nth: 1 }],
        },
      ),
    );
    // the first record timed out after being sent: its fate is unknown, so the epoch moves on
    expect(facts.find((f) => f.kind === 'sendResult' && f.ref === 0)).toMatchObject({ error: 'TimeoutException' });
    expect(data.map((r) => [r.value, r.producerEpoch, r.sequence])).toEqual([['2', 1, 0]]);
  });

  it('with acks=0 no response comes back and the send completes without an offset', () => {
    const { trace, facts } = run(scenario({ acks: '0' }, [{ op: 'send', topic: 't', key: 'k', value: 'v' }]));
    expect(trace.envelopes.some((e) => e.rpc === 'ProduceResponse')).toBe(false);
    expect(facts.find((f) => f.kind === 'sendResult')).toMatchObject({ offset: null, error: null });
  });

  it('a producer without idempotence sends no InitProducerId and writes producerId -1', () => {
    const { trace, data } = run(scenario({ 'enable.idempotence': false }, [{ op: 'send', topic: 't', key: 'k', value: 'v' }]));
    expect(trace.envelopes.some((e) => e.rpc === 'InitProducerId')).toBe(false);
    expect(data[0]).toMatchObject({ producerId: -1, sequence: -1 });
  });
});
