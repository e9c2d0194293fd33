/**
 * A static member fenced by its own JoinGroup (a fuzzer's finding, group-faults seed 1293743446, where
 * the family's expectation — every consumer lives — was wrong and Kafka's rule is what the model did).
 * The first JoinGroup is delayed in the network past the client's request timeout for a join
 * (max.poll.interval.ms + 5 s: AbstractCoordinator's joinGroupTimeoutMs), so the client closes the
 * connection and joins again; the old request still reaches the coordinator, after the new one. It
 * carries no member id and the same group.instance.id: `classicGroupJoinNewStaticMember` finds the
 * instance id mapped to the live member and `replaceStaticMember` gives its place to a new member id,
 * answering the live member's waiting JoinGroup FENCED_INSTANCE_ID — fatal for the client
 * (JoinGroupResponseHandler raises FencedInstanceIdException), while the answer to the old request is
 * lost with its connection. The application stops; the member left behind expires at its session
 * timeout. A dynamic member in the same run only gains a member id nobody uses (MEMBER_ID_REQUIRED's
 * pending member expires), and goes on.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';
import { fencedByOwnStaleJoin } from '../properties/groupFaults';

function scenario(staticMember: boolean, delayMs = 15101): Scenario {
  return {
    version: 1,
    seed: 1,
    topics: [{ name: 'in', partitions: 1 }],
    clients: [
      {
        id: 'source',
        type: 'producer',
        script: [{ op: 'send', topic: 'in', key: 'k0', value: 'v0', headers: { event_id: 'e0' }, at: 3500 }],
      },
      {
        id: 'c0',
        type: 'consumer',
        config: {
          'group.id': 'g',
          'auto.offset.reset': 'earliest',
          'enable.auto.commit': false,
          'session.timeout.ms': 6000,
          'heartbeat.interval.ms': 1000,
          'max.poll.interval.ms': 10000,
          'request.timeout.ms': 5000,
          ...(staticMember ? { 'group.instance.id': 'c0' } : {}),
        },
        topics: ['in'],
        processing: { mode: 'at-least-once', processingMs: 0 },
      },
    ],
    // past the join's request timeout: 10000 + 5000 ms
    faults: [{ type: 'delay', rpc: 'JoinGroup', nth: 1, delayMs }],
    run: { maxTimeMs: 180000, maxSteps: 30000 },
  } as Scenario;
}

const factsOf = (trace: ReturnType<typeof runScenario>, kind: string) =>
  trace.steps.flatMap((s) => (s.facts as unknown as { kind: string }[]).filter((f) => f.kind === kind).map((f) => ({ step: s.i, f })));

describe('a static member fenced by its own JoinGroup, delayed past its request timeout', () => {
  it('the old request replaces the live member, whose JoinGroup is answered FENCED_INSTANCE_ID: the application stops, the group ends Empty', () => {
    const trace = runScenario(scenario(true));
    const timedOut = factsOf(trace, 'clientError').find(
      (x) =>
        (x.f as { error?: string; during?: string }).error === 'REQUEST_TIMED_OUT' && (x.f as { during?: string }).during === 'JoinGroup',
    );
    const replaced = factsOf(trace, 'staticMemberReplaced');
    expect(timedOut).toBeDefined();
    expect(replaced).toHaveLength(1);
    // the replacing JoinGroup is the one the client had given up on: sent before its timeout
    const step = trace.steps.at(replaced[0]?.step as number);
    const env = trace.envelopes.at(step?.envelope as number);
    expect(env?.rpc).toBe('JoinGroup');
    expect(env?.sentStep).toBeLessThan(timedOut?.step as number);
    expect(replaced[0]?.f).toMatchObject({ groupInstanceId: 'c0', oldMemberId: 'c0-0', newMemberId: 'c0-1' });
    const fencedAnswer = factsOf(trace, 'clientError').find((x) => (x.f as { error?: string }).error === 'FENCED_INSTANCE_ID');
    expect(fencedAnswer?.f).toMatchObject({ client: 'c0', during: 'JoinGroup', fatal: true });
    const end = stateAt(trace, trace.steps.length);
    expect(String(end.actors.get('c0.app')?.value)).toBe('stopped');
    const summary = summarize(trace);
    expect(summary.groups.find((g) => g.groupId === 'g')?.state).toBe('Empty');
    expect(fencedByOwnStaleJoin(trace)).toEqual({ clients: new Set(['c0']), orphans: new Set(['c0-1']) });
    // the narration says whose JoinGroup it was, not "another instance"
    const at = replaced[0]?.step as number;
    expect(narrate(trace, at, 'en')).toContain(
      "This JoinGroup is c0's own, sent at 0 ms and given up at 15000 ms (its request timeout): delayed in the network, it arrived after c0 had joined again, and the coordinator cannot tell it from a restarted instance — so the member fenced, c0-0, is c0's live one.",
    );
    expect(narrate(trace, at, 'ko')).toContain('이 JoinGroup은 c0 자신이 0 ms에 보내고 15000 ms에 포기한 요청입니다(요청 타임아웃).');
  });

  it('arriving when the group is Stable (the fuzzer’s second case, seed 1295637299), it fences the live member at its next Heartbeat; the member it left behind holds the group until its session expires', () => {
    const trace = runScenario(scenario(true, 31103));
    const replaced = factsOf(trace, 'staticMemberReplaced');
    expect(replaced.map((x) => (x.f as { state?: string }).state)).toEqual(['Stable']);
    const fencedAnswer = factsOf(trace, 'clientError').find((x) => (x.f as { error?: string }).error === 'FENCED_INSTANCE_ID');
    expect(fencedAnswer?.f).toMatchObject({ client: 'c0', during: 'Heartbeat', fatal: true });
    expect(String(stateAt(trace, trace.steps.length).actors.get('c0.app')?.value)).toBe('stopped');
    // e0 was read before the old request arrived; nobody reads after
    expect(summarize(trace).verdict.events.find((e) => e.eventId === 'e0')?.processed).toEqual({ c0: 1 });
    const { clients, orphans } = fencedByOwnStaleJoin(trace);
    expect([...clients]).toEqual(['c0']);
    for (const m of summarize(trace).groups.find((g) => g.groupId === 'g')?.members ?? []) expect(orphans.has(m)).toBe(true);
  });

  it('a dynamic member in the same run is not fenced: it reads e0', () => {
    const trace = runScenario(scenario(false));
    expect(factsOf(trace, 'staticMemberReplaced')).toHaveLength(0);
    expect(factsOf(trace, 'clientError').some((x) => (x.f as { error?: string }).error === 'FENCED_INSTANCE_ID')).toBe(false);
    const summary = summarize(trace);
    expect(summary.verdict.events.find((e) => e.eventId === 'e0')?.processed).toEqual({ c0: 1 });
    expect(summary.groups.find((g) => g.groupId === 'g')?.state).toBe('Stable');
    expect(fencedByOwnStaleJoin(trace).clients.size).toBe(0);
  });
});
