/**
 * Every preset's expected outcome is data: its file's `expectedVerdict` lists the verdict finding by
 * finding (layer, subject, status, event ids), the run must end with exactly that, and its "What you
 * should see" text — English in the file, Korean in ko.ts — must say the same: every event that is
 * duplicated, lost or blocked is named, with a word for what happened to it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { runScenario } from '../../src/sim/run';
import { DEFAULT_LINK_VIEW, decodeLink, encodeLink } from '../../src/sim/scenario/link';
import { parseScenarioJson, validateScenario } from '../../src/sim/scenario/validate';
import { summarize } from '../../src/sim/trace/summary';

const normal = (f: { layer: string; subject: string | null; status: string; eventIds?: readonly string[] }) => ({
  layer: f.layer,
  subject: f.subject,
  status: f.status,
  eventIds: [...(f.eventIds ?? [])].sort(),
});

describe('every preset ends with the verdict its file expects', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s', (_id, preset) => {
    expect(preset.expectedVerdict.length).toBeGreaterThan(0);
    const verdict = summarize(runScenario(preset.scenario)).verdict;
    expect(verdict.layers.map(normal)).toEqual(preset.expectedVerdict.map(normal));
  });

  it('the expectation stays in the preset file: the scenario a preset runs and links carry leaves it out', () => {
    for (const p of PRESETS) expect(p.scenario).not.toHaveProperty('expectedVerdict');
  });

  it('a preset file runs as a scenario file: expectedVerdict is accepted and dropped, so a link never carries it', () => {
    const text = readFileSync(new URL('../../src/sim/presets/zombie-fencing.json', import.meta.url), 'utf8');
    expect(text).toContain('"expectedVerdict"');
    const v = parseScenarioJson(text);
    if (!v.ok) throw new Error(v.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
    expect(v.resolved.scenario).not.toHaveProperty('expectedVerdict');
    const back = decodeLink(encodeLink(v.resolved.scenario, DEFAULT_LINK_VIEW));
    expect(back.ok && back.scenario).not.toHaveProperty('expectedVerdict');
    const bad = validateScenario({ ...JSON.parse(text), expectedVerdict: [{ layer: 'log', subject: 'orders', status: 'twice' }] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((e) => e.path)).toContain('expectedVerdict[0].status');
  });

  it('zombie-fencing: no business duplicate for the read_committed reader', () => {
    const preset = PRESETS.find((p) => p.id === 'zombie-fencing');
    const v = summarize(runScenario(preset!.scenario)).verdict;
    expect(v.layers.find((f) => f.layer === 'delivery' && f.subject === 'committed-reader')?.status).toBe('once');
    expect(v.layers.find((f) => f.layer === 'log' && f.subject === 'orders')?.eventIds).not.toContain('evt-1');
  });

  it('hanging-transaction: the read_committed reader is stalled, with what pins the LSO', () => {
    const preset = PRESETS.find((p) => p.id === 'hanging-transaction');
    const v = summarize(runScenario(preset!.scenario)).verdict;
    const d = v.layers.find((f) => f.layer === 'delivery' && f.subject === 'committed-reader');
    expect(d?.status).toBe('stalled');
    if (d?.layer !== 'delivery') throw new Error('no delivery finding');
    expect(d.stalls[0]).toMatchObject({
      topic: 'orders',
      producerEpoch: 0,
      firstOffset: 1,
      transactionalId: 'orders-service-1',
      hanging: true,
    });
    expect(d.stalls[0]?.blockedEventIds).toContain('evt-click-1');
  });

  it("outbox-cdc: the relay's duplicates in order-events", () => {
    const preset = PRESETS.find((p) => p.id === 'outbox-cdc');
    const v = summarize(runScenario(preset!.scenario)).verdict;
    expect(v.layers.find((f) => f.layer === 'output' && f.subject === 'order-events')).toMatchObject({
      status: 'more-than-once',
      eventIds: ['evt-1', 'evt-2'],
    });
  });
});

// what a text must say for each status: in English, in Korean
const WORDS: Record<string, readonly [RegExp, RegExp]> = {
  lost: [/\blost\b/i, /유실/],
  'more-than-once': [/twice|\btwo\b|again|more than once|\d+ times/i, /두 번|다시|두 개/],
  stalled: [/stall|stuck/i, /멈춰|멈춥/],
  'above-hw': [/above the (high watermark|HW)/i, /(하이 워터마크|HW) 위/],
};

describe('"What you should see" says what the verdict says', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s, in English and Korean', (id, preset) => {
    const en = preset.expected;
    const ko = PRESET_TEXT_KO[id]?.expected ?? '';
    for (const f of preset.expectedVerdict) {
      const words = WORDS[f.status];
      if (!words) continue;
      const where = `${id}: ${f.layer} ${f.subject ?? ''} ${f.status}`;
      expect(en, where).toMatch(words[0]);
      expect(ko, where).toMatch(words[1]);
      for (const e of f.eventIds ?? []) {
        expect(en, `${where}: ${e}`).toContain(e);
        expect(ko, `${where}: ${e}`).toContain(e);
      }
      if (f.status === 'stalled') {
        expect(en, where).toContain('LSO');
        expect(ko, where).toContain('LSO');
      }
    }
    // a text that promises nothing is lost must not be contradicted by the verdict
    if (/\bnothing is lost\b|\bnothing is lost between\b/i.test(en))
      expect(
        preset.expectedVerdict.filter((f) => f.status === 'lost' && f.layer !== 'log'),
        id,
      ).toEqual([]);
  });
});
