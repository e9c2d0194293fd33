import { defineConfig } from 'vitest/config';

// Two projects: the engine's unit and property tests (Node), and browser tests that drive Debian's
// Chromium through playwright-core against the built app (see e2e/globalSetup.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/globalSetup.ts'],
          testTimeout: 120000,
          hookTimeout: 180000,
          fileParallelism: false,
        },
      },
    ],
  },
});
