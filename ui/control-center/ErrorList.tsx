import type { DefinitionError } from '../../schemas/generated/cc-answers/common'
import { colOf } from './answer-helpers'
import { fileUrl } from './file-links'

/** Validation errors as `file:line:col /pointer message`, each linking to its file and field. */
export function ErrorList({
  errors,
  branch,
  onPick,
}: {
  errors: DefinitionError[]
  branch: string
  /** In an editor: jump to the error instead of following the link. */
  onPick?: (e: DefinitionError) => void
}) {
  return (
    <ul className="cc-list cc-problems" data-testid="errors">
      {errors.map((e) => (
        <li key={`${e.file}:${e.line}:${colOf(e)}:${e.pointer}:${e.message}`}>
          <a
            href={fileUrl(e.file, branch, e.pointer)}
            onClick={(ev) => {
              if (!onPick) return
              ev.preventDefault()
              onPick(e)
            }}
          >
            <code>
              {e.file}
              {e.line > 0 ? `:${e.line}:${colOf(e)}` : ''}
            </code>{' '}
            <code>{e.pointer || '/'}</code>
          </a>{' '}
          {e.message}
        </li>
      ))}
    </ul>
  )
}
