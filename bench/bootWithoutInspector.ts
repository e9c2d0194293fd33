/**
 * A boot as a visitor's browser makes it: Chromium with no inspector attached to the page.
 *
 * Why: Playwright drives Chromium over CDP with the Runtime domain on, and under an inspector V8
 * captures a detailed stack trace for every Error constructed — for the first one, re-parsing every
 * function on the stack to find source positions it compiled without. React DOM makes five sentinel
 * errors as its module loads, so under CDP its evaluation took 40–190 ms more than a visitor's
 * (docs/architecture.md, "The boots' longest tasks, third round"). Here Chromium is started with
 * `--remote-debugging-pipe` and only its browser target is spoken to: `Target.createTarget` opens
 * the page, and nothing attaches to it (no `Target.attachToTarget`, no auto-attach), so the page
 * runs with no V8 inspector session. The page reports its own figures: the preview server adds a
 * script at the top of the HTML (a PerformanceObserver for long tasks, a check for the interactive
 * element each frame) that POSTs them back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { CHROMIUM_ARGS } from '../e2e/browser';
import type { BootResult } from './longTasks';
import { type PreviewedApp, previewBuild } from './previewServer';

const ROOT = resolve(import.meta.dirname, '..');
const REPORT_PATH = '/__boot-report';

/** What the page posts: the same figures `bootFigures` in longTasks.ts reads over CDP. */
interface PageReport {
  readonly firstPaintMs: number;
  readonly interactiveMs: number;
  readonly maxTaskMs: number;
  readonly scripts: readonly string[];
}

/** The script put first in the page's <head>; `selector` is the boot's interactive element. */
function reporterScript(selector: string): string {
  return `<script>(() => {
  const tasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) tasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  const selector = ${JSON.stringify(selector)};
  const check = () => {
    if (!document.querySelector(selector)) return requestAnimationFrame(check);
    const interactiveMs = performance.now();
    // two frames more, so that the render after the store's change is counted (as over CDP)
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const scripts = performance.getEntriesByType('resource')
        .filter((e) => /\\.js(\\?|$)/.test(e.name) && e.startTime <= interactiveMs)
        .map((e) => new URL(e.name).pathname);
      fetch(${JSON.stringify(REPORT_PATH)}, { method: 'POST', body: JSON.stringify({
        firstPaintMs: paint ? paint.startTime : -1, interactiveMs, maxTaskMs: Math.max(0, ...tasks), scripts,
      }) });
    }));
  };
  requestAnimationFrame(check);
})();</script>`;
}

/** The preview server's side: the HTML with the reporter first, and the report's endpoint. */
class BootReports {
  selector = '';
  private waiting: ((r: PageReport) => void) | null = null;

  next(selector: string): Promise<PageReport> {
    this.selector = selector;
    return new Promise((done) => {
      this.waiting = done;
    });
  }

  plugin(): Plugin {
    return {
      name: 'eos-lab-bench-boot-reports',
      configurePreviewServer: (server) => {
        server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
          const path = new URL(req.url ?? '/', 'http://x').pathname;
          if (req.method === 'POST' && path === REPORT_PATH) {
            let body = '';
            req.on('data', (c) => {
              body += c;
            });
            req.on('end', () => {
              res.end();
              this.waiting?.(JSON.parse(body) as PageReport);
              this.waiting = null;
            });
            return;
          }
          const html = path === '/' || path === '/index.html' ? 'index.html' : path === '/embed.html' ? 'embed.html' : null;
          if (req.method !== 'GET' || html === null) return next();
          const page = readFileSync(join(ROOT, 'dist', html), 'utf8');
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(page.replace(/<head>/i, `<head>${reporterScript(this.selector)}`));
        });
      },
    };
  }
}

/** Chromium over a CDP pipe (fds 3 and 4, NUL-separated JSON), spoken to at the browser target only. */
class PipedBrowser {
  private readonly process: ChildProcess;
  private readonly profile = mkdtempSync(join(tmpdir(), 'eos-lab-boot-'));
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, (result: Record<string, unknown>) => void>();

  constructor() {
    this.process = spawn(
      process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      [
        ...CHROMIUM_ARGS,
        // as Playwright launches it: a window opened over CDP is never treated as a background one
        // (a visitor's tab is in the foreground), so its renderer is not given a background priority
        '--disable-renderer-backgrounding',
        '--disable-backgrounding-occluded-windows',
        '--disable-background-timer-throttling',
        '--remote-debugging-pipe',
        `--user-data-dir=${this.profile}`,
        '--window-size=1280,720',
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
    );
    const out = this.process.stdio[4] as NodeJS.ReadableStream;
    out.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      let end = this.buffer.indexOf('\0');
      while (end >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end)) as { id?: number; result?: Record<string, unknown> };
        this.buffer = this.buffer.slice(end + 1);
        if (message.id !== undefined) {
          this.pending.get(message.id)?.(message.result ?? {});
          this.pending.delete(message.id);
        }
        end = this.buffer.indexOf('\0');
      }
    });
  }

  send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    (this.process.stdio[3] as NodeJS.WritableStream).write(`${JSON.stringify({ id, method, params })}\0`);
    return new Promise((done) => this.pending.set(id, done));
  }

  /** Closes the browser (Browser.close, so its helper processes stop writing too), then removes its profile. */
  async close(): Promise<void> {
    const exited = new Promise((done) => this.process.once('exit', done));
    if (this.process.exitCode === null) {
      const killer = setTimeout(() => this.process.kill('SIGKILL'), 10000);
      void this.send('Browser.close', {});
      await exited;
      clearTimeout(killer);
    }
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/** The boots to measure: a URL (after the server's base) and the element that makes it interactive. */
export interface BootToMeasure {
  readonly path: string;
  readonly selector: string;
  readonly viewport: { readonly width: number; readonly height: number };
}

/**
 * Each boot in a browser of its own, in turn (a boot in a browser that has already shown a page made
 * tasks of 300–500 ms before any script ran, with or without a browser context of its own: the first
 * boot of a browser made none); the JavaScript fetched is counted gzipped from dist/.
 */
export async function bootsWithoutInspector(boots: readonly BootToMeasure[]): Promise<BootResult[]> {
  const reports = new BootReports();
  const server: PreviewedApp = await previewBuild({ plugins: [reports.plugin()] });
  try {
    const results: BootResult[] = [];
    for (const boot of boots) {
      const browser = new PipedBrowser();
      try {
        const report = reports.next(boot.selector);
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, fail) => {
          timer = setTimeout(() => fail(new Error(`no boot report from ${boot.path} in 120 s`)), 120000);
        });
        await browser.send('Target.createTarget', {
          url: `${server.base}${boot.path}`,
          newWindow: true,
          width: boot.viewport.width,
          height: boot.viewport.height,
        });
        const r = await Promise.race([report, timeout]).finally(() => clearTimeout(timer));
        let gz = 0;
        for (const path of new Set(r.scripts))
          gz += gzipSync(readFileSync(join(ROOT, 'dist', path.replace(/^\//, ''))), { level: 9 }).length;
        results.push({ firstPaintMs: r.firstPaintMs, interactiveMs: r.interactiveMs, maxTaskMs: r.maxTaskMs, jsKb: gz / 1024 });
      } finally {
        await browser.close();
      }
    }
    return results;
  } finally {
    await server.close();
  }
}
