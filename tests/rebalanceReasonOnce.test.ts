/**
 * A member removed while its group is already rebalancing (classicGroup removeMember: session expiry
 * during the new instance's join) completes the rebalance in the same step: the step's sentence says
 * why the member went once — in the removal — not again in the rebalance's parenthesis. A rebalance
 * with no removal in its step still says its reason.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('a rebalance after a member is removed in the same step', () => {
  it('at-least-once-consumer-crash: the expired member’s reason is said once, in English and Korean', () => {
    const preset = findPreset('at-least-once-consumer-crash');
    if (!preset) throw new Error('no at-least-once-consumer-crash');
    const trace = runScenario(preset.scenario);
    const step = trace.steps.find(
      (s) =>
        (s.facts as Fact[]).some((f) => f.kind === 'note' && f.text.endsWith('; it is removed')) &&
        (s.facts as Fact[]).some((f) => f.kind === 'rebalance'),
    );
    if (!step) throw new Error('no step removes a member and rebalances');
    const en = narrate(trace, step.i, 'en');
    const ko = narrate(trace, step.i, 'ko');
    expect(en).toContain('group billing rebalanced to generation 2 with billing-1');
    expect(occurrences(en, 'sent no heartbeat for session.timeout.ms=45000')).toBe(1);
    expect(ko).toContain('리밸런스했습니다. 멤버: billing-1.');
    expect(occurrences(ko, 'session.timeout.ms=45000')).toBe(1);
  });

  it('a rebalance whose step removes no member keeps its reason', () => {
    const preset = findPreset('at-least-once-consumer-crash');
    if (!preset) throw new Error('no at-least-once-consumer-crash');
    const trace = runScenario(preset.scenario);
    const step = trace.steps.find(
      (s) =>
        (s.facts as Fact[]).some((f) => f.kind === 'rebalance') &&
        !(s.facts as Fact[]).some((f) => f.kind === 'note' && f.text.endsWith('; it is removed')),
    );
    if (!step) throw new Error('no plain rebalance');
    expect(narrate(trace, step.i, 'en')).toMatch(/rebalanced to generation 1 with billing-0 \(.+\)/);
  });
});
