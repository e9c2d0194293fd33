/**
 * The message view's fault notes sit by their own arrows (drawn by the screen's drawArrows onto a
 * recording context): a dropped arrow stops short of its receiver, and its "dropped: …" note went a
 * line below its end — into the next process's row. Each note's baseline now lies in the row of the
 * arrow end it names, beside that end. Then placeLabels keeps a label inside its band directly.
 */
import { scaleLinear } from 'd3-scale';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { FIGURE_PALETTES } from '../../src/ui/export/figure/figurePalette';
import { SvgContext } from '../../src/ui/export/figure/svgContext';
import { textWidth } from '../../src/ui/export/figure/textMetrics';
import { LABEL_FONT_PX } from '../../src/ui/timeline/drawLanes';
import { arrowPath, drawArrows, faultText } from '../../src/ui/timeline/drawMsc';
import { placeLabels } from '../../src/ui/timeline/mscLabels';
import { MSC_GEOMETRY, mscHeight, rowBandAt } from '../../src/ui/timeline/mscLayout';
import { buildMscModel, visibleEnvelopes } from '../../src/ui/timeline/mscModel';
import { PLOT_PAD } from '../../src/ui/timeline/offsetScale';
import { timelineStrings } from '../../src/ui/timeline/timelineText';

const WIDTH = 900;
const measure = (t: string) => textWidth(t, LABEL_FONT_PX);
const text = timelineStrings('en');

/** Every dropped arrow of the run at its end, with the note drawn nearest its end. */
function droppedNotes(scenario: unknown) {
  const trace = runScenario(scenario);
  const model = buildMscModel(trace);
  const at = trace.steps.length - 1;
  const now = trace.steps.at(at)?.t ?? 0;
  const shown = visibleEnvelopes(model, at, false);
  const scale = scaleLinear()
    .domain([0, Math.max(1, model.endStep)])
    .range([PLOT_PAD, WIDTH - PLOT_PAD]);
  const ctx = new SvgContext();
  ctx.font = `${LABEL_FONT_PX}px sans-serif`;
  const dc = {
    width: WIDTH,
    palette: FIGURE_PALETTES.light,
    model,
    mode: 'step' as const,
    step: at,
    now,
    scale,
    measure,
    top: MSC_GEOMETRY.axis,
    bottom: mscHeight(model.lanes.length),
    faultText: (e: Parameters<typeof faultText>[1], span: Parameters<typeof faultText>[2]) => faultText(text, e, span),
  };
  drawArrows({ ...dc, ctx: ctx as unknown as CanvasRenderingContext2D }, shown, 0, shown.length);
  const labels = ctx.items.flatMap((d) => (d.type === 'text' ? [d] : []));
  return [...shown].flatMap((i) => {
    const p = arrowPath(dc, i);
    if (p.span.state !== 'dropped') return [];
    const note = labels
      .filter((l) => l.text.startsWith('dropped'))
      .sort((a, b) => Math.hypot(a.box.x0 - p.x1, a.box.y1 - p.y1) - Math.hypot(b.box.x0 - p.x1, b.box.y1 - p.y1))[0];
    return [{ p, note }];
  });
}

describe('fault notes by their arrows', () => {
  const story = findPreset('opening-story')?.scenario as Scenario;
  for (const [name, scenario] of [
    ['lost-ack-idempotent (a ProduceResponse dropped, drawn upwards)', findPreset('lost-ack-idempotent')?.scenario],
    ['opening-story with a Produce dropped (drawn downwards)', { ...story, faults: [{ type: 'drop', rpc: 'Produce', nth: 1 }] }],
    ['coordinator-failover-mid-commit (markers dropped)', findPreset('coordinator-failover-mid-commit')?.scenario],
  ] as const)
    it(`${name}: each "dropped: …" note is in its arrow's row, beside its end`, () => {
      const notes = droppedNotes(scenario);
      expect(notes.length).toBeGreaterThan(0);
      for (const { p, note } of notes) {
        if (!note) throw new Error('a dropped arrow without its note');
        const row = rowBandAt(p.y1);
        const baseline = note.box.y1 - (note.box.y1 - note.box.y0) * 0.2;
        expect(baseline, `"${note.text}" baseline ${baseline} in row ${row.y0}–${row.y1}`).toBeGreaterThan(row.y0);
        expect(baseline).toBeLessThanOrEqual(row.y1);
        // beside the cross it ends in, not across the plot
        expect(Math.abs(note.box.x0 - p.x1)).toBeLessThan(40);
      }
    });

  it('placeLabels keeps a label in its band, trying the lines above and below inside it', () => {
    const area = { x0: 0, x1: 500, y0: 0, y1: 300 };
    const band = { y0: 66, y1: 104 };
    const wanted = { x: 100, y: 120, width: 60, text: 'dropped: x', color: 'red', band };
    const [first, second] = placeLabels([wanted, { ...wanted, text: 'dropped: y' }], area);
    for (const l of [first, second]) {
      expect(l?.box.y0).toBeGreaterThanOrEqual(band.y0);
      expect(l?.box.y1).toBeLessThanOrEqual(band.y1);
    }
  });
});
