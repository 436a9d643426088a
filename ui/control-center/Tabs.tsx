import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react'

export interface TabDef {
  id: string
  label: ReactNode
}

/**
 * WAI-ARIA tabs: one tab stop, arrow keys (and Home/End) move and select, the panel follows.
 * The selected tab is controlled by the screen (it may live in the URL).
 */
export function Tabs({
  tabs,
  selected,
  onSelect,
  label,
  children,
}: {
  tabs: TabDef[]
  selected: string
  onSelect: (id: string) => void
  label: string
  children: ReactNode
}) {
  const base = useId()
  const list = useRef<HTMLDivElement>(null)
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = tabs.findIndex((t) => t.id === selected)
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (i - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1
    if (next < 0) return
    e.preventDefault()
    onSelect(tabs[next].id)
    list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus()
  }
  return (
    <div className="cc-tabs">
      <div role="tablist" aria-label={label} className="cc-tablist" ref={list} onKeyDown={onKey}>
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${base}-${t.id}`}
            aria-selected={t.id === selected}
            aria-controls={`${base}-panel`}
            tabIndex={t.id === selected ? 0 : -1}
            className="cc-tab"
            onClick={() => onSelect(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${base}-panel`}
        aria-labelledby={`${base}-${selected}`}
        className="cc-tabpanel"
      >
        {children}
      </div>
    </div>
  )
}
