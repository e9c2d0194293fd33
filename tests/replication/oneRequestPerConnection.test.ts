/**
 * Kafka's broker reads one request of a connection at a time (SocketServer mutes the channel until
 * the response is sent; kernel/serverReads.ts). Seen through replication: with acks=all, a
 * producer's second Produce, sent while its first waits in the purgatory for a slow follower, is
 * not appended until the first has been answered — the leader's log takes it after that answer, not
 * when it arrives.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { EnvelopeRecord, TraceStep } from '../../src/sim/views';
import { firstStep, withFact } from './replicaView';

/** hw-behind-leo-slow-follower with a third record sent while the second waits for broker-2. */
function scenario() {
  const base = PRESETS.find((p) => p.id === 'hw-behind-leo-slow-follower')?.scenario as Record<string, unknown>;
  const clients = structuredClone(base.clients) as { id: string; script?: Record<string, unknown>[] }[];
  const producer = clients.find((c) => c.id === 'orders-service');
  producer?.script?.splice(2, 0, { op: 'send', at: 5500, topic: 'orders', key: 'order-2b', value: 'b2', headers: { event_id: 'e2b' } });
  return { ...base, id: 'one-request-per-connection', clients };
}

describe('the leader reads one Produce of a connection at a time', () => {
  const trace = runScenario(scenario());
  const envelopes = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  const produces = envelopes.filter((e) => e.rpc === 'Produce' && e.from === 'orders-service.producer' && e.to === 'broker-0');
  const answerTo = (request: EnvelopeRecord) => envelopes.find((e) => e.inReplyTo === request.id) as EnvelopeRecord;
  const appendAt = (offset: number) =>
    trace.steps.at(
      firstStep(
        trace,
        withFact('append', (f) => f.baseOffset === offset),
      ),
    ) as TraceStep;

  it('b2 is sent while b waits for the slow follower, and reaches broker-0 then', () => {
    const [, b, b2] = produces as [EnvelopeRecord, EnvelopeRecord, EnvelopeRecord];
    expect(b2.sentAt).toBeGreaterThan(b.sentAt);
    expect(b2.sentAt).toBeLessThan(answerTo(b).sentAt);
    expect(b2.deliverAt).toBeLessThan(answerTo(b).sentAt);
  });

  it("broker-0 appends b2 only after it has answered b's Produce", () => {
    const [, b, b2] = produces as [EnvelopeRecord, EnvelopeRecord, EnvelopeRecord];
    const answer = answerTo(b);
    expect(appendAt(1).t).toBe(b.deliverAt);
    expect(appendAt(2).t).toBeGreaterThanOrEqual(answer.sentAt);
    expect(b2.deliveredStep).toBeGreaterThan(answer.sentStep);
    // and the answers come back in the order the requests went
    expect(answerTo(b2).sentStep).toBeGreaterThan(answer.sentStep);
  });
});
