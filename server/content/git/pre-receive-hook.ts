import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The script the hook runs, relative to the project root (docs/decisions/0610). */
export const CONTENT_CHECK_SCRIPT = 'server/cli/content-check.ts'

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

/** The hook's text: this Node with the TypeScript loader, running the check on git's stdin. */
export function preReceiveHookText(projectRoot: string, node = process.execPath): string {
  const tsx = pathToFileURL(createRequire(join(projectRoot, 'package.json')).resolve('tsx')).href
  return [
    '#!/bin/sh',
    '# Written by the funnelworks server at each start (docs/decisions/0610); edits are overwritten.',
    '# Refuses pushes that would put content failing validation or the publish gates on',
    '# refs/heads/published, and staff branches (refs/heads/cc/*) whose JSON files do not parse.',
    `exec ${quote(node)} --import ${quote(tsx)} ${quote(join(projectRoot, CONTENT_CHECK_SCRIPT))} pre-receive`,
    '',
  ].join('\n')
}

/** Writes (or rewrites, so it follows this checkout and this Node) the bare repository's pre-receive hook. */
export function installPreReceiveHook(gitDir: string, projectRoot: string): string {
  const hooks = join(gitDir, 'hooks')
  mkdirSync(hooks, { recursive: true })
  const file = join(hooks, 'pre-receive')
  writeFileSync(file, preReceiveHookText(projectRoot))
  chmodSync(file, 0o755)
  return file
}
