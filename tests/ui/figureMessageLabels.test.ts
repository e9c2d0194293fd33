/**
 * The exported figure's message labels are the page's: the same layout (drawArrows → mscLabels.ts
 * placeLabels) places them, each drawn where it placed it and none over another, and an envelope's
 * fault is written in the figure's language with the page's words (narration's envelopeFaultText,
 * which the page's message diagram uses through useFaultText) — a Korean figure used to write the
 * kernel's English ("버려짐: the ack is lost on the way back") where the page said it in Korean.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, runScenario, stateAt } from '../../src/sim';
import { envelopeFaultText } from '../../src/sim/narration';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { timelineFigure } from '../../src/ui/export/exportFiles';
import { intersects } from '../../src/ui/export/figure/svgContext';
import { faultText } from '../../src/ui/timeline/drawMsc';
import { buildMscModel, envelopeSpan, visibleEnvelopes } from '../../src/ui/timeline/mscModel';
import { timelineStrings } from '../../src/ui/timeline/timelineText';

/** Three English words in a row: prose, not a Kafka term or a name. */
const ENGLISH_PROSE = /\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b/;

describe('the exported figure writes the page’s message labels', () => {
  for (const id of ['lost-ack-idempotent', 'coordinator-failover-mid-commit', 'hanging-transaction', 'epoch-bump-duplicate'])
    it(`${id}, in Korean: faults in the page's words, labels where the page's layout put them`, () => {
      const preset = findPreset(id);
      if (!preset) throw new Error(id);
      const trace = runScenario(preset.scenario);
      const view = stateAt(trace, trace.steps.length);
      const translateFault = (label: string) => envelopeFaultText(trace, label, 'ko');
      const figure = timelineFigure(trace, view, { width: 1280, theme: 'light', language: 'ko', korean: PRESET_TEXT_KO, translateFault });

      // every text in the diagram is a label the layout placed, drawn at its place (one offset: the diagram's origin)
      const drawn = figure.items.flatMap((i) => (i.type === 'text' && i.role === 'messages' ? [i] : []));
      const placed = figure.messageLabels;
      expect(placed.length).toBeGreaterThan(5);
      expect(drawn.map((d) => d.text)).toEqual(placed.map((p) => p.text));
      const dx = (drawn[0]?.box.x0 ?? 0) - (placed[0]?.x ?? 0);
      drawn.forEach((d, i) => {
        expect(d.box.x0 - (placed[i]?.x ?? 0), d.text).toBeCloseTo(dx, 6);
      });
      for (let i = 0; i < placed.length; i++)
        for (let j = i + 1; j < placed.length; j++)
          expect(intersects((placed[i] as (typeof placed)[number]).box, (placed[j] as (typeof placed)[number]).box)).toBe(false);

      // the fault labels: what the page's message diagram writes for the same envelopes, in Korean
      const model = buildMscModel(trace);
      const shown = visibleEnvelopes(model, view.step, false);
      const text = timelineStrings('ko');
      const pageWords = new Set<string>();
      for (const i of shown) {
        const e = model.envelopes.at(i);
        if (!e) continue;
        const words = faultText(text, e, envelopeSpan(model, e, 'step', view.step, view.time), translateFault);
        if (words) pageWords.add(words);
      }
      const faults = placed.filter((p) => p.ref !== undefined && p.cut !== true).map((p) => p.text);
      expect(faults.length, id).toBeGreaterThan(0);
      for (const f of faults) {
        expect([...pageWords], f).toContain(f);
        expect(f).not.toMatch(ENGLISH_PROSE);
      }
    });
});
