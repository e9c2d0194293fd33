/**
 * The message panel's toolbar on a projector (1280×720): By step, Virtual time, the background
 * toggle and −, + and Fit on one line, in English and Korean, with hundreds of messages hidden.
 * "Background traffic (154 messages hidden)" took 290 px at the end of zombie-fencing, and the
 * zoom buttons went onto a second line under the others.
 */
import { describe, expect, it } from 'vitest';
import { browserSession, openAt } from './ui-helpers';

const session = browserSession();

describe('the message panel’s toolbar at 1280 px', () => {
  for (const language of ['en', 'ko'] as const)
    for (const preset of ['zombie-fencing', 'lost-ack-idempotent'])
      it(`${language}, ${preset} at its end: one line`, async () => {
        const { page, errors } = await openAt(session.browser, `#preset=${preset}&step=1000000&lang=${language}`, {
          width: 1280,
          height: 720,
        });
        await expect.poll(() => page.getByTestId('step-counter').innerText()).toMatch(/(\d[\d,]*) \/ \1/);
        const toolbar = page.getByTestId('msc').locator('.tl-toolbar');
        // the toggle counts the messages it hides: three digits here
        await expect.poll(() => toolbar.locator('button[aria-pressed]').nth(2).innerText()).toMatch(/\d{3}/);
        const tops = await toolbar
          .locator('button')
          .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
        expect(tops).toHaveLength(6);
        expect(new Set(tops).size, `tops ${tops.join(', ')}`).toBe(1);
        expect(errors).toEqual([]);
        await page.close();
      });
});
