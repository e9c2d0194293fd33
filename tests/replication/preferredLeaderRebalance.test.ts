/**
 * auto.leader.rebalance.enable in whole runs (the controller's maybeBalancePartitionLeaders): after a
 * rolling restart a leadership that ended on another broker moves back to its preferred replica at the
 * controller's check, leader.imbalance.check.interval.seconds (300 s) after the first leader left its
 * preferred replica — and not with the check off; an idempotent producer's batches caught by the move
 * are retried on the preferred replica and land once; a run that ends before the check is not kept
 * going by it and is the same run as without it.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations } from '../../src/sim/checks/invariants';
import type { ControllerContext } from '../../src/sim/controller/controller.machine';
import { narrate } from '../../src/sim/narration';
import { stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';
import { firstStep, withFact } from './replicaView';

const sends = (prefix: string, from: number, n: number, every: number) =>
  Array.from({ length: n }, (_, i) => ({
    op: 'send',
    at: from + i * every,
    topic: 'orders',
    key: `${prefix}-${i}`,
    value: `v${i}`,
    headers: { event_id: `${prefix}-${i}` },
  }));

/** orders: 3 partitions of 3 replicas, orders-p preferring broker-p; an idempotent acks=all producer. */
const rolling = (cluster: Record<string, unknown>, script: unknown[], faults: unknown[]) =>
  ({
    version: 1,
    id: 'rebalance',
    seed: 1,
    cluster: { brokers: 3, 'min.insync.replicas': 2, ...cluster },
    topics: [{ name: 'orders', partitions: 3, replicationFactor: 3 }],
    clients: [{ id: 'orders-service', type: 'producer', config: { acks: 'all', 'enable.idempotence': true }, script }],
    faults,
  }) as unknown as Scenario;

// broker-0, broker-1 and broker-2 restarted one after the other, each with a controlled shutdown
const restarts = [0, 1, 2].map((b) => ({ type: 'controlledShutdown', target: `broker-${b}`, at: 2000 + b * 4000, durationMs: 1500 }));
// records during the restarts, and a last one at 320 s that keeps the run going past the check
const script = [...sends('early', 0, 12, 900), ...sends('late', 320_000, 1, 1)];

/** Each partition's leader at the end of the run, as the controller has it. */
function leadersAtEnd(r: ReturnType<typeof runWith>): Record<string, string | null> {
  const controller = stateAt(r.trace, r.trace.steps.length).actors.get('controller')?.context as ControllerContext;
  return Object.fromEntries(Object.entries(controller.partitions).map(([k, p]) => [k, p.leader]));
}

describe('a rolling restart run past leader.imbalance.check.interval.seconds', () => {
  const r = runWith(rolling({}, script, restarts));

  it('ends with every leadership on its preferred replica: orders-2, left on broker-0 by broker-2’s shutdown, moves back at the check', () => {
    expect(leadersAtEnd(r)).toEqual({ 'orders-0': 'broker-0', 'orders-1': 'broker-1', 'orders-2': 'broker-2' });
    const back = firstStep(
      r.trace,
      withFact('leaderChange', (f) => f.election === 'preferred'),
    );
    expect(r.trace.steps.at(back)).toMatchObject({ actor: 'controller', kind: 'timer', label: 'maybeBalancePartitionLeaders' });
    expect(r.trace.steps.at(back)?.facts).toEqual([
      expect.objectContaining({ kind: 'leaderChange', topic: 'orders', partition: 2, leader: 'broker-2', election: 'preferred' }),
    ]);
    // queued when broker-0's shutdown first took a leadership off its preferred replica, and run 300 s later
    const first = firstStep(r.trace, withFact('leaderChange'));
    expect((r.trace.steps.at(back)?.t ?? 0) - (r.trace.steps.at(first)?.t ?? 0)).toBe(300_000);
    expect(r.layer('log', 'orders')?.status).toBe('once');
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
  });

  it('with auto.leader.rebalance.enable=false orders-2 stays on broker-0, and the controller never checks', () => {
    const off = runWith(rolling({ 'auto.leader.rebalance.enable': false }, script, restarts));
    expect(leadersAtEnd(off)).toEqual({ 'orders-0': 'broker-0', 'orders-1': 'broker-1', 'orders-2': 'broker-0' });
    expect(off.trace.steps.some((s) => s.label === 'maybeBalancePartitionLeaders')).toBe(false);
  });

  it('leader.imbalance.check.interval.seconds=30: one check, 30 s after the first move, gives orders-2 back to broker-2 (in sync again by then)', () => {
    const every30 = runWith(rolling({ 'leader.imbalance.check.interval.seconds': 30 }, script, restarts));
    const checks = every30.trace.steps.filter((s) => s.label === 'maybeBalancePartitionLeaders');
    const first = every30.trace.steps.at(firstStep(every30.trace, withFact('leaderChange')))?.t ?? 0;
    expect(checks.map((s) => [s.t - first, s.facts.map((f) => (f as { partition?: number }).partition)])).toEqual([[30_000, [2]]]);
    expect(leadersAtEnd(every30)).toEqual({ 'orders-0': 'broker-0', 'orders-1': 'broker-1', 'orders-2': 'broker-2' });
  });
});

describe('an idempotent producer writing while the check moves the leadership back', () => {
  // broker-0's controlled shutdown moves orders-0 to broker-1; 300 s later the check gives it back to
  // broker-0, whose fetches are slow just then: broker-1 has appended b-0…b-4 and waits for broker-0
  const r = runWith({
    ...rolling(
      {},
      [...sends('a', 0, 2, 3000), ...sends('b', 302_990, 40, 1)],
      [
        { type: 'controlledShutdown', target: 'broker-0', at: 3002, durationMs: 5000 },
        { type: 'slowReplication', target: 'broker-0', at: 302_980, durationMs: 100, delayMs: 1000 },
      ],
    ),
    topics: [{ name: 'orders', replicationFactor: 3 }],
  } as unknown as Scenario);

  it('the batch the deposed leader had appended is answered NOT_LEADER_OR_FOLLOWER, written anew by broker-0 and cut from the old leader: every record once', () => {
    const back = firstStep(
      r.trace,
      withFact('leaderChange', (f) => f.election === 'preferred'),
    );
    expect(r.trace.steps.at(back)).toMatchObject({ t: 303_003, label: 'maybeBalancePartitionLeaders' });
    expect(r.errors('orders-service')).toContain('NOT_LEADER_OR_FOLLOWER');
    // broker-1 wrote b-0…b-4 in leader epoch 1; broker-0, leading in epoch 2, never had them
    expect(r.facts('truncated').map((f) => [f.broker, f.fromOffset, f.eventIds])).toContainEqual([
      'broker-1',
      2,
      ['b-0', 'b-1', 'b-2', 'b-3', 'b-4'],
    ]);
    const rewritten = firstStep(
      r.trace,
      withFact('append', (f) => f.baseOffset === 2 && f.leaderEpoch === 2),
    );
    expect(r.trace.steps.at(rewritten)).toMatchObject({ actor: 'broker-0', label: 'Produce' });
    expect(back).toBeLessThan(rewritten);
    const ids = r.data('orders-0').map((x) => x.headers.event_id);
    expect(ids).toEqual([...['a-0', 'a-1'], ...Array.from({ length: 40 }, (_, i) => `b-${i}`)]);
    expect(r.layer('log', 'orders')?.status).toBe('once');
    expect(r.layer('loss')?.status).toBe('once');
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
  });
});

describe('a run that ends before the check', () => {
  it('ends quiescent as it did, the queued check left unrun: the same traceHash as with auto.leader.rebalance.enable=false', () => {
    const early = sends('early', 0, 12, 900);
    const on = runWith(rolling({}, early, restarts));
    const off = runWith(rolling({ 'auto.leader.rebalance.enable': false }, early, restarts));
    expect(on.trace.stopReason).toBe('quiescent');
    expect(on.trace.endTime).toBeLessThan(300_000);
    expect(on.trace.traceHash).toBe(off.trace.traceHash);
    // orders-2 is left on broker-0: Kafka would move it back only at the check, after the run
    expect(leadersAtEnd(on)['orders-2']).toBe('broker-0');
    expect((stateAt(on.trace, on.trace.steps.length).actors.get('controller')?.context as ControllerContext).imbalanceSchedule).toBe(
      'scheduled',
    );
  });
});

describe('the check, told in English and in Korean', () => {
  // every 5 s: the first check finds broker-1 stopped (fenced) for orders-1, a later one moves orders-2 back
  const r = runWith(rolling({ 'leader.imbalance.check.interval.seconds': 5 }, script.slice(0, 12), restarts));
  const checks = Array.from({ length: r.trace.steps.length }, (_, i) => i).filter(
    (i) => r.trace.steps.at(i)?.label === 'maybeBalancePartitionLeaders',
  );
  const [idle, moving] = [checks[0] ?? -1, checks.find((i) => (r.trace.steps.at(i)?.facts.length ?? 0) > 0) ?? -1];
  const englishProse = /\b(the|is|and|its|back|leader of)\b/;

  it('a check that moves nothing says which partition keeps its leader and why, and that it checks again', () => {
    expect(narrate(r.trace, idle, 'en')).toBe(
      "The controller runs its leader-imbalance check (auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds (5 s) while some partition's leader is not its preferred replica, the first of its replicas): no preferred replica can lead yet — it must be in the ISR, unfenced and not shutting down; orders-1 (broker-1 is fenced) keeps its leader, and the controller checks again 5 s later.",
    );
    const ko = narrate(r.trace, idle, 'ko');
    expect(ko).toContain('orders-1(broker-1이 펜싱됨)의 리더는 그대로이고, 컨트롤러는 5 s 뒤에 다시 점검합니다.');
    expect(ko).not.toMatch(englishProse);
  });

  it('a check that moves a leadership says the move and the preferred election', () => {
    const en = narrate(r.trace, moving, 'en');
    expect(en).toContain('it moves orders-2 back to its preferred replica (the ISR stays;');
    expect(en).toContain('the controller makes broker-2 leader of orders-2 again by a preferred election');
    const ko = narrate(r.trace, moving, 'ko');
    expect(ko).toContain('orders-2를 선호 복제본으로 되돌립니다');
    expect(ko).toContain('선호 리더 선출로 broker-2를 다시 orders-2의 리더로 정했습니다');
    expect(ko).not.toMatch(englishProse);
  });
});
