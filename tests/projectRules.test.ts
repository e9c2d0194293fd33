/**
 * House rules that keep the engine shareable and the code carried on: src/sim is deterministic and
 * headless, the code type-checks and passes the linter, and imports keep to the boundaries the linter
 * enforces (biome.json's noRestrictedImports: docs/architecture.md, Boundaries).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(p) && !/\.test\./.test(p) ? [p] : [];
  });
}

describe('project rules', () => {
  const sim = files('src/sim');

  it('src/sim reads no clock, no timers and no Math.random', () => {
    const bad = sim.filter((f) =>
      /Math\.random|Date\.now|new Date\(|performance\.now|setTimeout|setInterval|requestAnimationFrame|crypto\.(randomUUID|getRandomValues)/.test(
        readFileSync(f, 'utf8'),
      ),
    );
    expect(bad).toEqual([]);
  });

  it('machines use no XState `after` delays (deadlines are kernel events)', () => {
    const bad = sim.filter((f) => /\bafter\s*:\s*\{/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });

  // src/sim/package.json says `"sideEffects": false`, so that a bundle keeps only what a page uses of
  // the public index.ts and views.ts: importing an engine module may only define things
  it('src/sim modules only define things when imported (no side effects)', () => {
    const declaration = (s: ts.Statement) =>
      ts.isImportDeclaration(s)
        ? s.importClause !== undefined
        : ts.isExportDeclaration(s) ||
          ts.isExportAssignment(s) ||
          ts.isFunctionDeclaration(s) ||
          ts.isClassDeclaration(s) ||
          ts.isInterfaceDeclaration(s) ||
          ts.isTypeAliasDeclaration(s) ||
          ts.isEnumDeclaration(s) ||
          ts.isModuleDeclaration(s) ||
          ts.isVariableStatement(s);
    // base64url.ts fills its own decoding table at load: module-local, nothing outside sees it
    const allowed = new Set(['src/sim/scenario/base64url.ts: for (let i = 0; i < ALPHABET.length; i++)']);
    const bad = sim.flatMap((f) => {
      const source = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest);
      return source.statements
        .filter((s) => !declaration(s))
        .map((s) => `${f}: ${s.getText(source).split(')')[0]})`)
        .filter((line) => !allowed.has(line));
    });
    expect(bad).toEqual([]);
    expect(JSON.parse(readFileSync('src/sim/package.json', 'utf8'))).toMatchObject({ type: 'module', sideEffects: false });
  });

  it('type-checks', () => {
    expect(() => execFileSync('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], { stdio: 'pipe' })).not.toThrow();
  }, 120000);

  it('passes the linter', () => {
    let output = '';
    try {
      execFileSync('npx', ['biome', 'check', '.'], { stdio: 'pipe' });
    } catch (e) {
      output = String((e as { stdout?: Buffer }).stdout ?? e);
    }
    expect(output).toBe('');
  }, 120000);
});

/**
 * The import boundaries are biome.json's noRestrictedImports rules; these probes show that the rules
 * catch what they are for (and let through what is allowed), by linting small files placed where
 * each rule applies, in a scratch directory with the project's biome.json.
 */
describe('import boundaries (biome.json)', () => {
  const probes: Record<string, { code: string; broken: RegExp | null }> = {
    'src/sim/x/react.ts': { code: "import { useState } from 'react';\nuseState;", broken: /no React/ },
    'src/sim/x/d3.ts': { code: "import { select } from 'd3-selection';\nselect;", broken: /d3 belongs to src\/ui/ },
    'src/sim/x/store.ts': { code: "import { simStore } from '../../store/simStore';\nsimStore;", broken: /src\/sim is the engine/ },
    'src/sim/x/node.ts': { code: "import { readFileSync } from 'node:fs';\nreadFileSync;", broken: /or Node/ },
    'src/ui/x/deep.ts': {
      code: "import type { ConsumerContext } from '../../sim/consumer/consumer.machine';\nexport type C = ConsumerContext;",
      broken: /Import the engine from src\/sim \(its index.ts\) or src\/sim\/views/,
    },
    'src/ui/x/deepLazy.ts': { code: "export const m = () => import('../../sim/trace/summary');", broken: /src\/sim \(its index.ts\)/ },
    'src/ui/x/public.ts': {
      code: "import { runScenario } from '../../sim';\nimport { summarize } from '../../sim/views';\nexport const n = () => import('../../sim/narration');\nrunScenario;\nsummarize;",
      broken: null,
    },
    'src/ui/x/embed.ts': {
      code: "import { startBridge } from '../../embed/bridge';\nstartBridge;",
      broken: /src\/ui imports nothing from src\/embed/,
    },
    'src/ui/x/share.ts': { code: "import { shareText } from '../../share/strings';\nshareText;", broken: null },
    'src/share/x/ui.ts': { code: "import { Modal } from '../../ui/Modal';\nModal;", broken: /src\/share .* imports nothing from src\/ui/ },
    'src/share/x/embed.ts': {
      code: "import { startBridge } from '../../embed/bridge';\nstartBridge;",
      broken: /imports nothing from src\/ui or src\/embed/,
    },
    'src/store/x/share.ts': { code: "import { shareText } from '../../share/strings';\nshareText;", broken: /src\/store imports nothing/ },
    'src/embed/x/all.ts': {
      code: "import { Modal } from '../../ui/Modal';\nimport { shareText } from '../../share/strings';\nimport { useSim } from '../../store/useSim';\nimport { PRESETS } from '../../sim';\nModal;\nshareText;\nuseSim;\nPRESETS;",
      broken: null,
    },
    'src/embed/x/deep.ts': { code: "import { PRESETS } from '../../sim/presets';\nPRESETS;", broken: /src\/sim \(its index.ts\)/ },
    'src/ui/x/engine.worker.ts': { code: "import { search } from '../../sim/search/search';\nsearch;", broken: null },
    'src/ui/x/react.worker.ts': { code: "import { useState } from 'react';\nuseState;", broken: /Web Worker entry is engine side/ },
  };

  it('noRestrictedImports flags each probe that crosses a boundary, and only those', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eos-boundaries-'));
    try {
      copyFileSync('biome.json', join(dir, 'biome.json'));
      for (const [path, { code }] of Object.entries(probes)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), `${code}\n`);
      }
      let out = '';
      try {
        out = execFileSync(resolve('node_modules/.bin/biome'), ['lint', '--reporter=json', '.'], { cwd: dir, stdio: 'pipe' }).toString();
      } catch (e) {
        out = String((e as { stdout?: Buffer }).stdout ?? '');
      }
      const report = JSON.parse(out) as {
        diagnostics: { category: string; description: string; location: { path: { file: string } } }[];
      };
      const found = new Map<string, string[]>();
      for (const d of report.diagnostics) {
        expect(d.category).toBe('lint/style/noRestrictedImports');
        found.set(d.location.path.file, [...(found.get(d.location.path.file) ?? []), d.description]);
      }
      for (const [path, { broken }] of Object.entries(probes)) {
        if (broken === null) expect(found.get(path), path).toBeUndefined();
        else expect(found.get(path)?.join('\n'), path).toMatch(broken);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60000);
});
