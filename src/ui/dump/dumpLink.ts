/**
 * An imported dump as a link: `#dump=1.<base64url(deflate(JSON))>` of the files' names and text. It
 * lives in the fragment, which browsers never send to a server. A dump too large for a link (over
 * MAX_LINK characters) is not linked.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { type DumpSource, fromBase64Url, toBase64Url } from '../../sim';

export const DUMP_PREFIX = '#dump=1.';
export const MAX_LINK = 16000;

/**
 * Dump text compresses about 10× (at best some 30×): text beyond this many characters cannot fit in
 * a link, and deflating megabytes on the page's thread would block it for seconds.
 */
export const MAX_LINKABLE_TEXT = MAX_LINK * 40;

export function encodeDumpLink(sources: readonly DumpSource[]): string | null {
  if (sources.reduce((n, s) => n + s.text.length + s.name.length, 0) > MAX_LINKABLE_TEXT) return null;
  const link = DUMP_PREFIX + toBase64Url(deflateSync(strToU8(JSON.stringify(sources.map((s) => [s.name, s.text]))), { level: 9 }));
  return link.length <= MAX_LINK ? link : null;
}

export function decodeDumpLink(hash: string): DumpSource[] | null {
  if (!hash.startsWith(DUMP_PREFIX)) return null;
  const bytes = fromBase64Url(hash.slice(DUMP_PREFIX.length));
  if (!bytes.ok) return null;
  try {
    const list = JSON.parse(strFromU8(inflateSync(bytes.bytes))) as unknown;
    if (!Array.isArray(list)) return null;
    const out: DumpSource[] = [];
    for (const x of list) {
      if (!Array.isArray(x) || typeof x[0] !== 'string' || typeof x[1] !== 'string') return null;
      out.push({ name: x[0], text: x[1] });
    }
    return out;
  } catch {
    return null;
  }
}
