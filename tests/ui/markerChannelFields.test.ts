/**
 * The actors panel shows the transaction coordinator's marker channel per broker: the one
 * WriteTxnMarkers in flight and the requests generated behind it (TransactionMarkerChannelManager,
 * one request in flight per connection) — so a person sees a second transaction's markers wait.
 */
import { describe, expect, it } from 'vitest';
import { stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { actorFields } from '../../src/ui/actors/fields';
import { runWith } from '../presets/helpers';

const producer = (id: string) => ({
  id,
  type: 'producer',
  startAt: 100,
  config: { 'transactional.id': `${id}-1` },
  script: [
    { op: 'beginTransaction' },
    { op: 'send', topic: 'payments', key: id, value: `from ${id}`, headers: { event_id: `evt-${id}` } },
    { op: 'sleep', ms: 500 },
    { op: 'commitTransaction' },
  ],
});

describe('the marker channel in the actors panel', () => {
  const scenario = {
    version: 1,
    id: 'marker-channel-fields',
    seed: 1,
    cluster: { brokers: 1 },
    topics: [{ name: 'payments', partitions: 1 }],
    clients: [producer('alpha'), producer('beta')],
  } as unknown as Scenario;
  const { trace } = runWith(scenario);
  const steps = [...trace.steps];
  const requests = trace.envelopes.filter((e) => e.rpc === 'WriteTxnMarkers');
  const [first, second] = requests;
  const channelAt = (step: number, lang: 'en' | 'ko') =>
    actorFields('txn-coordinator', stateAt(trace, step).actors.get('txn-coordinator')?.context, lang).filter((f) =>
      f.label.startsWith('WriteTxnMarkers'),
    );
  // the step that wrote beta’s PrepareCommit, while alpha’s request was in flight
  const betaPrepared = steps.findIndex((s) =>
    (s.facts as { kind: string; to?: string; transactionalId?: string }[]).some(
      (f) => f.kind === 'txnState' && f.to === 'PrepareCommit' && f.transactionalId === 'beta-1',
    ),
  );

  it('names the request in flight and the one waiting behind it, in English and Korean', () => {
    expect(first && second && betaPrepared > first.sentStep).toBe(true);
    const inFlight = `#${(first?.payload as { correlationId: number }).correlationId} (alpha-1 COMMIT: payments-0)`;
    const waiting = `#${(second?.payload as { correlationId: number }).correlationId} (beta-1 COMMIT: payments-0)`;
    expect(channelAt(betaPrepared + 1, 'en')).toEqual([
      { label: 'WriteTxnMarkers → broker-0', value: `in flight ${inFlight} · waiting ${waiting}` },
    ]);
    expect(channelAt(betaPrepared + 1, 'ko')).toEqual([
      { label: 'WriteTxnMarkers → broker-0', value: `전송 중 ${inFlight} · 대기 ${waiting}` },
    ]);
  });

  it('shows nothing once every answer came back', () => {
    expect(channelAt(0, 'en')).toEqual([]);
    expect(channelAt(steps.length, 'en')).toEqual([]);
  });
});
