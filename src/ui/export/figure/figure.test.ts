/**
 * The exported figure: golden SVG files for a few presets (normalised: ids, floats, traceHash), and
 * on every shipped preset — at its end and halfway — no two labels overlap, nothing is cut at the
 * figure's edges or its clip regions, no offset-line or pointer label covers a COMMIT/ABORT marker,
 * and scenario text is escaped.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, PRESETS, runScenario, type Scenario, stateAt } from '../../../sim';
import { envelopeFaultText } from '../../../sim/narration';
import { PRESET_TEXT_KO } from '../../../sim/presets/ko';
import { summarize, type Trace } from '../../../sim/views';
import { timelineFigure } from '../exportFiles';
import { buildFigure, insideOf } from './figure';
import { FIGURE_PALETTES } from './figurePalette';
import { GOLDEN_FIGURES, goldenFigureName, normalizeSvg } from './normalize';
import { type DrawnItem, intersects } from './svgContext';
import { escapeXml } from './xml';

const traces = new Map<string, Trace>();
function traceOf(id: string): Trace {
  let t = traces.get(id);
  if (!t) {
    const p = findPreset(id);
    if (!p) throw new Error(`no preset ${id}`);
    t = runScenario(p.scenario);
    traces.set(id, t);
  }
  return t;
}

describe('exported figure: golden files', () => {
  it.each(GOLDEN_FIGURES.map((g) => [goldenFigureName(g), g] as const))('%s', async (name, g) => {
    const trace = traceOf(g.preset);
    const step = g.step === 'end' ? trace.steps.length : g.step;
    const figure = timelineFigure(trace, stateAt(trace, step), {
      width: g.width,
      theme: g.theme,
      language: g.language,
      korean: PRESET_TEXT_KO,
      // a fault in the page's words, as the Export dialog gives them (useFaultText)
      translateFault: (label) => envelopeFaultText(trace, label, g.language),
    });
    expect(figure.width).toBe(g.width);
    await expect(normalizeSvg(figure.svg)).toMatchFileSnapshot(`../../../../tests/golden/figures/${name}`);
  });
});

function texts(items: readonly DrawnItem[]) {
  return items.filter((i): i is Extract<DrawnItem, { type: 'text' }> => i.type === 'text');
}

/** Marker diamonds: closed four-sided paths filled with the committed or aborted colour. */
function markers(items: readonly DrawnItem[], theme: 'light' | 'dark') {
  const p = FIGURE_PALETTES[theme];
  return items.filter((i) => i.type === 'shape' && i.commands === 'MLLLZ' && (i.fill === p.committed || i.fill === p.aborted));
}

function problems(figure: ReturnType<typeof buildFigure>, theme: 'light' | 'dark'): string[] {
  const out: string[] = [];
  const t = texts(figure.items);
  // cell labels sit on their cells by design; every other text stands clear of every other
  for (let i = 0; i < t.length; i++)
    for (let j = i + 1; j < t.length; j++) {
      const a = t[i] as (typeof t)[number];
      const b = t[j] as (typeof t)[number];
      if (intersects(a.box, b.box)) out.push(`"${a.text}" overlaps "${b.text}"`);
    }
  // a text must be whole; a shape may run into a clip region's edge (a lane's track does, as on screen)
  for (const item of figure.items)
    if ((item.type === 'text' || item.clip === null) && !insideOf(item, figure.width, figure.height))
      out.push(`cut: ${item.type === 'text' ? `"${item.text}"` : item.role}`);
  const diamonds = markers(figure.items, theme);
  for (const label of t.filter((x) => x.role === 'lanes' && /(HW|LSO|LEO|position|committed|pending|위치|커밋|보류) /.test(x.text)))
    for (const d of diamonds) if (intersects(label.box, d.box)) out.push(`"${label.text}" covers a marker`);
  return out;
}

describe('exported figure: every preset reads cleanly', () => {
  it.each(PRESETS.map((p) => [p.id] as const))('%s at its end and halfway, light and dark, at 640 and 1280 px', (id) => {
    const trace = traceOf(id);
    for (const step of [trace.steps.length, Math.floor(trace.steps.length / 2)])
      for (const [theme, width, language] of [
        ['light', 1280, 'en'],
        ['dark', 640, 'ko'],
      ] as const) {
        const view = stateAt(trace, step);
        const figure = buildFigure(trace, view, {
          width,
          theme,
          language,
          title: trace.scenario.title ?? id,
          verdict: summarize(trace, step, view).verdict,
          translateFault: (label) => envelopeFaultText(trace, label, language),
        });
        expect(problems(figure, theme), `${id} at step ${step}, ${theme}, ${width} px`).toEqual([]);
        expect(figure.width).toBe(width);
        // no blank space below the footer: the last text ends within the bottom margin
        const bottom = Math.max(...texts(figure.items).map((x) => x.box.y1));
        expect(figure.height - bottom).toBeLessThanOrEqual(24);
      }
  });
});

describe('exported figure: text from a scenario', () => {
  it('is escaped, and a long title wraps instead of being cut', () => {
    const scenario: Scenario = {
      version: 1,
      seed: 1,
      title: `<script>alert(1)</script> & a title long enough to need more than one line at this width, ${'really '.repeat(12)}long`,
      topics: [{ name: 'orders' }],
      clients: [
        { id: 'p', type: 'producer', script: [{ op: 'send', topic: 'orders', key: 'k"\'<', value: 'v', headers: { event_id: 'e<&>' } }] },
      ],
    };
    const trace = runScenario(scenario);
    const view = stateAt(trace, trace.steps.length);
    const figure = buildFigure(trace, view, {
      width: 640,
      theme: 'light',
      language: 'en',
      title: scenario.title as string,
      verdict: summarize(trace).verdict,
    });
    expect(figure.svg).not.toContain('<script>');
    expect(figure.svg).toContain('&lt;script&gt;');
    expect(figure.svg).toContain('e&lt;&amp;&gt;');
    expect(texts(figure.items).filter((x) => x.role === 'title').length).toBeGreaterThan(1);
    expect(problems(figure, 'light')).toEqual([]);
  });
});

describe('exported figure: characters XML forbids', () => {
  it('replaces them, so an XML parser accepts the file', () => {
    const controls = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');
    const nasty = `a${controls}\u007f\u0085\ufffe\uffff\ud800z\udc00b<&>`;
    const scenario: Scenario = {
      version: 1,
      seed: 4,
      title: nasty,
      topics: [{ name: 'orders' }],
      clients: [
        { id: 'p', type: 'producer', script: [{ op: 'send', topic: 'orders', key: nasty, value: nasty, headers: { event_id: nasty } }] },
        { id: 'c', type: 'consumer', config: { 'group.id': nasty, 'auto.offset.reset': 'earliest' }, topics: ['orders'] },
      ],
    };
    const trace = runScenario(scenario);
    const view = stateAt(trace, trace.steps.length);
    const { svg } = buildFigure(trace, view, {
      width: 960,
      theme: 'dark',
      language: 'en',
      title: nasty,
      verdict: summarize(trace).verdict,
    });
    // XML 1.0's Char production: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF
    const forbidden = [...svg].filter((ch) => {
      const c = ch.codePointAt(0) as number;
      return !(c === 9 || c === 10 || c === 13 || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000);
    });
    expect(forbidden.map((ch) => ch.codePointAt(0)?.toString(16))).toEqual([]);
    expect(svg).toContain('a\ufffd\ufffd');
    expect(svg).toContain('&lt;&amp;&gt;');
    expect(escapeXml('<script>alert(1)</script>&"\'')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&apos;');
  });
});

describe('exported figure: records above the high watermark', () => {
  const figureAt = (id: string, language: 'en' | 'ko') => {
    const trace = traceOf(id);
    return buildFigure(trace, stateAt(trace, trace.steps.length), {
      width: 1280,
      theme: 'light',
      language,
      title: id,
      verdict: summarize(trace).verdict,
    });
  };
  it('min-insync-blocks-writes ends with e3 above the HW: a dashed veil over it, and a legend that names transactions and the HW apart', () => {
    const figure = figureAt('min-insync-blocks-writes', 'en');
    const legend = texts(figure.items).map((x) => x.text);
    expect(legend).toContain('in a committed transaction (solid)');
    expect(legend).toContain('in an aborted transaction (crossed)');
    expect(legend).toContain('above the high watermark: not committed (faded, dashed)');
    expect(legend).not.toContain('committed (solid)');
    // the veil: the background at half opacity, then a dashed outline, in the lanes
    expect(figure.svg).toMatch(/fill="#ffffff" fill-opacity="0.5"/);
    expect(figure.svg).toContain('stroke-dasharray="3 2"');
    expect(texts(figureAt('min-insync-blocks-writes', 'ko').items).map((x) => x.text)).toContain(
      '하이 워터마크 위: 커밋되지 않음 (흐리게, 점선)',
    );
  });
  it('a run whose logs end committed up to their end has neither the veil nor its legend entry', () => {
    const figure = figureAt('zombie-fencing', 'en');
    expect(texts(figure.items).map((x) => x.text)).not.toContain('above the high watermark: not committed (faded, dashed)');
    expect(figure.svg).not.toContain('stroke-dasharray="3 2"');
  });
});
