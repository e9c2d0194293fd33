import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin, type Rollup } from 'vite';

const root = import.meta.dirname;

/**
 * [share-embed] embed.html as a classic script. Embeds run in frames sandboxed with `allow-scripts`
 * but not `allow-same-origin`: the page has an opaque origin, so module scripts and `crossorigin`
 * stylesheets are CORS requests with `Origin: null`, which hosts without CORS headers refuse — the
 * embed would stay blank. After the app's build, the embed entry (src/embed/main.tsx) is bundled
 * once more as one IIFE script and one stylesheet (no-cors loads, allowed from any origin), and
 * dist/embed.html is written from embed.html to load them: the stylesheet in the head, the script
 * added by a small inline script, so it downloads while embed.html's skeleton paints (embedLoader). `npm run dev` serves embed.html as is.
 * The engine is a classic script of its own (assets/embed-engine.js), which the embed runs in a
 * Web Worker (src/embed/embedEngine.ts): the embed's own script holds no engine code.
 */
function classicEmbed(): Plugin {
  // the app's own output directory (`vite build --outDir <dir>` included), read once the config is resolved
  let outDir = resolve(root, 'dist');
  const entryTag = '<script type="module" src="/src/embed/main.tsx"></script>';
  const assetsMark = '<!-- eos-lab:embed-assets -->';
  const version = (file: string) =>
    createHash('sha256')
      .update(readFileSync(resolve(outDir, file)))
      .digest('hex')
      .slice(0, 10);
  return {
    name: 'eos-lab-classic-embed',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // a production bundle even when the outer process runs with NODE_ENV=test (Vitest): plugin-react
      // would otherwise emit jsxDEV calls that the production React build lacks
      const nodeEnv = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      const classic = async (
        entry: string,
        name: string,
        fileName: string,
        define: Record<string, string>,
        globals: Record<string, string> = {},
        hint = '',
      ) => {
        await build({
          mode: 'production',
          configFile: false,
          root,
          base: './',
          logLevel: 'warn',
          publicDir: false,
          plugins: [react()],
          define: { 'process.env.NODE_ENV': JSON.stringify('production'), ...define },
          build: {
            outDir,
            emptyOutDir: false,
            target: 'es2022',
            sourcemap: false,
            // one classic script by design (see above)
            chunkSizeWarningLimit: 1024,
            lib: { entry: resolve(root, entry), formats: ['iife'], name, fileName: () => fileName, cssFileName: 'assets/embed' },
            rollupOptions: { external: Object.keys(globals), output: { globals } },
          },
        });
        if (hint) writeFileSync(resolve(outDir, fileName), hint + readFileSync(resolve(outDir, fileName), 'utf8'));
      };
      let engine = '';
      try {
        // the engine first (src/embed/engineScript.ts, run in a worker after the first paint): the
        // embed's script names it with its version (embedEngine.ts reads __EOS_EMBED_ENGINE__)
        await classic('src/embed/engineScript.ts', 'EosLabEngineScript', 'assets/embed-engine.js', {});
        engine = `./assets/embed-engine.js?v=${version('assets/embed-engine.js')}`;
        // React in a script of its own (src/embed/vendorScript.ts), which the embed's script reads
        await classic('src/embed/vendorScript.ts', 'EosLabVendor', 'assets/embed-vendor.js', {}, {}, COMPILE_ON_LOAD);
        await classic(
          'src/embed/main.tsx',
          'EosLabEmbed',
          'assets/embed.js',
          { __EOS_EMBED_ENGINE__: JSON.stringify(engine) },
          EMBED_VENDOR_GLOBALS,
          COMPILE_ON_LOAD,
        );
      } finally {
        if (nodeEnv === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = nodeEnv;
      }
      const template = readFileSync(resolve(root, 'embed.html'), 'utf8');
      if (!template.includes(entryTag) || !template.includes(assetsMark))
        throw new Error('embed.html lost the markers vite.config.ts replaces');
      const html = template
        .replace(assetsMark, `<link rel="stylesheet" href="./assets/embed.css?v=${version('assets/embed.css')}" />`)
        .replace(/\s*<!-- eos-lab:embed-entry[\s\S]*?-->/, '')
        .replace(
          entryTag,
          `<script>${embedLoader([`./assets/embed-vendor.js?v=${version('assets/embed-vendor.js')}`, `./assets/embed.js?v=${version('assets/embed.js')}`])}</script>`,
        );
      writeFileSync(resolve(outDir, 'embed.html'), html);
      // the page's first stage (src/shell/) runs the same engine script in its worker
      const page = readFileSync(resolve(outDir, 'index.html'), 'utf8');
      const engineMeta = '<meta name="eos-lab-engine" content="" />';
      if (!page.includes(engineMeta)) throw new Error('index.html lost the eos-lab-engine meta vite.config.ts fills in');
      writeFileSync(resolve(outDir, 'index.html'), page.replace(engineMeta, `<meta name="eos-lab-engine" content="${engine}" />`));
    },
  };
}

/**
 * The embed's only JavaScript before its first paint: embed.html paints a skeleton, and this inline
 * script adds the embed's classic script: a script-inserted <script> loads without blocking the
 * parser or the first paint (no requestAnimationFrame: an off-screen frame may never get one); a
 * script that fails to load says so in the skeleton.
 */
function embedLoader(srcs: readonly string[]): string {
  return `(function(){${JSON.stringify(srcs)}.forEach(function(src){var s=document.createElement('script');s.src=src;s.async=false;s.onerror=function(){var n=document.getElementById('boot-note');if(n)n.textContent='EOS Lab could not load its script. Reload the page to try again.'};document.body.appendChild(s)})})()`;
}

/**
 * V8's explicit compile hint (Chromium 136+; other engines read a comment): every function of the
 * script is compiled while the script streams in, off the main thread, instead of on the main thread
 * when first called (React's DOM renderer is one 170 KB factory function, parsed in full when its
 * script runs; a trace of the embed's boot showed that parse inside the script's task). Measured
 * with boots alternating between two builds (2026-12-03): the page's boot had a task over 50 ms in 8
 * of 36 boots with it, 17 of 36 without; the embed's in 22 of 40 either way (its long tasks are
 * React's evaluation itself and the first render), where it is kept for the same reason.
 */
const COMPILE_ON_LOAD = '//# allFunctionsCalledOnLoad\n';

/** The modules the embed's script takes from assets/embed-vendor.js (src/embed/vendorScript.ts). */
const EMBED_VENDOR_GLOBALS: Record<string, string> = {
  react: 'EosLabVendor.React',
  'react-dom/client': 'EosLabVendor.ReactDOMClient',
  'react/jsx-runtime': 'EosLabVendor.JsxRuntime',
};

/** The chunks `roots` name and, transitively, their static imports, in visit order; `skip`'s are left out. */
function withStaticImports(bundle: Rollup.OutputBundle, roots: readonly string[], skip: readonly string[] = []): string[] {
  const seen = new Set<string>(skip);
  const files: string[] = [];
  const visit = (file: string) => {
    const chunk = bundle[file];
    if (seen.has(file) || chunk?.type !== 'chunk') return;
    seen.add(file);
    files.push(file);
    for (const dep of chunk.imports) visit(dep);
  };
  for (const file of roots) visit(file);
  return files;
}

/** The page's first stage: React's DOM renderer and src/shell/boot.tsx (src/main.tsx). */
const FIRST_STAGE = /(react-dom[\\/]client\.js|src[\\/]shell[\\/]boot\.tsx)$/;

/**
 * The page's boot chunks. src/main.tsx imports its first stage (React's DOM renderer, then the shell),
 * and once that shows a run, the workspace (the presets, the clients' machines, the other actors',
 * the engine, the page), each in a task of its own (so that their evaluation is not one long task);
 * a dynamic import fetches its chunks only when it is called, so without this each would also be
 * fetched one after the other. The first stage's chunks, with their static imports, get a
 * `<link rel="modulepreload">` in index.html: fetched (and compiled) in parallel from the start,
 * evaluated only when imported. The workspace's are listed in the `eos-lab-workspace` meta, which
 * main.tsx turns into modulepreloads when the first stage is on screen: fetched together then, and
 * never before the page is interactive.
 */
function preloadBootChunks(): Plugin {
  return {
    name: 'eos-lab-preload-boot-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        const entry = ctx.chunk;
        if (!bundle || !entry) return;
        const isFirst = (file: string) => {
          const chunk = bundle[file];
          return chunk?.type === 'chunk' && chunk.facadeModuleId !== null && FIRST_STAGE.test(chunk.facadeModuleId);
        };
        const firstRoots = entry.dynamicImports.filter(isFirst);
        if (firstRoots.length !== 2) throw new Error(`src/main.tsx's first stage should be two chunks, found ${firstRoots.length}`);
        // the entry's own static imports are fetched with it
        const first = withStaticImports(bundle, firstRoots, [entry.fileName, ...entry.imports]);
        const workspace = withStaticImports(
          bundle,
          entry.dynamicImports.filter((f) => !isFirst(f)),
          [entry.fileName, ...entry.imports, ...first],
        );
        return [
          ...first.map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
            injectTo: 'head' as const,
          })),
          {
            tag: 'meta',
            attrs: { name: 'eos-lab-workspace', content: workspace.map((f) => `./${f}`).join(' ') },
            injectTo: 'head' as const,
          },
        ];
      },
    },
  };
}

/**
 * The page's boot chunks (the entry, its static imports, and every chunk it imports dynamically with
 * theirs: what it runs before it is interactive) start with the compile hint COMPILE_ON_LOAD, as the
 * embed's scripts do: React's DOM renderer and the engine are compiled while they stream in, not
 * function by function on the main thread when the boot first calls them. Over 36 boots of the built
 * page, alternating with a build without it (2026-12-03), 8 of 36 had a task over 50 ms with the
 * hint and 17 of 36 without.
 */
function compileBootChunksOnLoad(): Plugin {
  return {
    name: 'eos-lab-compile-boot-chunks-on-load',
    apply: 'build',
    // on the written files: Vite's own last rewriting of the chunks (their dynamic imports' preload
    // lists) comes after every plugin's generateBundle
    writeBundle(options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      if (!entry || entry.type !== 'chunk' || !options.dir) return;
      for (const file of withStaticImports(bundle, [entry.fileName, ...entry.dynamicImports])) {
        const path = resolve(options.dir, file);
        writeFileSync(path, COMPILE_ON_LOAD + readFileSync(path, 'utf8'));
      }
    },
  };
}

// base './': the build works from any static host and from a sub-path
export default defineConfig({
  base: './',
  plugins: [react(), classicEmbed(), preloadBootChunks(), compileBootChunksOnLoad()],
  build: {
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      // embed.html is written by classicEmbed() above
      input: { main: resolve(root, 'index.html') },
    },
  },
});
