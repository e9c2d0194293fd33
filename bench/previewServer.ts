/**
 * The built app (dist/, or another build's outDir) served by `vite preview` on a free local port,
 * for the benches that drive it in Chromium: its base URL and how to stop it.
 */
import { resolve } from 'node:path';
import { type InlineConfig, preview } from 'vite';

const ROOT = resolve(import.meta.dirname, '..');

export interface PreviewedApp {
  /** `http://127.0.0.1:<port>/` */
  readonly base: string;
  close(): Promise<void>;
}

/** Serves the build; `config` adds to (or replaces) the project's vite config, as `preview` takes it. */
export async function previewBuild(config: InlineConfig = {}): Promise<PreviewedApp> {
  const server = await preview({
    root: ROOT,
    logLevel: 'warn',
    ...config,
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.httpServer.address();
  const port = typeof address === 'object' && address ? address.port : 4173;
  return { base: `http://127.0.0.1:${port}/`, close: () => server.close() };
}
