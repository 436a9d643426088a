import { configDefaults, defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Vitest's order (by project name, then the slowest or largest file first), with the e2e files last:
 * the e2e global setup builds the bundle and starts its server while the unit and model tests run,
 * and an e2e file waits for them (tests/e2e/setup-file.ts), so it should not hold a worker meanwhile.
 */
class E2eLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const e2e = (f: TestSpecification) => f.project.name === 'e2e'
    return [...sorted.filter((f) => !e2e(f)), ...sorted.filter(e2e)]
  }
}

// One runner for every kind of test. `npm test` runs all projects;
// `npm run test:unit`, `test:model`, `test:e2e` run one each.
export default defineConfig({
  test: {
    // Two workers on the two-core machines this runs on (the default leaves one core idle).
    maxWorkers: 2,
    sequence: { sequencer: E2eLastSequencer },
    // A PostgreSQL server for the store tests on any machine (an embedded one when none answers).
    globalSetup: ['tests/setup/test-run.global.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'engine/**/*.test.ts',
            'server/**/*.test.ts',
            'ui/**/*.test.{ts,tsx}',
            'tools/**/*.test.ts',
            'tests/unit/**/*.test.ts',
          ],
          // The bench's Nuxt baseline is a project of its own (docs/decisions/0530).
          exclude: [...configDefaults.exclude, 'tools/bench/nuxt-baseline/**'],
          environment: 'node',
          // Some unit tests build the whole catalogue or start a process: room for a busy machine.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'model',
          include: ['tests/model/**/*.test.ts'],
          environment: 'node',
          // Generated paths replayed on a simulated clock: no test waits for real time, but a loaded
          // 2-core machine runs them up to ten times slower than a quiet one (vitest's 5 s default
          // failed lease-mutation once). A test that needs more says so.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          // Test servers start on copies of a data folder the global setup prepared once.
          setupFiles: ['tests/e2e/setup-file.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Files are independent: each starts what it needs (own servers, data folders, browsers).
          fileParallelism: true,
        },
      },
    ],
  },
})
