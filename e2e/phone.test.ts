/**
 * Phones at 390×844: nothing wider than the screen (the A/B view too); every lane name of both diagrams shown whole
 * (no ellipsis, no cut line) and no two overlapping; failure injection and the configuration editor
 * offered as bottom sheets inside the screen, axe-clean, in English and in Korean; the gallery's
 * cards hold their titles in both languages.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { encodeLink } from '../src/sim/scenario/link';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';
import { axe } from './ui-helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };

async function openPhone(id: string, language: 'en' | 'ko', step: number): Promise<{ page: Page; errors: string[] }> {
  const preset = findPreset(id);
  if (!preset) throw new Error(id);
  const page = await browser.newPage({ viewport: PHONE });
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(preset.scenario, { step, selection: null, language })}`);
  await page.getByTestId('verdict').waitFor();
  await page.locator('.tl-msc-label').first().waitFor();
  return { page, errors };
}

/** Lane names that are cut (ellipsis or a hidden line), and pairs of lane labels that overlap. */
async function laneProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const gutter of document.querySelectorAll('.tl-gutter')) {
      const labels = [...gutter.querySelectorAll<HTMLElement>('.tl-lane-label')];
      for (const l of labels) {
        const name = l.querySelector<HTMLElement>('.tl-lane-name');
        if (name && (name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1))
          out.push(`cut: ${name.textContent}`);
        if (l.scrollHeight > l.clientHeight + 1) out.push(`label cut: ${l.textContent}`);
      }
      const boxes = labels.map((l) => ({ text: l.textContent ?? '', r: l.getBoundingClientRect() }));
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]?.r;
          const b = boxes[j]?.r;
          if (a && b && a.top < b.bottom - 1 && b.top < a.bottom - 1 && a.left < b.right && b.left < a.right)
            out.push(`overlap: ${boxes[i]?.text} / ${boxes[j]?.text}`);
        }
    }
    return out;
  });
}

describe('phones at 390×844', () => {
  for (const [id, language] of [
    ['zombie-fencing', 'en'],
    ['streams-eos-crash-restore', 'ko'],
    ['coordinator-failover-mid-commit', 'en'],
  ] as const)
    it(`${id} (${language}): lane names whole, nothing wider than the screen`, async () => {
      const { page, errors } = await openPhone(id, language, 60);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(await laneProblems(page)).toEqual([]);
      // the playback and jump buttons are touch targets of at least 44×44 px
      const small = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.transport button, .jump button')]
          .map((b) => ({ name: b.getAttribute('aria-label') ?? b.textContent, r: b.getBoundingClientRect() }))
          .filter(({ r }) => r.width < 44 || r.height < 44)
          .map(({ name, r }) => `${name}: ${Math.round(r.width)}×${Math.round(r.height)}`),
      );
      expect(small).toEqual([]);
      await screenshot(page, `phone-${id}`);
      expect(errors).toEqual([]);
      await page.close();
    });

  for (const language of ['en', 'ko'] as const)
    it(`${language}: the A/B view is no wider than the screen (its tables scroll inside it)`, async () => {
      const { page, errors } = await openPhone('opening-story', language, 0);
      await page.getByTestId('open-compare').click();
      await page.getByTestId('compare-settings').waitFor();
      await page.locator('[data-testid="compare-verdict"] tbody tr').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // the B column's settings are still there, a scroll away inside the table's section
      const select = page.locator('[data-testid="compare-settings"] select').first();
      await select.scrollIntoViewIfNeeded();
      expect(await select.isVisible()).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    });

  for (const language of ['en', 'ko'] as const)
    it(`${language}: failure injection and the configuration editor open as bottom sheets inside the screen`, async () => {
      const { page, errors } = await openPhone('zombie-fencing', language, 40);
      // injection: said where it is, and opened from the details
      await page.evaluate(() => window.__eosLab?.store.getState().select({ kind: 'actor', id: 'instance-a.producer' }));
      const openInject = page.getByTestId('open-inject');
      await openInject.scrollIntoViewIfNeeded();
      expect(await openInject.isVisible()).toBe(true);
      await openInject.click();
      const sheet = page.getByTestId('inject-sheet');
      await sheet.waitFor();
      await page.getByTestId('inject-sheet').getByTestId('actor-actions').waitFor();
      const box = await sheet.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height + 1).toBe(true);
      expect(await axe(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'hidden' });
      // the configuration editor, from the header
      await page.getByTestId('open-config').click();
      const config = page.getByTestId('config-sheet');
      await config.waitFor();
      await page.getByTestId('config-editor').waitFor();
      const c = await config.boundingBox();
      expect(c && c.x >= 0 && c.x + c.width <= PHONE.width && c.y + c.height <= PHONE.height + 1).toBe(true);
      expect(await page.evaluate(() => document.querySelector('[data-testid="config-sheet"]')?.scrollWidth ?? 999)).toBeLessThanOrEqual(
        PHONE.width,
      );
      expect(await axe(page)).toEqual([]);
      await screenshot(page, `phone-config-${language}`);
      expect(errors).toEqual([]);
      await page.close();
    });

  for (const language of ['en', 'ko'] as const)
    it(`${language}: every gallery card holds its title (a long key or error name wraps inside the card)`, async () => {
      const { page, errors } = await openPhone('opening-story', language, 0);
      await page.getByTestId('open-gallery').click();
      await page.locator('.eos-card h4').first().waitFor();
      // Korean's keep-all used to reach every element and undo the card's overflow-wrap: anywhere, so
      // "unclean.leader.election.enable=true:" and "OUT_OF_ORDER_SEQUENCE_NUMBER," ran past the border
      const over = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.eos-card')].flatMap((card) => {
          const edge = card.getBoundingClientRect().right;
          return [...card.querySelectorAll<HTMLElement>('h4, h4 button, p')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > edge + 0.5)
            .map((e) => `${card.dataset.preset}: ${e.textContent?.slice(0, 60)}`);
        }),
      );
      expect(over).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    });

  it('ko: the Import field speaks Korean (not the browser’s "Choose file"), and Tab + Enter open the file chooser', async () => {
    const { page, errors } = await openPhone('opening-story', 'ko', 0);
    // a listener turns Playwright's file-chooser interception on; enabling it is asynchronous, so it is
    // turned on here, well before the key press (waitForEvent alone raced the press, now and then)
    page.on('filechooser', () => {});
    await page.getByTestId('open-export').click();
    const button = page.getByTestId('import-file-button');
    await button.waitFor();
    expect(await button.innerText()).toBe('파일 선택…');
    expect(await page.getByTestId('import-file-field').innerText()).toContain('선택한 파일 없음');
    // the native input is there for the picker but takes no room and no Tab stop
    const input = page.getByTestId('import-file');
    expect(await input.evaluate((el) => [el.getBoundingClientRect().width <= 1, (el as HTMLInputElement).tabIndex])).toEqual([true, -1]);
    // reach the button from the paste box above it with Shift+Tab, and press it with Enter
    await page.getByTestId('import-text').focus();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('import-file-button');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    await chooser.setFiles({ name: 'not-a-scenario.json', mimeType: 'application/json', buffer: Buffer.from('{"x":1}') });
    await expect.poll(() => page.getByTestId('import-file-field').innerText()).toContain('not-a-scenario.json');
    // a file that is no scenario is refused with its problems listed, as pasted text is
    await page.getByTestId('import-errors').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
