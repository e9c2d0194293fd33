/**
 * A request timeout is the client's own finding: NetworkClient.poll → handleTimedOutRequests closes
 * the connection and fails every request in flight on it in one go. So the client never sends again
 * believing the closed connection is up — the model's kernel used to close the connection at the
 * deadline and queue the disconnects behind whatever else the client had at that instant, and a
 * producer whose linger expired then sent on a new connection, with no reconnect backoff, ahead of
 * the retries of the batches in front of it. The fuzzer's case (group-faults, seed 1283797414).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';

const scenario = JSON.parse(
  readFileSync(join(import.meta.dirname, '../properties/regressions/timeout-disconnects-before-same-instant-send.json'), 'utf8'),
);

describe("a request timeout's disconnects come first at their instant", () => {
  const trace = runScenario(scenario);
  const steps = [...trace.steps];

  it('the producer learns of the timed-out connection before its linger timer of the same instant', () => {
    const disconnect = steps.find((s) => s.actor === 'c0.producer' && s.kind === 'disconnected');
    if (!disconnect) throw new Error('no disconnect');
    expect(disconnect.t).toBe(11016);
    const linger = steps.find((s) => s.actor === 'c0.producer' && s.label === 'lingerExpired' && s.t === 11016);
    if (!linger) throw new Error('no linger timer at the deadline');
    expect(disconnect.i).toBeLessThan(linger.i);
  });

  it('nothing is sent on the new connection before the reconnect backoff, and the retries go in sequence order', () => {
    const produces = trace.envelopes.filter((e) => e.rpc === 'Produce' && e.from === 'c0.producer' && e.generation === 1);
    expect(produces.length).toBeGreaterThan(0);
    // reconnect.backoff.ms (50 ms) after the disconnect at 11,016 ms
    expect(Math.min(...produces.map((e) => e.sentAt))).toBeGreaterThanOrEqual(11066);
    const appended = steps.flatMap((s) =>
      (s.facts as Fact[]).filter((f) => f.kind === 'append' && f.topic === 'out' && f.control === null),
    );
    const sequences = appended.map((f) => (f.kind === 'append' ? f.baseSequence : -1));
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(sequences[0]).toBe(0);
  });

  it('the output is exactly once and nothing is refused OUT_OF_ORDER_SEQUENCE_NUMBER', () => {
    const refused = steps.flatMap((s) => (s.facts as Fact[]).filter((f) => f.kind === 'rejected'));
    expect(refused.map((f) => (f.kind === 'rejected' ? f.error : ''))).not.toContain('OUT_OF_ORDER_SEQUENCE_NUMBER');
    const v = summarize(trace).verdict;
    expect(v.layers.find((l) => l.layer === 'output' || (l.layer === 'log' && l.subject === 'out'))?.status).toBe('once');
    expect(v.layers.find((l) => l.layer === 'loss')?.status).toBe('once');
  });
});
