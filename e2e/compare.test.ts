/**
 * A/B in Chromium: the gallery's defense table opens db-sink-duplicate vs db-sink-inbox as a
 * comparison and the sink layer — the one they differ in — is highlighted while the log layer is
 * not; one scrubber moves both timelines; the cost figures stand side by side; the comparison's link
 * reopens it in a fresh page. Then a comparison made from the page: lost-ack-idempotent with
 * enable.idempotence turned off in B highlights the log layer. And the run's own cost panel states
 * its assumptions. In the settings table only a setting (a config key) is in code font: where it
 * belongs is a word of the page's language ("cluster", "클러스터") or the run's own name, in the
 * page's font — "cluster" used to be set in code font, as if it were a key, and stayed English in Korean.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decodeLink, findPreset } from '../src/sim';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { groupDigits } from '../src/sim/views';
import { gotoWorkspace, launchBrowser, screenshot, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A page at this viewport with the gallery's db-sink-duplicate vs db-sink-inbox comparison open. */
async function galleryPair(viewport: { width: number; height: number }) {
  const page = await browser.newPage({ viewport });
  const errors = watchErrors(page);
  await gotoWorkspace(page, inject('baseUrl'));
  await page.getByTestId('open-gallery').click();
  await page.getByTestId('gallery').getByTestId('compare-db-sink-duplicate-db-sink-inbox').click();
  const view = page.getByTestId('compare-view');
  await view.waitFor();
  return { page, errors, view };
}

describe('A/B comparison', () => {
  for (const [language, cluster] of [
    ['en', 'cluster'],
    ['ko', '클러스터'],
  ] as const)
    it(`${language}: the settings table says where each setting belongs in words, only the settings in code font`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = watchErrors(page);
      await gotoWorkspace(page, `${inject('baseUrl')}#preset=opening-story&lang=${language}`);
      await page.getByTestId('verdict').waitFor();
      await page.getByTestId('open-compare').click();
      const settings = page.getByTestId('compare-view').getByTestId('compare-settings');
      await settings.waitFor();
      const rows = await settings.locator('tbody tr').evaluateAll((trs) =>
        trs.map((tr) => {
          const [where, setting] = [...tr.querySelectorAll('td')];
          const mono = (el: Element | null | undefined) => (el ? /mono/i.test(getComputedStyle(el).fontFamily) : false);
          const text = where?.firstElementChild ?? where;
          return {
            where: where?.textContent ?? '',
            whereInCode: where?.querySelector('code') !== null || mono(text),
            setting: setting?.textContent ?? '',
            settingInCode: setting?.querySelector('code') !== null && mono(setting?.querySelector('code')),
          };
        }),
      );
      expect(rows[0]).toEqual({ where: cluster, whereInCode: false, setting: 'transaction.version', settingInCode: true });
      // the clients by their ids, in the page's font too; every setting in code font
      expect(rows.map((r) => r.where)).toContain('billing');
      for (const r of rows) expect(r, r.where).toMatchObject({ whereInCode: false, settingInCode: true });
      // B's select is named in the same words
      expect(await settings.getByTestId('setting-cluster:transaction.version').getAttribute('aria-label')).toBe(
        `B: ${cluster} transaction.version`,
      );
      expect(errors).toEqual([]);
      await page.close();
    });

  it('at 1280×800 the comparison scrolls: the wheel reaches its lanes and costs below the fold', async () => {
    const { page, errors, view } = await galleryPair({ width: 1280, height: 800 });
    const cost = view.getByTestId('compare-cost');
    await cost.waitFor();
    // each part (settings, verdicts, partitions, costs) starts clear of what is above it, not flush under it
    const gaps = await view.evaluate((v) =>
      [...v.querySelectorAll(':scope > section')].map((s) => {
        const above = s.previousElementSibling?.getBoundingClientRect();
        return { part: s.className, gap: above ? s.getBoundingClientRect().top - above.bottom : 99 };
      }),
    );
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    for (const g of gaps) expect(g.gap, g.part).toBeGreaterThanOrEqual(12);
    const box = await view.boundingBox();
    if (!box) throw new Error('no compare view');
    await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 300));
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 1200);
    await expect
      .poll(async () => {
        const b = await cost.boundingBox();
        return b !== null && b.y + Math.min(b.height, 100) <= 800;
      })
      .toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a gallery pair lists every difference that decides it: cluster settings, client config, sends and faults', async () => {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('open-gallery').click();
    await page.getByTestId('gallery').getByTestId('compare-acks-1-leader-failover-loss-min-insync-blocks-writes').click();
    const settings = page.getByTestId('compare-view').getByTestId('compare-settings');
    await settings.waitFor();
    const text = await settings.innerText();
    for (const said of [
      'min.insync.replicas: 1 (default) → 2',
      'acks: 1 → all',
      'delivery.timeout.ms: 120000 (default) → 60000',
      'records sent: 2 → 3',
    ])
      expect(text).toContain(said);
    await expect.poll(() => settings.getByTestId('compare-faults').innerText()).toContain('crash broker-0 at 3020 ms');
    expect(await settings.getByTestId('compare-faults').innerText()).toContain('crash broker-1 at 14000 ms');
    await screenshot(page, 'compare-acks-min-insync');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the gallery opens a defense pair as a comparison, the differing layer highlighted', async () => {
    const { page, errors, view } = await galleryPair({ width: 1400, height: 1000 });
    const sink = view.locator('[data-testid="compare-verdict"] tr[data-layer="sink"]');
    await expect.poll(() => sink.first().getAttribute('data-differs')).toBe('true');
    expect(await sink.first().getAttribute('class')).toContain('differs');
    expect(await view.locator('tr[data-layer="log"]').first().getAttribute('data-differs')).toBe('false');
    // each side's status is coloured as in the verdict panel (more than once red, once green): the
    // rules matched only a row's class, and the comparison puts it on the cell, so both were plain text
    const badges = await sink
      .first()
      .locator('td .status-cell')
      .evaluateAll((els) => els.map((e) => [e.closest('td')?.dataset.status, getComputedStyle(e).backgroundColor]));
    expect(badges.map(([status]) => status)).toEqual(['more-than-once', 'once']);
    for (const [, bg] of badges) expect(bg).not.toBe('rgba(0, 0, 0, 0)');
    expect(badges[0]?.[1]).not.toBe(badges[1]?.[1]);
    expect(await view.getByTestId('compare-settings').innerText()).toContain('sink.mode');
    // the two scenarios by their titles, not their ids
    expect(await view.getByTestId('compare-heading').innerText()).toBe(
      `A: ${findPreset('db-sink-duplicate')!.title} · B: ${findPreset('db-sink-inbox')!.title}`,
    );
    // both cost charts, side by side
    expect(await view.getByTestId('compare-cost').getByTestId('cost-chart').count()).toBe(2);
    // one scrubber drives both timelines: at 0 nothing is written yet on either side
    const scrubber = view.getByTestId('compare-scrubber');
    const end = Number(await scrubber.getAttribute('max'));
    expect(end).toBeGreaterThan(0);
    await scrubber.fill('0');
    await expect.poll(() => view.getByTestId('compare-time').innerText()).toBe('0 ms');
    expect(await view.getByTestId('compare-lanes-differ').innerText()).toBe('The partitions are the same at this time.');
    await scrubber.fill(String(end));
    await expect.poll(() => view.getByTestId('compare-time').innerText()).toBe(`${groupDigits(end)} ms`);
    expect(await view.locator('.compare-column[data-side="A"] .compare-lane').count()).toBe(
      await view.locator('.compare-column[data-side="B"] .compare-lane').count(),
    );
    await screenshot(page, 'compare-db-sink');

    // one link carries both runs
    await view.getByTestId('compare-copy-link').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#ab=1\./);
    const again = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoWorkspace(again, page.url());
    await again.getByTestId('compare-view').waitFor();
    await expect
      .poll(() => again.locator('[data-testid="compare-verdict"] tr[data-layer="sink"]').first().getAttribute('data-differs'))
      .toBe('true');
    // the page behind it is scenario A: its title in the header, and where Back returns
    const titleA = findPreset('db-sink-duplicate')!.title;
    await expect.poll(() => again.locator('.scenario-title h2').innerText()).toBe(titleA);
    await again.getByTestId('compare-close').click();
    await again.getByTestId('timeline').waitFor();
    await expect.poll(() => again.locator('.scenario-title h2').innerText()).toBe(titleA);
    await again.close();

    // from the gallery too: the header names A
    await expect.poll(() => page.locator('.scenario-title h2').innerText()).toBe(titleA);
    await view.getByTestId('compare-close').click();
    await page.getByTestId('timeline').waitFor();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1\./);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Back out of a comparison shows what the entry before it describes; Forward opens the comparison again, its address kept', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('open-gallery').click();
    await page.getByTestId('gallery').getByTestId('open-lost-ack-idempotent').click();
    await page.getByTestId('timeline').waitFor();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1\./);
    await page.waitForTimeout(400);
    const before = await page.evaluate(() => location.hash);
    const title = findPreset('lost-ack-idempotent')!.title;

    // from the gallery: a pair whose scenario A is another one than the run on screen
    await page.getByTestId('open-gallery').click();
    await page.getByTestId('gallery').getByTestId('compare-db-sink-duplicate-db-sink-inbox').click();
    await page.getByTestId('compare-view').waitFor();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#ab=1\./);
    await expect.poll(() => page.locator('.scenario-title h2').innerText()).toBe(findPreset('db-sink-duplicate')!.title);

    await page.goBack();
    await page.getByTestId('compare-view').waitFor({ state: 'detached' });
    await page.getByTestId('timeline').waitFor();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(before);
    await expect.poll(() => page.locator('.scenario-title h2').innerText()).toBe(title);
    expect(await page.evaluate(() => window.__eosLab?.store.getState().scenario?.id)).toBe('lost-ack-idempotent');
    // the address stays the entry's own: nothing writes the comparison's scenario over it
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => location.hash)).toBe(before);

    await page.goForward();
    await page.getByTestId('compare-view').waitFor();
    await expect
      .poll(() => page.locator('[data-testid="compare-verdict"] tr[data-layer="sink"]').first().getAttribute('data-differs'))
      .toBe('true');
    // the address stays the comparison's: the run's link used to replace it 250 ms after Forward
    // (the navigation's hashchange, after its popstate, let go of the address the comparison held)
    await page.waitForTimeout(800);
    expect(await page.evaluate(() => location.hash)).toMatch(/^#ab=1\./);
    // and Back from it leaves the comparison for the scenario's entry
    await page.goBack();
    await page.getByTestId('compare-view').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(before);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('picking a scenario in the gallery while a comparison is open closes it; Back and Forward walk through consistent entries', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchErrors(page);
    const hash = () => page.evaluate(() => location.hash);
    const storeId = () => page.evaluate(() => window.__eosLab?.store.getState().scenario?.id ?? null);
    const storeStep = () => page.evaluate(() => window.__eosLab?.store.getState().step ?? -1);
    const heading = () => page.locator('.scenario-title h2').innerText();
    const linkedId = (h: string) => {
      const d = decodeLink(h);
      return d.ok ? `${d.scenario.id}@${d.view.step}` : `not a share link: ${h.slice(0, 12)}`;
    };
    const lostAck = findPreset('lost-ack-idempotent')!;
    const acks0 = findPreset('acks-0-loss')!;
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('open-gallery').click();
    await page.getByTestId('gallery').getByTestId('open-lost-ack-idempotent').click();
    await page.getByTestId('timeline').waitFor();
    await page.getByRole('button', { name: 'Step forward' }).click();
    await page.getByRole('button', { name: 'Step forward' }).click();
    await expect.poll(async () => linkedId(await hash())).toBe('lost-ack-idempotent@2');
    const scenarioEntry = await hash();

    await page.getByTestId('open-compare').click();
    await page.getByTestId('compare-view').waitFor();
    await expect.poll(hash).toMatch(/^#ab=1\./);
    const abEntry = await hash();

    // the gallery's scenario replaces the comparison: header, body and address all say acks-0
    await page.getByTestId('open-gallery').click();
    await page.getByTestId('gallery').getByTestId('open-acks-0-loss').click();
    await page.getByTestId('compare-view').waitFor({ state: 'detached' });
    await page.getByTestId('timeline').waitFor();
    expect(await heading()).toBe(acks0.title);
    expect(await storeId()).toBe('acks-0-loss');
    await expect.poll(async () => linkedId(await hash())).toBe('acks-0-loss@0');
    const acksEntry = await hash();

    // Back: the comparison's own entry, scenario A behind it
    await page.goBack();
    await page.getByTestId('compare-view').waitFor();
    await expect.poll(hash).toBe(abEntry);
    await expect.poll(heading).toBe(lostAck.title);
    // Back: the scenario at step 2, no comparison
    await page.goBack();
    await page.getByTestId('compare-view').waitFor({ state: 'detached' });
    await page.getByTestId('timeline').waitFor();
    await expect.poll(hash).toBe(scenarioEntry);
    await expect.poll(storeId).toBe('lost-ack-idempotent');
    expect(await storeStep()).toBe(2);
    expect(await heading()).toBe(lostAck.title);
    // Forward: the comparison again; Forward: acks-0, no comparison
    await page.goForward();
    await page.getByTestId('compare-view').waitFor();
    await expect.poll(hash).toBe(abEntry);
    await page.goForward();
    await page.getByTestId('compare-view').waitFor({ state: 'detached' });
    await expect.poll(storeId).toBe('acks-0-loss');
    await expect.poll(heading).toBe(acks0.title);
    await page.waitForTimeout(400);
    expect(await hash()).toBe(acksEntry);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a setting changed in the page: enable.idempotence off makes the log layer differ; the cost panel states its assumptions', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    await page.getByTestId('open-gallery').click();
    await page.getByTestId('gallery').getByTestId('open-lost-ack-idempotent').click();
    await page.getByTestId('timeline').waitFor();
    const cost = page.getByTestId('cost-panel');
    await cost.waitFor();
    expect(await cost.getByTestId('cost-assumptions').innerText()).toMatch(/1 ms network latency per link[\s\S]*No disk, CPU/);
    await page.getByTestId('open-compare').click();
    const view = page.getByTestId('compare-view');
    await view.waitFor();
    expect(await view.getByTestId('compare-verdict').innerText()).toContain('No difference.');
    // the runs are named in the words the person chose, in both languages: the scenario's title
    // until a setting changes, then the setting with A's value and B's (they read by internal id,
    // "A/B: lost-ack-idempotent vs lost-ack-idempotent + 1 change")
    const heading = view.getByTestId('compare-heading');
    const lostAck = findPreset('lost-ack-idempotent')!;
    expect(await heading.innerText()).toBe(`A/B: ${lostAck.title} — no setting changed yet`);
    await page.getByRole('button', { name: '한국어', exact: true }).click();
    await expect.poll(() => heading.innerText()).toBe(`A/B: ${PRESET_TEXT_KO['lost-ack-idempotent']?.title} — 아직 바꾼 설정 없음`);
    await page.getByRole('button', { name: 'English', exact: true }).click();
    await expect.poll(() => heading.innerText()).toBe(`A/B: ${lostAck.title} — no setting changed yet`);
    const select = view.locator('select[data-testid$=":enable.idempotence"]').first();
    await select.selectOption('false');
    const log = view.locator('[data-testid="compare-verdict"] tr[data-layer="log"]').first();
    await expect.poll(() => log.getAttribute('data-differs')).toBe('true');
    expect(await heading.innerText()).toBe('A: enable.idempotence=true · B: enable.idempotence=false');
    // the lanes are at the end of the runs, where the verdicts above them are: B's log holds evt-789
    // twice (the comparison opened at 0 ms, both sides empty, "The partitions are the same at this time.")
    const scrubber = view.getByTestId('compare-scrubber');
    await expect.poll(async () => Number(await scrubber.inputValue())).toBe(Number(await scrubber.getAttribute('max')));
    expect(Number(await scrubber.inputValue())).toBeGreaterThan(0);
    await expect.poll(() => view.getByTestId('compare-lanes-differ').innerText()).toContain('orders-0');
    expect(await heading.innerText()).not.toContain('lost-ack-idempotent');
    expect(await log.locator('td').nth(1).getAttribute('data-status')).toBe('more-than-once');
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#ab=1\./);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the committed rate is over the window the cost panel states, on the run and on both sides of A/B', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, inject('baseUrl'));
    const cost = page.getByTestId('cost-panel');
    await cost.waitFor();
    // the opening story: 2 records over its 4,519 ms is 0.44/s (it read 76.92/s, 2 records in 26 ms)
    expect(await cost.getByTestId('cost-scope').innerText()).toContain('4,519 ms of virtual time');
    expect(await cost.locator('.cost-committed').innerText()).toBe(
      "2 committed records in the whole run's 4,519 ms of virtual time: 0.44 per virtual second",
    );
    await page.getByTestId('open-gallery').click();
    await page.getByTestId('gallery').getByTestId('open-lost-ack-idempotent').click();
    await page.getByTestId('timeline').waitFor();
    await page.getByTestId('open-compare').click();
    const view = page.getByTestId('compare-view');
    await view.waitFor();
    await view.locator('select[data-testid$=":enable.idempotence"]').first().selectOption('false');
    await expect.poll(() => view.locator('.cost-committed').count()).toBe(2);
    // A 1 record, B 2 records, over runs of the same length: B's rate is twice A's (it read 166.67 vs 0.07)
    const lines = await view.locator('.cost-committed').allInnerTexts();
    const parsed = lines.map((l) =>
      /^(\d+) committed records? in the whole run's ([\d,]+) ms of virtual time: ([\d.]+) per virtual second$/.exec(l),
    );
    expect(
      parsed.every((m) => m !== null),
      lines.join(' | '),
    ).toBe(true);
    const [a, b] = parsed.map((m) => ({ records: Number(m?.[1]), ms: Number((m?.[2] ?? '').replaceAll(',', '')), rate: Number(m?.[3]) }));
    expect([a?.records, b?.records]).toEqual([1, 2]);
    for (const x of [a, b]) expect(x?.rate).toBeCloseTo((x?.records ?? 0) / ((x?.ms ?? 1) / 1000), 2);
    expect(errors).toEqual([]);
    await page.close();
  });
});
