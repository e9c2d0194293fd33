/**
 * Share links in the browser: damaged, unknown, oversized and invalid links show what is wrong and
 * a way to the default scenario (never a blank page), and opened over a run replace it with a way
 * back to it; a valid link lands on its step; the address follows the person's work; the gallery, Share, Embed and Export/Import panels do their jobs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync, strToU8 } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset, PRESETS } from '../src/sim/presets';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { runScenario } from '../src/sim/run';
import { toBase64Url } from '../src/sim/scenario/base64url';
import { decodeLink, encodeLink } from '../src/sim/scenario/link';
import { LINK_DICTIONARY_V1 } from '../src/sim/scenario/linkDictionary';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { everyStep } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const story = findPreset('opening-story')!;
const storyLink = encodeLink(story.scenario, { step: 0, selection: null, language: 'en' });

async function open(fragment: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}${fragment}`);
  return { page, errors };
}

const hashOf = (page: Page) => page.evaluate(() => window.location.hash);

const AXE = readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8');
/** axe-core's violations on the page as it is now, as "rule: selector" strings. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(c: Document): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }
    ).axe;
    return (await axe.run(document)).violations.map((v) => `${v.id}: ${String(v.nodes[0]?.target)}`);
  });
}

describe('opening a link that cannot be read', () => {
  const invalidScenario = `#s=1.${toBase64Url(
    deflateSync(
      strToU8(JSON.stringify({ scenario: { ...story.scenario, seed: -1 }, view: { step: 0, selection: null, language: 'en' } })),
      {
        dictionary: strToU8(LINK_DICTIONARY_V1),
      },
    ),
  )}`;
  const cases: [name: string, fragment: string, kind: string, says: RegExp][] = [
    ['truncated', storyLink.slice(0, storyLink.length - 25), 'corrupt', /damaged/],
    ['bad base64', '#s=1.abc%25def', 'corrupt', /not base64url/],
    ['valid base64 of garbage', `#s=1.${toBase64Url(strToU8('certainly not deflate data'))}`, 'corrupt', /damaged/],
    ['from a newer version', storyLink.replace('#s=1.', '#s=7.'), 'unknown-version', /newer version of EOS Lab/],
    ['oversized', `#s=1.${'A'.repeat(120_000)}`, 'too-large', /at most 100,000/],
    ['an invalid scenario', invalidScenario, 'invalid', /cannot run/],
  ];
  for (const [name, fragment, kind, says] of cases) {
    it(`${name}: says what is wrong and offers the default scenario`, async () => {
      const { page, errors } = await open(fragment);
      const alert = page.getByTestId('link-error');
      await alert.waitFor();
      expect(await alert.getAttribute('data-kind')).toBe(kind);
      expect(await page.getByTestId('link-error-message').innerText()).toMatch(says);
      expect(await page.getByRole('heading', { name: 'This link cannot be opened' }).isVisible()).toBe(true);
      const openDefault = page.getByRole('button', { name: 'Open the default scenario' });
      expect(await openDefault.isVisible()).toBe(true);
      // the bad link stays in the address until the person chooses
      expect(await hashOf(page)).toBe(fragment);
      if (kind === 'invalid') expect(await alert.innerText()).toContain('scenario.seed');
      if (name === 'truncated') {
        await screenshot(page, 'share-corrupt-link');
        expect(await axeViolations(page)).toEqual([]);
      }
      await openDefault.click();
      await page.getByRole('heading', { name: story.title }).waitFor();
      expect(await alert.count()).toBe(0);
      await expect.poll(() => hashOf(page)).toMatch(/^#s=1\./);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});

describe('a bad link opened over a run', () => {
  it('replaces the run with the error, names the run it hides, and goes back to it (in English and Korean)', async () => {
    const fencing = findPreset('zombie-fencing')!;
    const { page, errors } = await open('#preset=zombie-fencing&step=9');
    await page.getByTestId('timeline').waitFor();
    await expect.poll(() => hashOf(page)).toMatch(/^#s=1\./);
    const runAddress = await hashOf(page);
    const title = page.locator('.scenario-title h2');
    expect(await title.innerText()).toBe(fencing.title);
    for (const [language, back, hidden] of [
      ['en', `Back to the run you had open: ${fencing.title}`, 'The run you had open is kept as it was'],
      ['ko', `열려 있던 실행으로 돌아가기: ${PRESET_TEXT_KO['zombie-fencing']?.title}`, '열려 있던 실행은 그대로 두고'],
    ] as const) {
      if (language === 'ko') await page.getByRole('button', { name: '한국어', exact: true }).click();
      // pasted into the address bar of the open tab: only the fragment changes
      await page.evaluate(() => {
        location.hash = '#s=1.%%%';
      });
      const alert = page.getByTestId('link-error');
      await alert.waitFor();
      // the run is not on screen under the error, nor its title in the header: nothing passes for the link's scenario
      expect(await page.getByTestId('timeline').count()).toBe(0);
      expect(await page.getByTestId('verdict').count()).toBe(0);
      expect(await title.count()).toBe(0);
      expect(await page.getByTestId('link-error-run-hidden').innerText()).toContain(hidden);
      // Share, Embed, Configuration, Break it and Compare A/B would act on the hidden run: they wait,
      // and say why (Break it and Compare A/B stayed enabled, and searched or compared the run unseen)
      for (const id of ['open-share', 'open-embed', 'open-config', 'open-break-it', 'open-compare']) {
        expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
        expect(await page.getByTestId(id).getAttribute('title'), id).toMatch(
          language === 'en' ? /go back to that run/ : /그 실행으로 돌아가/,
        );
      }
      const button = page.getByTestId('link-error-back');
      expect(await button.innerText()).toBe(back);
      if (language === 'ko') await screenshot(page, 'share-bad-link-over-run-ko');
      await button.click();
      await page.getByTestId('timeline').waitFor();
      expect(await alert.count()).toBe(0);
      expect(await page.evaluate(() => window.__eosLab?.store.getState().step)).toBe(9);
      // the address names the run again
      await expect.poll(async () => decodeLink(await hashOf(page)).ok).toBe(true);
      if (language === 'en') expect(await hashOf(page)).toBe(runAddress);
      for (const id of ['open-share', 'open-embed', 'open-config', 'open-break-it', 'open-compare']) {
        expect(await page.getByTestId(id).isDisabled(), id).toBe(false);
        expect(await page.getByTestId(id).getAttribute('title'), id).toBeNull();
      }
    }
    // back on the run, Break it and Compare A/B act on it again
    await page.getByTestId('open-break-it').click();
    await expect.poll(() => page.getByTestId('break-it-target').innerText()).toContain(PRESET_TEXT_KO['zombie-fencing']?.title ?? '?');
    await page.keyboard.press('Escape');
    await page.getByTestId('break-it-target').waitFor({ state: 'detached' });
    await page.getByTestId('open-compare').click();
    await page.getByTestId('compare-view').waitFor();
    await page.getByTestId('compare-close').click();
    await page.getByTestId('timeline').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('leaving a bad link through the gallery', () => {
  it('opening any scenario clears the message and lets the address follow again', async () => {
    const { page, errors } = await open('#s=1.%%%');
    await page.getByTestId('link-error').waitFor();
    await page.getByTestId('open-gallery').click();
    await page.getByTestId('gallery').getByTestId('open-opening-story').click();
    await page.getByRole('heading', { name: story.title }).waitFor();
    expect(await page.getByTestId('link-error').count()).toBe(0);
    await expect.poll(async () => decodeLink(await hashOf(page)).ok).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('opening a valid link', () => {
  it('replays the run and lands on its step, with the same traceHash as Node', async () => {
    const link = encodeLink(story.scenario, { step: 12, selection: null, language: 'en' });
    const { page, errors } = await open(link);
    await page.getByRole('heading', { name: story.title }).waitFor();
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 12 \//);
    expect(await page.getByTestId('trace-hash').getAttribute('data-trace-hash')).toBe(runScenario(story.scenario).traceHash);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('#preset=<id>&step=<n> opens a shipped scenario by its name; Share offers that short link while it is unchanged', async () => {
    const zombie = findPreset('zombie-fencing')!;
    const { page, errors } = await open('#preset=zombie-fencing&step=7');
    await page.getByRole('heading', { name: zombie.title }).waitFor();
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 7 \//);
    expect(await page.getByTestId('trace-hash').getAttribute('data-trace-hash')).toBe(runScenario(zombie.scenario).traceHash);
    await page.getByTestId('open-share').click();
    expect(await page.getByTestId('share-preset-link').inputValue()).toBe(`${inject('baseUrl')}#preset=zombie-fencing&step=7&lang=en`);
    // in Korean the short link asks for Korean, as the full link carries the page's language
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '한국어' }).click();
    await page.getByTestId('open-share').click();
    expect(await page.getByTestId('share-preset-link').inputValue()).toBe(`${inject('baseUrl')}#preset=zombie-fencing&step=7&lang=ko`);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("?preset=<id>&step=<n>, the embed's form, opens the same here and the address becomes #preset=", async () => {
    const zombie = findPreset('zombie-fencing')!;
    const { page, errors } = await open('?preset=zombie-fencing&step=7');
    await page.getByRole('heading', { name: zombie.title }).waitFor();
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 7 \//);
    expect(await page.evaluate(() => window.location.search)).toBe('');
    await expect.poll(() => hashOf(page)).toMatch(/^#(preset=zombie-fencing&step=7|s=)/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a step past the end of the run opens at the last step, with a note that says so', async () => {
    const zombie = findPreset('zombie-fencing')!;
    const steps = runScenario(zombie.scenario).steps.length;
    const { page, errors } = await open('#preset=zombie-fencing&step=999999');
    const note = page.getByTestId('step-past-end');
    await note.waitFor();
    expect(await note.innerText()).toContain(`asks for step 999,999, but the run has ${steps.toLocaleString('en-US')} steps`);
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(new RegExp(`^step ${steps} /`));
    await note.getByRole('button', { name: 'Dismiss' }).click();
    await note.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.close();
  });

  for (const address of ['?preset=zombie-fencing&step=-3', '#preset=zombie-fencing&step=-3']) {
    it(`${address}: a negative step opens at step 0, with a note that says so (it opened there without a word)`, async () => {
      const { page, errors } = await open(address);
      const note = page.getByTestId('step-not-a-step');
      await note.waitFor();
      expect(await note.innerText()).toContain(
        'asks for step “-3”, which is not a step (steps are whole numbers from 0): it opens at step 0.',
      );
      await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 0 \//);
      await note.getByRole('button', { name: 'Dismiss' }).click();
      await note.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('#preset=<unknown> says no shipped scenario has that name, as text', async () => {
    const { page, errors } = await open('#preset=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E');
    await page.getByTestId('link-error').waitFor();
    expect(await page.getByTestId('link-error-message').innerText()).toContain(
      'No shipped scenario is called "<img src=x onerror=alert(1)>"',
    );
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the address in step with the work, without adding history entries', async () => {
    const link = encodeLink(story.scenario, { step: 3, selection: null, language: 'en' });
    const { page } = await open(link);
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 3 \//);
    await everyStep(page);
    const historyLength = await page.evaluate(() => history.length);
    const stepButton = page.getByRole('button', { name: /Step/ });
    for (let i = 0; i < 4; i++) await stepButton.click();
    await expect
      .poll(async () => {
        const d = decodeLink(await hashOf(page));
        return d.ok ? d.view.step : -1;
      })
      .toBe(7);
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    // a link pasted into the address bar of the open tab opens too
    const other = encodeLink(story.scenario, { step: 20, selection: null, language: 'en' });
    await page.evaluate((h) => {
      window.location.hash = h;
    }, other);
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 20 \//);
    await page.close();
  });

  it('with no fragment opens the default scenario and writes its link', async () => {
    const { page } = await open('');
    await page.getByRole('heading', { name: story.title }).waitFor();
    await expect.poll(() => hashOf(page)).toMatch(/^#s=1\./);
    const d = decodeLink(await hashOf(page));
    expect(d.ok && d.scenario.id).toBe('opening-story');
    await page.close();
  });
});

describe('the gallery and the share panels', () => {
  it('#gallery opens the problem → defense table; a row opens its scenario', async () => {
    const { page, errors } = await open('#gallery');
    const gallery = page.getByTestId('gallery');
    await gallery.waitFor();
    expect(await gallery.getByRole('heading', { name: /the defense that fits/ }).isVisible()).toBe(true);
    expect(await gallery.locator('[data-row]').count()).toBeGreaterThanOrEqual(7);
    expect(await gallery.innerText()).toContain('Idempotent producer');
    const shipped = new Set(PRESETS.map((p) => p.id));
    const coming = await gallery.locator('[data-coming="true"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-preset')));
    for (const id of coming) expect(shipped.has(id ?? '')).toBe(false);
    expect(await hashOf(page)).toBe('#gallery');
    await screenshot(page, 'share-gallery');
    expect(await axeViolations(page)).toEqual([]);
    await gallery.getByTestId('open-opening-story').click();
    expect(await gallery.count()).toBe(0);
    await page.getByRole('heading', { name: story.title }).waitFor();
    await expect.poll(() => hashOf(page)).toMatch(/^#s=1\./);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("each gallery card's id is its #preset= link: it opens the scenario here, and by its address in a new tab", async () => {
    const { page, errors } = await open('#gallery');
    const gallery = page.getByTestId('gallery');
    await gallery.waitFor();
    const hrefs = await gallery
      .locator('[data-testid^="preset-link-"]')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-testid'), e.getAttribute('href'), e.textContent]));
    expect(hrefs.length).toBeGreaterThanOrEqual(PRESETS.length);
    for (const [testId, href, text] of hrefs) {
      const id = testId?.replace('preset-link-', '');
      expect(href).toBe(`#preset=${id}`);
      expect(text).toBe(id);
    }
    const zombie = findPreset('zombie-fencing')!;
    await gallery.getByTestId('preset-link-zombie-fencing').first().click();
    expect(await gallery.count()).toBe(0);
    await page.getByRole('heading', { name: zombie.title }).waitFor();
    await expect
      .poll(() => page.getByTestId('trace-hash').getAttribute('data-trace-hash'), { timeout: 30_000 })
      .toBe(runScenario(zombie.scenario).traceHash);
    const copied = await open('#preset=zombie-fencing');
    await copied.page.getByRole('heading', { name: zombie.title }).waitFor();
    expect(errors).toEqual([]);
    expect(copied.errors).toEqual([]);
    await copied.page.close();
    await page.close();
  });

  it('Share shows the link to this step; Embed gives both snippets', async () => {
    const { page } = await open(encodeLink(story.scenario, { step: 9, selection: null, language: 'en' }));
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 9 \//);
    await page.getByTestId('open-share').click();
    const url = await page.getByTestId('share-link').inputValue();
    expect(url.startsWith(inject('baseUrl'))).toBe(true);
    const d = decodeLink(url);
    expect(d.ok && d.view.step).toBe(9);
    // the status follows the clipboard's answer, which comes after the panel opens
    await expect.poll(() => page.getByTestId('share-status').innerText()).not.toBe('');
    await page.keyboard.press('Escape');
    await page.getByTestId('open-embed').click();
    const element = await page.getByTestId('embed-element').inputValue();
    expect(element).toContain('eos-lab.js');
    expect(element).toMatch(/<eos-lab scenario="#s=1\.[A-Za-z0-9_-]+" step="9"><\/eos-lab>/);
    expect(await axeViolations(page)).toEqual([]);
    const iframe = await page.getByTestId('embed-iframe').inputValue();
    expect(iframe).toContain('embed.html?step=9#s=1.');
    expect(iframe).toContain('sandbox="allow-scripts');
    await page.close();
  });

  it('exports the scenario, the trace and the timeline, and imports with path-qualified errors', async () => {
    const { page, errors } = await open(storyLink);
    await page.getByRole('heading', { name: story.title }).waitFor();
    await everyStep(page);
    for (let i = 0; i < 30; i++) await page.getByRole('button', { name: /Step/ }).click();
    await page.getByTestId('open-export').click();
    const dialog = page.getByTestId('export-dialog');
    const save = async (name: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name }).click()]);
      return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
    };
    const scenario = await save('Scenario as JSON');
    expect(scenario.name).toBe('eos-lab-opening-story.json');
    expect(JSON.parse(scenario.bytes.toString('utf8'))).toEqual(story.scenario);
    const trace = await save('Trace as JSON');
    const parsed = JSON.parse(trace.bytes.toString('utf8'));
    expect(parsed.summary.traceHash).toBe(runScenario(story.scenario).traceHash);
    expect(parsed.steps.length).toBe(parsed.summary.steps);
    const svg = await save('Figure as SVG');
    expect(svg.name).toBe('eos-lab-opening-story-step-30.svg');
    // the exported figure (docs/export.md): an SVG document naming the partition and its watermarks
    const text = svg.bytes.toString('utf8');
    expect(text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>$/);
    expect(text).toContain('orders-0');
    expect(text).toMatch(/(HW|LEO) \d+/);
    const png = await save('Figure as PNG (2×)');
    expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    const paste = dialog.getByTestId('import-text');
    await paste.fill(
      JSON.stringify({ ...story.scenario, seed: -1, clients: [{ id: 'p', type: 'producer', config: { acks: 'two' }, script: [] }] }),
    );
    await dialog.getByRole('button', { name: 'Open it' }).click();
    const problems = dialog.getByTestId('import-errors');
    await problems.waitFor();
    expect(await problems.innerText()).toContain('seed');
    await paste.fill(encodeLink(story.scenario, { step: 5, selection: null, language: 'en' }));
    await dialog.getByRole('button', { name: 'Open it' }).click();
    // it opens: the dialog closes on the link's run, at its step
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/^step 5 \//);
    expect(errors).toEqual([]);
    await page.close();
  });
});
