/**
 * A batch that may not be retried again (retries used up) fails with the answer's own error
 * (Sender.completeBatch → failBatch(batch, response, …): `response.error.exception()`); only a batch
 * past its delivery.timeout.ms fails with TimeoutException.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';

describe('retries=0 and a lost acknowledgement', () => {
  const trace = runScenario({
    version: 1,
    seed: 11,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        config: { 'enable.idempotence': false, retries: 0, acks: 'all' },
        script: [{ op: 'send', topic: 'orders', key: 'order-123', value: 'OrderCreated', headers: { event_id: 'evt-789' } }],
      },
    ],
    faults: [{ type: 'drop', rpc: 'ProduceResponse', to: 'orders-service', nth: 1 }],
  });
  const facts = trace.steps.flatMap((s) => (s.facts as Fact[]).map((f) => ({ t: s.t, f })));

  it('the send fails at request.timeout.ms with REQUEST_TIMED_OUT, long before delivery.timeout.ms (120 s)', () => {
    const result = facts.find((x) => x.f.kind === 'sendResult');
    expect(result).toMatchObject({ f: { error: 'REQUEST_TIMED_OUT', offset: null } });
    expect(result?.t).toBeLessThan(120000);
  });

  it('and no TimeoutException is reported: delivery.timeout.ms did not pass', () => {
    const errors = facts.flatMap((x) => (x.f.kind === 'clientError' ? [x.f.error] : []));
    expect(errors).toEqual(['REQUEST_TIMED_OUT']);
  });
});
