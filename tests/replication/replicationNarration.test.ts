/**
 * Narration of replication between brokers (`hw-behind-leo-slow-follower`, `min-insync-blocks-writes`):
 * a follower's Fetch and its answer are replication (what it copied, the leader's HW it learnt, its
 * log end offset), never a consumer's fetch with an isolation level, an LSO or an open transaction.
 */
import { describe, expect, it } from 'vitest';
import type { TraceStep } from '../../src/sim/kernel/simulation';
import { narrate } from '../../src/sim/narration';
import { findPreset } from '../../src/sim/presets';
import { runScenario, type Trace } from '../../src/sim/run';

const traces = new Map<string, Trace>();
function trace(id: string): Trace {
  let t = traces.get(id);
  if (!t) {
    const p = findPreset(id);
    if (!p) throw new Error(`no preset ${id}`);
    t = runScenario(p.scenario);
    traces.set(id, t);
  }
  return t;
}

type Payload = Record<string, unknown>;
const payloadOf = (t: Trace, s: TraceStep): Payload =>
  s.envelope === null ? {} : ((t.envelopes.at(s.envelope)?.payload as Payload) ?? {});

/** The steps delivering `rpc` to `to` from `from` whose payload matches. */
function deliveries(t: Trace, rpc: string, to: string, from: string, pred: (p: Payload) => boolean = () => true): TraceStep[] {
  return t.steps.filter((s) => s.kind === 'deliver' && s.label === rpc && s.actor === to && s.from === from && pred(payloadOf(t, s)));
}

function only<T>(xs: readonly T[]): T {
  expect(xs.length).toBe(1);
  return xs[0] as T;
}

const PRESETS = ['hw-behind-leo-slow-follower', 'min-insync-blocks-writes'] as const;

describe("a follower's FetchResponse is narrated as replication", () => {
  it('hw-behind-leo-slow-follower: broker-1 copies offset 1 and learns HW 1 (step 142)', () => {
    const t = trace('hw-behind-leo-slow-follower');
    const s = only(
      deliveries(t, 'FetchResponse', 'broker-1', 'broker-0', (p) => Array.isArray(p.batches) && num(p.batches, 'baseOffset') === 1),
    );
    expect(s.i).toBe(141);
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-1 copied 1 record of orders-0 from the leader broker-0 (offset 1): its log end offset is now 2; it learns the leader's high watermark, 1, and takes it as its own; it fetches again from offset 2.",
    );
    expect(narrate(t, s.i, 'ko')).toBe(
      'broker-1이 리더 broker-0에게서 orders-0의 레코드 1개(offset 1)를 복제했습니다. 이제 LEO(로그 끝 offset)는 2입니다. 리더의 HW(하이 워터마크) 1을 받아 자기 HW로 삼습니다. offset 2부터 다시 Fetch합니다.',
    );
  });

  it('min-insync-blocks-writes: broker-1 copies offset 1 (step 149)', () => {
    const t = trace('min-insync-blocks-writes');
    const s = only(
      deliveries(t, 'FetchResponse', 'broker-1', 'broker-0', (p) => Array.isArray(p.batches) && num(p.batches, 'baseOffset') === 1),
    );
    expect(s.i).toBe(148);
    expect(narrate(t, s.i, 'en')).toBe(
      "broker-1 copied 1 record of orders-0 from the leader broker-0 (offset 1): its log end offset is now 2; it learns the leader's high watermark, 1, and takes it as its own; it fetches again from offset 2.",
    );
  });

  for (const id of PRESETS)
    it(`${id}: no replica FetchResponse speaks of an LSO, read_committed or an open transaction`, () => {
      const t = trace(id);
      const steps = t.steps.filter((s) => s.kind === 'deliver' && s.label === 'FetchResponse' && s.actor.startsWith('broker-'));
      expect(steps.length).toBeGreaterThan(3);
      for (const s of steps) {
        expect(narrate(t, s.i, 'en'), `step ${s.i}`).not.toMatch(/LSO|read_committed|transaction/);
        expect(narrate(t, s.i, 'ko'), `step ${s.i}`).not.toMatch(/LSO|read_committed|트랜잭션/);
      }
    });
});

function num(batches: unknown, field: string): number {
  const first = (batches as Payload[])[0];
  return first ? Number(first[field]) : -1;
}
