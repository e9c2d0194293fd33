/**
 * The Export dialog says what each export button did: after a download, a status line (role="status")
 * in the dialog names the file, in English and Korean — the browser's own download notice is outside
 * the dialog, and some browsers show none; when a file cannot be made (a PNG the browser will not
 * encode), the line says so and why, and nothing is downloaded.
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

const story = findPreset('opening-story');
if (!story) throw new Error('no opening-story');

async function openExport(language: 'en' | 'ko', size = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: size, acceptDownloads: true });
  const errors = watchErrors(page);
  await gotoWorkspace(page, `${inject('baseUrl')}${encodeLink(story!.scenario, { step: 12, selection: null, language })}`);
  await page.getByTestId('verdict').waitFor();
  await page.getByTestId('open-export').click();
  await page.getByTestId('export-dialog').waitFor();
  return { page, errors };
}

/** Presses an export button; the file the browser was given. */
async function press(page: Page, name: string): Promise<string> {
  const dialog = page.getByTestId('export-dialog');
  const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name, exact: true }).click()]);
  return file.suggestedFilename();
}

describe('the Export dialog says what it downloaded', () => {
  it('in English: each button names its file in a status line', async () => {
    const { page, errors } = await openExport('en');
    const status = page.getByTestId('export-dialog').getByRole('status');
    expect(await status.innerText()).toBe('');
    for (const [button, ending] of [
      ['Figure as SVG', '-step-12.svg'],
      ['Figure as PNG (2×)', '-step-12.png'],
      ['Scenario as JSON', 'opening-story.json'],
      ['Trace as JSON', '-trace.json'],
    ] as const) {
      const file = await press(page, button);
      expect(file.endsWith(ending)).toBe(true);
      await expect.poll(() => status.innerText()).toBe(`Downloaded ${file}.`);
    }
    await screenshot(page, 'export-status-en');
    expect(await axe(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('in Korean, on a phone', async () => {
    const { page, errors } = await openExport('ko', { width: 390, height: 844 });
    const status = page.getByTestId('export-dialog').getByRole('status');
    const file = await press(page, '그림 SVG');
    await expect.poll(() => status.innerText()).toBe(`${file} 파일을 내려받았습니다.`);
    expect(await status.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the same button twice: the line changes, so a screen reader reads it again', async () => {
    // a live region whose text is set to what it already says is not announced again: the second
    // download of the same file says "again" and how many times in a row
    const { page, errors } = await openExport('en');
    const status = page.getByTestId('export-dialog').getByRole('status');
    const file = await press(page, 'Figure as SVG');
    await expect.poll(() => status.innerText()).toBe(`Downloaded ${file}.`);
    expect(await press(page, 'Figure as SVG')).toBe(file);
    await expect.poll(() => status.innerText()).toBe(`Downloaded ${file} again (2 times in a row).`);
    await press(page, 'Figure as SVG');
    await expect.poll(() => status.innerText()).toBe(`Downloaded ${file} again (3 times in a row).`);
    // another file starts the count again, and so does coming back
    const json = await press(page, 'Scenario as JSON');
    await expect.poll(() => status.innerText()).toBe(`Downloaded ${json}.`);
    await press(page, 'Figure as SVG');
    await expect.poll(() => status.innerText()).toBe(`Downloaded ${file}.`);
    // in Korean
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    await press(page, '그림 SVG');
    await expect.poll(() => status.innerText()).toBe(`${file} 파일을 내려받았습니다.`);
    await press(page, '그림 SVG');
    await expect.poll(() => status.innerText()).toBe(`${file} 파일을 다시 내려받았습니다(연달아 2번째).`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a PNG the browser cannot encode: the line says so and why, nothing is downloaded', async () => {
    const { page, errors } = await openExport('en');
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    await page.evaluate(() => {
      HTMLCanvasElement.prototype.toBlob = (callback: BlobCallback) => {
        callback(null);
      };
    });
    const status = page.getByTestId('export-dialog').getByRole('status');
    await page.getByTestId('export-dialog').getByRole('button', { name: 'Figure as PNG (2×)' }).click();
    await expect
      .poll(() => status.innerText())
      .toBe('Could not make eos-lab-opening-story-step-12.png: the browser could not encode a PNG');
    expect(downloads).toEqual([]);
    // in Korean the sentence is Korean; the browser's reason stays English, marked as such
    await page.evaluate(() => window.__eosLab?.store.getState().setLanguage('ko'));
    await page.getByTestId('export-dialog').getByRole('button', { name: '그림 PNG (2배)' }).click();
    await expect
      .poll(() => status.innerText())
      .toBe('eos-lab-opening-story-step-12.png 파일을 만들지 못했습니다. 브라우저가 알린 이유: the browser could not encode a PNG');
    expect(await status.locator('[lang="en"]').innerText()).toBe('the browser could not encode a PNG');
    // the same failure again: the line says so, and changes
    await page.getByTestId('export-dialog').getByRole('button', { name: '그림 PNG (2배)' }).click();
    await expect
      .poll(() => status.innerText())
      .toBe(
        'eos-lab-opening-story-step-12.png 파일을 이번에도 만들지 못했습니다(연달아 2번째). 브라우저가 알린 이유: the browser could not encode a PNG',
      );
    expect(downloads).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
