import { useActorRef, useSelector } from '@xstate/react'
import { useRef, useState } from 'react'
import { type ActorRefFrom, fromPromise } from 'xstate'
import { type CommitAnswer, commitMachine } from '../../engine/control-center/machines/commit-machine'
import type { FileConflicts } from '../../schemas/generated/cc-answers/common'
import { ApiError, branchApi, useApi } from './api'
import { asFileConflicts } from './Conflicts'
import { Dialog } from './Dialog'
import { MergeDialog } from './MergeDialog'
import { FormError, jsonValue } from './States'

/** Unsaved text waits here until the server has it (a 401, a lost connection, a reload). */
export const unsavedKey = (branch: string, path: string) => `fw-cc-unsaved:${branch}:${path}`

export type CommitFlow = ActorRefFrom<typeof commitMachine>

/** A 409 the merge dialog can settle: every file's texts and the head they were read on. */
function mergeable(err: unknown, path: string) {
  if (!(err instanceof ApiError) || err.status !== 409 || !err.body?.head) return null
  const files = asFileConflicts(err.body.conflicts, path)
  if (!files.length || files.some((f) => !f.texts)) return null
  return { files, head: err.body.head as string }
}

/**
 * Committing my draft of `path` as an actor of engine/control-center/machines/commit-machine.ts:
 * `flush` saves my draft first, `commit` commits it (on `expectedHead` when the merge dialog settled
 * a conflict on a newer head). Send it OPEN to show the commit dialog.
 */
export function useCommitFlow(opts: {
  path: string
  flush: () => Promise<boolean>
  commit: (message: string, expectedHead?: string) => Promise<void>
}): CommitFlow {
  const latest = useRef(opts)
  latest.current = opts
  return useActorRef(
    commitMachine.provide({
      actors: {
        flush: fromPromise(() => latest.current.flush()),
        commit: fromPromise<CommitAnswer, { message: string }>(async ({ input }) => {
          try {
            await latest.current.commit(input.message)
            return { committed: true }
          } catch (err) {
            const merge = mergeable(err, latest.current.path)
            if (merge) return { merge }
            throw err
          }
        }),
      },
    }),
  )
}

/**
 * The commit dialog and, on a conflict it can settle, the merge dialog (base, theirs and mine per
 * field), for a commit flow (useCommitFlow): this renders the flow's state and keeps none of its own
 * beyond the message being typed.
 */
export function CommitDialog({
  flow,
  path,
  branch,
  commit,
  onResolved,
}: {
  flow: CommitFlow
  path: string
  /** The branch the draft is on. */
  branch: string
  /** Commits my draft on `expectedHead` (the merge dialog's settled text). */
  commit: (message: string, expectedHead: string) => Promise<void>
  /** The merge dialog wrote this settled text as my draft of `path` (null: deleted) on `head`: the editor shows it. */
  onResolved?: (text: string | null, head: string) => void
}) {
  const api = useApi()
  const state = useSelector(flow, (s) => s.value as string)
  const merge = useSelector(flow, (s) => s.context.merge)
  const message = useSelector(flow, (s) => s.context.message)
  const close = () => flow.send({ type: 'CLOSE' })
  return (
    <>
      {/* Closing it for the merge dialog fires its close event: that one must not close both. */}
      <Dialog
        open={state !== 'closed' && state !== 'merging'}
        title="Commit to the branch"
        onClose={() => {
          if (!flow.getSnapshot().matches('merging')) close()
        }}
        wide
      >
        <CommitForm flow={flow} path={path} />
      </Dialog>
      {merge && (
        <MergeDialog
          key={merge.head}
          open={state === 'merging'}
          files={merge.files as FileConflicts[]}
          head={merge.head}
          message={message}
          onClose={close}
          onCommit={async (resolved, head, msg) => {
            // The settled text becomes my draft on the head it was merged with, then commits on it.
            for (const r of resolved) {
              await api('PUT', branchApi(branch, `/drafts?path=${encodeURIComponent(r.path)}`), {
                text: r.text,
                base: head,
              })
              if (r.path === path) onResolved?.(r.text, head)
            }
            try {
              await commit(msg, head)
            } catch (err) {
              // Someone committed again meanwhile: the dialog asks again on the newer head.
              const again = mergeable(err, path)
              if (again) return flow.send({ type: 'CONFLICT', merge: again })
              throw err
            }
            flow.send({ type: 'COMMITTED' })
          }}
        />
      )}
    </>
  )
}

function CommitForm({ flow, path }: { flow: CommitFlow; path: string }) {
  const [message, setMessage] = useState('')
  const busy = useSelector(flow, (s) => s.matches('flushing') || s.matches('committing'))
  const failure = useSelector(flow, (s) => s.context.failure)
  const conflicts =
    failure?.error instanceof ApiError ? asFileConflicts(failure.error.body?.conflicts, path) : []
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault()
        flow.send({ type: 'SUBMIT', message })
      }}
    >
      <p>
        Commits your draft of <code>{path}</code> to the branch. Invalid content may be committed; it cannot
        be published.
      </p>
      <label className="cc-field">
        <span>Message</span>
        <input
          required
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          placeholder="New headline"
        />
      </label>
      <FormError message={failure?.message ?? null} />
      {conflicts.length > 0 && (
        <div className="stack" data-testid="commit-conflicts">
          <p>Someone changed the same fields on this branch meanwhile. Edit your text to settle each one:</p>
          {conflicts.map((f) =>
            f.conflicts.map((c) => (
              <div key={`${f.path}${c.pointer}`} className="cc-conflict">
                <code>
                  {f.path} {c.pointer}
                </code>
                <div>Base: {jsonValue(c.base)}</div>
                <div>Theirs (the branch now): {jsonValue(c.theirs)}</div>
                <div>Mine: {jsonValue(c.mine)}</div>
              </div>
            )),
          )}
        </div>
      )}
      <div className="cc-row">
        <button type="submit" className="button button-primary" disabled={busy || !message.trim()}>
          {busy ? 'Committing…' : 'Commit'}
        </button>
        <button type="button" className="button" onClick={() => flow.send({ type: 'CLOSE' })}>
          Cancel
        </button>
      </div>
    </form>
  )
}
