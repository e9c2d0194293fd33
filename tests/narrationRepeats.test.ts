import { describe, expect, it } from 'vitest';
import { narrate } from '../src/sim/narration';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';

const occurrences = (text: string, word: string): number => text.split(word).length - 1;

describe('a disconnect tells its request’s error once', () => {
  it('lost-ack-idempotent, its first disconnect: the timed-out Produce is told once, not again as the client’s error', () => {
    const preset = findPreset('lost-ack-idempotent');
    if (!preset) throw new Error('no preset');
    const trace = runScenario(preset.scenario);
    const i = trace.steps.findIndex((s) => s.kind === 'disconnected');
    expect(i).toBeGreaterThan(0);
    const en = narrate(trace, i, 'en');
    const ko = narrate(trace, i, 'ko');
    expect(occurrences(en, 'REQUEST_TIMED_OUT')).toBe(1);
    expect(occurrences(en, 'whether it took effect')).toBe(1);
    expect(occurrences(ko, 'REQUEST_TIMED_OUT')).toBe(1);
    expect(occurrences(ko, '반영됐는지 알 수 없')).toBe(1);
  });

  it('every disconnect of every shipped run names the failed request’s error once', () => {
    const twice: string[] = [];
    for (const p of PRESETS) {
      const trace = runScenario(p.scenario);
      trace.steps.forEach((s, i) => {
        if (s.kind !== 'disconnected') return;
        for (const lang of ['en', 'ko'] as const) {
          const text = narrate(trace, i, lang);
          for (const code of ['REQUEST_TIMED_OUT', 'NETWORK_EXCEPTION'])
            if (occurrences(text, code) > 1) twice.push(`${p.id} step ${i + 1} ${lang}: ${text}`);
        }
      });
    }
    expect(twice).toEqual([]);
  });
});

describe('one clause for what one step did to several partitions or requests', () => {
  const markerSteps = (id: string) => {
    const preset = findPreset(id);
    if (!preset) throw new Error(`no preset ${id}`);
    const trace = runScenario(preset.scenario);
    return { trace, steps: trace.steps };
  };

  it('streams-eos-repartition, broker-0’s WriteTxnMarkers: the COMMIT markers at four partitions are told once, every partition named', () => {
    const { trace, steps } = markerSteps('streams-eos-repartition');
    // the first WriteTxnMarkers broker-0 handles that writes four markers
    const i = steps.findIndex(
      (s) =>
        s.label === 'WriteTxnMarkers' &&
        s.actor === 'broker-0' &&
        s.facts.filter((f) => (f as { kind: string }).kind === 'append').length === 4,
    );
    expect(i).toBeGreaterThan(0);
    const en = narrate(trace, i, 'en');
    const ko = narrate(trace, i, 'ko');
    expect(occurrences(en, 'read_committed consumers may now read past them')).toBe(1);
    expect(occurrences(ko, 'read_committed 컨슈머도 읽을 수 있습니다')).toBe(1);
    for (const p of ['changelog-0 offset 3', 'repartition-0 offset 4', 'repartition-1 offset 4', 'view-counts-0 offset 3']) {
      expect(occurrences(en, p)).toBe(1);
      expect(occurrences(ko, p)).toBe(1);
    }
  });

  it('coordinator-failover-mid-commit, the EndTxn whose two WriteTxnMarkers are lost: one clause', () => {
    const { trace, steps } = markerSteps('coordinator-failover-mid-commit');
    const i = steps.findIndex((s) => s.label === 'EndTxn' && s.actor === 'txn-coordinator');
    expect(i).toBeGreaterThan(0);
    const en = narrate(trace, i, 'en');
    const ko = narrate(trace, i, 'ko');
    expect(en).toContain('loses WriteTxnMarkers #19 and #20 on their way');
    expect(occurrences(en, 'request timeout')).toBe(1);
    expect(ko).toContain('WriteTxnMarkers #19, #20을 도중에 잃고');
    expect(occurrences(ko, '요청 타임아웃')).toBe(1);
  });

  it('no step of a shipped run explains markers or a lost request twice', () => {
    const twice: string[] = [];
    for (const p of PRESETS) {
      const trace = runScenario(p.scenario);
      trace.steps.forEach((s, i) => {
        const markers = (s.facts as readonly Fact[]).filter((f) => f.kind === 'append' && f.control !== null).length;
        if (markers < 2 && s.faults.length < 2) return;
        const en = narrate(trace, i, 'en');
        const ko = narrate(trace, i, 'ko');
        for (const [text, phrase] of [
          [en, 'read_committed consumers may now read past them'],
          [en, "read_committed consumers will skip the transaction's records there"],
          [en, 'request timeout closes'],
          [ko, 'read_committed 컨슈머도 읽을 수 있습니다'],
          [ko, '요청 타임아웃으로 연결을 닫을 때'],
        ] as const)
          if (occurrences(text, phrase) > 1) twice.push(`${p.id} step ${i + 1}: ${text}`);
      });
    }
    expect(twice).toEqual([]);
  });
});
