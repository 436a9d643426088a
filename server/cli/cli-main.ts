import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ConfigError } from '../config'

/**
 * The one folder a CLI such as `npm run backup -- DIR` takes, resolved; `--help` prints the usage and
 * exits 0, anything but exactly one argument prints it and exits 1.
 */
export function folderArgument(usage: string): string {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h', default: false } },
  })
  if (values.help || positionals.length !== 1) {
    console.log(usage)
    process.exit(values.help ? 0 : 1)
  }
  return resolve(positionals[0])
}

/** Runs a CLI's main; a failure prints one line (a configuration error says so, else `name: message`) and exits 1. */
export async function runCli(name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main()
  } catch (e) {
    const message = (e as Error).message
    console.error(e instanceof ConfigError ? `Configuration error: ${message}` : `${name}: ${message}`)
    process.exit(1)
  }
}
