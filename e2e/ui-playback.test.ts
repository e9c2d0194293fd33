/**
 * Playback and the page's controls in Chromium: step back and forward (buttons and keys), the
 * scrubber, jumps to faults, errors and markers, the help dialog (a focus-trapped modal that Esc
 * closes), Korean narration and preset title, the theme switch, clicking an actor — and no console errors.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../src/sim/presets';
import { PRESET_TEXT_KO } from '../src/sim/presets/ko';
import { runScenario } from '../src/sim/run';
import { previousStoryPosition, storySteps } from '../src/sim/trace/story';
import { jumpTargets } from '../src/ui/playback/jumps';
import { appSession, loadScenario, position, waitForStep } from './ui-helpers';

const app = appSession();

const narration = () => app.page.getByTestId('narration').innerText();

/** A page-level shortcut: nothing focused that owns the key (the slider keeps its own arrows). */
async function press(key: string): Promise<void> {
  await app.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await app.page.keyboard.press(key);
}

describe('playback', () => {
  it('steps forward and back with the buttons and the arrow keys; Home and End', async () => {
    await app.page.getByRole('button', { name: 'Step forward' }).click();
    await app.page.getByRole('button', { name: 'Step forward' }).click();
    await waitForStep(app.page, 2);
    const atTwo = await narration();
    await app.page.getByRole('button', { name: 'Back one step' }).click();
    await waitForStep(app.page, 1);
    expect(await narration()).not.toBe(atTwo);
    await press('ArrowRight');
    await waitForStep(app.page, 2);
    expect(await narration()).toBe(atTwo);
    await press('End');
    const { total } = await position(app.page);
    await waitForStep(app.page, total);
    // background steps (heartbeats, idle fetches) are skipped: ← lands on the last step of the story
    const story = storySteps(runScenario(findPreset('opening-story')?.scenario));
    await press('ArrowLeft');
    await waitForStep(app.page, previousStoryPosition(story, total));
    // B turns skipping off (and the switch says so): ← is one step again
    await press('b');
    expect(await app.page.getByTestId('skip-idle').getAttribute('aria-checked')).toBe('false');
    await press('End');
    await press('ArrowLeft');
    await waitForStep(app.page, total - 1);
    await press('b');
    expect(await app.page.getByTestId('skip-idle').getAttribute('aria-checked')).toBe('true');
    await press('Home');
    await waitForStep(app.page, 0);
    expect(await narration()).toMatch(/^Start of the run/);
  });

  it('the scrubber seeks anywhere at once, and the page matches the engine there', async () => {
    const slider = app.page.getByRole('slider', { name: 'Position in the run' });
    await slider.fill('20');
    await waitForStep(app.page, 20);
    await slider.press('ArrowRight');
    await waitForStep(app.page, 21);
    const t = runScenario(findPreset('opening-story')?.scenario);
    expect(await app.page.getByTestId('narration').getAttribute('lang')).toBe('en');
    expect(await app.page.locator('.narration-meta').innerText()).toContain(`#21 · ${t.steps.at(20)?.t.toLocaleString('en')} ms`);
  });

  it('plays and pauses with Space', async () => {
    await press('Home');
    await app.page.getByLabel('Speed').selectOption('16');
    await press(' ');
    await expect.poll(async () => (await position(app.page)).step, { timeout: 5000 }).toBeGreaterThan(3);
    await press(' ');
    const stopped = (await position(app.page)).step;
    await app.page.waitForTimeout(400);
    expect((await position(app.page)).step).toBe(stopped);
    expect(await app.page.getByRole('button', { name: 'Play' }).count()).toBe(1);
  });

  it('jumps to the next and previous fault, error and marker', async () => {
    const preset = findPreset('zombie-fencing');
    await loadScenario(app.page, preset?.scenario);
    const t = jumpTargets(runScenario(preset?.scenario).steps);
    const firstError = (t.error[0] as number) + 1;
    await press('e');
    await waitForStep(app.page, firstError);
    expect(await narration()).toMatch(/got \w+ during/);
    await press('m');
    await waitForStep(app.page, (t.marker.find((i) => i + 1 > firstError) as number) + 1);
    expect(await narration()).toMatch(/wrote an? (COMMIT|ABORT) marker/);
    await app.page.getByRole('button', { name: 'Previous marker' }).isVisible();
    await press('Home');
    await app.page.getByRole('button', { name: 'Next fault', exact: true }).click();
    await waitForStep(app.page, (t.fault[0] as number) + 1);
    await press('Shift+ArrowRight');
    const all = [...new Set([...t.fault, ...t.error, ...t.marker])].sort((a, b) => a - b);
    await waitForStep(app.page, (all.find((i) => i > (t.fault[0] as number)) as number) + 1);
  });

  it('dragging the scrubber moves steadily forward: the bar does not reflow under the pointer as the numbers grow', async () => {
    // a run whose time grows from 4 to 5 digits: the position's text gets longer as the pointer moves
    await loadScenario(app.page, findPreset('ctp-exactly-once-crash')?.scenario);
    const slider = app.page.getByRole('slider', { name: 'Position in the run' });
    await slider.fill('0');
    await waitForStep(app.page, 0);
    const box = await slider.boundingBox();
    if (!box) throw new Error('no scrubber');
    const y = box.y + box.height / 2;
    await app.page.mouse.move(box.x + 2, y);
    await app.page.mouse.down();
    const values: number[] = [];
    const widths: number[] = [];
    for (let i = 1; i <= 10; i++) {
      await app.page.mouse.move(box.x + 2 + ((box.width - 4) * i) / 10, y, { steps: 3 });
      values.push(Number(await slider.inputValue()));
      widths.push(Math.round((await slider.boundingBox())?.width ?? 0));
    }
    await app.page.mouse.up();
    expect(new Set(widths), `widths ${widths.join(', ')}`).toEqual(new Set([Math.round(box.width)]));
    for (let i = 1; i < values.length; i++) expect(values[i], `values ${values.join(', ')}`).toBeGreaterThan(values[i - 1] as number);
    const { total } = await position(app.page);
    expect(values.at(-1)).toBeGreaterThan(total * 0.95);
  });
});

describe('the rest of the page', () => {
  it('opens the help dialog with ?, keeps focus inside, closes with Esc and gives focus back', async () => {
    const help = app.page.getByRole('button', { name: 'Keyboard shortcuts' });
    await help.focus();
    await app.page.keyboard.press('?');
    const dialog = app.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Next fault');
    for (let i = 0; i < 6; i++) {
      await app.page.keyboard.press('Tab');
      expect(await app.page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    }
    // shortcuts do not run behind the dialog
    const before = await position(app.page);
    await app.page.keyboard.press('ArrowRight');
    expect(await position(app.page)).toEqual(before);
    await app.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await app.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Keyboard shortcuts');
  });

  it('switches to Korean: the title, narration, panels and the verdict speak Korean', async () => {
    await loadScenario(app.page, findPreset('opening-story')?.scenario);
    await press('End');
    await app.page.getByRole('button', { name: '한국어' }).click();
    await expect.poll(() => app.page.evaluate(() => document.documentElement.lang)).toBe('ko');
    expect(await app.page.getByTestId('narration').getAttribute('lang')).toBe('ko');
    // the Korean preset texts are loaded when the page first speaks Korean
    await expect.poll(() => app.page.getByRole('heading', { level: 2 }).first().innerText()).toBe(PRESET_TEXT_KO['opening-story']?.title);
    expect(await narration()).toMatch(/[가-힣]/);
    expect(await app.page.locator('[data-testid="verdict"] tr[data-layer="processing"] .sentence').innerText()).toBe(
      'billing의 처리: evt-789가 두 번 처리됐습니다.',
    );
    expect(await app.page.getByTestId('checklist').innerText()).toContain('운영 전 체크리스트');
    // the opening-story's second append, in Korean
    await app.page.getByRole('slider').fill('25');
    await waitForStep(app.page, 25);
    expect(await narration()).toContain('event_id만 알려 줍니다');
    await app.page.getByRole('button', { name: 'English' }).click();
    await expect.poll(narration).toContain('only the event_id shows it is the same event');
  });

  it('switches theme: light, dark and back to the system', async () => {
    const bg = () => app.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await app.page.getByLabel('Theme').selectOption('dark');
    expect(await app.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const dark = await bg();
    await app.page.getByLabel('Theme').selectOption('light');
    const light = await bg();
    expect(light).toBe('rgb(255, 255, 255)');
    expect(dark).not.toBe(light);
    await app.page.getByLabel('Theme').selectOption('system');
    expect(await app.page.evaluate(() => document.documentElement.dataset.theme)).toBe('system');
  });

  it('selects an actor by clicking it and shows its details, brought into view in the side column', async () => {
    // the side column scrolled to its top: the details sit below the verdict and the cost, out of view at 1280×720
    await app.page.evaluate(() => document.querySelector('.side-column')?.scrollTo({ top: 0 }));
    const detailsTop = () =>
      app.page.evaluate(() => {
        const column = document.querySelector('.side-column') as HTMLElement;
        const details = document.querySelector('[data-testid="details"]') as HTMLElement;
        return { top: details.getBoundingClientRect().top - column.getBoundingClientRect().top, height: column.clientHeight };
      });
    const before = await detailsTop();
    await app.page.locator('[data-actor="orders-service.producer"] .actor-head').click();
    const details = app.page.getByTestId('details');
    expect(await details.getAttribute('data-selection')).toBe('actor');
    const after = await detailsTop();
    expect(before.top).toBeGreaterThanOrEqual(before.height / 2);
    expect(after.top).toBeGreaterThanOrEqual(0);
    expect(after.top).toBeLessThan(after.height / 2);
    // the page itself did not move
    expect(await app.page.evaluate(() => window.scrollY)).toBe(0);
    expect(await details.innerText()).toContain('producerId / epoch');
    expect(await app.page.locator('[data-slot="inject-actions"]').count()).toBe(1);
    await app.page.locator('[data-actor="orders-service.producer"] .actor-head').click();
    expect(await details.getAttribute('data-selection')).toBe('none');
  });

  it('a verdict step link seeks to the step that caused the finding', async () => {
    await press('End');
    await app.page.locator('[data-testid="verdict"] tr[data-layer="processing"] .step-link').last().click();
    const { step } = await position(app.page);
    expect(await narration()).toMatch(/processed orders-0 offset 101 \(evt-789\) — the second time/);
    expect(step).toBeGreaterThan(0);
  });

  it('logged no console errors', () => {
    expect(app.errors).toEqual([]);
  });
});
