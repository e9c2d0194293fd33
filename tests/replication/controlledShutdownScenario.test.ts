/**
 * The controlledShutdown fault in the scenario format: only a broker of the scenario, a time, an
 * optional restart; its label in English and Korean; and every step of one told in both languages.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration';
import { runScenario } from '../../src/sim/run';
import { describeFault } from '../../src/sim/scenario/build';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import { firstStep, withFact } from './replicaView';

const scenario = (faults: unknown[]) =>
  ({
    version: 1,
    seed: 1,
    cluster: { brokers: 3 },
    topics: [{ name: 'orders', replicationFactor: 3 }],
    clients: [
      {
        id: 'p',
        type: 'producer',
        script: [
          { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
          { op: 'send', at: 2000, topic: 'orders', key: 'k', value: 'b', headers: { event_id: 'e2' } },
        ],
      },
    ],
    faults,
  }) as unknown as Scenario;

const errors = (s: unknown) => {
  const v = validateScenario(s);
  return v.ok ? [] : v.errors.map((e) => `${e.path}: ${e.message} | ${e.ko}`);
};

describe('the controlledShutdown fault', () => {
  it('targets a broker of the scenario, at a time', () => {
    expect(errors(scenario([{ type: 'controlledShutdown', target: 'broker-2', at: 100, durationMs: 500 }]))).toEqual([]);
    expect(errors(scenario([{ type: 'controlledShutdown', target: 'p', at: 100 }]))).toEqual([
      'faults[0].target: p is not a broker of this scenario: a controlled shutdown stops a broker | p는 이 시나리오의 브로커가 아닙니다. 제어된 종료는 브로커를 멈춥니다',
    ]);
    expect(errors(scenario([{ type: 'controlledShutdown', target: 'broker-3', at: 100 }]))[0]).toMatch(
      /^faults\[0\]\.target: broker-3 is not a broker/,
    );
    expect(errors(scenario([{ type: 'controlledShutdown', target: 'broker-0' }])).length).toBeGreaterThan(0);
    expect(errors(scenario([{ type: 'controlledShutdown', target: 'broker-0', at: 1, point: 'afterPoll' }])).length).toBeGreaterThan(0);
  });

  it('is labelled with its broker, time and restart', () => {
    expect(describeFault({ type: 'controlledShutdown', target: 'broker-1', at: 4000, durationMs: 5000 })).toBe(
      'controlled shutdown of broker-1 at 4000 ms, restart 5000 ms after it stopped',
    );
    expect(describeFault({ type: 'controlledShutdown', target: 'broker-1', at: 4000 })).toBe('controlled shutdown of broker-1 at 4000 ms');
  });

  it('each of its steps is told in English and in Korean', () => {
    const trace = runScenario(scenario([{ type: 'controlledShutdown', target: 'broker-0', at: 1000, durationMs: 3000 }]));
    const at = (pred: Parameters<typeof firstStep>[1]) => firstStep(trace, pred);
    const told = (i: number) => [narrate(trace, i, 'en'), narrate(trace, i, 'ko')];
    const signal = at((s) => s.label === 'controlledShutdown');
    const moved = at(withFact('leaderChange'));
    const answer = at((s) => s.actor === 'broker-0' && s.label === 'BrokerHeartbeatResponse' && s.i > moved);
    const granted = at((s) => s.actor === 'controller' && s.label === 'BrokerHeartbeat' && s.i > answer);
    const stopped = at(withFact('brokerStopped'));
    // each step, what its English and Korean narration say
    const expected: [number, string, string][] = [
      [
        signal,
        'broker-0 is asked to stop (controlled shutdown of broker-0 at 1000 ms, restart 3000 ms after it stopped) and begins a controlled shutdown',
        '제어된 종료(controlled.shutdown.enable=true)를 시작합니다',
      ],
      [moved, 'The controller puts broker-0 in CONTROLLED_SHUTDOWN', 'CONTROLLED_SHUTDOWN 상태로 둡니다'],
      [answer, "has not granted broker-0's shutdown yet", '아직 broker-0의 종료를 허락하지 않았습니다'],
      [
        granted,
        'it leads no partition now, so the controller fences it and answers shouldShutDown',
        '펜싱하고 shouldShutDown으로 답합니다',
      ],
      [stopped, 'broker-0 leads nothing and stops — cleanly', '깨끗한 종료라'],
    ];
    for (const [i, en, ko] of expected) expect(told(i)).toEqual([expect.stringContaining(en), expect.stringContaining(ko)]);
    for (const i of [signal, moved, answer, granted, stopped]) expect(narrate(trace, i, 'ko')).not.toMatch(/\b(the|is|and|stops)\b/);
  });
});
