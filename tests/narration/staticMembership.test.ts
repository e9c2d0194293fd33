/**
 * Static membership narrated in English and Korean: a static member replaced in a Stable group
 * (no rebalance, the old assignment, the committed offsets read again), and the fenced instance's
 * fatal error. Two consumers share group.instance.id billing-1: c3 starts while c1 is alive.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';

const member = (id: string, startAt?: number): Scenario['clients'][number] => ({
  id,
  type: 'consumer',
  config: { 'group.id': 'billing', 'group.instance.id': 'billing-1' },
  topics: ['orders'],
  processing: { mode: 'auto-commit' },
  ...(startAt !== undefined ? { startAt } : {}),
});
const scenario: Scenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 'orders', partitions: 1 }],
  clients: [member('c1'), member('c3', 8000)],
};

describe('static membership, narrated', () => {
  const t = runScenario(scenario);
  const stepOf = (match: (f: Fact) => boolean) => t.steps.find((s) => (s.facts as Fact[]).some(match))?.i ?? -1;

  it('the replacement without a rebalance, and its lesson', () => {
    const i = stepOf((f) => f.kind === 'staticMemberReplaced');
    expect(narrate(t, i, 'en')).toBe(
      'Group billing: a member with group.instance.id billing-1 joined without a member id, so billing-1-1 takes the place of billing-1-0 — its partitions and, if it led, the leadership; billing-1-0 is fenced from now on (FENCED_INSTANCE_ID). The group is Stable, so there is no rebalance: generation 1 stays and no other member notices. The joining instance gets the old assignment as it was — but it starts reading from the committed offsets, so whatever the old member processed and had not committed is read again.',
    );
    expect(narrate(t, i, 'ko')).toBe(
      '그룹 billing: group.instance.id가 billing-1인 멤버가 멤버 id 없이 참여했으므로 billing-1-1이 billing-1-0의 자리(파티션, 리더였다면 리더 자리까지)를 이어받습니다. 이제부터 billing-1-0은 펜싱됩니다(FENCED_INSTANCE_ID). 그룹이 Stable이므로 리밸런스가 없습니다. generation 1은 그대로이고 다른 멤버는 알아채지 못합니다. 참여한 인스턴스는 예전 할당을 그대로 받지만 커밋된 offset부터 읽기 시작하므로, 예전 멤버가 처리하고 커밋하지 못한 레코드는 다시 읽힙니다.',
    );
  });

  it('the fenced instance: a fatal error its poll() throws, and the application stops', () => {
    const i = stepOf((f) => f.kind === 'clientError' && f.error === 'FENCED_INSTANCE_ID');
    const en = narrate(t, i, 'en');
    expect(en).toContain(
      'c1 got FENCED_INSTANCE_ID during Heartbeat: a JoinGroup with the same group.instance.id and no member id took this member’s place — another instance’s, or a late request of its own — a fatal error: poll() throws it to the application.',
    );
    expect(en).not.toContain('producer');
    const ko = narrate(t, i, 'ko');
    expect(ko).toContain(
      'c1은 Heartbeat 중에 FENCED_INSTANCE_ID를 받았습니다. 멤버 id 없이 같은 group.instance.id로 온 JoinGroup이 이 멤버의 자리를 이어받았습니다(다른 인스턴스의 요청이거나, 늦게 도착한 자기 요청입니다). 치명적 오류이므로 poll()이 애플리케이션에 예외를 던집니다.',
    );
    const stop = stepOf((f) => f.kind === 'note' && f.actor === 'c1.app');
    expect(narrate(t, stop, 'en')).toBe('The c1 application: poll() threw FencedInstanceIdException: the application stops.');
    expect(narrate(t, stop, 'ko')).toBe('c1 애플리케이션: poll()이 FencedInstanceIdException을 던졌습니다. 애플리케이션이 멈춥니다.');
  });

  it('a dynamic consumer refused INVALID_SESSION_TIMEOUT: the fatal error is its poll()’s, not a producer’s', () => {
    const refused = runScenario({
      ...scenario,
      clients: [
        {
          id: 'c1',
          type: 'consumer',
          config: { 'group.id': 'billing', 'session.timeout.ms': 5000, 'heartbeat.interval.ms': 1000 },
          topics: ['orders'],
        },
      ],
    });
    const i =
      refused.steps.find((s) => (s.facts as Fact[]).some((f) => f.kind === 'clientError' && f.error === 'INVALID_SESSION_TIMEOUT'))?.i ??
      -1;
    expect(narrate(refused, i, 'en')).toContain('— a fatal error: poll() throws it to the application.');
    expect(narrate(refused, i, 'ko')).toContain('치명적 오류이므로 poll()이 애플리케이션에 예외를 던집니다.');
  });
});
