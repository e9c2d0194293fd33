/**
 * Protocol v2's EndTxn answers a pending transition before it checks the epoch (KAFKA-18464, in
 * 4.0.0: "To avoid self-fencing in the commit/abort + empty abort scenario, return the concurrent
 * transactions error when we have pending state and do the epoch check second"). A producer commits
 * (answered at PrepareCommit, with the bumped epoch), begins its next transaction and aborts it at once
 * while the commit's markers are still on their way: the EndTxn(ABORT) carries the epoch the commit
 * returned, which is PrepareCommit's own — not a retry. The old model checked the epoch first and
 * answered PRODUCER_FENCED: the producer fenced itself. In Kafka it gets CONCURRENT_TRANSACTIONS,
 * retries, and once CompleteCommit is written its abort bumps the epoch (the v2 table's "ABORT current").
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';

const commitThenAbort = {
  version: 1,
  seed: 1,
  topics: [{ name: 'orders', partitions: 1 }],
  clients: [
    {
      id: 'app',
      type: 'producer',
      config: { 'transactional.id': 'app-1', 'linger.ms': 1000 },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'orders', key: 'k', value: 'a1', headers: { event_id: 'a1' } },
        { op: 'commitTransaction' },
        { op: 'beginTransaction' },
        { op: 'send', topic: 'orders', key: 'k', value: 'a2', headers: { event_id: 'a2' } },
        { op: 'abortTransaction' },
        { op: 'beginTransaction', delayMs: 5000 },
        { op: 'send', topic: 'orders', key: 'k', value: 'a3', headers: { event_id: 'a3' } },
        { op: 'commitTransaction' },
      ],
    },
  ],
  faults: [{ type: 'delay', rpc: 'WriteTxnMarkers', delayMs: 3000, count: 1 }],
};

describe('protocol v2: an EndTxn while the previous transaction completes', () => {
  it('is CONCURRENT_TRANSACTIONS until CompleteCommit, then the abort bumps the epoch and the producer goes on', () => {
    const trace = runScenario(commitThenAbort);
    const answers: { t: number; error: string; producerEpoch: number }[] = [];
    const replies: string[] = [];
    for (let i = 0; ; i++) {
      const s = trace.steps.at(i);
      if (!s) break;
      if (s.label === 'EndTxnResponse' && s.envelope !== null)
        answers.push(trace.envelopes.at(s.envelope)?.payload as { t: number; error: string; producerEpoch: number });
      if (s.actor === 'app.app' && s.label === 'reply') {
        const d = s.detail as { call: string; ok: boolean };
        if (d.call === 'commitTransaction' || d.call === 'abortTransaction') replies.push(`${d.call} ${d.ok}`);
      }
    }
    const errors = answers.map((a) => a.error);
    expect(errors).not.toContain('PRODUCER_FENCED');
    expect(errors[0]).toBe('NONE');
    expect(errors[1]).toBe('CONCURRENT_TRANSACTIONS');
    // the abort's own NONE carries epoch 2 (the commit's bump to 1, then the abort's), the last commit's 3
    expect(answers.filter((a) => a.error === 'NONE').map((a) => a.producerEpoch)).toEqual([1, 2, 3]);
    expect(replies).toEqual(['commitTransaction true', 'abortTransaction true', 'commitTransaction true']);
  });
});
