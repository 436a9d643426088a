/**
 * The one place the content repository calls the engine's snapshot builder: a thin adapter, so a
 * change of buildSnapshot's signature touches only this file.
 */
import { buildSnapshot } from '../../engine/snapshot/build-snapshot'
import type { DefinitionFile, SnapshotResult } from '../../engine/snapshot/types'

export function buildContentSnapshot(
  files: readonly DefinitionFile[],
  assetExists: (src: string) => boolean,
): SnapshotResult {
  return buildSnapshot(files, { root: 'definitions', assetExists })
}
