/**
 * The preset pair throughput-at-least-once / throughput-exactly-once: the same pipeline without and
 * with transactions, and the exactly-once one with smaller and larger transactions
 * (processing.commitIntervalMs, as Kafka Streams' commit.interval.ms). Transactions cost requests per
 * committed record and latency for a read_committed reader (it sees a result only once the COMMIT
 * marker is written); larger transactions spread the requests over more records and wait longer.
 */
import { describe, expect, it } from 'vitest';
import type { RunCost } from '../../src/sim/cost/cost';
import { costOfRun } from '../../src/sim/cost/costOfRun';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';

const costOf = (scenario: Scenario | undefined): RunCost => {
  const trace = runScenario(scenario);
  return costOfRun(trace, summarize(trace));
};
const preset = (id: string) => {
  const p = findPreset(id);
  if (!p) throw new Error(`no preset ${id}`);
  return p.scenario;
};
/** The exactly-once preset with the enricher's transaction kept open this long (undefined: one per poll). */
const withInterval = (ms: number | undefined): Scenario => {
  const s = structuredClone(preset('throughput-exactly-once')) as Scenario;
  const enricher = s.clients.find((c) => c.id === 'enricher');
  if (enricher?.type !== 'consumer' || !enricher.processing) throw new Error('no enricher');
  enricher.processing = { ...enricher.processing, commitIntervalMs: ms };
  if (ms === undefined) delete enricher.processing.commitIntervalMs;
  return s;
};
const auditor = (c: RunCost) => {
  const k = c.consumers.find((x) => x.consumer === 'auditor');
  if (!k) throw new Error('no auditor');
  return k;
};

describe('what exactly-once costs: throughput-at-least-once vs throughput-exactly-once', () => {
  const alos = costOf(preset('throughput-at-least-once'));
  const eos = costOf(preset('throughput-exactly-once'));

  it('both commit the same records (16: 8 orders, 8 results)', () => {
    expect(alos.committedRecords).toBe(16);
    expect(eos.committedRecords).toBe(16);
  });

  it('exactly-once sends transaction requests, at-least-once none', () => {
    expect(alos.transactionRequests).toBe(0);
    expect(eos.transactionRequestsPerCommittedRecord ?? 0).toBeGreaterThan(0);
    // 4 transactions: each producer's first send() waits 2 ms for its Metadata (waitOnMetadata)
    expect(eos.requests.EndTxn).toBe(4);
    expect(eos.writePathRequestsPerCommittedRecord ?? 0).toBeGreaterThan(alos.writePathRequestsPerCommittedRecord ?? 0);
  });

  it('the read_committed auditor sees a result later under exactly-once, and waits behind the LSO', () => {
    expect(auditor(eos).latency.p50 ?? 0).toBeGreaterThan(auditor(alos).latency.p50 ?? 0);
    expect(auditor(eos).latency.p99 ?? 0).toBeGreaterThan(auditor(alos).latency.p99 ?? 0);
    expect(auditor(alos).lsoWait?.max).toBe(0);
    expect(auditor(eos).lsoWait?.max ?? 0).toBeGreaterThan(0);
  });

  it('larger transactions: fewer transaction requests per committed record, more latency', () => {
    const [perPoll, small, large] = [undefined, 100, 300].map((ms) => costOf(withInterval(ms)));
    const req = (c: RunCost | undefined) => c?.transactionRequestsPerCommittedRecord ?? 0;
    const p99 = (c: RunCost | undefined) => (c ? (auditor(c).latency.p99 ?? 0) : 0);
    expect(req(perPoll)).toBeGreaterThan(req(small));
    expect(req(small)).toBeGreaterThan(req(large));
    expect(p99(perPoll)).toBeLessThan(p99(small));
    expect(p99(small)).toBeLessThan(p99(large));
    expect(req(small)).toBe(req(eos));
  });
});
