// @vitest-environment happy-dom
/**
 * File fields in the page's language (happy-dom): the Import dialog and the dump reader show a
 * button of ours ("Choose a file…" / "파일 선택…") and what was chosen ("No file chosen" / "선택한
 * 파일 없음"), never the browser's own file input, whose words follow the browser's language. The
 * native input stays, visually hidden and out of the tab order; the button is what Tab reaches, and
 * pressing it opens the input's picker. A chosen file is named and read.
 */
import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { DumpImport } from '../../src/ui/dump/DumpImport';
import { ExportDialog } from '../../src/ui/export/ExportDialog';
import { filePickerWords } from '../../src/ui/FilePicker';
import { pageInDom } from './pageInDom';

const page = pageInDom();

function picker(testId: string) {
  const input = page.host.querySelector<HTMLInputElement>(`input[type="file"][data-testid="${testId}"]`);
  const button = page.host.querySelector<HTMLButtonElement>(`button[data-testid="${testId}-button"]`);
  if (!input || !button) throw new Error(`no file field ${testId}`);
  const status = document.getElementById(button.getAttribute('aria-describedby') ?? '');
  const names = (button.getAttribute('aria-labelledby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '');
  return { input, button, status, name: names.join(' ') };
}

describe('file fields in the page’s language', () => {
  for (const language of ['en', 'ko'] as const)
    it(`${language}: Import and the dump reader offer our button and status, the native input hidden`, () => {
      act(() => simStore.getState().load(findPreset('opening-story')?.scenario));
      act(() => simStore.getState().setLanguage(language));
      const w = filePickerWords(language);
      for (const [make, testId, button] of [
        [() => createElement(ExportDialog, { onClose: () => {} }), 'import-file', w.chooseFile],
        [() => createElement(DumpImport), 'dump-files', w.chooseFiles],
      ] as const) {
        page.render(make());
        const f = picker(testId);
        expect(f.button.textContent).toBe(button);
        expect(f.status?.textContent).toBe(w.noFile);
        // the native input: hidden, not reachable by Tab, not read out
        expect(f.input.classList.contains('visually-hidden')).toBe(true);
        expect(f.input.tabIndex).toBe(-1);
        expect(f.input.getAttribute('aria-hidden')).toBe('true');
        // the button's accessible name says which field it is, then what it does
        expect(f.name.length).toBeGreaterThan(button.length);
        expect(f.name.endsWith(button)).toBe(true);
        // pressing the button (a real <button>: Enter and Space press it) opens the picker
        const click = vi.spyOn(f.input, 'click').mockImplementation(() => {});
        f.button.focus();
        expect(document.activeElement).toBe(f.button);
        act(() => f.button.click());
        expect(click).toHaveBeenCalledTimes(1);
        click.mockRestore();
        page.render(null);
      }
    });

  it('names the chosen file and reads it (Import opens the scenario file)', async () => {
    act(() => simStore.getState().load(findPreset('opening-story')?.scenario));
    page.render(createElement(ExportDialog, { onClose: () => {} }));
    const f = picker('import-file');
    const scenario = findPreset('zombie-fencing')?.scenario;
    const file = new File([JSON.stringify(scenario)], 'zombie.json', { type: 'application/json' });
    Object.defineProperty(f.input, 'files', { value: [file], configurable: true });
    await act(async () => {
      f.input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(f.status?.textContent).toBe('zombie.json');
    await page.settle(50);
    expect(simStore.getState().scenario?.title).toBe(scenario?.title);
  });
});
