/**
 * auto.offset.reset=none through a whole run: a consumer application whose group has no committed
 * offset gets NoOffsetForPartitionException from poll() (SubscriptionState.resetInitializingPositions)
 * and stops — it does not silently start at the end of the log as `latest` would.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import { summarize } from '../src/sim/trace/summary';

const scenario = (reset: string) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [
    { id: 'p', type: 'producer', script: [{ op: 'send', topic: 't', key: 'k', value: 'v', headers: { event_id: 'e1' } }] },
    { id: 'c', type: 'consumer', config: { 'group.id': 'g', 'auto.offset.reset': reset }, topics: ['t'], startAt: 100 },
  ],
});

type Snapshot = { value: unknown; context: { stopped?: string } };
const appOf = (trace: ReturnType<typeof runScenario>) =>
  trace.checkpoints.at(-1)?.actors.find(([id]) => id === 'c.app')?.[1] as Snapshot | undefined;

describe('auto.offset.reset=none', () => {
  it('no committed offset: poll() throws NoOffsetForPartitionException, the application stops, no ListOffsets is sent', () => {
    const trace = runScenario(scenario('none'));
    expect(appOf(trace)?.value).toBe('stopped');
    expect(appOf(trace)?.context.stopped).toContain('NoOffsetForPartitionException');
    expect([...trace.envelopes].some((e) => e?.rpc === 'ListOffsets')).toBe(false);
    const lost = summarize(trace).verdict.events.find((e) => e.eventId === 'e1');
    expect(Object.values(lost?.processed ?? {}).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('earliest reads the record; latest starts at the end and reads nothing (the record was written before)', () => {
    const processed = (reset: string) =>
      Object.values(summarize(runScenario(scenario(reset))).verdict.events.find((e) => e.eventId === 'e1')?.processed ?? {}).reduce(
        (a, b) => a + b,
        0,
      );
    expect(processed('earliest')).toBe(1);
    expect(processed('latest')).toBe(0);
  });
});
