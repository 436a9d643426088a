import { useEffect, useRef, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import type { Branch } from '../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from './api'
import { useCc } from './cc-context'
import { Dialog } from './Dialog'
import { fileUrl } from './file-links'
import { NewBranchDialog } from './NewBranchDialog'
import { ProblemsPanel } from './ProblemsPanel'
import { ErrorState, Loading } from './States'
import { useResource } from './use-resource'

const NAV: { screen: Parameters<typeof ccPath>[0]; label: string }[] = [
  { screen: 'pages', label: 'Pages' },
  { screen: 'articles', label: 'Articles' },
  { screen: 'experiments', label: 'Experiments' },
  { screen: 'images', label: 'Images' },
  { screen: 'phone-rules', label: 'Phone rules' },
  { screen: 'content-factory', label: 'Content factory' },
]

/** What the header names as the current screen on a phone, by the route's screen. */
const CURRENT: Record<string, string> = {
  branches: 'Branches',
  branch: 'Branch',
  page: 'Page',
  experiment: 'Experiment',
  image: 'Image',
  leads: 'Leads',
  'content-factory-authors': 'Content factory',
  'content-factory-runs': 'Content factory',
  'content-factory-run': 'Content factory',
  ...Object.fromEntries(NAV.map((n) => [n.screen, n.label])),
}

/**
 * Name · role, branch switcher, navigation, Changes tray, Problems panel, Sign out. On a phone the
 * header is one row — the control center, the current screen and a Menu button — and the rest
 * opens under it (Escape closes it and gives focus back to the button).
 */
export function ControlCenterHeader() {
  const { route, branch, status, may } = useCc()
  const user = status?.user ?? route.user
  const api = useApi()
  const navBranch = branch ?? LIVE_BRANCH_NAME
  const [menu, setMenu] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!menu) return
    panel.current?.querySelector<HTMLElement>('a[href], button')?.focus()
    // A click outside the open menu closes it (a dialog opened from it is inside).
    const outside = (e: PointerEvent) => {
      const t = e.target as Node
      if (!panel.current?.contains(t) && !button.current?.contains(t)) setMenu(false)
    }
    // Escape closes it, unless it closes a dialog opened from the menu.
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || (e.target as Element | null)?.closest?.('dialog')) return
      e.preventDefault()
      setMenu(false)
      button.current?.focus()
    }
    document.addEventListener('pointerdown', outside)
    document.addEventListener('keydown', onEscape)
    return () => {
      document.removeEventListener('pointerdown', outside)
      document.removeEventListener('keydown', onEscape)
    }
  }, [menu])
  const signOut = async () => {
    await api('DELETE', '/api/_auth/session').catch(() => {})
    location.assign('/')
  }
  return (
    <header className="cc-header">
      <div className="cc-header-row">
        <a className="cc-home" href={ccPath('branches')}>
          Control center
        </a>
        <span className="cc-header-current" aria-hidden="true">
          {CURRENT[route.screen] ?? ''}
        </span>
        <button
          ref={button}
          type="button"
          className="button cc-small cc-menu-button"
          aria-expanded={menu}
          aria-controls="cc-header-menu"
          onClick={() => setMenu((m) => !m)}
          data-testid="cc-menu"
        >
          Menu
        </button>
        <div id="cc-header-menu" ref={panel} className="cc-header-menu" data-open={menu}>
          <BranchSwitcher />
          <nav aria-label="Control center" className="cc-nav">
            <a href={ccPath('branches')} aria-current={route.screen === 'branches' ? 'page' : undefined}>
              Branches
            </a>
            {NAV.map((n) => (
              <a
                key={n.screen}
                href={ccPath(n.screen, {}, navBranch)}
                aria-current={route.screen === n.screen ? 'page' : undefined}
              >
                {n.label}
              </a>
            ))}
            {may('leads.manage') && (
              <a href={ccPath('leads')} aria-current={route.screen === 'leads' ? 'page' : undefined}>
                Leads
              </a>
            )}
          </nav>
          <div className="cc-header-tools">
            {branch && branch !== LIVE_BRANCH_NAME && <ChangesTray branch={branch} />}
            {branch && <ProblemsPanel branch={branch} />}
            <span className="cc-user" data-testid="cc-user">
              {user ? `${user.name} · ${user.role}` : ''}
            </span>
            <button type="button" className="button cc-small" onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
      </div>
    </header>
  )
}

const STATUS_CHIPS = ['open', 'in-review', 'approved', 'scheduled'] as const

function BranchSwitcher() {
  const { branch, route, may } = useCc()
  const [open, setOpen] = useState(false)
  const [creating, setCreating] = useState(false)
  const [query, setQuery] = useState('')
  const [chip, setChip] = useState<string | null>(null)
  const list = useResource<{ branches: Branch[] }>(open ? '/api/cc/branches' : null)
  const target = (name: string) => {
    if (route.screen === 'branches' || route.screen === 'branch')
      return name === LIVE_BRANCH_NAME ? ccPath('pages', {}, name) : ccPath('branch', { branch: name })
    const url = new URL(location.href)
    url.searchParams.set('branch', name)
    return url.pathname + url.search
  }
  const q = query.trim().toLowerCase()
  const statusOf = (b: Branch) => (b.scheduledAt ? 'scheduled' : b.status)
  const rows = (list.data?.branches ?? []).filter(
    (b) => (!q || b.name.includes(q) || b.title.toLowerCase().includes(q)) && (!chip || statusOf(b) === chip),
  )
  return (
    <>
      <button
        type="button"
        className="button cc-small cc-branch-button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="branch-switcher"
      >
        Branch: <strong>{branch ?? 'none'}</strong>
        {branch === LIVE_BRANCH_NAME && <span className="cc-chip">read-only</span>}
      </button>
      <Dialog open={open} title="Switch branch" onClose={() => setOpen(false)}>
        <div className="stack">
          <label className="cc-field">
            <span>Search branches</span>
            <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
          </label>
          <fieldset className="cc-chips cc-fieldset">
            <legend className="cc-visually-hidden">Status</legend>
            {STATUS_CHIPS.map((s) => (
              <button
                key={s}
                type="button"
                className="cc-chip-button"
                aria-pressed={chip === s}
                onClick={() => setChip(chip === s ? null : s)}
              >
                {s}
              </button>
            ))}
          </fieldset>
          {may('branch.create') && (
            <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
              New branch
            </button>
          )}
          {list.error ? (
            <ErrorState message={list.error} retry={list.reload} />
          ) : !list.data ? (
            <Loading what="branches" />
          ) : (
            <ul className="cc-list">
              {!q && !chip && (
                <li>
                  <a href={target(LIVE_BRANCH_NAME)}>
                    <strong>live</strong> <span className="muted">published content, read-only</span>
                  </a>
                </li>
              )}
              {rows.map((b) => (
                <li key={b.name}>
                  <a href={target(b.name)} aria-current={b.name === branch ? 'true' : undefined}>
                    <strong>{b.name}</strong> <span className="muted">{b.title}</span>{' '}
                    <span className="cc-chip">{statusOf(b)}</span>
                  </a>
                </li>
              ))}
              {rows.length === 0 && (q || chip) && <li className="muted">No branch matches.</li>}
            </ul>
          )}
        </div>
      </Dialog>
      <NewBranchDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(name) => location.assign(ccPath('pages', {}, name))}
      />
    </>
  )
}

/** My unsaved drafts on this branch. */
function ChangesTray({ branch }: { branch: string }) {
  const { revision, changed } = useCc()
  const api = useApi()
  const [open, setOpen] = useState(false)
  const drafts = useResource<{ drafts: { path: string; updatedAt: string }[] }>(
    branchApi(branch, '/drafts'),
    revision,
  )
  const n = drafts.data?.drafts.length ?? 0
  const discard = async (path: string) => {
    await api('DELETE', branchApi(branch, `/drafts?path=${encodeURIComponent(path)}`)).catch(() => {})
    localStorage.removeItem(`fw-cc-unsaved:${branch}:${path}`)
    changed()
  }
  return (
    <>
      <button
        type="button"
        className="button cc-small"
        onClick={() => setOpen(true)}
        data-testid="changes-tray"
      >
        Changes <span className="cc-count">{n}</span>
      </button>
      <Dialog open={open} title="My unsaved changes on this branch" onClose={() => setOpen(false)}>
        {drafts.error ? (
          <ErrorState message={drafts.error} retry={drafts.reload} />
        ) : !drafts.data ? (
          <Loading what="drafts" />
        ) : n === 0 ? (
          <p>No unsaved drafts: everything you edited here is committed.</p>
        ) : (
          <ul className="cc-list">
            {drafts.data.drafts.map((d) => (
              <li key={d.path} className="cc-row-between">
                <a href={fileUrl(d.path, branch)}>{d.path}</a>
                <button type="button" className="button cc-small" onClick={() => discard(d.path)}>
                  Discard
                </button>
              </li>
            ))}
          </ul>
        )}
      </Dialog>
    </>
  )
}
