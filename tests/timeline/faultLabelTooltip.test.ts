/**
 * A fault label too long for the message plot is cut with an ellipsis (min-insync-blocks-writes'
 * "lost: its connection … was closed before it was sent", longer still in Korean): drawArrows reports
 * each fault label it drew with its box and its arrow, so that the view's hit test (MscController
 * hitAt) gives the arrow — and its tooltip with the whole fault — for a pointer on the label.
 */
import { scaleLinear } from 'd3-scale';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { FIGURE_PALETTES } from '../../src/ui/export/figure/figurePalette';
import { SvgContext } from '../../src/ui/export/figure/svgContext';
import { textWidth } from '../../src/ui/export/figure/textMetrics';
import { LABEL_FONT_PX } from '../../src/ui/timeline/drawLanes';
import { drawArrows, faultText } from '../../src/ui/timeline/drawMsc';
import type { LabelBox } from '../../src/ui/timeline/mscLabels';
import { MSC_GEOMETRY, mscHeight } from '../../src/ui/timeline/mscLayout';
import { buildMscModel, envelopeSpan, visibleEnvelopes } from '../../src/ui/timeline/mscModel';
import { PLOT_PAD } from '../../src/ui/timeline/offsetScale';
import { timelineStrings } from '../../src/ui/timeline/timelineText';

describe('a cut fault label', () => {
  it('is reported with its box and its arrow, so hovering it shows the whole fault', () => {
    const trace = runScenario(findPreset('min-insync-blocks-writes')?.scenario);
    const model = buildMscModel(trace);
    const at = trace.steps.length - 1;
    const now = trace.steps.at(at)?.t ?? 0;
    const shown = visibleEnvelopes(model, at, false);
    const width = 300;
    const scale = scaleLinear()
      .domain([0, Math.max(1, model.endStep)])
      .range([PLOT_PAD, width - PLOT_PAD]);
    const ctx = new SvgContext();
    const text = timelineStrings('en');
    const faultLabels: { box: LabelBox; position: number; cut: boolean }[] = [];
    drawArrows(
      {
        ctx: ctx as unknown as CanvasRenderingContext2D,
        width,
        palette: FIGURE_PALETTES.light,
        model,
        mode: 'step',
        step: at,
        now,
        scale,
        measure: (t) => textWidth(t, LABEL_FONT_PX),
        top: MSC_GEOMETRY.axis,
        bottom: mscHeight(model.lanes.length),
        faultText: (e, span) => faultText(text, e, span),
        faultLabels,
      },
      shown,
      0,
      shown.length,
    );
    const cut = faultLabels.filter((l) => l.cut);
    expect(cut.length).toBeGreaterThan(0);
    for (const l of cut) {
      const e = model.envelopes[shown[l.position] as number];
      if (!e) throw new Error('no envelope');
      const whole = faultText(text, e, envelopeSpan(model, e, 'step', at, now)) ?? '';
      expect(whole).toMatch(/^lost: its connection .* was closed before it was sent$/);
      // the label drawn in its box is a cut of the whole text
      const drawn = ctx.items.find(
        (d) => d.type === 'text' && d.box.x0 >= l.box.x0 - 1 && d.box.x1 <= l.box.x1 + 1 && d.text.endsWith('…'),
      );
      expect(drawn?.type === 'text' && whole.startsWith(drawn.text.slice(0, -1))).toBe(true);
      expect(l.box.x1).toBeLessThanOrEqual(width);
    }
  });
});
