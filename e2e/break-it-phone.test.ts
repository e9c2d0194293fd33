/**
 * Break it on a phone (390×844): each setting's name stays with its select — on its line, or, where
 * the select is too wide for it, at the start of the line above it. The names and selects were inline
 * text, so a line could break between a name and its control: "At" was left at the end of the Property
 * line, its select alone at the start of the next. Each select stays inside the panel.
 */
import { describe, expect, it } from 'vitest';
import { screenshot } from './browser';
import { browserSession, openAt } from './ui-helpers';

const session = browserSession();

describe('Break it on a phone', () => {
  for (const language of ['en', 'ko'] as const)
    it(`${language}: each setting’s name on its select’s line, every select inside the panel`, async () => {
      const { page, errors } = await openAt(session.browser, `#preset=zombie-fencing&lang=${language}`);
      await page.getByRole('button', { name: language === 'en' ? 'Break it' : '깨뜨려 보기', exact: true }).click();
      const panel = page.getByTestId('break-it');
      await panel.waitFor();
      const dialog = await page.locator('dialog[open]').boundingBox();
      if (!dialog) throw new Error('no dialog');
      for (const id of ['break-it-property', 'break-it-at', 'break-it-bound']) {
        // the name is the label's first text; its line is the line of the select's middle
        const lines = await panel.getByTestId(id).evaluate((select) => {
          const label = select.closest('label');
          const text = label?.firstChild;
          if (!label || !text || text.nodeType !== Node.TEXT_NODE) return null;
          const range = document.createRange();
          range.selectNodeContents(text);
          const name = range.getBoundingClientRect();
          const box = select.getBoundingClientRect();
          const form = label.parentElement?.getBoundingClientRect();
          const middle = name.top + name.height / 2;
          return {
            sameLine: middle >= box.top && middle <= box.bottom,
            // where the select does not fit beside its name, the name starts a line and the select is under it
            startsLineAbove: Math.abs(name.left - (form?.left ?? 0)) <= 1 && box.top >= name.bottom - 1 && box.left <= name.left + 1,
            right: box.right,
          };
        });
        if (!lines) throw new Error(`${id}: no label text`);
        expect(lines.sameLine || lines.startsLineAbove, `${id}: ${JSON.stringify(lines)}`).toBe(true);
        expect(lines.right, id).toBeLessThanOrEqual(dialog.x + dialog.width);
      }
      await screenshot(page, `break-it-phone-${language}`);
      expect(errors).toEqual([]);
      await page.close();
    });
});
