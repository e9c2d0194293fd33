/**
 * The embed explains, as the app does: its narration is the app's sentences (not raw event text),
 * in the link's language; the verdict sits inside the plain iframe's default height for every
 * preset; a page that allows a script sizes the plain iframe from its resize messages with the
 * snippet the Embed dialog gives (no height before the run is on screen, so the frame never shrinks
 * to its header first); its "Open in EOS Lab" link opens the full app at the step shown, made when the
 * reader reaches for it; the page's short address (#preset=<id>) opens there too; and axe finds no
 * violations in either theme or language; a fragment the host changes after load opens its scenario.
 * Its button forward says what it does — "Next step" / "다음 단계", its accessible name, the run one
 * step on — where it used to say only "Step" (step what?); the bar stays one row in a narrow frame.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IFRAME_DEFAULT_HEIGHT, iframeSnippet, resizeListenerSnippet } from '../src/share/embedSnippets';
import { narrate } from '../src/sim/narration';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { decodeLink, encodeLink } from '../src/sim/scenario/link';
import { launchBrowser, watchErrors } from './browser';
import { axe } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const embedPage = (query: string, hash = '') => `${inject('baseUrl')}embed.html${query}${hash}`;

describe('the embed explains', () => {
  it('narrates each step with the app’s sentences, in English and in Korean, and ends with the run’s end sentence', async () => {
    const preset = findPreset('zombie-fencing');
    if (!preset) throw new Error('zombie-fencing');
    const trace = runScenario(preset.scenario);
    const page = await browser.newPage({ viewport: { width: 720, height: IFRAME_DEFAULT_HEIGHT } });
    const errors = watchErrors(page);
    await page.goto(embedPage('?preset=zombie-fencing&step=40'));
    // the run lands from the engine's worker: on a loaded machine that is more than the poll's default second
    await expect.poll(() => page.getByTestId('embed-narration-text').innerText(), { timeout: 30_000 }).toBe(narrate(trace, 39, 'en'));
    // not the kernel's event text ("broker-0: Produce (online → online)")
    expect(await page.getByTestId('embed-narration-text').innerText()).not.toMatch(/\(\S+ → \S+\)/);
    // the playback bar writes the step's virtual time as the narration's line above it does ("1,104 ms")
    const meta = await page.locator('.eos-embed-meta').innerText();
    const time = meta.match(/^#40 · ([\d,]+ ms)/)?.[1];
    expect(time).toMatch(/,/);
    expect(await page.getByTestId('embed-step').innerText()).toBe(`40 / ${trace.steps.length} · ${time}`);
    await page.goto(embedPage('', encodeLink(preset.scenario, { step: 40, selection: null, language: 'ko' })));
    await expect.poll(() => page.getByTestId('embed-narration-text').innerText(), { timeout: 30_000 }).toBe(narrate(trace, 39, 'ko'));
    await page.goto(embedPage(`?preset=zombie-fencing&step=${trace.steps.length}`));
    await page.getByTestId('embed-narration').locator('.eos-embed-end').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens the page's short address pasted after embed.html (#preset=<id>&step=<n>&lang=ko), and says so of an unknown id", async () => {
    // embed.html#preset=… used to show the default scenario (opening-story), whatever the id
    const preset = findPreset('lost-ack-idempotent');
    if (!preset) throw new Error('lost-ack-idempotent');
    const trace = runScenario(preset.scenario);
    const page = await browser.newPage({ viewport: { width: 720, height: IFRAME_DEFAULT_HEIGHT } });
    const errors = watchErrors(page);
    await page.goto(embedPage('', '#preset=lost-ack-idempotent&step=5&lang=ko'));
    await expect.poll(() => page.getByTestId('embed-narration-text').innerText(), { timeout: 30_000 }).toBe(narrate(trace, 4, 'ko'));
    expect(await page.getByTestId('embed-step').getAttribute('data-step')).toBe('5');
    await page.goto(embedPage('', '#preset=no-such-scenario'));
    await page.reload();
    await page.getByTestId('link-error-message').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('link-error-message').innerText()).toContain('"no-such-scenario"');
    expect(await page.getByTestId('embed-verdict').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('follows a fragment the host changes after load: a preset, a share link, and a bad fragment said as text in place of the run', async () => {
    const fencing = findPreset('zombie-fencing');
    const lost = findPreset('lost-ack-idempotent');
    if (!fencing || !lost) throw new Error('presets');
    const lostTrace = runScenario(lost.scenario);
    const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
    const errors = watchErrors(page);
    // a host page whose frame it points elsewhere by changing the iframe's fragment only (no reload)
    await page.setContent(
      `<iframe id="e" sandbox="allow-scripts" style="width:860px;height:740px" src="${embedPage('', '#preset=zombie-fencing')}"></iframe>`,
    );
    const frame = page.frameLocator('#e');
    const title = () => frame.locator('h1').innerText();
    await expect.poll(title, { timeout: 30_000 }).toBe(fencing.title);
    const point = (hash: string) =>
      page.evaluate(
        ([base, h]) => {
          (document.getElementById('e') as HTMLIFrameElement).src = base + h;
        },
        [embedPage(''), hash] as const,
      );
    // the page's short address, with its step and language
    await point('#preset=lost-ack-idempotent&step=5&lang=ko');
    await expect.poll(() => frame.getByTestId('embed-narration-text').innerText(), { timeout: 30_000 }).toBe(narrate(lostTrace, 4, 'ko'));
    expect(await frame.getByTestId('embed-step').getAttribute('data-step')).toBe('5');
    // a bad fragment: the embed's error, its words as text, and no run under it to mistake for the one named
    await point('#preset=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E');
    await frame.getByTestId('link-error-message').waitFor({ timeout: 30_000 });
    expect(await frame.getByTestId('link-error-message').innerText()).toContain('"<img src=x onerror=alert(1)>"');
    expect(await frame.locator('img[src="x"]').count()).toBe(0);
    expect(await frame.getByTestId('embed-verdict').count()).toBe(0);
    expect(await frame.getByTestId('embed-narration').count()).toBe(0);
    expect(await title()).toBe('EOS Lab');
    // a share link: the error gives way to its run
    await point(encodeLink(fencing.scenario, { step: 12, selection: null, language: 'en' }));
    await expect.poll(title, { timeout: 30_000 }).toBe(fencing.title);
    await expect.poll(() => frame.getByTestId('embed-step').getAttribute('data-step')).toBe('12');
    expect(await frame.getByTestId('link-error').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the whole verdict inside the plain iframe’s default height, for every preset at its end', async () => {
    const page = await browser.newPage({ viewport: { width: 640, height: IFRAME_DEFAULT_HEIGHT } });
    const cut: string[] = [];
    for (const { id } of PRESETS) {
      await page.goto(embedPage(`?preset=${id}&step=1000000`));
      await page.locator('[data-testid="embed-verdict"] li').first().waitFor();
      const box = await page.getByTestId('embed-verdict').boundingBox();
      if (!box || box.y + box.height > IFRAME_DEFAULT_HEIGHT) cut.push(`${id}: ends at ${box && Math.round(box.y + box.height)}`);
    }
    expect(cut).toEqual([]);
    await page.close();
    // every preset opens in a fresh page whose worker loads the engine: minutes on a loaded machine
  }, 300_000);

  it('a host page that allows a script sizes the plain iframe to its content with the dialog’s listener', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    const errors = watchErrors(page);
    const base = inject('baseUrl');
    const story = findPreset('opening-story');
    if (!story) throw new Error('opening-story');
    const link = encodeLink(story.scenario, { step: 0, selection: null, language: 'en' });
    const snippet = iframeSnippet({ pageHref: base, link, title: 'opening story', step: 0, autoplay: false, theme: 'light', height: null });
    expect(snippet).toContain(`height="${IFRAME_DEFAULT_HEIGHT}"`);
    // the host also records every message the frame sends, in order
    const record = `<script>window.seen=[];addEventListener('message',(e)=>{if(e.data?.source==='eos-lab')seen.push({type:e.data.type,height:e.data.height})});</script>`;
    await page.setContent(`${record}<main><h1>Host</h1>${snippet}</main>${resizeListenerSnippet()}`);
    const frame = page.locator('iframe');
    // once the run is on screen in the frame, the listener sizes the frame to the frame's content
    await page.frameLocator('iframe').getByTestId('embed-verdict').waitFor({ timeout: 60_000 });
    const contentHeight = async () =>
      (await (
        await frame.elementHandle()
      )
        ?.contentFrame()
        .then((f) => f?.evaluate(() => Math.ceil(document.getElementById('root')?.getBoundingClientRect().height ?? 0)))) ?? 0;
    await expect
      .poll(async () => Math.abs(((await frame.boundingBox())?.height ?? 0) - (await contentHeight())), { timeout: 15_000 })
      .toBeLessThanOrEqual(1);
    expect((await frame.boundingBox())?.height).not.toBe(IFRAME_DEFAULT_HEIGHT);
    const content = await contentHeight();
    // no height while the frame showed its skeleton or waited for the run: the host's frame kept its
    // own height until the run was on screen, then took the content's (it never shrank to a header)
    const seen = await page.evaluate(() => (window as unknown as { seen: { type: string; height?: number }[] }).seen);
    const resizes = seen.filter((m) => m.type === 'resize');
    expect(resizes.length).toBeGreaterThan(0);
    expect(seen.findIndex((m) => m.type === 'ready')).toBeLessThan(seen.findIndex((m) => m.type === 'resize'));
    expect(resizes[0]?.height).toBe(content);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('"Open in EOS Lab" opens the full app at the step and language shown, made when the reader reaches for it', async () => {
    const preset = findPreset('zombie-fencing');
    if (!preset) throw new Error('zombie-fencing');
    const context = await browser.newContext({ viewport: { width: 800, height: 700 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(embedPage('', encodeLink(preset.scenario, { step: 40, selection: null, language: 'ko' })));
    const link = page.getByTestId('embed-open-app');
    const shown = async () => Number(await page.getByTestId('embed-step').getAttribute('data-step'));
    const linked = async () => {
      const d = decodeLink((await link.getAttribute('href')) ?? '');
      if (!d.ok) throw new Error(d.error.message);
      expect(d.scenario.id).toBe('zombie-fencing');
      return d.view;
    };
    // the view rests (once the run has landed from the worker): the link follows it
    await expect.poll(async () => (await linked()).step, { timeout: 30_000 }).toBe(40);
    expect((await linked()).language).toBe('ko');
    // a step forward, and at once the reader points at the link: it names the step shown, not the one before
    await page.getByRole('button', { name: '다음 단계', exact: true }).click();
    await expect.poll(shown).toBeGreaterThan(40);
    await link.hover();
    expect((await linked()).step).toBe(await shown());
    // followed, it opens the app at that step
    const [app] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await app.waitForFunction(() => window.__eosLab?.store.getState().status === 'ready', undefined, { timeout: 60_000 });
    expect(await app.evaluate(() => window.__eosLab?.store.getState().step)).toBe(await shown());
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const [language, next, back] of [
    ['en', 'Next step', 'Back'],
    ['ko', '다음 단계', '이전'],
  ] as const)
    it(`${language}: the button forward is named “${next}” and moves the run one step on; the bar stays one row at 320 px`, async () => {
      const page = await browser.newPage({ viewport: { width: 320, height: IFRAME_DEFAULT_HEIGHT } });
      const errors = watchErrors(page);
      await page.goto(embedPage(`?preset=opening-story&step=9&lang=${language}`));
      const shown = async () => Number(await page.getByTestId('embed-step').getAttribute('data-step'));
      await expect.poll(shown, { timeout: 30_000 }).toBe(9);
      const forward = page.getByRole('button', { name: next, exact: true });
      expect(await forward.getAttribute('data-testid')).toBe('embed-next-step');
      // its title says more, in the same language (no English in the Korean one)
      const title = (await forward.getAttribute('title')) ?? '';
      expect(title).toContain(language === 'en' ? 'one step' : '한 단계');
      if (language === 'ko') expect(title).not.toMatch(/[A-Za-z]/);
      await forward.click();
      await expect.poll(shown).toBe(10);
      // and back (over a background step, as the app's Back does)
      await page.getByRole('button', { name: back, exact: true }).click();
      await expect.poll(shown).toBeLessThan(10);
      // compact: back, play and next in one row inside the frame
      const rows = await page
        .locator('.eos-embed-playback button')
        .evaluateAll((bs) => bs.map((b) => ({ top: Math.round(b.getBoundingClientRect().top), right: b.getBoundingClientRect().right })));
      expect(rows.length).toBe(3);
      expect(new Set(rows.map((r) => r.top)).size).toBe(1);
      for (const r of rows) expect(r.right).toBeLessThanOrEqual(320);
      expect(errors).toEqual([]);
      await page.close();
    });

  for (const theme of ['light', 'dark'] as const)
    for (const language of ['en', 'ko'] as const)
      it(`${theme}, ${language}: no axe violations, headings in order`, async () => {
        const preset = findPreset('zombie-fencing');
        if (!preset) throw new Error('zombie-fencing');
        const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
        const errors = watchErrors(page);
        await page.goto(embedPage(`?theme=${theme}`, encodeLink(preset.scenario, { step: 60, selection: null, language })));
        await page.locator('[data-testid="embed-verdict"] li').first().waitFor();
        await page.waitForFunction(() => (document.querySelector('[data-testid="embed-narration-text"]')?.textContent ?? '').length > 0);
        expect(await axe(page)).toEqual([]);
        expect(await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3')].map((h) => h.tagName)[0])).toBe('H1');
        expect(errors).toEqual([]);
        await page.close();
      });
});
