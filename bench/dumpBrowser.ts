/**
 * Dump import in Chromium: the built app (dist/, served by `vite preview`) is given a 100,000-record
 * kafka-dump-log.sh dump as a dropped file; measured in the page from the drop to the lane drawn
 * (the dump view's lane image present, two frames later), and every long task (PerformanceObserver
 * 'longtask', > 50 ms by definition) in that window. Parsing and analysis run in the Web Worker; the
 * main thread reads the file, posts it, receives the analysis and draws.
 *
 * `measureDumpImport()` is what `npm run bench` calls (after its build); `npx tsx bench/dumpBrowser.ts`
 * prints the figures on its own (building dist/ first unless --skip-build).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../e2e/browser';
import { bigDump } from './dumpData';
import { type PreviewedApp, previewBuild } from './previewServer';

export interface DumpImportResult {
  readonly records: number;
  readonly kb: number;
  /** Drop → lane drawn, ms (median round). */
  readonly ms: number;
  /** The longest task on the main thread in that window, ms (0: none over 50 ms). */
  readonly longestTaskMs: number;
  readonly longTasks: number;
}

const ROOT = resolve(import.meta.dirname, '..');

declare global {
  interface Window {
    __longTasks?: { start: number; duration: number }[];
  }
}

export async function measureDumpImport(records = 100000, rounds = 3): Promise<DumpImportResult> {
  const text = bigDump(records);
  let server: PreviewedApp | undefined;
  const browser = await launchBrowser();
  try {
    server = await previewBuild();
    const results: DumpImportResult[] = [];
    for (let round = 0; round < rounds; round++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // tsx keeps function names with a __name helper the page does not have
      await page.addInitScript({ content: 'window.__name = (f) => f;' });
      await page.addInitScript(() => {
        window.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longTasks?.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(server.base);
      await page.getByTestId('timeline').waitFor({ timeout: 60000 });
      await page.getByTestId('import-dump').click();
      await page.getByTestId('dump-import').waitFor();
      // the file is made before the clock starts: a person's file is already on their disk
      const dt = await page.evaluateHandle((t) => {
        const d = new DataTransfer();
        d.items.add(new File([t], '00000000000000000000.log.txt', { type: 'text/plain' }));
        return d;
      }, text);
      await page.waitForTimeout(300);
      const r = await page.evaluate(async (transfer) => {
        const zone = document.querySelector('[data-testid="dump-import"]');
        if (!zone) throw new Error('no import panel');
        const frame = () => new Promise<number>((f) => requestAnimationFrame(f));
        const t0 = performance.now();
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
        for (;;) {
          await frame();
          if (document.querySelector('[data-testid="dump-view"] [role="img"][aria-label^="bench-0: "]')) break;
          if (performance.now() - t0 > 60000) throw new Error('the dump view did not appear in 60 s');
        }
        await frame();
        await frame();
        const t1 = performance.now();
        // a task that began in the window (tasks before the drop, e.g. making the file, are not counted)
        const tasks = (window.__longTasks ?? []).filter((x) => x.start >= t0 && x.start <= t1);
        return {
          ms: t1 - t0,
          longest: Math.max(0, ...tasks.map((x) => x.duration)),
          count: tasks.length,
          tasks: tasks.map((x) => `${Math.round(x.start - t0)}+${Math.round(x.duration)}`).join(' '),
        };
      }, dt);
      await page.close();
      if (errors.length) throw new Error(`dump import benchmark: ${errors.join('; ')}`);
      if (process.env.DUMP_BENCH_TASKS) console.log(`  round ${round}: ${Math.round(r.ms)} ms, long tasks (start+duration ms): ${r.tasks}`);
      results.push({ records, kb: Math.round(text.length / 1024), ms: r.ms, longestTaskMs: r.longest, longTasks: r.count });
    }
    return [...results].sort((a, b) => a.ms - b.ms)[Math.floor(results.length / 2)] as DumpImportResult;
  } finally {
    await browser.close();
    await server?.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.argv.includes('--skip-build')) execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  const r = await measureDumpImport();
  console.log(
    `${r.records} records (${r.kb} KB): drop → drawn ${r.ms.toFixed(0)} ms (target ≤ 2000), longest task ${r.longestTaskMs.toFixed(0)} ms over ${r.longTasks} long task(s) (target ≤ 50)`,
  );
}
