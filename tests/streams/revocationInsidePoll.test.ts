/**
 * The rebalance listener runs inside poll() (ConsumerCoordinator.onJoinComplete →
 * ConsumerRebalanceListener.onPartitionsRevoked → StreamsRebalanceListener → TaskManager.handleRevocation,
 * which commits): that poll() returns nothing and sends no Fetch until the listener has returned, and
 * then — the assignment taken (SubscriptionState.assignFromSubscribed) — nothing of the partitions it
 * revoked. The model's stream thread has its poll() out while the consumer calls its listener; before
 * the fix a Fetch answered during the listener's commit was returned to it, so counter ca processed
 * e3b of in-1 — a task it had just revoked — in a new transaction, cb processed it again after the
 * follow-up rebalance, and ca's transactions were aborted (tests/streams/scenarios/revocation-inside-poll.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';

const scenario = JSON.parse(readFileSync(join(__dirname, 'scenarios', 'revocation-inside-poll.json'), 'utf8')) as Scenario;

describe('onPartitionsRevoked inside poll(): a Fetch answered during the listener', () => {
  const r = runWith(scenario);

  it('ca never receives e3b (in-1 is revoked while it arrives); cb, its new owner, processes it once', () => {
    const delivered = (consumer: string) =>
      r
        .facts('delivered')
        .filter((f) => f.consumer === consumer && f.topic === 'in')
        .map((f) => `${f.partition}@${f.offset}`);
    expect(delivered('ca').filter((x) => x.startsWith('1@'))).toEqual(['1@0', '1@1']);
    expect(delivered('cb')).toEqual(['1@2', '1@3']);
    const processedBy = (app: string, eventId: string) => r.facts('processed').filter((f) => f.app === app && f.eventId === eventId).length;
    expect(processedBy('ca', 'e3b')).toBe(0);
    expect(processedBy('cb', 'e3b')).toBe(1);
  });

  it('the follow-up JoinGroup goes out from the poll() the listener returned in, and every layer is once', () => {
    const rebalances = r.facts('rebalance').filter((f) => f.groupId === 'app');
    expect(rebalances.map((f) => f.generationId)).toEqual([1, 2, 3]);
    for (const l of r.summary.verdict.layers) expect([l.layer, l.subject, l.status]).toEqual([l.layer, l.subject, 'once']);
    // no transaction of ca's was aborted
    expect(r.data('out-0').some((x) => x.txnOutcome === 'aborted')).toBe(false);
  });
});
