/**
 * A link pasted into the Import field as a chat or mail client hands it over: a long share link
 * (hundreds of characters) wrapped onto several lines, or in <angle brackets>, quotes or a Markdown
 * link, or followed by the sentence's full stop. None of those characters can be part of a link's
 * data (base64url, or a preset's address), so they are taken off before the link is read; anything
 * else — a link changed inside its data, JSON — is left as it is, for the reader to judge.
 */

/** The address a Markdown link `[text](address)` points to, or the text itself. */
function markdownTarget(t: string): string {
  const m = /^\[[^\]]*\]\(([^()\s]*(?:\s+[^()\s]+)*)\)$/.exec(t);
  return m?.[1] ?? t;
}

const PAIRS: readonly (readonly [string, string])[] = [
  ['<', '>'],
  ['"', '"'],
  ["'", "'"],
  ['`', '`'],
  ['“', '”'],
  ['(', ')'],
];

export function pastedLink(text: string): string {
  let t = markdownTarget(text.trim());
  for (const [open, close] of PAIRS)
    if (t.length > 2 && t.startsWith(open) && t.endsWith(close)) {
      t = t.slice(open.length, t.length - close.length).trim();
      break;
    }
  const link = t.replace(/\s+/g, '').replace(/[.,;:!?)\]>'"”]+$/, '');
  // only a link: a share link (#s=…, #ab=…, or bare s=…) or a preset's address, alone or in a whole URL
  return LINK.test(link) ? link : text;
}

const LINK = /^(?:[a-z][a-z0-9+.-]*:\/\/[^#\s{}]*)?(?:#?(?:s|ab)=[^{}]+|[#?]preset=[^{}]+)$/i;
