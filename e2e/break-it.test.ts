/**
 * Break it in the page: from the gallery, search a preset's configuration in Web Workers, open the
 * counterexample it finds (the link opens at its fault), and see at the end of the run the verdict
 * the search promised. The page's own thread keeps answering while the workers search. A
 * counterexample opened from the panel is named as one in the header ("counterexample found by
 * Break it" after the preset's title), not as a run the person edited: db-sink-duplicate's, whose
 * crash differs from the preset's own only in how its place is spelt, used to open as "edited".
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, watchErrors } from './browser';
import { appSession, openPage, position, verdictRows, waitForStep } from './ui-helpers';

const app = appSession();

/** Opens Break it on a preset from the gallery; the panel, not yet started. */
async function openFromGallery(page: Page, presetId: string): Promise<Locator> {
  await page.getByTestId('open-gallery').click();
  await page.getByTestId(`break-it-${presetId}`).click();
  const panel = page.getByTestId('break-it');
  await panel.waitFor();
  return panel;
}

/** Waits until the panel says its search is over. */
async function searchFinished(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="break-it-progress"]')?.getAttribute('data-running') === 'false',
    null,
    { timeout },
  );
}

describe('Break it', () => {
  it('runs a search from the gallery, opens its counterexample and shows the verdict it promised', async () => {
    const panel = await openFromGallery(app.page, 'at-least-once-consumer-crash');
    await panel.getByTestId('break-it-start').click();
    // the page answers while the workers search: a frame is drawn within a short wait
    const frameMs = await app.page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const t0 = performance.now();
          requestAnimationFrame(() => resolve(performance.now() - t0));
        }),
    );
    expect(frameMs).toBeLessThan(1000);
    const open = panel.getByTestId('break-it-open').first();
    await open.waitFor({ timeout: 110_000 });
    const found = await panel.getByTestId('break-it-found').innerText();
    expect(found).toContain('crash billing');
    expect(found).toContain('processing layer, billing');
    await open.click();
    await app.page.waitForFunction(() => document.querySelector('.app')?.getAttribute('data-status') === 'ready');
    // the link opens just after the fault fired
    const at = await position(app.page);
    expect(at.step).toBeGreaterThan(0);
    expect(at.step).toBeLessThan(at.total);
    await app.page.evaluate((n) => {
      const hook = (window as unknown as { __eosLab?: { store: { getState(): { seek(s: number): void } } } }).__eosLab;
      hook?.store.getState().seek(n);
    }, at.total);
    await waitForStep(app.page, at.total);
    // the verdict panel follows the step counter a moment later (its renders are throttled while the
    // run lands): read it until it shows the last step's verdict
    await expect
      .poll(async () => (await verdictRows(app.page)).find((r) => r.layer === 'processing' && r.subject === 'billing')?.status, {
        timeout: 10_000,
      })
      .toBe('more-than-once');
    expect(app.errors).toEqual([]);
  }, 120_000);

  it('on more cores the search is split among workers, one core left to the page, and finds the same counterexample', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 720 } });
    // three cores: two workers
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 3 }));
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('verdict').waitFor();
    const panel = await openFromGallery(page, 'at-least-once-consumer-crash');
    await panel.getByTestId('break-it-start').click();
    await searchFinished(page, 110_000);
    expect(await panel.getByTestId('break-it-progress').innerText()).toContain('· 2 workers');
    const found = await panel.getByTestId('break-it-found').innerText();
    expect(found).toContain('crash billing');
    expect(found).toContain('processing layer, billing');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('a search travels as a link: its settings and its answer open with the run, and Start reaches the same answer', async () => {
    const panel = await openFromGallery(app.page, 'lost-ack-idempotent');
    await panel.getByTestId('break-it-start').click();
    const answer = panel.getByTestId('break-it-none');
    await searchFinished(app.page, 60_000);
    // a finished search's full bar still sits on its track: a border and a ring of the track's colour
    // around the fill, as while it ran (the native full bar covered its track)
    const track = await panel
      .getByTestId('break-it-progress')
      .locator('progress')
      .evaluate((p) => {
        const c = getComputedStyle(p);
        const probe = document.createElement('span');
        probe.style.background = 'var(--accent)';
        document.body.append(probe);
        const fill = getComputedStyle(probe).backgroundColor;
        probe.remove();
        return { appearance: c.appearance, border: c.borderTopWidth, padding: c.paddingTop, background: c.backgroundColor, fill };
      });
    expect(track.appearance).toBe('none');
    expect(Number.parseFloat(track.border)).toBeGreaterThanOrEqual(1);
    expect(Number.parseFloat(track.padding)).toBeGreaterThanOrEqual(1);
    expect(track.background).not.toBe('rgba(0, 0, 0, 0)');
    expect(track.background).not.toBe(track.fill);
    const said = await answer.innerText();
    expect(said).toMatch(/^no counterexample among all \d+ schedules with ≤ 1 fault/);
    const link = await panel.getByTestId('break-it-link').inputValue();
    expect(link).toContain('#s=1.');
    // again, in the workers the first search left idle (the page keeps them): the same answer
    await app.page.evaluate(() => {
      const seen = window as unknown as { __searchRan?: boolean };
      seen.__searchRan = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="break-it-progress"][data-running="true"]')) seen.__searchRan = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await panel.getByTestId('break-it-start').click();
    await app.page.waitForFunction(
      () =>
        (window as unknown as { __searchRan?: boolean }).__searchRan === true &&
        document.querySelector('[data-testid="break-it-progress"]')?.getAttribute('data-running') === 'false',
      null,
      { timeout: 60_000 },
    );
    expect(await answer.innerText()).toBe(said);

    const other = await app.browser.newPage();
    const otherErrors = watchErrors(other);
    await gotoWorkspace(other, `${inject('baseUrl')}${link.slice(link.indexOf('#'))}`);
    const reopened = other.getByTestId('break-it');
    await reopened.waitFor();
    expect(await reopened.getByTestId('break-it-property').inputValue()).toBe(await panel.getByTestId('break-it-property').inputValue());
    expect(await reopened.getByTestId('break-it-bound').inputValue()).toBe('1');
    const recorded = await reopened.getByTestId('break-it-recorded').innerText();
    expect(recorded).toContain(`The link records: ${said}`);
    // the run behind the panel is the one searched
    await other.waitForFunction(() => document.querySelector('.app')?.getAttribute('data-status') === 'ready');
    const openedId = await other.evaluate(
      () =>
        (window as unknown as { __eosLab?: { store: { getState(): { scenario: { id?: string } | null } } } }).__eosLab?.store.getState()
          .scenario?.id,
    );
    expect(openedId).toBe('lost-ack-idempotent');
    await reopened.getByTestId('break-it-start').click();
    await searchFinished(other, 60_000);
    expect(await reopened.getByTestId('break-it-none').innerText()).toBe(said);
    expect(otherErrors).toEqual([]);
    await other.close();
  }, 150_000);

  it('shows the link to the search in a field as wide as the panel, in the page’s theme, as Share does', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme: 'dark' });
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('verdict').waitFor();
    await page.getByTestId('open-share').click();
    const share = await page.getByTestId('share-link').evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.keyboard.press('Escape');
    await page.getByTestId('open-break-it').click();
    const field = await page.getByTestId('break-it-link').evaluate((el) => ({
      width: el.getBoundingClientRect().width,
      panel: el.closest('.eos-modal-body')?.clientWidth ?? 0,
      background: getComputedStyle(el).backgroundColor,
    }));
    expect(field.width).toBeGreaterThan(field.panel * 0.9);
    expect(field.background).toBe(share);
    await page.close();
  });

  it("keeps a preset's scripted stop and offset reset (its workload): the configuration alone breaks it, and the panel says so", async () => {
    const page = await openPage(app.browser);
    const errors = watchErrors(page);
    const panel = await openFromGallery(page, 'offset-reset-replays-output');
    await panel.getByTestId('break-it-keeps-faults').waitFor();
    await panel.getByTestId('break-it-start').click();
    const found = panel.getByTestId('break-it-found');
    await expect.poll(() => found.innerText(), { timeout: 60_000 }).toContain('the configuration breaks it with no fault at all');
    expect(await found.innerText()).toContain('settlements');
    const link = await panel.getByTestId('break-it-link').inputValue();
    expect(link).toContain('#s=1.');
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  for (const [language, badge] of [
    ['en', 'counterexample found by Break it'],
    ['ko', '깨뜨려 보기로 찾은 반례'],
  ] as const)
    it(`${language}: the counterexample opened from db-sink-duplicate is named one in the header, not “edited”`, async () => {
      const page = await app.browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=db-sink-duplicate&lang=${language}`);
      await page.getByTestId('verdict').waitFor();
      expect(await page.getByTestId('edited-from').count()).toBe(0);
      await page.getByTestId('open-break-it').click();
      const panel = page.getByTestId('break-it');
      await panel.getByTestId('break-it-start').click();
      const open = panel.getByTestId('break-it-open').first();
      await open.waitFor({ timeout: 110_000 });
      await open.click();
      await page.waitForFunction(() => document.querySelector('.app')?.getAttribute('data-status') === 'ready');
      const marker = page.getByTestId('edited-from');
      await expect.poll(() => marker.getAttribute('data-origin')).toBe('counterexample');
      expect(await marker.locator('.edited-badge').innerText()).toBe(badge);
      expect(await marker.getAttribute('title')).toContain(language === 'en' ? 'Break it found this run' : '깨뜨려 보기가');
      // the way back to the preset as shipped stays
      await marker.getByTestId('reset-to-preset').click();
      await expect.poll(() => page.getByTestId('edited-from').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
});
