/**
 * Timeline frame time in Chromium: builds bench/timeline.html (its own Vite build, independent of
 * the app's and of Vitest), serves it, and for 1k and 100k records pans and zooms the real
 * partition-lanes component frame by frame, measuring the milliseconds each frame takes from the
 * zoom event to rasterised pixels.
 *
 * `measureTimelineFrames()` is what `npm run bench` calls; `npx tsx bench/timelineFrame.ts` prints
 * the figures on its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { launchBrowser } from '../e2e/browser';
import { type PreviewedApp, previewBuild } from './previewServer';
import type { FrameStats } from './timelinePage';

export interface TimelineFrameResult {
  readonly records: number;
  /** Average milliseconds per pan/zoom frame. */
  readonly msPerFrame: number;
  readonly p95Ms: number;
  /** Of msPerFrame: JS (zoom event, drawing commands) and rasterisation. */
  readonly drawMs: number;
  readonly rasterMs: number;
  /** How the big lane was drawn: one cell per record, or aggregated pixels. */
  readonly mode: 'cells' | 'bins';
}

export interface TimelineFrameOptions {
  readonly sizes?: readonly number[];
  readonly frames?: number;
  readonly warmupFrames?: number;
  /** Measurements per size; the median one is reported. */
  readonly rounds?: number;
}

const ROOT = resolve(import.meta.dirname, '..');

async function buildPage(outDir: string): Promise<void> {
  // a production React build, whatever NODE_ENV the calling process has (Vitest sets "test")
  await build({
    mode: 'production',
    configFile: false,
    root: ROOT,
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 8192,
      rollupOptions: { input: { timeline: join(ROOT, 'bench/timeline.html') } },
    },
  });
}

export async function measureTimelineFrames(options: TimelineFrameOptions = {}): Promise<TimelineFrameResult[]> {
  const sizes = options.sizes ?? [1000, 100000];
  const frames = options.frames ?? 200;
  const warmup = options.warmupFrames ?? 40;
  const outDir = mkdtempSync(join(tmpdir(), 'eos-timeline-bench-'));
  let server: PreviewedApp | undefined;
  const browser = await launchBrowser();
  try {
    await buildPage(outDir);
    server = await previewBuild({ configFile: false, base: './', build: { outDir } });
    // several rounds, sizes interleaved, and the median round per size: other work on the machine
    // shows up as noise in single runs
    const rounds = new Map<number, FrameStats[]>(sizes.map((n) => [n, []]));
    for (let round = 0; round < (options.rounds ?? 3); round++)
      for (const records of sizes) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${server.base}bench/timeline.html?records=${records}`);
        await page.waitForFunction(() => window.__timelineBench !== undefined, undefined, { timeout: 60000 });
        await page.evaluate(() => window.__timelineBench?.ready);
        await page.evaluate((n) => window.__timelineBench?.run(n), warmup);
        const stats = (await page.evaluate((n) => window.__timelineBench?.run(n), frames)) as FrameStats | undefined;
        await page.close();
        if (!stats || errors.length)
          throw new Error(`timeline benchmark failed at ${records} records: ${errors.join('; ') || 'no result'}`);
        rounds.get(records)?.push(stats);
      }
    const results: TimelineFrameResult[] = sizes.map((records) => {
      const all = [...(rounds.get(records) ?? [])].sort((a, b) => a.msPerFrame - b.msPerFrame);
      const s = all[Math.floor(all.length / 2)] as FrameStats;
      return { records, msPerFrame: s.msPerFrame, p95Ms: s.p95Ms, drawMs: s.drawMs, rasterMs: s.rasterMs, mode: s.mode };
    });
    return results;
  } finally {
    await browser.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await measureTimelineFrames();
  for (const r of results)
    console.log(
      `${String(r.records).padStart(7)} records  ${r.msPerFrame.toFixed(2)} ms/frame (draw ${r.drawMs.toFixed(2)} + raster ${r.rasterMs.toFixed(2)})  p95 ${r.p95Ms.toFixed(2)} ms  (${r.mode})`,
    );
  const [small, big] = results;
  if (small && big) console.log(`ratio 100k / 1k: ${(big.msPerFrame / small.msPerFrame).toFixed(2)} (target ≤ 2, and < 16.7 ms at 100k)`);
}
