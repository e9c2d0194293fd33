/**
 * The CLI's text output is safe for a terminal: control characters from a scenario's keys, values,
 * header names, group ids, titles and event ids come out as visible escapes (never as escape
 * sequences that clear the screen or retitle the window), and --json stays the same document.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import { renderText } from '../src/sim/trace/dumpLog';
import { summarize } from '../src/sim/trace/summary';
import { escapeForTerminal, escapeJsonForTerminal, escapeLayoutForTerminal } from '../src/sim/trace/terminalText';
import { CONTROL_CHARACTERS, TERMINAL_ATTACK } from './fuzz/mutations';

/** Any character a terminal could act on. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const hostile: Scenario = {
  version: 1,
  seed: 1,
  title: `title ${TERMINAL_ATTACK}`,
  topics: [{ name: 'orders' }],
  clients: [
    {
      id: 'p',
      type: 'producer',
      script: [
        {
          op: 'send',
          topic: 'orders',
          key: `key ${TERMINAL_ATTACK}`,
          value: `line one\nfake line ${TERMINAL_ATTACK}`,
          headers: { event_id: `evt ${TERMINAL_ATTACK}`, [`name ${TERMINAL_ATTACK}`]: `header ${TERMINAL_ATTACK}` },
        },
      ],
    },
    { id: 'c', type: 'consumer', config: { 'group.id': `group ${TERMINAL_ATTACK}`, 'auto.offset.reset': 'earliest' }, topics: ['orders'] },
  ],
};

describe('escapeForTerminal', () => {
  it('writes every control character as a visible escape, and leaves other text alone', () => {
    for (const c of CONTROL_CHARACTERS) expect(escapeForTerminal(`a${c}b`), c.charCodeAt(0).toString(16)).not.toMatch(CONTROL);
    expect(escapeForTerminal('\u001b[2J')).toBe('\\x1b[2J');
    expect(escapeForTerminal('\u009b2J')).toBe('\\x9b2J');
    expect(escapeForTerminal('\u202eevil')).toBe('\\u{202e}evil');
    expect(escapeForTerminal('a\nb')).toBe('a\\x0ab');
    expect(escapeForTerminal('주문 evt-789 {"type":"OrderCreated"} ✓ — é')).toBe('주문 evt-789 {"type":"OrderCreated"} ✓ — é');
  });
  it('a tool’s output keeps its tabs and newlines, and nothing else a terminal acts on', () => {
    const layout = `GROUP\tSTATE\ng ${TERMINAL_ATTACK}\tStable`;
    const out = escapeLayoutForTerminal(layout);
    expect(out).toBe('GROUP\tSTATE\ng \\x1b]0;pwned\\x07\\x1b[2J\\x9b2J\\u{202e}evil\tStable');
    for (const c of CONTROL_CHARACTERS.filter((x) => x !== '\t' && x !== '\n'))
      expect(escapeLayoutForTerminal(`a${c}b`), c.charCodeAt(0).toString(16)).not.toMatch(CONTROL);
  });
  it('keeps JSON the same document', () => {
    const doc = { s: `x${CONTROL_CHARACTERS.join('')}y`, n: [1, { k: '\u202e' }] };
    const json = escapeJsonForTerminal(JSON.stringify(doc, null, 2));
    expect(JSON.parse(json)).toEqual(doc);
    // layout newlines stay; no control character is left inside a string
    expect(json.split('\n').every((line) => !CONTROL.test(line))).toBe(true);
  });
});

describe('the CLI text output', () => {
  it('renderText escapes what the scenario says, and keeps its own layout', () => {
    const out = renderText(summarize(runScenario(hostile)));
    expect(out.split('\n').filter((l) => CONTROL.test(l))).toEqual([]);
    expect(out).toContain('key: key \\x1b]0;pwned\\x07\\x1b[2J\\x9b2J\\u{202e}evil');
    expect(out).toContain('payload: line one\\x0afake line');
    expect(out).toContain('name \\x1b]0;pwned');
    expect(out).toContain('group \\x1b]0;pwned');
    expect(out).toContain('Scenario (unnamed) — title \\x1b]0;pwned');
    // no forged line: the value's newline did not start a line of its own
    expect(out.split('\n').some((l) => l.startsWith('fake line'))).toBe(false);
  });

  it('npm run sim prints no control character from a hostile file, as text or as --json (with a byte order mark)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eos-cli-'));
    const file = join(dir, 'hostile.json');
    writeFileSync(file, `\uFEFF${JSON.stringify(hostile)}`);
    const run = (...args: string[]) => execFileSync('npx', ['tsx', 'cli/sim.ts', file, ...args], { encoding: 'utf8' });
    const text = run();
    expect(text).toContain('key: key \\x1b');
    expect(text.split('\n').filter((l) => CONTROL.test(l))).toEqual([]);
    const json = run('--json');
    expect(json.split('\n').filter((l) => CONTROL.test(l))).toEqual([]);
    expect(JSON.parse(json).scenario.title).toBe(hostile.title);
    // an invalid file: its errors name the hostile key escaped
    writeFileSync(file, JSON.stringify({ ...hostile, [`bad ${TERMINAL_ATTACK}`]: 1 }));
    let stderr = '';
    try {
      run();
    } catch (e) {
      stderr = String((e as { stderr?: string }).stderr);
    }
    expect(stderr).toContain('unknown field');
    expect(stderr.split('\n').filter((l) => CONTROL.test(l))).toEqual([]);
    // an operator's tool on the hostile group: its name escaped, the table's layout kept
    writeFileSync(file, JSON.stringify(hostile));
    const tool = run('--tool', `kafka-consumer-groups.sh --describe --state --group "group ${TERMINAL_ATTACK}"`);
    expect(tool.split('\n')[0]).toMatch(/^GROUP +COORDINATOR \(ID\) +ASSIGNMENT-STRATEGY +STATE +#MEMBERS$/);
    expect(tool.split('\n')[1]).toMatch(/^group \\x1b\]0;pwned/);
    expect(tool.split('\n').filter((l) => CONTROL.test(l))).toEqual([]);
  }, 120000);
});
