/**
 * Embedding in a real docs site: builds a small VitePress site (under a sub-path, /handbook/) whose
 * page embeds two scenarios through <eos-lab>, with the built EOS Lab copied into its public dir,
 * serves it from a plain static server on 127.0.0.1 that sends no CORS headers (as many hosts do),
 * and checks in Chromium that both sandboxed frames render and obey play/seek sent by postMessage
 * from the page.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { runScenario } from '../src/sim/run';
import { encodeLink } from '../src/sim/scenario/link';
import { launchBrowser, screenshot, watchErrors } from './browser';

const SITE = resolve('e2e/.docs-site');
const DOCS = join(SITE, 'docs');
const OUT = join(DOCS, '.vitepress/dist');
const BASE = '/handbook/';

const story = findPreset('opening-story')!;
const storySteps = runScenario(story.scenario).steps.length;
const secondLink = encodeLink(story.scenario, { step: 20, selection: null, language: 'ko' });

function writeSite(): void {
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(join(DOCS, '.vitepress'), { recursive: true });
  writeFileSync(
    join(DOCS, '.vitepress/config.mjs'),
    `export default {
  base: '${BASE}',
  title: 'Kafka EOS handbook',
  head: [
    ['link', { rel: 'icon', href: 'data:,' }],
    ['script', { src: '${BASE}eos-lab/eos-lab.js', defer: '' }],
  ],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'eos-lab' } } },
};
`,
  );
  writeFileSync(
    join(DOCS, 'index.md'),
    `# Exactly once — of what?

Idempotence is on, and the consumer still got the order twice:

<eos-lab id="first" scenario="opening-story" step="4"></eos-lab>

The same run from a share link, in Korean and dark:

<eos-lab id="second" scenario="${secondLink}" theme="dark"></eos-lab>
`,
  );
  cpSync(resolve('dist'), join(DOCS, 'public/eos-lab'), { recursive: true });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** A static host with no CORS headers at all, serving the site under BASE. */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(BASE)) {
      res.writeHead(404).end();
      return;
    }
    let file = normalize(join(dir, path.slice(BASE.length)));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      ok({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${BASE}` });
    }),
  );
}

let browser: Browser;
let site: { server: Server; url: string };

beforeAll(async () => {
  expect(existsSync('dist/embed.html') && existsSync('dist/eos-lab.js')).toBe(true);
  writeSite();
  const built = spawnSync(process.execPath, [resolve('node_modules/vitepress/bin/vitepress.js'), 'build', DOCS], {
    encoding: 'utf8',
    timeout: 150_000,
  });
  if (built.status !== 0) throw new Error(`VitePress build failed:\n${built.stdout}\n${built.stderr}`);
  site = await serve(OUT);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => (site ? site.server.close(ok) : ok(null)));
});

interface Seen {
  frame: string;
  type: string;
  step?: number;
  steps?: number;
  playing?: boolean;
  message?: string;
}

/** Records every eos-lab message the page receives, with the id of the <eos-lab> whose frame sent it. */
async function openDocsPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = watchErrors(page);
  await page.addInitScript(() => {
    const w = window as unknown as { seen: unknown[] };
    w.seen = [];
    window.addEventListener('message', (e) => {
      if (!e.data || e.data.source !== 'eos-lab') return;
      const from = [...document.querySelectorAll('eos-lab')].find(
        (el) => el.shadowRoot?.querySelector('iframe')?.contentWindow === e.source,
      );
      w.seen.push({
        frame: from?.id ?? '?',
        type: e.data.type,
        step: e.data.step,
        steps: e.data.steps,
        playing: e.data.playing,
        message: e.data.message,
      });
    });
  });
  await page.goto(site.url);
  return { page, errors };
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
const lastStep = async (page: Page, frame: string) =>
  (await seen(page)).filter((m) => m.frame === frame && m.type === 'step').at(-1)?.step ?? -1;

function post(page: Page, id: string, message: unknown): Promise<void> {
  return page.evaluate(
    ([id, message]) => {
      const frame = document.getElementById(id as string)?.shadowRoot?.querySelector('iframe');
      frame?.contentWindow?.postMessage(message, '*');
    },
    [id, message] as const,
  );
}

async function embedFrame(page: Page, id: string): Promise<Frame> {
  const handle = await page.locator(`eos-lab#${id}`).evaluateHandle((el) => el.shadowRoot?.querySelector('iframe'));
  const frame = await handle.asElement()?.contentFrame();
  if (!frame) throw new Error(`no frame for ${id}`);
  return frame;
}

describe('embedding in a VitePress site', () => {
  it('renders both <eos-lab> frames, sandboxed, from a host without CORS headers', async () => {
    const { page, errors } = await openDocsPage();
    await page.getByRole('heading', { name: /Exactly once/ }).waitFor();
    // each frame loads the embed bundle and runs its scenario: on a loaded machine that takes seconds
    await expect
      .poll(
        async () =>
          (await seen(page))
            .filter((m) => m.type === 'ready')
            .map((m) => m.frame)
            .sort(),
        { timeout: 30_000 },
      )
      .toEqual(['first', 'second']);
    const ready = (await seen(page)).filter((m) => m.type === 'ready');
    expect(ready.find((m) => m.frame === 'first')).toMatchObject({ step: 4, steps: storySteps });
    expect(ready.find((m) => m.frame === 'second')).toMatchObject({ step: 20, steps: storySteps });
    for (const id of ['first', 'second']) {
      expect(
        await page.locator(`eos-lab#${id}`).evaluate((el) => el.shadowRoot?.querySelector('iframe')?.getAttribute('sandbox')),
      ).toContain('allow-scripts');
      expect(
        await page.locator(`eos-lab#${id}`).evaluate((el) => el.shadowRoot?.querySelector('iframe')?.getAttribute('sandbox')),
      ).not.toContain('allow-same-origin');
      const frame = await embedFrame(page, id);
      await frame.getByTestId('embed').waitFor();
      // the second frame's link asks for Korean
      const title = id === 'second' ? PRESET_TEXT_KO['opening-story']?.title : story.title;
      await expect.poll(() => frame.getByRole('heading', { level: 1 }).innerText()).toBe(title);
      // resized to its content by the loader (once the run's panels, which come from its worker, are drawn).
      // Chromium does not render a cross-origin frame while it is off screen, so its ResizeObserver waits
      // until the reader scrolls to it: when the first frame has grown first, the second is below the fold.
      await page.locator(`eos-lab#${id}`).scrollIntoViewIfNeeded();
      await expect
        .poll(
          () => page.locator(`eos-lab#${id}`).evaluate((el) => el.shadowRoot?.querySelector('iframe')?.getBoundingClientRect().height ?? 0),
          { timeout: 15_000 },
        )
        .toBeGreaterThan(150);
    }
    const second = await embedFrame(page, 'second');
    expect(await second.getByTestId('embed-play').innerText()).toContain('재생');
    // at step 20 of the opening story the first send has landed: a record is on screen
    expect(Number(await second.locator('[data-testid="embed-logs"] li').first().getAttribute('data-records'))).toBeGreaterThan(0);
    expect(await second.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await screenshot(page, 'embed-vitepress');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('both frames obey seek, play and pause sent by postMessage, and report their step', async () => {
    const { page } = await openDocsPage();
    // each frame starts its engine's worker after its first paint: on a loaded machine that takes seconds
    await expect.poll(async () => (await seen(page)).filter((m) => m.type === 'ready').length, { timeout: 30_000 }).toBe(2);

    for (const [id, target] of [
      ['first', 30],
      ['second', 2],
    ] as const) {
      await post(page, id, { type: 'seek', step: target });
      await expect.poll(() => lastStep(page, id)).toBe(target);
      const frame = await embedFrame(page, id);
      expect(await frame.getByTestId('embed-step').getAttribute('data-step')).toBe(String(target));
    }
    const first = await embedFrame(page, 'first');
    await post(page, 'first', { type: 'seek', step: storySteps });
    await expect.poll(() => lastStep(page, 'first')).toBe(storySteps);
    expect(Number(await first.locator('[data-testid="embed-logs"] li').first().getAttribute('data-records'))).toBeGreaterThanOrEqual(2);

    for (const id of ['first', 'second']) {
      await post(page, id, { type: 'seek', step: 5 });
      await expect.poll(() => lastStep(page, id)).toBe(5);
      await post(page, id, { type: 'play' });
      await expect.poll(() => lastStep(page, id), { timeout: 10_000 }).toBeGreaterThan(7);
      await post(page, id, { type: 'pause' });
      await expect
        .poll(async () => (await seen(page)).filter((m) => m.frame === id && m.type === 'step').at(-1))
        .toMatchObject({ playing: false });
      const paused = await lastStep(page, id);
      await page.waitForTimeout(500);
      expect(await lastStep(page, id)).toBe(paused);
    }

    // a malformed command is answered with an error to the sender, and changes nothing
    const before = await lastStep(page, 'second');
    await post(page, 'second', { type: 'seek', step: -3 });
    await expect.poll(async () => (await seen(page)).filter((m) => m.frame === 'second' && m.type === 'error').length).toBe(1);
    expect((await seen(page)).find((m) => m.type === 'error')?.message).toMatch(/^seek: step/);
    expect(await (await embedFrame(page, 'second')).getByTestId('embed-step').getAttribute('data-step')).toBe(String(before));

    // the custom element's own methods send the same commands
    await page.locator('eos-lab#second').evaluate((el) => (el as HTMLElement & { seek(n: number): void }).seek(11));
    await expect.poll(() => lastStep(page, 'second')).toBe(11);
    await page.close();
  });

  it('embed.html needs neither the history API nor storage, and explains a bad link', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    // as in restrictive webviews and sandboxed frames: history changes and storage throw
    await page.addInitScript(() => {
      const blocked = () => {
        throw new DOMException('blocked by the host', 'SecurityError');
      };
      history.replaceState = blocked;
      history.pushState = blocked;
      for (const name of ['localStorage', 'sessionStorage', 'indexedDB']) Object.defineProperty(window, name, { get: blocked });
    });
    await page.goto(`${site.url}eos-lab/embed.html?preset=opening-story&step=10&theme=light`);
    await expect.poll(() => page.getByTestId('embed-step').getAttribute('data-step')).toBe('10');
    expect(await page.evaluate(() => location.hash)).toBe('');
    // a mistyped preset id says so, as the page does, instead of showing the default scenario
    await page.goto(`${site.url}eos-lab/embed.html?preset=Zombie-Fencing`);
    await page.getByTestId('link-error').waitFor();
    expect(await page.getByTestId('link-error').innerText()).toContain('No shipped scenario is called "Zombie-Fencing"');
    // and names the embed's own address form, not the page's #preset=
    expect(await page.getByTestId('link-error').innerText()).toContain('embed.html?preset=<id>');
    expect(await page.getByTestId('link-error').innerText()).not.toContain('#preset=');
    // lang=ko opens in Korean; a language the embed does not have opens as before and says so, in that language
    await page.goto(`${site.url}eos-lab/embed.html?preset=opening-story&lang=ko`);
    await expect.poll(() => page.getByTestId('embed').getAttribute('lang')).toBe('ko');
    expect(await page.getByTestId('language-not-supported').count()).toBe(0);
    await page.goto(`${site.url}eos-lab/embed.html?preset=opening-story&lang=fr`);
    await page.getByTestId('language-not-supported').waitFor();
    expect(await page.getByTestId('language-not-supported').innerText()).toContain('“fr”, which EOS Lab does not have');
    await page.getByTestId('embed-step').waitFor();
    await page.goto(`${site.url}eos-lab/embed.html#s=1.not*a*link`);
    await page.getByTestId('link-error').waitFor();
    expect(await page.getByTestId('link-error').getAttribute('data-kind')).toBe('corrupt');
    await page.getByRole('button', { name: 'Open the default scenario' }).click();
    await page.getByTestId('embed-step').waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('#s=1.not*a*link');
    expect(errors).toEqual([]);
    await page.close();
  });
});
