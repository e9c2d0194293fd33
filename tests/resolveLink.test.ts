/**
 * What the Import box (and the embed's `load` message) opens from a pasted text: a share link, a
 * shipped scenario's id — and the page's and the embed's short addresses of a shipped scenario,
 * alone or as a whole URL, as the gallery and the docs link them.
 */
import { describe, expect, it } from 'vitest';
import { resolveLink } from '../src/store/engine/resolveLink';

const idOf = (r: ReturnType<typeof resolveLink>) => (r.ok ? (r.scenario as { id?: string }).id : null);

describe('resolveLink', () => {
  it("opens a shipped scenario from #preset=, a page URL with it, and the embed's ?preset=, with the step", () => {
    const fragment = resolveLink('#preset=zombie-fencing&step=7');
    expect(idOf(fragment)).toBe('zombie-fencing');
    expect(fragment.ok && fragment.view).toEqual({ step: 7 });
    expect(idOf(resolveLink('http://localhost:4799/#preset=zombie-fencing'))).toBe('zombie-fencing');
    const embed = resolveLink('https://docs.example/eos-lab/embed.html?preset=zombie-fencing&step=3&theme=dark');
    expect(idOf(embed)).toBe('zombie-fencing');
    expect(embed.ok && embed.view).toEqual({ step: 3 });
  });

  it('a bare id still opens; an unknown id in an address is named in the error, as text', () => {
    expect(idOf(resolveLink('zombie-fencing'))).toBe('zombie-fencing');
    const r = resolveLink('http://localhost:4799/#preset=%3Cb%3Enope');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toContain('"<b>nope"');
  });

  it("an unknown id's error names the address form of where it was opened: #preset= in the page, ?preset= in the embed", () => {
    const page = resolveLink('nope');
    expect(!page.ok && page.error.message).toContain('#preset=<id> opens one');
    expect(!page.ok && page.error.ko).toContain('#preset=<id> 형식으로');
    const embed = resolveLink('nope', 'embed');
    expect(!embed.ok && embed.error.message).toContain('embed.html?preset=<id> opens one');
    expect(!embed.ok && embed.error.ko).toContain('embed.html?preset=<id> 형식으로');
    for (const r of [embed.ok ? '' : embed.error.message, embed.ok ? '' : embed.error.ko]) expect(r).not.toContain('#preset=');
    // text that is neither a link nor shaped like an id still says both
    const other = resolveLink('https://example.com/some/page', 'embed');
    expect(!other.ok && other.error.message).toContain('is neither an EOS Lab share link');
    expect(!other.ok && other.error.message).toContain('or embed.html?preset=<id>)');
  });

  it('a value that can only be meant as a preset id says plainly that no shipped scenario has that name, as the page does', () => {
    const embed = resolveLink('nope', 'embed');
    expect(!embed.ok && embed.error.message).toBe(
      'No shipped scenario is called "nope". The ids are listed under Scenarios (for example opening-story, lost-ack-idempotent, lost-ack-no-idempotence); embed.html?preset=<id> opens one.',
    );
    expect(!embed.ok && embed.error.ko).toMatch(/^"nope"\(이\)라는 기본 제공 시나리오는 없습니다\./);
    expect(!embed.ok && embed.error.message).not.toContain('neither');
    const named = resolveLink('http://localhost:4799/#preset=no-such-preset');
    expect(!named.ok && named.error.message).toMatch(/^No shipped scenario is called "no-such-preset"/);
  });
});
