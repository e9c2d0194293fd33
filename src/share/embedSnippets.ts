/** The snippets the Embed dialog gives: the custom element (with its loader script) and a plain iframe. */
import { type EmbedTheme, embedQuery } from './embedOptions';

export interface SnippetInput {
  /** The address of the full app page (its embed.html and eos-lab.js sit beside it). */
  readonly pageHref: string;
  /** The share link (`#s=1.…`). */
  readonly link: string;
  readonly title: string;
  readonly step: number;
  readonly autoplay: boolean;
  readonly theme: EmbedTheme;
  readonly height: number | null;
}

export function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c] as string);
}

function baseOf(href: string): string {
  const u = new URL(href);
  u.hash = '';
  u.search = '';
  return u.href;
}

export function embedUrl(input: Pick<SnippetInput, 'pageHref' | 'link' | 'step' | 'autoplay' | 'theme' | 'height'>): string {
  const page = new URL('embed.html', baseOf(input.pageHref)).href;
  return `${page}${embedQuery({ step: input.step, autoplay: input.autoplay, theme: input.theme, height: input.height })}${input.link}`;
}

export function elementSnippet(input: SnippetInput): string {
  const script = new URL('eos-lab.js', baseOf(input.pageHref)).href;
  const attrs = [`scenario="${escapeAttribute(input.link)}"`];
  if (input.step > 0) attrs.push(`step="${input.step}"`);
  if (input.autoplay) attrs.push('autoplay');
  if (input.theme !== 'system') attrs.push(`theme="${input.theme}"`);
  if (input.height) attrs.push(`height="${input.height}"`);
  return `<script src="${escapeAttribute(script)}" defer></script>\n<eos-lab ${attrs.join(' ')}></eos-lab>`;
}

/**
 * The plain iframe's height when none is chosen: the embed puts its question, narration and verdict
 * above the timeline, and at column widths from 600 px they fit in this (e2e/embed-explains.test.ts
 * checks every preset at its end); the timeline below scrolls inside the frame.
 */
export const IFRAME_DEFAULT_HEIGHT = 640;

/** The id the iframe snippet gives its frame, so the resize listener finds it. */
export const IFRAME_ID = 'eos-lab-frame';

export function iframeSnippet(input: SnippetInput): string {
  return `<iframe id="${IFRAME_ID}" src="${escapeAttribute(embedUrl(input))}" title="${escapeAttribute(`EOS Lab: ${input.title}`)}" width="100%" height="${input.height ?? IFRAME_DEFAULT_HEIGHT}" sandbox="allow-scripts allow-popups" loading="lazy" style="border:0;max-width:100%"></iframe>`;
}

/**
 * For pages that allow a script: size the plain iframe to its content from its `resize` messages
 * (sent to any origin, they carry only a height). It acts only on messages from that frame.
 */
export function resizeListenerSnippet(): string {
  return `<script>
addEventListener('message', (e) => {
  const frame = document.getElementById('${IFRAME_ID}');
  if (!frame || e.source !== frame.contentWindow || e.data?.source !== 'eos-lab' || e.data.type !== 'resize') return;
  if (typeof e.data.height === 'number' && e.data.height > 0) frame.style.height = \`\${Math.ceil(e.data.height)}px\`;
});
</script>`;
}
