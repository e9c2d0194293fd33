// @vitest-environment happy-dom
/**
 * The header while a dump is shown (happy-dom): it names the imported dump — by its files — in
 * English and Korean, not the scenario the dump replaced on screen (whose title, question and
 * expected outcome it kept saying); closing the dump brings the scenario's title back.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { simStore } from '../../src/store/simStore';
import { dumpHeading } from '../../src/ui/dump/dumpHeading';
import { dumpStore } from '../../src/ui/dump/dumpStore';
import { pageInDom } from './pageInDom';

const page = pageInDom();
const text = readFileSync(resolve('tests/fixtures/dumps/kafka/kafka-4.0-print-data-log.txt'), 'utf8');

const heading = () => page.host.querySelector('.app-header .scenario-title h2')?.textContent ?? '';

describe('the header over an imported dump', () => {
  it('names the dump, not the scenario behind it, and the scenario again once the dump is closed', async () => {
    const story = findPreset('opening-story');
    if (!story) throw new Error('no preset');
    act(() => simStore.getState().load(story.scenario));
    page.render();
    await page.settle();
    expect(heading()).toBe(story.title);

    act(() => dumpStore.getState().startImport());
    expect(heading()).toBe('Importing a partition dump');
    await act(() => dumpStore.getState().open([{ name: '00000000000000000000.log.txt', text }]));
    await page.settle();
    expect(dumpStore.getState().analysis).not.toBeNull();
    expect(heading()).toBe('Imported dump: 00000000000000000000.log.txt');
    expect(page.host.querySelector('.app-header .question')).toBeNull();
    expect(page.host.querySelector('[data-testid="expected"]')).toBeNull();
    act(() => simStore.getState().setLanguage('ko'));
    expect(heading()).toBe('가져온 덤프: 00000000000000000000.log.txt');
    act(() => simStore.getState().setLanguage('en'));

    act(() => dumpStore.getState().close());
    expect(heading()).toBe(story.title);
  });

  it('lists at most three files by name', () => {
    const files = ['a.log', 'b.log', 'c.log', 'd.log', 'e.log'].map((name) => ({ name }));
    expect(dumpHeading('en', false, files)).toBe('Imported dump: a.log, b.log, c.log, + 2 more');
    expect(dumpHeading('ko', false, files)).toBe('가져온 덤프: a.log, b.log, c.log, 외 2개');
  });

  it('names the pasted text in the page language', () => {
    expect(dumpHeading('en', false, [{ name: 'pasted' }])).toBe('Imported dump: pasted');
    expect(dumpHeading('ko', false, [{ name: 'pasted' }])).toBe('가져온 덤프: 붙여 넣은 텍스트');
  });
});
