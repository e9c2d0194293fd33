/**
 * The syllabus (issue 19): docs/syllabus.md lists the source articles' items, each with where the
 * product shows it. This test reads that table and fails if a listed preset, gallery row, checklist
 * question, config key, legend entry, note or page element is missing — or lacks its Korean text,
 * its expected verdict or its golden file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKLIST_QUESTIONS, type ChecklistId } from '../src/sim/checks/checklist';
import { CLUSTER_CONFIG } from '../src/sim/config/clusterConfig';
import type { ConfigKey } from '../src/sim/config/configSpec';
import { CONSUMER_CONFIG } from '../src/sim/config/consumerConfig';
import { PRODUCER_CONFIG } from '../src/sim/config/producerConfig';
import { STREAMS_CONFIG } from '../src/sim/config/streamsConfig';
import { TOPIC_CONFIG } from '../src/sim/config/topicConfig';
import { PRESETS } from '../src/sim/presets';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { type ConfigTable, DOCS_KO } from '../src/ui/config/docsKo';
import { DEFENSE_ROWS } from '../src/ui/gallery/defenses';
import { galleryRows } from '../src/ui/gallery/Gallery';
import { EOS_NOTES } from '../src/ui/notes/eosNotes';
import { EOS_LAYERS, EOS_TRIAD } from '../src/ui/verdict/eosLayers';

const ROOT = join(__dirname, '..');
const TABLE = readFileSync(join(ROOT, 'docs/syllabus.md'), 'utf8');

interface Row {
  readonly n: number;
  readonly article: string;
  readonly item: string;
  readonly refs: readonly string[];
}

const rows: Row[] = TABLE.split('\n')
  .filter((l) => /^\| \d+ \|/.test(l))
  .map((l) => {
    const [n, article, item, where] = l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    return {
      n: Number(n),
      article: article ?? '',
      item: item ?? '',
      refs: [...(where ?? '').matchAll(/`([a-z]+:[^`]+)`/g)].map((m) => m[1] ?? ''),
    };
  });

const SPECS: Readonly<Record<ConfigTable, readonly ConfigKey[]>> = {
  producer: PRODUCER_CONFIG,
  consumer: CONSUMER_CONFIG,
  streams: STREAMS_CONFIG,
  cluster: CLUSTER_CONFIG,
  topic: TOPIC_CONFIG,
};

/** Every data-testid the page's components render (literal attributes and Modal's testId). */
function testIds(): Set<string> {
  const ids = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.tsx'))
        for (const m of readFileSync(p, 'utf8').matchAll(/(?:data-testid|testId)="([^"]+)"/g)) ids.add(m[1] ?? '');
    }
  };
  walk(join(ROOT, 'src'));
  return ids;
}

const localized = (t: { en: string; ko: string } | undefined) => !!t && t.en.length > 3 && t.ko.length > 3 && /[가-힣]/.test(t.ko);

/** Why a reference does not resolve, or null when it does. */
function problem(ref: string, ids: Set<string>): string | null {
  const [kind, ...rest] = ref.split(':');
  const name = rest.join(':');
  switch (kind) {
    case 'preset': {
      const p = PRESETS.find((x) => x.id === name);
      if (!p) return 'not in PRESETS';
      if (p.expectedVerdict.length === 0) return 'no expected verdict';
      const ko = PRESET_TEXT_KO[name];
      if (!ko?.title || !ko.question || !ko.expected) return 'no Korean title/question/expected';
      if (!existsSync(join(ROOT, 'tests/golden/presets', `${name}.txt`))) return 'no golden file';
      const shown = galleryRows(PRESETS, 'ko');
      const inGallery = shown.rows.some((r) => r.scenarios.some((s) => s.preset?.id === name)) || shown.others.some((o) => o.id === name);
      return inGallery ? null : 'not in the gallery';
    }
    case 'gallery': {
      const r = DEFENSE_ROWS.find((x) => x.key === name);
      if (!r) return 'no such gallery row';
      // a defense may keep Kafka's name in Korean ("Log compaction"), as the article writes it
      const texts = [r.problem, r.defense, r.boundary];
      if (!texts.every((t) => t.en.length > 3 && t.ko.length > 3) || !texts.some(localized)) return 'row not in English and Korean';
      return r.scenarios.some((s) => PRESETS.some((p) => p.id === s.id)) ? null : 'row has no shipped preset';
    }
    case 'checklist': {
      const q = CHECKLIST_QUESTIONS[name as ChecklistId];
      return q && q[0].length > 3 && /[가-힣]/.test(q[1]) ? null : 'no such checklist question in English and Korean';
    }
    case 'config': {
      const [table, ...key] = name.split('.');
      const spec = SPECS[table as ConfigTable]?.find((k) => k.name === key.join('.'));
      if (!spec) return 'not in the config spec';
      return DOCS_KO[table as ConfigTable][spec.name] ? null : 'no Korean doc line';
    }
    case 'legend':
      return localized(EOS_LAYERS.find((l) => l.key === name)?.guarantees) ? null : 'no such legend layer';
    case 'triad':
      return localized(EOS_TRIAD.find((t) => t.key === name)?.text) ? null : 'no such triad entry';
    case 'note': {
      const n = EOS_NOTES.find((x) => x.id === name);
      return n && localized(n.title) && localized(n.text) ? null : 'no such note in English and Korean';
    }
    case 'ui':
      return ids.has(name) ? null : 'no component renders this data-testid';
    default:
      return 'unknown kind of reference';
  }
}

describe('docs/syllabus.md: the articles item by item', () => {
  it('lists about 120 items of the three articles, numbered in order, each with somewhere to see it', () => {
    expect(rows.length).toBeGreaterThanOrEqual(115);
    expect(rows.map((r) => r.n)).toEqual(rows.map((_, i) => i + 1));
    expect(new Set(rows.map((r) => r.article))).toEqual(new Set(['A1', 'A2', 'A3']));
    for (const r of rows) {
      expect(r.item.length, `item ${r.n}`).toBeGreaterThan(10);
      expect(r.refs.length, `item ${r.n} has no reference`).toBeGreaterThan(0);
    }
  });

  it('every reference resolves: presets with verdict, Korean text, golden file and gallery place; rows, questions, keys, legend, notes, page elements', () => {
    const ids = testIds();
    const broken = rows.flatMap((r) => r.refs.map((ref) => [r.n, ref, problem(ref, ids)] as const)).filter(([, , p]) => p !== null);
    expect(broken).toEqual([]);
  });

  it('fails on a missing preset or page element (the check itself works)', () => {
    const ids = testIds();
    expect(problem('preset:no-such-preset', ids)).toBe('not in PRESETS');
    expect(problem('ui:no-such-element', ids)).toBe('no component renders this data-testid');
    expect(problem('note:no-such-note', ids)).not.toBeNull();
    expect(problem('config:producer.no.such.key', ids)).toBe('not in the config spec');
  });

  it('names every syllabus preset and the new panels, and every gallery row', () => {
    const refs = new Set(rows.flatMap((r) => r.refs));
    for (const id of [
      'db-sink-upsert',
      'api-lookup-before-retry',
      'counter-set-vs-incr',
      'late-duplicate-after-expiry',
      'retry-mints-new-event-id',
      'business-id-is-not-transactional-id',
      'rekey-by-event-id',
      'compaction-erases-events',
      'eos-auto-commit-rebalance',
      'streams-task-migration',
    ])
      expect(refs, id).toContain(`preset:${id}`);
    for (const r of DEFENSE_ROWS) expect(refs, r.key).toContain(`gallery:${r.key}`);
    for (const l of EOS_LAYERS) expect(refs).toContain(`legend:${l.key}`);
    for (const t of EOS_TRIAD) expect(refs).toContain(`triad:${t.key}`);
    for (const n of EOS_NOTES) expect(refs).toContain(`note:${n.id}`);
    expect(refs).toContain('ui:code-panel');
    expect(refs).toContain('config:streams.processing.guarantee');
  });
});
