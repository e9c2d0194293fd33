/**
 * Korean is complete: every shipped preset, opened in Korean, is walked — the narration at its start,
 * after its first step, at a quarter, half and three quarters, and at its end; the actors, the verdict,
 * the checklist, the details of a selected actor, record and envelope, the timeline's tooltips and
 * labels, the failure-injection panel; and on a few presets the gallery, Share, Embed, Export, the
 * help dialog and the configuration editor. No English word may appear outside Kafka's names,
 * config keys, error codes and the run's own identifiers (the allow-list in korean-words.ts).
 * And a browser set to Korean opens in Korean unless the link says otherwise.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { encodeLink } from '../src/sim/scenario/link';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';
import { allowList, chartWords, englishWords, runWords, scenarioWords, stateWords } from './korean-words';
import { everyPanel } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Every visible text and every accessible name or description on the page, outside lang="en". */
async function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    // English on purpose (lang="en": Kafka's own messages), or data rather than words (translate="no")
    const skip = (el: Element | null) => el?.closest('[lang="en"], [lang^="en-"], [translate="no"], noscript') !== null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    // a word with line-break opportunities (<wbr> after each underscore: WrapAtUnderscores) is one word
    const joined = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || skip(el) || el.closest('script, style, [hidden]')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      if (el.querySelector(':scope > wbr')) {
        if (joined.has(el)) continue;
        joined.add(el);
      }
      const t = (joined.has(el) ? el.textContent : n.textContent)?.trim();
      if (t) out.push(t);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [alt], [placeholder], [aria-valuetext]')) {
      if (skip(el)) continue;
      for (const a of ['aria-label', 'title', 'alt', 'placeholder', 'aria-valuetext']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    return out;
  });
}

async function seek(page: Page, step: number): Promise<void> {
  await page.evaluate((n) => window.__eosLab?.store.getState().seek(n), step);
  await page.waitForFunction((n) => (document.querySelector('[data-testid="step-counter"]')?.textContent ?? '').includes(` ${n} /`), step);
}

/** The narration module and the Korean preset texts load after the first paint, the workspace's panels in stages. */
async function settled(page: Page): Promise<void> {
  await everyPanel(page);
  await page.waitForFunction(() => /[가-힣]/.test(document.querySelector('[data-testid="narration"]')?.textContent ?? ''));
  await page.waitForFunction(() => /[가-힣]/.test(document.querySelector('.scenario-title h2')?.textContent ?? ''));
  await page.waitForTimeout(50);
}

function check(found: Map<string, Set<string>>, where: string, texts: readonly string[], allowed: ReadonlySet<string>): void {
  for (const t of texts)
    for (const w of englishWords(t, allowed)) {
      const set = found.get(w) ?? new Set<string>();
      if (set.size < 3) set.add(`${where}: ${t.slice(0, 160)}`);
      found.set(w, set);
    }
}

const PANELS_ON = new Set(['opening-story', 'ctp-exactly-once-crash', 'streams-eos-crash-restore', 'db-sink-inbox']);

describe('Korean, every preset', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s speaks Korean outside Kafka’s own names', async (id, preset) => {
    const trace = runScenario(preset.scenario);
    const total = trace.steps.length;
    // other scenarios are named by their ids and words too (links to them, the gallery's questions)
    const allowed = allowList([
      ...PRESETS.flatMap((p) => [p.id, ...scenarioWords(p.scenario)]),
      ...runWords(trace.built),
      ...stateWords(trace.steps),
      ...chartWords(),
      // a broker's errorMessage is Kafka's own text, sent in English as Kafka sends it (the tooltip quotes the payload)
      ...trace.envelopes.flatMap((e) => {
        const m = (e?.payload as { errorMessage?: unknown } | undefined)?.errorMessage;
        return typeof m === 'string' ? [m] : [];
      }),
    ]);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(preset.scenario, { step: 0, selection: null, language: 'ko' })}`);
    await page.getByTestId('verdict').waitFor();
    await settled(page);
    const found = new Map<string, Set<string>>();
    check(found, 'start', await pageTexts(page), allowed);
    for (const step of [1, Math.floor(total / 4), Math.floor(total / 2), Math.floor((3 * total) / 4), total]) {
      await seek(page, step);
      check(found, `step ${step}`, await pageTexts(page), allowed);
    }
    // the details of an actor, a record and an envelope, and the timeline's tooltips
    const midway = Math.floor(total / 2);
    await seek(page, midway);
    for (const p of trace.built.processes) {
      await page.evaluate((a) => window.__eosLab?.store.getState().select({ kind: 'actor', id: a }), p.actors[0] ?? p.id);
      check(found, `actor ${p.id}`, await pageTexts(page), allowed);
    }
    const view = await page.evaluate(() => window.__eosLab?.store.getState().view?.inFlight.map((e) => e.id) ?? []);
    const envelope = view[0] ?? trace.envelopes.find((e) => e && e.sentStep < midway)?.id;
    if (envelope !== undefined) {
      await page.evaluate((n) => window.__eosLab?.store.getState().select({ kind: 'envelope', id: n }), envelope);
      check(found, `envelope #${envelope}`, await pageTexts(page), allowed);
    }
    await seek(page, total);
    const record = await page.evaluate(() => {
      const v = window.__eosLab?.store.getState().view;
      for (const [, a] of v?.actors ?? []) {
        const parts = (a.context as { partitions?: Record<string, { topic: string; partition: number; logEndOffset: number }> }).partitions;
        for (const log of Object.values(parts ?? {})) if (log.logEndOffset > 0 && !log.topic.startsWith('__')) return log;
      }
      return null;
    });
    if (record) {
      await page.evaluate(
        (r) =>
          window.__eosLab?.store.getState().select({ kind: 'record', topic: r.topic, partition: r.partition, offset: r.logEndOffset - 1 }),
        record,
      );
      check(found, 'record', await pageTexts(page), allowed);
    }
    await page.getByRole('application').first().focus();
    await page.keyboard.press('ArrowRight');
    check(found, 'lanes tooltip', await pageTexts(page), allowed);
    await page.getByRole('application').nth(1).focus();
    await page.keyboard.press('End');
    check(found, 'messages tooltip', await pageTexts(page), allowed);

    if (PANELS_ON.has(id)) {
      for (const name of ['시나리오', '공유', '임베드', '내보내기 / 가져오기']) {
        await page.getByRole('button', { name, exact: true }).click();
        await page.getByRole('dialog').waitFor();
        await page.waitForTimeout(200);
        check(found, `dialog ${name}`, await pageTexts(page), allowed);
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
      }
      await page.getByRole('button', { name: '키보드 단축키' }).click();
      await page.getByRole('dialog').waitFor();
      check(found, 'help', await pageTexts(page), allowed);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await page.getByTestId('open-config').click();
      await page.getByTestId('config-editor').waitFor();
      await page.waitForTimeout(200);
      check(found, 'config', await pageTexts(page), allowed);
      for (const option of await page.getByTestId('config-section').locator('option').all()) {
        await page.getByTestId('config-section').selectOption((await option.getAttribute('value')) ?? '');
        check(found, 'config section', await pageTexts(page), allowed);
      }
    }
    const report = [...found].map(([w, where]) => `${w} — ${[...where].join(' | ')}`);
    expect(report).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the browser’s language', () => {
  it('a browser set to Korean opens in Korean; a link that says English wins', async () => {
    const context = await browser.newContext({ locale: 'ko-KR' });
    const page = await context.newPage();
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('verdict').waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ko');
    // the page writes its own link a moment after a run lands (src/share/hashSync.ts): wait for it, so
    // that write cannot land over the link opened next, between its navigation and its hashchange
    await page.waitForFunction(() => window.location.hash.startsWith('#s='));
    const preset = PRESETS[0];
    if (!preset) throw new Error('no preset');
    await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(preset.scenario, { step: 0, selection: null, language: 'en' })}`);
    await page.reload();
    await page.getByTestId('verdict').waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await context.close();
    const en = await browser.newContext({ locale: 'en-US' });
    const p2 = await en.newPage();
    await gotoWorkspace(p2, inject('baseUrl'));
    await p2.getByTestId('verdict').waitFor();
    expect(await p2.evaluate(() => document.documentElement.lang)).toBe('en');
    await en.close();
  });
});
