/**
 * A link pasted into the Import field as chat and mail clients hand it over opens: wrapped onto
 * lines, in angle brackets, quotes or a Markdown link, or followed by a full stop. JSON and other text
 * are left as they are.
 */
import { describe, expect, it } from 'vitest';
import { pastedLink } from '../../src/share/pastedLink';
import { findPreset } from '../../src/sim/presets';
import { encodeLink } from '../../src/sim/scenario/link';
import { resolveLink } from '../../src/store/engine/resolveLink';

const story = findPreset('opening-story');
if (!story) throw new Error('no opening-story');
const url = `https://eos-lab.example/${encodeLink(story.scenario, { step: 7, selection: null, language: 'en' })}`;

describe('pastedLink', () => {
  it('a link as it is stays as it is', () => {
    expect(pastedLink(url)).toBe(url);
    expect(pastedLink('#preset=opening-story&step=3')).toBe('#preset=opening-story&step=3');
  });

  it('takes off what a chat or mail client adds, and the link opens at its step', () => {
    for (const pasted of [
      `${url.slice(0, 70)}\n${url.slice(70, 146)}\r\n${url.slice(146)}`,
      `${url.slice(0, 70)} ${url.slice(70)}`,
      `<${url}>`,
      `"${url}"`,
      `[the run](${url})`,
      `${url}.`,
      `(${url})`,
    ]) {
      expect(pastedLink(pasted)).toBe(url);
      const r = resolveLink(pastedLink(pasted));
      expect(r.ok && r.view.step).toBe(7);
      // without it, the link reads as damaged
      expect(resolveLink(pasted).ok).toBe(false);
    }
    expect(pastedLink('<https://eos-lab.example/#preset=opening-story&step=3>')).toBe(
      'https://eos-lab.example/#preset=opening-story&step=3',
    );
  });

  it('leaves JSON and other text alone', () => {
    const json = JSON.stringify({ ...story.scenario, description: 'see #s=1.abc for the run' }, null, 2);
    expect(pastedLink(json)).toBe(json);
    expect(pastedLink('["#s=1.abc"]')).toBe('["#s=1.abc"]');
    expect(pastedLink('opening-story')).toBe('opening-story');
    expect(pastedLink('hello world.')).toBe('hello world.');
  });
});
