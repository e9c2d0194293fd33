/**
 * A consumer's Fetch held on a leader (the fetch purgatory) completes at once when that broker stops
 * leading the partition: ReplicaManager.applyLocalFollowersDelta → completeDelayedOperationsWhenNotPartitionLeader
 * → DelayedFetch.tryComplete (case A, "this broker is no longer the leader"), answered with the error
 * the fetch now meets and the new leader (KIP-951). On the old code it waited for its own
 * fetch.max.wait.ms: here answered at 11,042 ms instead of 11,002.
 *
 * broker-0 leads `a` (RF 3) and loses its heartbeats from the third on: the controller fences it and
 * elects broker-1 while broker-0 is still up, holding c1's Fetch.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { EnvelopeRecord } from '../../src/sim/views';
import { fencedWhileUp } from './fencedWhileUp';

const scenario = fencedWhileUp;

describe('a held consumer Fetch on a broker that stops leading', () => {
  const trace = runScenario(scenario);
  const envelopes = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  // the PartitionChange that makes broker-1 the leader, as broker-0 applies it
  const resignAt = envelopes.find(
    (e) => e.rpc === 'PartitionChange' && e.to === 'broker-0' && (e.payload as { leader?: string } | undefined)?.leader === 'broker-1',
  ) as EnvelopeRecord;

  it('is answered in the step broker-0 learns it no longer leads, naming the new leader', () => {
    expect(resignAt).toBeDefined();
    const held = envelopes.filter(
      (e) =>
        e.rpc === 'Fetch' &&
        e.from === 'c1.consumer' &&
        e.to === 'broker-0' &&
        (e.deliveredStep as number) < (resignAt.deliveredStep as number),
    );
    const last = held.at(-1) as EnvelopeRecord;
    const answer = envelopes.find((e) => e.inReplyTo === last.id) as EnvelopeRecord;
    expect(answer.sentStep).toBe(resignAt.deliveredStep);
    expect(answer.sentAt).toBe(resignAt.deliverAt);
    const payload = (answer.payload.partitions as { error: string; currentLeader?: { leaderId: string } }[])[0] as {
      error: string;
      currentLeader?: { leaderId: string };
    };
    expect(['FENCED_LEADER_EPOCH', 'NOT_LEADER_OR_FOLLOWER']).toContain(payload.error);
    expect(payload.currentLeader?.leaderId).toBe('broker-1');
    // and the consumer fetches from broker-1 next
    const next = envelopes.find((e) => e.rpc === 'Fetch' && e.from === 'c1.consumer' && e.sentStep >= (answer.deliveredStep as number));
    expect(next?.to).toBe('broker-1');
  });
});
