import type { PreviewInfo } from '../../engine/render/resolution'

/** "Preview of <branch> @<sha> — not live": on every page of a staff preview (docs/decisions/0601). */
export function PreviewBanner({ preview }: { preview: PreviewInfo }) {
  return (
    <section className="preview-banner" aria-label="Preview" data-testid="preview-banner">
      <p>
        Preview of <strong>{preview.branch}</strong> @<code>{preview.commit.slice(0, 7)}</code> — not live
        {preview.drafts ? ', with unsaved changes' : ''}
      </p>
      <nav aria-label="Preview">
        {preview.controlCenterUrl ? (
          <a href={preview.controlCenterUrl} data-preview-exit="" target="_top">
            Back to control center
          </a>
        ) : null}
        <a href={preview.exitUrl} data-preview-exit="">
          Exit
        </a>
      </nav>
    </section>
  )
}
