/**
 * A follower whose Fetch the leader answers FENCED_LEADER_EPOCH — the fetch carried the follower's
 * current leader epoch, and the broker it fetches from knows a newer one — stops fetching that
 * partition until new metadata names the leader (AbstractFetcherThread.onPartitionFenced:
 * `requestEpoch.contains(currentLeaderEpoch)` → markPartitionFailed, "Will await the new LeaderAndIsr
 * state before resuming fetching"); it is not retried. On the old code it fetched again every
 * replica.fetch.backoff.ms (1 s): here 25 fetches between 14 s and 39 s.
 *
 * broker-0 leads `orders` and is paused from 2 s to 14 s; the controller elects broker-1 (epoch 1)
 * at 9 s, but its first record to broker-2 is dropped, so broker-2 keeps following broker-0 in
 * epoch 0 until the controller sends the record again.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { EnvelopeRecord } from '../../src/sim/views';

const scenario = {
  version: 1,
  id: 'follower-fenced-epoch',
  seed: 1,
  cluster: { brokers: 3, 'min.insync.replicas': 1 },
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [
    {
      id: 'p',
      type: 'producer',
      config: { acks: '1' },
      script: [{ op: 'send', at: 1000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e1' } }],
    },
  ],
  faults: [
    { type: 'pause', target: 'broker-0', at: 2000, durationMs: 12000 },
    { type: 'drop', rpc: 'PartitionChange', to: 'broker-2', nth: 1, count: 1 },
  ],
} as unknown as Scenario;

describe('a follower fenced by its leader epoch waits for metadata', () => {
  const trace = runScenario(scenario);
  const all = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  const fetches = all.filter((e) => e.rpc === 'Fetch' && e.from === 'broker-2');
  const answerTo = (e: EnvelopeRecord) => all.find((x) => x.inReplyTo === e.id);
  const fenced = fetches.filter((e) => (answerTo(e)?.payload as { error?: string } | undefined)?.error === 'FENCED_LEADER_EPOCH');
  // the record that names broker-1, as broker-2 finally receives it
  const learned = all.find(
    (e) =>
      e.rpc === 'PartitionChange' &&
      e.to === 'broker-2' &&
      e.fate === 'delivered' &&
      (e.payload as { leader?: string }).leader === 'broker-1',
  ) as EnvelopeRecord;

  it('is answered FENCED_LEADER_EPOCH once, and sends no Fetch until the record naming broker-1 reaches it', () => {
    expect(trace.stopReason).toBe('quiescent');
    expect(fenced).toHaveLength(1);
    const after = fetches.filter((e) => e.sentStep > (answerTo(fenced[0] as EnvelopeRecord)?.deliveredStep as number));
    expect(learned).toBeDefined();
    expect(learned.deliverAt as number).toBeGreaterThan(30000);
    expect(after.length).toBeGreaterThan(0);
    for (const e of after) expect(e.sentStep).toBeGreaterThanOrEqual(learned.deliveredStep as number);
    expect(after[0]?.to).toBe('broker-1');
  });
});
