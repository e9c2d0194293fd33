/**
 * The benchmark page (bench/timeline.html): renders the real partition-lanes component for a
 * synthetic log of `?records=N` records and exposes `window.__timelineBench.run(frames)`, which pans
 * and zooms through d3-zoom one frame at a time, draws each frame synchronously, forces the canvas
 * to rasterise (getImageData) and returns the average and 95th percentile milliseconds per frame.
 *
 * `?scenario=<preset id>&step=N` instead renders the whole <Timeline> for an engine run (a quick way
 * to look at a scenario's timeline at any step).
 */
import { createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { findPreset } from '../src/sim/presets';
import { runScenario, stateAt } from '../src/sim/run';
import type { Selection } from '../src/store/simStore';
import '../src/ui/styles.css';
import type { LanesController } from '../src/ui/timeline/LanesController';
import { PartitionLanes } from '../src/ui/timeline/PartitionLanes';
import { TraceTimeline } from '../src/ui/timeline/TraceTimeline';
import { syntheticTimeline } from './timelineData';
import { BENCH_SCENARIOS } from './timelineScenarios';

export interface FrameStats {
  readonly frames: number;
  readonly msPerFrame: number;
  readonly p95Ms: number;
  /** Of msPerFrame: zoom event and drawing commands (JS), and rasterising them. */
  readonly drawMs: number;
  readonly rasterMs: number;
  readonly mode: 'cells' | 'bins';
}

declare global {
  interface Window {
    __timelineBench?: { ready: Promise<void>; run(frames: number): Promise<FrameStats> };
  }
}

const params = new URLSearchParams(location.search);
const rootEl = document.getElementById('root');
if (!rootEl) throw new Error('no #root');
const root = createRoot(rootEl);

function benchLanes(records: number): void {
  const data = syntheticTimeline(records);
  let controller: LanesController | null = null;
  let resolveReady: () => void = () => {};
  const ready = new Promise<void>((r) => {
    resolveReady = r;
  });
  root.render(
    createElement(PartitionLanes, {
      lanes: data.lanes,
      extents: data.extents,
      selection: null,
      onSelect: () => {},
      onController: (c) => {
        controller = c;
        if (c) requestAnimationFrame(() => resolveReady());
      },
    }),
  );
  const nextFrame = () => new Promise<number>((r) => requestAnimationFrame(r));
  window.__timelineBench = {
    ready,
    async run(frames) {
      const c = controller as LanesController | null;
      const canvas = document.querySelector<HTMLCanvasElement>('.tl-lanes-panel canvas.tl-canvas');
      const ctx = canvas?.getContext('2d');
      if (!c || !ctx) throw new Error('timeline not mounted');
      // a view showing 1/8 of the run: 125 cells of 1k records, 12,500 records aggregated of 100k
      c.setTransform(8, -2000);
      c.renderNow();
      const times: number[] = [];
      let draw = 0;
      for (let f = 0; f < frames; f++) {
        await nextFrame();
        const t0 = performance.now();
        if (f % 4 === 3) c.zoomBy(f % 8 === 3 ? 1.05 : 1 / 1.05);
        else c.panBy(f % 120 < 60 ? -9 : 9);
        c.renderNow();
        const t1 = performance.now();
        ctx.getImageData(0, 0, 1, 1); // wait for the rasterised pixels, not only the recorded commands
        const t2 = performance.now();
        draw += t1 - t0;
        times.push(t2 - t0);
      }
      const total = times.reduce((s, t) => s + t, 0);
      const mean = total / frames;
      times.sort((a, b) => a - b);
      return {
        frames,
        msPerFrame: mean,
        p95Ms: times[Math.floor(times.length * 0.95)] ?? mean,
        drawMs: draw / frames,
        rasterMs: (total - draw) / frames,
        mode: c.mode,
      };
    },
  };
}

function scenarioTimeline(id: string, stepParam: string | null): void {
  const scenario = BENCH_SCENARIOS[id] ?? findPreset(id)?.scenario;
  if (!scenario) {
    rootEl?.append(`Unknown scenario ${id}`);
    return;
  }
  const trace = runScenario(scenario);
  const step = stepParam === null ? trace.steps.length : Math.max(0, Math.min(Number(stepParam), trace.steps.length));
  const view = stateAt(trace, step);
  function Page() {
    const [selection, setSelection] = useState<Selection | null>(null);
    return createElement(TraceTimeline, {
      trace,
      view,
      step,
      selection,
      onSelect: setSelection,
      internalTopicsExpanded: params.has('internal'),
    });
  }
  root.render(createElement(Page));
}

const scenario = params.get('scenario');
if (scenario) scenarioTimeline(scenario, params.get('step'));
else benchLanes(Number(params.get('records') ?? 1000));
