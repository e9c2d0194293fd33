/**
 * records-lag and records-lead (consumer-fetch-manager-metrics, per partition): SubscriptionState keeps
 * the offsets each fetch answer reported (FetchCollector.initialize), partitionLag counts from the last
 * stable offset under read_committed and from the high watermark otherwise, partitionLead from the log
 * start offset; a partition given up loses them (its TopicPartitionState goes with it).
 */
import { describe, expect, it } from 'vitest';
import { onFetchResponse } from '../../src/sim/consumer/fetcher';
import { revokeAll, revokePartitions } from '../../src/sim/consumer/positions';
import { clientMetricsAt } from '../../src/sim/metrics/clientMetrics';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { context, response, run, tp0, tp1 } from '../consumer/fixture';

/** A Fetch answer for t-0 with no records and these offsets, to the Fetch with correlation id 7. */
const answer = (ends: { highWatermark: number; lastStableOffset: number; logStartOffset: number }) =>
  response('FetchResponse', {
    correlationId: 7,
    partitions: [{ ...tp0, error: 'NONE', ...ends, batches: [], abortedTransactions: [] }],
  });

describe('the offsets a fetch reported (SubscriptionState)', () => {
  it('a successful answer sets them; an answer with an error leaves them', () => {
    const ctx = context({}, 1, { assignment: [tp0], positions: { 't-0': 2 }, fetching: { 't-0': 7 } });
    const ends = { highWatermark: 9, lastStableOffset: 5, logStartOffset: 1 };
    const { d } = run(ctx, (d, out) => onFetchResponse(d, answer(ends) as never, out));
    expect(d.fetchedEnds).toEqual({ 't-0': ends });
    const failed = response('FetchResponse', {
      correlationId: 8,
      partitions: [
        {
          ...tp0,
          error: 'NOT_LEADER_OR_FOLLOWER',
          highWatermark: -1,
          lastStableOffset: -1,
          logStartOffset: -1,
          batches: [],
          abortedTransactions: [],
        },
      ],
    });
    const after = run({ ...d, fetching: { 't-0': 8 } }, (d2, out) => onFetchResponse(d2, failed as never, out)).d;
    expect(after.fetchedEnds).toEqual({ 't-0': ends });
  });

  it('an idle answer that reports the same offsets writes nothing (the same object stays)', () => {
    const ends = { highWatermark: 4, lastStableOffset: 4, logStartOffset: 0 };
    const ctx = context({}, 1, { assignment: [tp0], positions: { 't-0': 4 }, fetching: { 't-0': 7 }, fetchedEnds: { 't-0': ends } });
    const { d } = run(ctx, (d, out) => onFetchResponse(d, answer({ ...ends }) as never, out));
    expect(d.fetchedEnds).toBe(ctx.fetchedEnds);
  });

  it('revoked partitions forget them, kept ones keep them; an eager revocation forgets all', () => {
    const ends = { highWatermark: 3, lastStableOffset: 3, logStartOffset: 0 };
    const ctx = context({}, 2, { assignment: [tp0, tp1], positions: { 't-0': 3, 't-1': 3 }, fetchedEnds: { 't-0': ends, 't-1': ends } });
    expect(run(ctx, (d) => revokePartitions(d, [tp1])).d.fetchedEnds).toEqual({ 't-0': ends });
    expect(run(ctx, (d) => revokeAll(d)).d.fetchedEnds).toEqual({});
  });
});

const pinned = runScenario(findPreset('open-transaction-pins-lso')?.scenario ?? {});

describe('records-lag and records-lead in the metrics view', () => {
  it('read_committed counts from the LSO, read_uncommitted from the high watermark (SubscriptionState.partitionLag)', () => {
    // one context, two isolation levels: position 2, HW 9, LSO 5, log start 1
    const ends = { highWatermark: 9, lastStableOffset: 5, logStartOffset: 1 };
    for (const [isolation, lag] of [
      ['read_committed', 3],
      ['read_uncommitted', 7],
    ] as const) {
      const trace = pinned;
      const last = stateAt(trace, trace.steps.length);
      const actor = last.actors.get('committed-reader.consumer');
      if (!actor) throw new Error('no committed-reader.consumer');
      const ctx = actor.context as Record<string, unknown> & { config: Record<string, unknown> };
      const actors = new Map(last.actors);
      actors.set('committed-reader.consumer', {
        value: actor.value,
        context: {
          ...ctx,
          config: { ...ctx.config, 'isolation.level': isolation },
          positions: { 'events-0': 2 },
          fetchedEnds: { 'events-0': ends },
        },
      });
      const m = clientMetricsAt(trace, { ...last, actors }, 'committed-reader');
      const of = (name: string) => m?.metrics.filter((x) => x.name === name).map((x) => [x.partition, x.value]);
      expect(of('records-lag')).toEqual([['events-0', lag]]);
      expect(of('records-lead')).toEqual([['events-0', 1]]);
    }
  });

  it('open-transaction-pins-lso: while the transaction is open the read_committed reader shows no lag; its wait shows nowhere in its metrics', () => {
    const trace = pinned;
    // the first step at which both readers have a lag (both fetched once), the transaction still open
    let step = 0;
    const lags = (s: number) => {
      const v = stateAt(trace, s);
      const lag = (c: string) => clientMetricsAt(trace, v, c)?.metrics.find((x) => x.name === 'records-lag')?.value;
      const consumed = (c: string) => clientMetricsAt(trace, v, c)?.metrics.find((x) => x.name === 'records-consumed-total')?.value;
      return {
        committed: lag('committed-reader'),
        uncommitted: lag('uncommitted-reader'),
        consumedCommitted: consumed('committed-reader'),
        consumedUncommitted: consumed('uncommitted-reader'),
        time: v.time,
      };
    };
    while (step < trace.steps.length) {
      const l = lags(step);
      if (l.committed !== undefined && l.uncommitted !== undefined && l.consumedUncommitted === 3) break;
      step++;
    }
    const during = lags(step);
    expect(during.time).toBeLessThan(8000);
    expect(during).toMatchObject({ committed: 0, uncommitted: 0, consumedCommitted: 0, consumedUncommitted: 3 });
    // after the commit both readers have everything, and still no lag
    expect(lags(trace.steps.length)).toMatchObject({ committed: 0, uncommitted: 0, consumedCommitted: 3 });
  });

  it('ctp-exactly-once-crash: a read_uncommitted reader behind the high watermark shows it (HW reported − position)', () => {
    const trace = runScenario(findPreset('ctp-exactly-once-crash')?.scenario ?? {});
    let seen = 0;
    for (let s = 0; s <= trace.steps.length; s += 3) {
      const v = stateAt(trace, s);
      const c = v.actors.get('raw-reader.consumer')?.context as
        | {
            positions: Record<string, number>;
            fetchedEnds: Record<string, { highWatermark: number }>;
            assignment: { topic: string; partition: number }[];
          }
        | undefined;
      const m = clientMetricsAt(trace, v, 'raw-reader');
      for (const x of m?.metrics.filter((y) => y.name === 'records-lag') ?? []) {
        const name = x.partition ?? '';
        expect(x.value).toBe((c?.fetchedEnds[name]?.highWatermark ?? Number.NaN) - (c?.positions[name] ?? Number.NaN));
        if (x.value > 0) seen++;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});
