import { configDefaults, defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The model files first (CPU-bound, few), while the e2e global setup builds the bundle and starts its
 * server in the background; then the e2e files (largest first) with the unit files spread evenly
 * between them, so a CPU-bound unit file fills what an e2e file spends waiting on its server and
 * browser (two e2e files side by side left a quarter of the machine idle: decision 0970). An e2e file
 * that starts before the build is done waits for it (tests/e2e/setup-file.ts).
 */
class MixedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const e2e = sorted.filter((f) => f.project.name === 'e2e')
    const unit = sorted.filter((f) => f.project.name === 'unit')
    const rest = sorted.filter((f) => f.project.name !== 'e2e' && f.project.name !== 'unit')
    const per = e2e.length ? Math.ceil(unit.length / e2e.length) : 0
    const mixed = e2e.flatMap((f, i) => [f, ...unit.slice(i * per, (i + 1) * per)])
    return [...rest, ...mixed, ...unit.slice(e2e.length * per)]
  }
}

// One runner for every kind of test. `npm test` runs all projects;
// `npm run test:unit`, `test:model`, `test:e2e` run one each.
export default defineConfig({
  test: {
    // Two workers on the two-core machines this runs on (the default leaves one core idle).
    maxWorkers: 2,
    sequence: { sequencer: MixedSequencer },
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
