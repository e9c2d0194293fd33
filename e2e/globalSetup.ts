/**
 * Builds the app (unless E2E_SKIP_BUILD=1) and serves dist/ with `vite preview` on a free port for
 * the browser tests; the URL is shared through provide/inject.
 */
import { execFileSync } from 'node:child_process';
import type { PreviewServer } from 'vite';
import { preview } from 'vite';
import type { TestProject } from 'vitest/node';

let server: PreviewServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  // the production bundle, as users get it (Vitest itself runs with NODE_ENV=test)
  if (process.env.E2E_SKIP_BUILD !== '1')
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  server = await preview({ preview: { port: 0, host: '127.0.0.1', strictPort: false }, logLevel: 'warn' });
  const address = server.httpServer.address();
  const port = typeof address === 'object' && address ? address.port : 4173;
  project.provide('baseUrl', `http://127.0.0.1:${port}/`);
}

export async function teardown(): Promise<void> {
  await server?.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
