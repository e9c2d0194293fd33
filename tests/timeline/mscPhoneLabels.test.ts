/**
 * The message view's labels on a phone (a plot about 240 px wide, the 390 px screen less the lane
 * names), drawn by the screen's own drawArrows onto a recording context: however close in time the
 * envelopes, no two labels touch (LABEL_GAP between them), every label lies inside the plot, each has
 * its halo (so the arrows under it do not cross out its letters), and a fault note too long for the
 * plot is cut with an ellipsis rather than left out. Then fitText and the gap directly.
 */
import { scaleLinear } from 'd3-scale';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { FIGURE_PALETTES } from '../../src/ui/export/figure/figurePalette';
import { type Box, SvgContext } from '../../src/ui/export/figure/svgContext';
import { textWidth } from '../../src/ui/export/figure/textMetrics';
import { LABEL_FONT_PX } from '../../src/ui/timeline/drawLanes';
import { drawArrows, faultText } from '../../src/ui/timeline/drawMsc';
import { fitText, LABEL_GAP, LABEL_GAP_Y, placeLabels } from '../../src/ui/timeline/mscLabels';
import { MSC_GEOMETRY, mscHeight } from '../../src/ui/timeline/mscLayout';
import { buildMscModel, envelopeSpan, visibleEnvelopes } from '../../src/ui/timeline/mscModel';
import { PLOT_PAD } from '../../src/ui/timeline/offsetScale';
import { timelineStrings } from '../../src/ui/timeline/timelineText';

const PHONE_PLOT = 240;
const measure = (t: string) => textWidth(t, LABEL_FONT_PX);

/** The gap between two boxes (0 when they touch or overlap). */
function gap(a: Box, b: Box): number {
  const dx = Math.max(0, Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1));
  const dy = Math.max(0, Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1));
  return Math.max(dx, dy);
}

function drawAtPhoneWidth(id: string, step: number, language: 'en' | 'ko') {
  const trace = runScenario(findPreset(id)?.scenario);
  const model = buildMscModel(trace);
  const at = Math.min(step, trace.steps.length - 1);
  const now = trace.steps.at(at)?.t ?? 0;
  const shown = visibleEnvelopes(model, at, false);
  const scale = scaleLinear()
    .domain([0, Math.max(1, model.endStep)])
    .range([PLOT_PAD, PHONE_PLOT - PLOT_PAD]);
  const ctx = new SvgContext();
  ctx.font = `${LABEL_FONT_PX}px sans-serif`;
  const text = timelineStrings(language);
  const height = mscHeight(model.lanes.length);
  drawArrows(
    {
      ctx: ctx as unknown as CanvasRenderingContext2D,
      width: PHONE_PLOT,
      palette: FIGURE_PALETTES.light,
      model,
      mode: 'step',
      step: at,
      now,
      scale,
      measure,
      top: MSC_GEOMETRY.axis,
      bottom: height,
      faultText: (e, span) => faultText(text, e, span),
    },
    shown,
    0,
    shown.length,
  );
  const faults = [...shown]
    .map((i) => model.envelopes[i])
    .flatMap((e) => (e ? [faultText(text, e, envelopeSpan(model, e, 'step', at, now))] : []))
    .filter((t): t is string => t !== null);
  const labels = ctx.items.filter((d) => d.type === 'text');
  const halos = (ctx.markup().match(/<text [^>]*fill="none" stroke=/g) ?? []).length;
  return { labels, halos, faults, height };
}

describe('message labels at a phone’s width', () => {
  for (const [id, step, language] of [
    ['lost-ack-idempotent', 60, 'en'],
    ['lost-ack-idempotent', 10_000, 'ko'],
    ['ctp-exactly-once-crash', 80, 'en'],
    ['streams-eos-crash-restore', 60, 'ko'],
    ['streams-eos-crash-restore', 10_000, 'en'],
  ] as const)
    it(`${id} at step ${step} (${language}): apart, inside the plot, haloed, faults said`, () => {
      const { labels, halos, faults, height } = drawAtPhoneWidth(id, step, language);
      expect(labels.length).toBeGreaterThan(3);
      for (let i = 0; i < labels.length; i++) {
        const a = labels[i]?.box as Box;
        expect(a.x0).toBeGreaterThanOrEqual(0);
        expect(a.x1).toBeLessThanOrEqual(PHONE_PLOT);
        expect(a.y0).toBeGreaterThanOrEqual(MSC_GEOMETRY.axis - 1);
        expect(a.y1).toBeLessThanOrEqual(height + 1);
        for (let j = i + 1; j < labels.length; j++) {
          const b = labels[j]?.box as Box;
          // the figure's font boxes are a little taller than the placer's; what matters: they never meet
          expect(gap(a, b), `${labels[i]?.text} / ${labels[j]?.text}`).toBeGreaterThan(0);
        }
      }
      expect(halos).toBe(labels.length);
      // the first fault note in view is drawn, whole or cut with an ellipsis
      const first = faults[0];
      if (first !== undefined) {
        const drawn = labels.map((l) => l.text);
        expect(drawn.some((t) => t === first || (t.endsWith('…') && first.startsWith(t.slice(0, -1))))).toBe(true);
      }
    });

  it('lost-ack-idempotent has a fault note in view at step 60 (the case above is not vacuous)', () => {
    expect(drawAtPhoneWidth('lost-ack-idempotent', 60, 'en').faults.length).toBeGreaterThan(0);
  });
});

describe('fitText and the gap between labels', () => {
  const perChar = (t: string) => t.length * 6;
  it('keeps text that fits, cuts the rest with an ellipsis to the width, and gives up below one letter', () => {
    expect(fitText('Produce', 42, perChar)).toBe('Produce');
    expect(fitText('dropped: the ack is lost', 60, perChar)).toBe('dropped:…');
    expect(perChar(fitText('dropped: the ack is lost', 60, perChar))).toBeLessThanOrEqual(60);
    expect(fitText('Produce', 6, perChar)).toBe('…');
    expect(fitText('Produce', 5, perChar)).toBe('');
  });

  it('places a fault note wider than the plot cut to fit instead of dropping it', () => {
    const area = { x0: 0, x1: 120, y0: 0, y1: 100 };
    const long = {
      x: 10,
      y: 50,
      width: perChar('dropped: the ack is lost on the way back'),
      text: 'dropped: the ack is lost on the way back',
      color: 'red',
    };
    const [placed] = placeLabels([long], area, 10, perChar);
    expect(placed?.text.endsWith('…')).toBe(true);
    expect(placed?.box.x1 ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(area.x1);
    // without a measure it cannot be cut, and is left out as before
    expect(placeLabels([long], area, 10)).toEqual([]);
  });

  it('keeps LABEL_GAP clear between two labels side by side and LABEL_GAP_Y between one above the other', () => {
    const area = { x0: 0, x1: 500, y0: 0, y1: 300 };
    const a = { x: 100, y: 100, width: 60, text: 'Produce', color: '#000' };
    const right = { ...a, text: 'Fetch', x: 100 + 60 + 2 * LABEL_GAP - 1 }; // one pixel too close on the right
    const placed = placeLabels([a, right], area);
    expect(placed).toHaveLength(2);
    expect(placed[1]?.y).not.toBe(100); // moved to another line rather than touching
    const [p, q] = placed as [(typeof placed)[number], (typeof placed)[number]];
    const textGapY = Math.abs(q.y - p.y) - 13; // 13: a label's height (ascent + descent)
    expect(textGapY).toBeGreaterThanOrEqual(2 * LABEL_GAP_Y);
  });
});
