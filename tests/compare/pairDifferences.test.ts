/**
 * A gallery pair is two scenarios of their own: the comparison lists everything in which they
 * differ that can decide the outcome — the cluster's, the topics' and the clients' settings
 * (defaults named), the records each producer sends and the faults — not only the settings an A/B
 * comparison made from the page can change.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { scenarioDifferences } from '../../src/sim/compare/settings';
import { findPreset } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import { PairDifferences } from '../../src/ui/compare/CompareSettings';
import { compareStrings } from '../../src/ui/compare/compareStrings';

const preset = (id: string): Scenario => {
  const p = findPreset(id);
  if (!p) throw new Error(id);
  return p.scenario;
};
const A = preset('acks-1-leader-failover-loss');
const B = preset('min-insync-blocks-writes');

describe('a gallery pair’s differences', () => {
  it('acks-1-leader-failover-loss vs min-insync-blocks-writes: settings, defaults, sends and faults', () => {
    const d = scenarioDifferences(A, B);
    expect(d).toContainEqual(
      expect.objectContaining({ kind: 'setting', target: 'cluster', setting: 'min.insync.replicas', a: { value: 1, isDefault: true } }),
    );
    expect(d).toContainEqual(
      expect.objectContaining({
        kind: 'setting',
        target: 'orders-service',
        setting: 'delivery.timeout.ms',
        b: { value: 60000, isDefault: false },
      }),
    );
    expect(d).toContainEqual(expect.objectContaining({ kind: 'setting', setting: 'acks' }));
    expect(d).toContainEqual(expect.objectContaining({ kind: 'setting', setting: 'enable.idempotence' }));
    expect(d).toContainEqual({ kind: 'sends', target: 'orders-service', a: 2, b: 3 });
    // both have the same reader, billing: A's never reads e2, B's never reads e3 (each above the high watermark)
    expect(d.some((x) => x.kind === 'only')).toBe(false);
    const faults = d.find((x) => x.kind === 'faults');
    expect(faults?.kind === 'faults' && faults.a.map((f) => f.type)).toEqual(['slowReplication', 'slowReplication', 'crash']);
    expect(faults?.kind === 'faults' && faults.b.map((f) => f.type === 'crash' && f.target)).toEqual(['broker-2', 'broker-1']);
  });

  it('a scenario against itself, or a key set to its default, is no difference', () => {
    expect(scenarioDifferences(A, A)).toEqual([]);
    const withDefault = structuredClone(A);
    withDefault.cluster = { ...withDefault.cluster, 'min.insync.replicas': 1 };
    expect(scenarioDifferences(A, withDefault)).toEqual([]);
  });

  it('the page lists them, in English and Korean', () => {
    const html = (language: 'en' | 'ko') =>
      renderToStaticMarkup(createElement(PairDifferences, { a: A, b: B, language, t: compareStrings(language) }));
    const en = html('en');
    expect(en).toContain('min.insync.replicas</code>: 1 (default) → 2');
    expect(en).toContain('delivery.timeout.ms</code>: 120000 (default) → 60000');
    expect(en).toContain('records sent: 2 → 3');
    expect(en).toContain('Faults only in A:');
    expect(en).toContain('crash broker-0 at 3020 ms');
    expect(en).toContain('crash broker-1 at 14000 ms');
    // the cluster is a word of the page's language, not a key in code font; the key is
    expect(en).toContain('<span data-where="cluster">cluster</span> <code>min.insync.replicas</code>');
    expect(en).not.toContain('<code>cluster</code>');
    const ko = html('ko');
    expect(ko).toContain('<span data-where="cluster">클러스터</span> <code>min.insync.replicas</code>');
    expect(ko).not.toMatch(/>cluster</);
    expect(ko).toContain('1(기본값) → 2');
    expect(ko).toContain('보내는 레코드 수: 2 → 3');
    expect(ko).toContain('B에만 있는 장애:');
  });
});
