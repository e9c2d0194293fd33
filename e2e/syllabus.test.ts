/**
 * The syllabus panels on the page (issue 19, items 10–12): the verdict panel's legend (four layers,
 * who knows what), the notes panel, and the code panel beside the preset — in English and Korean,
 * reached from the gallery, without accessibility violations.
 */
import { describe, expect, inject, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { setConfigValues } from '../src/sim/scenario/edits';
import { javaCode } from '../src/ui/code/javaCode';
import { EOS_NOTES } from '../src/ui/notes/eosNotes';
import { EOS_LAYERS, EOS_TRIAD } from '../src/ui/verdict/eosLayers';
import { gotoWorkspace, watchErrors } from './browser';
import { appSession, axe, loadScenario, openConfig } from './ui-helpers';

const app = appSession();

const setLanguage = (language: 'en' | 'ko') => app.page.evaluate((l) => window.__eosLab?.store.getState().setLanguage(l), language);
const open = async (id: string) => {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  await setLanguage('en');
  await loadScenario(app.page, preset.scenario);
  await app.page.getByRole('heading', { level: 2, name: preset.title }).waitFor();
  return preset;
};
/** Opens a folded <details> by its summary. */
const unfold = async (testId: string) => {
  const details = app.page.getByTestId(testId);
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  return details;
};

describe('the syllabus panels', () => {
  it("the verdict panel's legend: the four layers and who knows what, in English and Korean", async () => {
    await open('opening-story');
    const legend = await unfold('eos-layers-legend');
    expect(await legend.locator('tr[data-eos-layer]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-eos-layer')))).toEqual(
      EOS_LAYERS.map((l) => l.key),
    );
    expect(await legend.locator('tr[data-eos-layer="idempotent-producer"]').innerText()).toContain('Kafka log');
    expect(await legend.getByTestId('eos-triad').locator('li').allInnerTexts()).toEqual(EOS_TRIAD.map((t) => t.text.en));
    await setLanguage('ko');
    await legend.getByText('범례: 정확히 한 번의 네 계층').waitFor();
    expect(await legend.locator('tr[data-eos-layer="application-idempotency"]').innerText()).toContain('애플리케이션 멱등성');
    expect(await legend.getByTestId('eos-triad').locator('li').allInnerTexts()).toEqual(EOS_TRIAD.map((t) => t.text.ko));
    expect(await legend.getAttribute('lang')).toBe('ko');
    expect(app.errors).toEqual([]);
  });

  it('the notes panel: versions, no XA, compensation, cost, a single broker — in English and Korean', async () => {
    await open('ctp-exactly-once-crash');
    const notes = await unfold('eos-notes');
    expect(await notes.locator('[data-note]').evaluateAll((els) => els.map((e) => e.getAttribute('data-note')))).toEqual(
      EOS_NOTES.map((n) => n.id),
    );
    expect(await notes.locator('[data-note="single-broker"]').innerText()).toContain('transaction.state.log.replication.factor');
    expect(await notes.locator('[data-note="versions"]').innerText()).toContain('exactly_once_beta');
    await setLanguage('ko');
    await notes.getByText('노트: 실행으로 보여 줄 수 없는 것').waitFor();
    expect(await notes.locator('[data-note="no-xa"]').innerText()).toContain('2단계 커밋');
    expect(app.errors).toEqual([]);
  });

  it("the cost note leads to this run's cost and to the throughput pair side by side", async () => {
    await open('ctp-exactly-once-crash');
    const notes = await unfold('eos-notes');
    await notes.getByRole('button', { name: "The whole run's cost" }).click();
    const costHeading = app.page.getByTestId('cost-panel').getByRole('heading', { level: 2 });
    await expect.poll(() => costHeading.evaluate((h) => h === document.activeElement)).toBe(true);
    await notes.getByRole('button', { name: 'Compare at-least-once with exactly-once (A/B)' }).click();
    const compare = app.page.getByTestId('compare-view');
    await compare.getByTestId('compare-cost').waitFor();
    const title = await compare.getByRole('heading', { level: 2 }).first().innerText();
    // the pair by the presets' titles (the A/B heading named them by id)
    expect(title).toBe(`A: ${findPreset('throughput-at-least-once')?.title} · B: ${findPreset('throughput-exactly-once')?.title}`);
    await compare.getByTestId('compare-close').click();
    expect(app.errors).toEqual([]);
  });

  it('the code panel: the transactional loop of the preset that runs it, as javaCode writes it; Korean comments in Korean', async () => {
    const preset = await open('ctp-exactly-once-crash');
    const panel = await unfold('code-panel');
    const enricher = panel.locator('section[data-client="enricher"] pre');
    const expected = javaCode(preset.scenario, 'en').find((c) => c.client === 'enricher')?.code ?? '';
    expect((await enricher.innerText()).trim()).toBe(expected.trim());
    expect(await enricher.innerText()).toContain('producer.sendOffsetsToTransaction(nextOffsets(records), consumer.groupMetadata());');
    await setLanguage('ko');
    await expect.poll(() => enricher.innerText()).toContain('// 트랜잭션을 수행하는 것은 컨슈머가 아니라 프로듀서');
    expect(app.errors).toEqual([]);
  });

  it('from the gallery: a syllabus preset opens with its code (INCR beside SET), legend and notes on the page', async () => {
    // a fresh page opened at #gallery, as a reader arrives from a link
    await app.page.close();
    app.page = await app.browser.newPage({ viewport: { width: 1280, height: 720 } });
    app.errors = watchErrors(app.page);
    await gotoWorkspace(app.page, `${inject('baseUrl')}#gallery`);
    const gallery = app.page.getByTestId('gallery');
    await gallery.waitFor();
    expect(await gallery.locator('[data-row="idempotent-write"] [data-preset="counter-set-vs-incr"]').count()).toBe(1);
    await gallery.getByTestId('open-counter-set-vs-incr').click();
    await app.page.getByRole('heading', { level: 2, name: findPreset('counter-set-vs-incr')?.title ?? '' }).waitFor();
    const panel = await unfold('code-panel');
    const text = await panel.innerText();
    expect(text).toContain('redis.incr(record.key());');
    expect(text).toContain('redis.set(record.key(), record.value());');
    await unfold('eos-layers-legend');
    await unfold('eos-notes');
    const violations = await axe(app.page);
    expect(violations).toEqual([]);
    expect(app.errors).toEqual([]);
  });

  it('the Streams section of the config editor: at_least_once by default, the checklist fails it; exactly_once_v2 re-runs the scenario', async () => {
    const preset = await open('streams-alos-crash-duplicate');
    const check = app.page.locator('[data-testid="checklist"] [data-check="offsets-in-transaction"]');
    await check.waitFor();
    expect(await check.getAttribute('data-status')).toBe('fail');
    const config = await openConfig(app.page);
    await config.getByTestId('config-section').selectOption('client:counter');
    const table = config.getByTestId('config-table');
    await expect.poll(() => table.textContent()).toContain('at_least_once is the default');
    await config.getByRole('combobox', { name: 'processing.guarantee', exact: true }).selectOption('exactly_once_v2');
    const edited = setConfigValues(preset.scenario, { scope: 'client', client: 'counter' }, { 'processing.guarantee': 'exactly_once_v2' });
    await expect.poll(() => app.page.getByTestId('trace-hash').getAttribute('data-trace-hash')).toBe(runScenario(edited).traceHash);
    await expect.poll(() => check.getAttribute('data-status')).not.toBe('fail');
    await setLanguage('ko');
    await expect.poll(() => table.textContent()).toContain('기본값은 at_least_once입니다');
    expect(app.errors).toEqual([]);
  });
});
