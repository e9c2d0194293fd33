/**
 * A/B in the page rests on three pure pieces: the settings a comparison may change (and a patch of
 * them applied to A), the one link that carries both runs, and compareRuns over the two.
 */
import { describe, expect, it } from 'vitest';
import { AB_PREFIX, decodeAbLink, encodeAbLink } from '../../src/sim/compare/abLink';
import { compareRuns } from '../../src/sim/compare/compare';
import { applySettings, settingsDiff, settingsOf } from '../../src/sim/compare/settings';
import { costOfRun } from '../../src/sim/cost/costOfRun';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { DEFAULT_LINK_VIEW, encodeLink } from '../../src/sim/scenario/link';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';

const preset = (id: string): Scenario => {
  const p = findPreset(id);
  if (!p) throw new Error(id);
  return p.scenario;
};
const side = (s: Scenario) => {
  const trace = runScenario(s);
  const summary = summarize(trace);
  return { summary, cost: costOfRun(trace, summary) };
};

describe('settings an A/B comparison changes', () => {
  it('lists each client’s and sink’s settings with the value in force (defaults included)', () => {
    const s = settingsOf(preset('db-sink-duplicate'));
    expect(s.find((x) => x.setting === 'sink.mode')).toMatchObject({ current: 'insert' });
    expect(s.find((x) => x.target === 'cluster')).toMatchObject({ setting: 'transaction.version', current: 2 });
    const p = settingsOf(preset('lost-ack-idempotent')).filter((x) => x.setting === 'enable.idempotence');
    expect(p.length).toBeGreaterThan(0);
  });

  it('B = A with the changes: same seed, topics, scripts and faults; A untouched', () => {
    const a = preset('lost-ack-idempotent');
    const producer = settingsOf(a).find((x) => x.setting === 'enable.idempotence');
    if (!producer) throw new Error('no producer');
    const { scenario: b, unknown } = applySettings(a, [{ target: producer.target, setting: 'enable.idempotence', value: false }]);
    expect(unknown).toEqual([]);
    expect(b.seed).toBe(a.seed);
    expect(b.faults).toEqual(a.faults);
    expect(b.clients.find((c) => c.id === producer.target)?.config?.['enable.idempotence']).toBe(false);
    expect(a.clients.find((c) => c.id === producer.target)?.config?.['enable.idempotence']).not.toBe(false);
    expect(settingsDiff(a, b)).toEqual([{ target: producer.target, setting: 'enable.idempotence', value: false }]);
    // the retry now stores a duplicate: the log layer differs
    const cmp = compareRuns(side(a), side(b));
    expect(cmp.layers.find((l) => l.layer === 'log')).toMatchObject({ a: 'once', b: 'more-than-once', differs: true });
  });

  it('a gallery pair differs in the setting it defends with', () => {
    expect(settingsDiff(preset('db-sink-duplicate'), preset('db-sink-inbox'))).toContainEqual(
      expect.objectContaining({ setting: 'sink.mode', value: 'inbox' }),
    );
    const cmp = compareRuns(side(preset('db-sink-duplicate')), side(preset('db-sink-inbox')));
    expect(cmp.layers.filter((l) => l.differs).map((l) => l.layer)).toContain('sink');
  });

  it('reports a change whose target A does not have', () => {
    expect(applySettings(preset('opening-story'), [{ target: 'nobody', setting: 'acks', value: '1' }]).unknown).toHaveLength(1);
  });
});

describe('the A/B link', () => {
  it('carries A and a patch, and decodes to the same two scenarios', () => {
    const a = preset('throughput-exactly-once');
    const changes = [{ target: 'enricher', setting: 'processing.mode' as const, value: 'consume-produce-no-transactions' }];
    const link = encodeAbLink({ a, changes, t: 4200 });
    expect(link.startsWith(AB_PREFIX)).toBe(true);
    const d = decodeAbLink(link);
    if (!d?.ok) throw new Error(JSON.stringify(d));
    expect(d.a).toEqual(a);
    expect(d.b).toEqual(applySettings(a, changes).scenario);
    expect(d.changes).toEqual(changes);
    expect(d.t).toBe(4200);
  });

  it('carries a second scenario for a pair of presets', () => {
    const d = decodeAbLink(encodeAbLink({ a: preset('db-sink-duplicate'), b: preset('db-sink-inbox') }));
    if (!d?.ok) throw new Error(JSON.stringify(d));
    expect(d.b).toEqual(preset('db-sink-inbox'));
    expect(d.changes).toBeNull();
  });

  it('leaves share links alone, and says what is wrong with a damaged or invalid one', () => {
    expect(decodeAbLink(encodeLink(preset('opening-story'), DEFAULT_LINK_VIEW))).toBeNull();
    expect(decodeAbLink(`${AB_PREFIX}!!`)).toMatchObject({ ok: false });
    expect(decodeAbLink(`${AB_PREFIX}AAAA`)).toMatchObject({ ok: false, reason: 'the link is damaged' });
    const bad = decodeAbLink(encodeAbLink({ a: preset('opening-story'), changes: [{ target: 'nobody', setting: 'acks', value: '0' }] }));
    expect(bad).toMatchObject({ ok: false, reason: 'B: no nobody acks in A', ko: 'B: A에 nobody acks가 없습니다' });
    expect(decodeAbLink(`${AB_PREFIX}AAAA`)).toMatchObject({ ko: '링크가 손상되었습니다' });
  });

  it('says a B the configuration refuses with Kafka’s own words, quoted in English on both pages (as the config editor shows them)', () => {
    const fencing = preset('zombie-fencing');
    const client = fencing.clients.find((c) => c.type === 'producer')?.id ?? '';
    const bad = decodeAbLink(encodeAbLink({ a: fencing, changes: [{ target: client, setting: 'enable.idempotence', value: false }] }));
    if (!bad || bad.ok) throw new Error('expected a refusal');
    expect(bad.reason).toMatch(/^B: clients\[\d\]\.config/);
    expect(bad.reason).toContain('ConfigException: Cannot set a transactional.id without also enabling idempotence.');
    // in Korean: a sentence saying what is wrong, and Kafka's own text quoted after it
    expect(bad.ko).toContain('transactional.id를 쓰려면 멱등성(enable.idempotence)이 켜져 있어야 하는데, 꺼져 있습니다.');
    expect(bad.ko).toContain('ConfigException: Cannot set a transactional.id without also enabling idempotence.');
  });
});
