/**
 * The page's own counts read as sentences — "1 committed record", "2 differences" — never
 * "record(s)" (the engine's sentences already follow this: tests/plural.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareStrings } from '../../src/ui/compare/compareStrings';
import { costStrings } from '../../src/ui/cost/costStrings';
import { dumpStrings } from '../../src/ui/dump/dumpStrings';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(p) && !/\.test\./.test(p) ? [p] : [];
  });
}

describe('counts in the page’s words', () => {
  it('follow the number in English', () => {
    const cost = costStrings('en');
    expect(cost.committed(1, '5', 200)).toBe("1 committed record in the whole run's 200 ms of virtual time: 5 per virtual second");
    expect(cost.committed(2, '0.44', 4517)).toBe(
      "2 committed records in the whole run's 4,517 ms of virtual time: 0.44 per virtual second",
    );
    expect(costStrings('ko').committed(2, '0.44', 4517)).toBe(
      '실행 전체의 가상 시간 4,517 ms 동안 커밋된 레코드 2개: 가상 시간 1초당 0.44개',
    );
    expect(cost.assumptions(1, 1, 0)).toContain('(1 link set apart)');
    expect(cost.assumptions(1, 2, 0)).toContain('(2 links set apart)');
    const dump = dumpStrings('en');
    expect(dump.title(1, 1)).toBe('Imported dump: 1 partition, 1 record');
    expect(dump.title(2, 3)).toBe('Imported dump: 2 partitions, 3 records');
    expect(dump.missing(1)).toMatch(/^1 offset missing/);
    expect(dump.unknownMarkers(2)).toMatch(/^2 markers of unknown type/);
    expect(compareStrings('en').differences(1)).toBe('1 difference, highlighted');
    expect(compareStrings('en').differences(2)).toBe('2 differences, highlighted');
  });

  it('no page, embed or share source writes "word(s)"', () => {
    const bad = [...sources('src/ui'), ...sources('src/embed'), ...sources('src/share')].flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        // inside a quoted or template string on the line: code like keyOf(s) is not text
        .flatMap((line, i) =>
          (line.match(/'[^']*'|`[^`]*`|"[^"]*"/g) ?? []).some((t) => /[a-z]\(s\)/.test(t.replace(/\$\{[^}]*\}/g, '')))
            ? [`${f}:${i + 1}`]
            : [],
        ),
    );
    expect(bad).toEqual([]);
  });
});
