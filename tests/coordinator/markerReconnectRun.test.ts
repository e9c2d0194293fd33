/**
 * The marker channel's reconnect backoff in whole runs (markerChannel.ts MARKER_CHANNEL_RECONNECT):
 * orders-0 led by broker-1, which crashes at 230 ms with the COMMIT marker on its way. Each attempt
 * refused by the dead broker (and, replicated, by its restarted incarnation that does not listen
 * until the controller unfences it: broker/listeners.ts) puts the markers back until the channel's
 * NetworkClient may connect again, 50 ms later (TransactionMarkerChannelManager.apply: reconnect
 * backoff 50, maximum 50).
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { markerPendingAtCrash } from '../fixtures/markerPendingAtCrash';

function stepsOf(trace: ReturnType<typeof runScenario>) {
  return [...Array(trace.steps.length).keys()].map((i) => trace.steps.at(i) as NonNullable<ReturnType<typeof trace.steps.at>>);
}

const completedAt = (steps: ReturnType<typeof stepsOf>) =>
  steps.flatMap((s) => (s.facts as Fact[]).filter((f) => f.kind === 'txnState' && f.to === 'CompleteCommit').map(() => s.t));

describe('markers to a leader that is down or restarting', () => {
  it('one-replica orders: an attempt per 50 ms backoff while broker-1 is down; the marker lands at the first backoff end after its restart', () => {
    const steps = stepsOf(runScenario(markerPendingAtCrash(1, 1000)));
    const backoffEnds = steps.filter((s) => s.actor === 'txn-coordinator' && s.kind === 'timer' && s.label === 'reconnectBackoffExpired');
    const refusals = steps.filter((s) => s.actor === 'txn-coordinator' && s.kind === 'disconnected');
    expect(refusals.length).toBeGreaterThan(15);
    // each backoff ends 50 ms after the refusal that raised it
    for (const end of backoffEnds) expect(refusals.some((r) => r.t === end.t - 50)).toBe(true);
    // the attempts reach broker-1 one trip after each backoff end, never sooner
    const attempts = steps.filter((s) => s.actor === 'broker-1' && s.label === 'WriteTxnMarkers' && s.t > 260);
    const gaps = attempts.slice(1).map((s, i) => s.t - (attempts[i]?.t ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(50);
    const restart = steps.find((s) => s.actor === 'broker-1' && s.kind === 'fault' && s.label === 'restart');
    expect(restart?.t).toBe(1230);
    const delivered = steps.filter((s) => s.actor === 'broker-1' && s.kind === 'deliver' && s.label === 'WriteTxnMarkers');
    expect(delivered).toHaveLength(1);
    const lastEndBefore = Math.max(...backoffEnds.filter((s) => s.t < 1230).map((s) => s.t));
    const firstEndAfter = Math.min(...backoffEnds.filter((s) => s.t > 1230).map((s) => s.t));
    expect(firstEndAfter - lastEndBefore).toBeLessThanOrEqual(52);
    expect(delivered[0]?.t).toBe(firstEndAfter + 1);
    expect(completedAt(steps)).toEqual([expect.any(Number)]);
    expect(completedAt(steps)[0]).toBeLessThan(1300);
  });

  it('replicated orders: the restarted broker-1 refuses the markers until it is unfenced — a refused connection, 50 ms apart — and they land on the new leader', () => {
    const trace = runScenario(markerPendingAtCrash(3, 300));
    const steps = stepsOf(trace);
    const toBroker1 = steps.filter((s) => s.actor === 'broker-1' && s.label === 'WriteTxnMarkers' && s.t > 530);
    const notListening = toBroker1.filter((s) => s.kind === 'lost' && s.faults[0]?.includes('broker-1 is not accepting connections'));
    expect(notListening.length).toBe(toBroker1.length);
    expect(notListening.length).toBeGreaterThan(150);
    const gaps = notListening.slice(1).map((s, i) => s.t - (notListening[i]?.t ?? 0));
    expect(new Set(gaps)).toEqual(new Set([52]));
    const refusals = steps.filter((s) => s.actor === 'txn-coordinator' && s.kind === 'disconnected' && s.t > 530);
    expect(refusals.every((s) => (s.detail as { reason: string }).reason === 'refused')).toBe(true);
    const told = refusals.at(-1)?.i ?? -1;
    expect(narrate(trace, told, 'en')).toContain(
      'could not connect to broker-1, which restarted and does not accept connections until the controller unfences it (connection refused)',
    );
    expect(narrate(trace, told, 'en')).toContain('50 ms every time, the value TransactionMarkerChannelManager gives its NetworkClient');
    expect(narrate(trace, told, 'ko')).toContain('마커 채널은 재연결 backoff가 지나기 전에는 broker-1에 다시 연결하지 않습니다');
    const landed = steps.filter((s) => s.kind === 'deliver' && s.label === 'WriteTxnMarkers');
    expect(landed.map((s) => s.actor)).toEqual(['broker-2']);
    expect(completedAt(steps)).toHaveLength(1);
    expect(completedAt(steps)[0]).toBeGreaterThan(9000);
  });
});
