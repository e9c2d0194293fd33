/**
 * A vector export of the partition logs at one step: a lane per partition, a cell per offset
 * coloured by transaction outcome (with a letter, so it reads without colour), COMMIT/ABORT markers,
 * the high watermark, Last Stable Offset and log end offset, and each consumer group's committed
 * offset. Written as text with every label XML-escaped: a key or header from a scenario can never
 * become markup, and a control character XML forbids becomes U+FFFD, so the file always parses.
 * Self-contained (inline styles, no fonts or images to fetch).
 */
import { scaleLinear } from 'd3-scale';
import type { PartitionRow, RecordRow } from '../../sim/views';
import { keyOf } from '../../sim/views';

export interface TimelineSvgInput {
  readonly title: string;
  readonly step: number;
  readonly steps: number;
  readonly timeMs: number;
  readonly partitions: readonly PartitionRow[];
  /** Committed offsets per group, keyed "<topic>-<partition>". */
  readonly groups?: readonly { readonly groupId: string; readonly committed: Readonly<Record<string, number>> }[];
  readonly theme?: 'light' | 'dark';
  /** Replaces "EOS Lab · step … · … ms" under the title (an imported dump has no steps). */
  readonly subtitle?: string;
  /** At most this many offsets per lane (the latest ones); the export says when it cut. */
  readonly maxCells?: number;
}

const PALETTE = {
  light: {
    bg: '#ffffff',
    fg: '#1b1f24',
    muted: '#5b6570',
    plain: '#8fb3d9',
    open: '#e6c15a',
    committed: '#5aa469',
    aborted: '#d1605e',
    lso: '#7a4bd1',
    group: '#0f7b8a',
  },
  dark: {
    bg: '#14171b',
    fg: '#e6e9ed',
    muted: '#9aa5b1',
    plain: '#4f7fae',
    open: '#b8962f',
    committed: '#3f8a4f',
    aborted: '#b04a48',
    lso: '#b08cff',
    group: '#4cc3d4',
  },
};

/**
 * Characters XML 1.0 does not allow anywhere in a document, not even as &#x1; references (its Char
 * production): C0 controls other than tab, line feed and carriage return, lone surrogates, U+FFFE and
 * U+FFFF. One of them in a key or a title makes every XML parser (and every browser) reject the file.
 */
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the characters XML forbids is this regex's job
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text as XML character data or an attribute value: markup escaped, characters XML forbids replaced by U+FFFD. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\ufffd')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

const CELL = 26;
const LANE = 74;
const LEFT = 150;
const TOP = 56;

function cellLetter(r: RecordRow): string {
  if (r.control === 'COMMIT') return 'C';
  if (r.control === 'ABORT') return 'A';
  return r.txnOutcome === 'open' ? 'o' : r.txnOutcome === 'aborted' ? 'x' : r.txnOutcome === 'committed' ? 'c' : '';
}

function describe(r: RecordRow): string {
  if (r.control) return `offset ${r.offset}: ${r.control} marker (producerId ${r.producerId}, epoch ${r.producerEpoch})`;
  const eventId = r.headers.event_id;
  return `offset ${r.offset}: key=${r.key ?? 'null'}${eventId ? ` event_id=${eventId}` : ''} producerId=${r.producerId} epoch=${r.producerEpoch} seq=${r.sequence}${r.txnOutcome ? ` (${r.txnOutcome})` : ''}`;
}

export function timelineSvg(input: TimelineSvgInput): string {
  const c = PALETTE[input.theme ?? 'light'];
  const maxCells = input.maxCells ?? 2000;
  const lanes = input.partitions.map((p) => {
    const last = Math.max(p.logEndOffset, p.logStartOffset);
    const first = Math.max(p.logStartOffset, last - maxCells);
    return { p, first, last, cut: first > p.logStartOffset };
  });
  const widest = Math.max(1, ...lanes.map((l) => l.last - l.first + 1));
  const width = LEFT + widest * CELL + 120;
  const height = TOP + lanes.length * LANE + 40;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', 'Noto Sans KR', sans-serif" role="img" aria-label="${escapeXml(`${input.title}: partition logs at step ${input.step}`)}">`,
  );
  out.push(`<title>${escapeXml(`${input.title} — step ${input.step} of ${input.steps}, ${input.timeMs} ms`)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="${c.bg}"/>`);
  out.push(`<text x="16" y="24" font-size="15" font-weight="600" fill="${c.fg}">${escapeXml(input.title)}</text>`);
  out.push(
    `<text x="16" y="42" font-size="11" fill="${c.muted}">${escapeXml(`${input.subtitle ?? `EOS Lab · step ${input.step} / ${input.steps} · ${input.timeMs} ms`} · HW = high watermark, LSO = last stable offset, LEO = log end offset · C/A = COMMIT/ABORT marker, c/x/o = committed/aborted/open transactional record`)}</text>`,
  );
  lanes.forEach(({ p, first, last, cut }, i) => {
    const y = TOP + i * LANE;
    const x = scaleLinear()
      .domain([first, first + 1])
      .range([LEFT, LEFT + CELL]);
    const name = keyOf(p);
    out.push(`<g data-partition="${escapeXml(name)}">`);
    out.push(`<text x="16" y="${y + 24}" font-size="12" font-weight="600" fill="${c.fg}">${escapeXml(name)}</text>`);
    out.push(
      `<text x="16" y="${y + 40}" font-size="10" fill="${c.muted}">${escapeXml(`on ${p.leader}${cut ? ` · from offset ${first}` : ''}`)}</text>`,
    );
    const byOffset = new Map(p.records.map((r) => [r.offset, r]));
    for (let o = first; o < last; o++) {
      const r = byOffset.get(o);
      const cx = x(o);
      if (!r) {
        out.push(
          `<rect x="${cx}" y="${y + 14}" width="${CELL - 3}" height="24" rx="3" fill="none" stroke="${c.muted}" stroke-dasharray="2 2"/>`,
        );
        continue;
      }
      const fill = r.control
        ? c.bg
        : r.txnOutcome === 'open'
          ? c.open
          : r.txnOutcome === 'aborted'
            ? c.aborted
            : r.txnOutcome === 'committed'
              ? c.committed
              : c.plain;
      out.push(
        `<g><title>${escapeXml(describe(r))}</title><rect x="${cx}" y="${y + 14}" width="${CELL - 3}" height="24" rx="3" fill="${fill}" stroke="${c.fg}" stroke-width="${r.control ? 2 : 0.5}"/>`,
      );
      out.push(
        `<text x="${cx + (CELL - 3) / 2}" y="${y + 30}" font-size="10" text-anchor="middle" fill="${c.fg}">${escapeXml(cellLetter(r) || String(o % 1000))}</text></g>`,
      );
    }
    const line = (offset: number, color: string, label: string, dy: number, dash: string) => {
      const lx = x(Math.min(Math.max(offset, first), last));
      out.push(
        `<line x1="${lx - 1.5}" x2="${lx - 1.5}" y1="${y + 6}" y2="${y + 46}" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
      );
      out.push(`<text x="${lx}" y="${y + dy}" font-size="9" fill="${color}">${escapeXml(`${label} ${offset}`)}</text>`);
    };
    line(p.highWatermark, c.fg, 'HW', 56, '');
    if (p.lastStableOffset !== p.highWatermark) line(p.lastStableOffset, c.lso, 'LSO', 8, '4 2');
    if (p.logEndOffset !== p.highWatermark) line(p.logEndOffset, c.muted, 'LEO', 66, '1 2');
    for (const g of input.groups ?? []) {
      const committed = g.committed[name];
      if (committed === undefined) continue;
      const gx = x(Math.min(Math.max(committed, first), last));
      out.push(
        `<path d="M${gx - 1.5},${y + 46} l-5,8 h10 z" fill="${c.group}"/><text x="${gx + 6}" y="${y + 62}" font-size="9" fill="${c.group}">${escapeXml(`${g.groupId} committed ${committed}`)}</text>`,
      );
    }
    out.push('</g>');
  });
  out.push('</svg>');
  return out.join('\n');
}
