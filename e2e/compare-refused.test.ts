/**
 * A/B when B cannot run: zombie-fencing's producer has a transactional.id, so turning
 * enable.idempotence off for B is Kafka's ConfigException. The page says so, names the change in the
 * heading, keeps B's settings on screen (so it can be changed back) and shows no stale run beside
 * them; on the Korean page it says, as the config editor does, that Kafka's messages stay in English.
 * Changing the setting back runs B again.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gotoWorkspace, launchBrowser, watchErrors } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('A/B when B cannot run', () => {
  it('says why, names the change, keeps the settings to change it back, and shows no stale run', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = watchErrors(page);
    await gotoWorkspace(page, `${inject('baseUrl')}#preset=zombie-fencing&lang=en`);
    await page.getByTestId('verdict').waitFor();
    await page.getByTestId('open-compare').click();
    const view = page.getByTestId('compare-view');
    await view.getByTestId('compare-verdict').waitFor();
    const select = view.locator('select[data-testid$=":enable.idempotence"]').first();
    await select.selectOption('false');
    const error = view.getByTestId('compare-error');
    await expect
      .poll(() => error.innerText())
      .toContain('ConfigException: Cannot set a transactional.id without also enabling idempotence.');
    expect(await view.getByTestId('compare-heading').innerText()).toMatch(
      /^A: instance-a enable.idempotence=true · B: instance-a enable.idempotence=false/,
    );
    // the settings stay, as asked; no verdict of a B that did not run
    await expect(select.inputValue()).resolves.toBe('false');
    expect(await view.getByTestId('compare-verdict').count()).toBe(0);
    // in Korean: the page's words in Korean, Kafka's in English, and the note that says so
    await page.getByRole('button', { name: '한국어', exact: true }).click();
    await expect.poll(() => error.innerText()).toContain('B를 실행할 수 없습니다');
    expect(await error.innerText()).toContain('Kafka 설정 오류(ConfigException 등)는 Kafka가 내는 그대로 영어로 보여 줍니다.');
    // back to a B that runs
    await select.selectOption('true');
    await view.getByTestId('compare-verdict').waitFor();
    expect(await view.getByTestId('compare-error').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
