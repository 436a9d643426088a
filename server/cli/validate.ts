/**
 * npm run validate — checks every definition; prints `file:line:col  /pointer  message` per error.
 * Optional argument: another definitions folder (e.g. a broken copy); default DEFINITIONS_DIR.
 * Beside the definitions themselves, the route → brand table of the repository the folder sits in
 * (docs/decisions/0100) must agree with the pages, in both directions.
 * Then the phone-rule coverage warnings the publish checks show (a rule that can never win, pages
 * falling through to a brand's default, said once per brand naming only pages changed in git):
 * printed, never failing the run. Last, when the working tree
 * differs from what a git-content server publishes, that it is not live yet and what to run
 * (docs/decisions/0618).
 */
import { resolve } from 'node:path'
import { validateReport } from './validate-report'

const projectRoot = resolve(import.meta.dirname, '..', '..')
// The folder given, else the server's (DEFINITIONS_DIR, relative to the project, default definitions/).
const dir = process.argv[2]
  ? resolve(process.cwd(), process.argv[2])
  : resolve(projectRoot, process.env.DEFINITIONS_DIR?.trim() || 'definitions')
const report = validateReport(dir, { cwd: process.cwd(), projectDefinitions: process.argv[2] === undefined })
for (const line of report.lines) console.log(line)
if (!report.ok) process.exit(1)
