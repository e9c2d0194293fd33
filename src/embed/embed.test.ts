/** The embed's pure parts: options from its URL, the inbound message schema, the snippets. */
import { describe, expect, it } from 'vitest';
import { embedQuery, parseEmbedOptions } from '../share/embedOptions';
import {
  elementSnippet,
  embedUrl,
  escapeAttribute,
  IFRAME_DEFAULT_HEIGHT,
  IFRAME_ID,
  iframeSnippet,
  resizeListenerSnippet,
} from '../share/embedSnippets';
import { parseInbound } from './messages';

describe('embed options', () => {
  it('reads the link, preset, step, autoplay, theme, height and speed', () => {
    const o = parseEmbedOptions('?preset=db-sink-inbox&step=12&autoplay=1&theme=dark&height=420&speed=20', '#s=1.abc');
    expect(o).toEqual({
      link: '#s=1.abc',
      preset: 'db-sink-inbox',
      step: 12,
      autoplay: true,
      theme: 'dark',
      height: 420,
      speed: 20,
      language: null,
    });
  });

  it('falls back to defaults on malformed values and clamps ranges', () => {
    const o = parseEmbedOptions('?step=-4&autoplay=false&theme=neon&height=5&speed=99999', '#gallery');
    expect(o).toEqual({ link: null, preset: null, step: null, autoplay: false, theme: 'system', height: 120, speed: 200, language: null });
    // a preset id that names no scenario is kept: the embed says it cannot open it instead of showing the default
    for (const id of ['Zombie-Fencing', 'zombie_fencing', '<script>', 'x.y'])
      expect(parseEmbedOptions(`?preset=${encodeURIComponent(id)}`, '').preset).toBe(id);
    expect(parseEmbedOptions('?preset=', '').preset).toBeNull();
    expect(parseEmbedOptions('', '').autoplay).toBe(false);
    expect(parseEmbedOptions('?autoplay', '').autoplay).toBe(true);
  });

  it('reads lang: en or ko (a tag such as ko-KR counts), any other value kept as written so the embed can say so', () => {
    expect(parseEmbedOptions('?preset=x&lang=ko', '').language).toEqual({ language: 'ko' });
    expect(parseEmbedOptions('?lang=EN-us', '').language).toEqual({ language: 'en' });
    expect(parseEmbedOptions('?lang=fr', '').language).toEqual({ unsupported: 'fr' });
    expect(parseEmbedOptions('?lang=%3Cb%3E', '').language).toEqual({ unsupported: '<b>' });
    expect(parseEmbedOptions('?lang=', '').language).toBeNull();
  });

  it("reads the page's short address in the fragment (#preset=<id>&step=<n>&lang=…), as the page does", () => {
    // it used to be ignored: embed.html#preset=lost-ack-idempotent showed the default scenario
    expect(parseEmbedOptions('', '#preset=lost-ack-idempotent&step=5').link).toBe('#preset=lost-ack-idempotent&step=5');
    expect(parseEmbedOptions('', '#preset=nope').link).toBe('#preset=nope');
    expect(parseEmbedOptions('', '#preset=x&lang=ko').language).toEqual({ language: 'ko' });
    // the query's lang wins over the fragment's
    expect(parseEmbedOptions('?lang=en', '#preset=x&lang=ko').language).toEqual({ language: 'en' });
  });

  it('writes only the options that differ from the defaults', () => {
    expect(embedQuery({ step: 0, autoplay: false, theme: 'system', height: null })).toBe('');
    expect(embedQuery({ preset: 'x', step: 3, autoplay: true, theme: 'light', height: 300 })).toBe(
      '?preset=x&step=3&autoplay=1&theme=light&height=300',
    );
  });
});

describe('inbound postMessage commands', () => {
  it('accepts the four commands', () => {
    expect(parseInbound({ type: 'play' })).toEqual({ kind: 'command', command: { type: 'play' } });
    expect(parseInbound({ type: 'pause', extra: 1 })).toEqual({ kind: 'command', command: { type: 'pause' } });
    expect(parseInbound({ type: 'seek', step: 7 })).toEqual({ kind: 'command', command: { type: 'seek', step: 7 } });
    expect(parseInbound({ type: 'load', link: 'opening-story' })).toMatchObject({
      kind: 'command',
      command: { type: 'load', link: 'opening-story' },
    });
    expect(parseInbound({ type: 'load', scenario: { version: 1 } })).toMatchObject({ kind: 'command' });
  });

  it('ignores what is not addressed to it, silently', () => {
    for (const data of [
      null,
      undefined,
      'play',
      42,
      [],
      { type: 'resize' },
      { type: 'ready' },
      { source: 'eos-lab', type: 'step' },
      { kind: 'play' },
    ])
      expect(parseInbound(data)).toEqual({ kind: 'ignore' });
  });

  it('rejects malformed commands with a sentence', () => {
    for (const data of [
      { type: 'seek' },
      { type: 'seek', step: -1 },
      { type: 'seek', step: 1.5 },
      { type: 'seek', step: '3' },
      { type: 'seek', step: 1e12 },
      { type: 'load' },
      { type: 'load', link: 'x', scenario: {} },
      { type: 'load', link: 7 },
      { type: 'load', link: 'x'.repeat(100_001) },
    ]) {
      const r = parseInbound(data);
      expect(r.kind, JSON.stringify(data).slice(0, 60)).toBe('invalid');
      if (r.kind === 'invalid') expect(r.message).toMatch(new RegExp(`^${data.type}: `));
    }
  });
});

describe('embed snippets', () => {
  const input = {
    pageHref: 'https://docs.example.org/tools/eos-lab/index.html?x=1#s=1.old',
    link: '#s=1.ABC_-',
    title: 'Lost "ack" <b>',
    step: 12,
    autoplay: true,
    theme: 'dark' as const,
    height: 480,
  };

  it('points at embed.html and eos-lab.js beside the app, under its sub-path', () => {
    expect(embedUrl(input)).toBe('https://docs.example.org/tools/eos-lab/embed.html?step=12&autoplay=1&theme=dark&height=480#s=1.ABC_-');
    expect(elementSnippet(input)).toBe(
      '<script src="https://docs.example.org/tools/eos-lab/eos-lab.js" defer></script>\n<eos-lab scenario="#s=1.ABC_-" step="12" autoplay theme="dark" height="480"></eos-lab>',
    );
  });

  it('sandboxes the iframe and escapes the title', () => {
    const html = iframeSnippet(input);
    expect(html).toContain('sandbox="allow-scripts allow-popups"');
    expect(html).toContain('title="EOS Lab: Lost &quot;ack&quot; &lt;b&gt;"');
    expect(escapeAttribute('a&"<>')).toBe('a&amp;&quot;&lt;&gt;');
  });

  it('gives the iframe its default height when none is chosen, and an id the resize listener looks for', () => {
    const html = iframeSnippet({ ...input, height: null });
    expect(html).toContain(`height="${IFRAME_DEFAULT_HEIGHT}"`);
    expect(html).toContain(`id="${IFRAME_ID}"`);
    expect(iframeSnippet(input)).toContain('height="480"');
    const script = resizeListenerSnippet();
    expect(script).toContain(`getElementById('${IFRAME_ID}')`);
    // it acts only on the frame's own messages, and only on resize
    expect(script).toContain('e.source !== frame.contentWindow');
    expect(script).toContain("e.data.type !== 'resize'");
  });
});
