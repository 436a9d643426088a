import {
  createContext,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
} from 'react'
import { Group, type Layout, Panel, Separator, useGroupRef } from 'react-resizable-panels'
import {
  SPLITTER_HIT_AREA_COARSE_PX,
  SPLITTER_HIT_AREA_FINE_PX,
  SPLITTER_SAVE_DEBOUNCE_MS,
} from '../../engine/constants'
import {
  keyboardStep,
  normaliseLayout,
  type PanelConstraints,
  resizeAt,
  roundSize,
} from '../../engine/splitter/splitter-math'
import './primitives.css'

interface SplitterContextValue {
  register(id: string, c: PanelConstraints): () => void
  orientation: 'horizontal' | 'vertical'
  onSeparatorKey(e: KeyboardEvent<HTMLDivElement>): void
}

const SplitterContext = createContext<SplitterContextValue | null>(null)

function useSplitter(component: string): SplitterContextValue {
  const ctx = useContext(SplitterContext)
  // Spec point 8: splitter components used outside their group throw.
  if (!ctx) throw new Error(`${component} must be used inside a <Splitter>`)
  return ctx
}

export interface SplitterProps {
  id: string
  children: ReactNode
  orientation?: 'horizontal' | 'vertical'
  /** Local storage key to save the layout under (debounced 10 ms); none keeps it in memory only. */
  storageKey?: string
  className?: string
}

/**
 * Splitter (spec points 4, 5, 9) on react-resizable-panels: layouts total 100 % (normalised when
 * restored), collapsible panels snap below the midpoint of collapsed and minimum size, keyboard step
 * 10 % (Shift 100 %), hit area 15 px for coarse and 5 px for fine pointers, layout saved with a 10 ms
 * debounce at 10-decimal precision.
 */
export function Splitter({ id, children, orientation = 'horizontal', storageKey, className }: SplitterProps) {
  const groupRef = useGroupRef()
  const panels = useRef(new Map<string, PanelConstraints>())
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const applyLayout = useCallback(
    (sizes: number[]) => {
      const ids = [...panels.current.keys()]
      const layout: Layout = {}
      ids.forEach((pid, i) => {
        layout[pid] = sizes[i] ?? 0
      })
      groupRef.current?.setLayout(layout)
    },
    [groupRef],
  )

  const value = useMemo<SplitterContextValue>(
    () => ({
      orientation,
      register(pid, c) {
        panels.current.set(pid, c)
        return () => panels.current.delete(pid)
      },
      onSeparatorKey(e) {
        const step = keyboardStep(e.key, e.shiftKey, orientation)
        const before = e.currentTarget.previousElementSibling?.id
        const ids = [...panels.current.keys()]
        const index = before ? ids.indexOf(before) : -1
        if (step === null || index < 0 || !groupRef.current) return
        // Ours, not the library's 5 % step: stop it from handling the key too.
        e.preventDefault()
        e.stopPropagation()
        const current = groupRef.current.getLayout()
        const sizes = ids.map((pid) => current[pid] ?? 0)
        applyLayout(
          resizeAt(
            sizes,
            index,
            step,
            ids.map((pid) => panels.current.get(pid) ?? {}),
          ),
        )
      },
    }),
    [orientation, groupRef, applyLayout],
  )

  useEffect(() => {
    if (!storageKey) return
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as unknown
      if (
        Array.isArray(saved) &&
        saved.length === panels.current.size &&
        saved.every((n) => typeof n === 'number')
      )
        applyLayout(normaliseLayout(saved))
    } catch {
      // A corrupt saved layout is ignored; the default layout stays.
    }
  }, [storageKey, applyLayout])

  useEffect(() => () => clearTimeout(saveTimer.current), [])

  const onLayoutChanged = (layout: Layout) => {
    if (!storageKey) return
    clearTimeout(saveTimer.current)
    saveTimer.current = setTimeout(() => {
      const sizes = normaliseLayout([...panels.current.keys()].map((pid) => layout[pid] ?? 0)).map(roundSize)
      try {
        localStorage.setItem(storageKey, JSON.stringify(sizes))
      } catch {}
    }, SPLITTER_SAVE_DEBOUNCE_MS)
  }

  return (
    <SplitterContext.Provider value={value}>
      <Group
        id={id}
        groupRef={groupRef}
        orientation={orientation}
        className={`splitter ${className ?? ''}`.trim()}
        resizeTargetMinimumSize={{
          coarse: SPLITTER_HIT_AREA_COARSE_PX * 2,
          fine: SPLITTER_HIT_AREA_FINE_PX * 2,
        }}
        onLayoutChanged={onLayoutChanged}
      >
        {children}
      </Group>
    </SplitterContext.Provider>
  )
}

export interface SplitterPanelProps extends PanelConstraints {
  id: string
  defaultSize?: number
  children: ReactNode
  className?: string
}

const pct = (n: number | undefined) => (n === undefined ? undefined : `${n}%`)

/** A panel of a Splitter; sizes in percent. Throws outside a Splitter. */
export function SplitterPanel({
  id,
  defaultSize,
  minSize,
  maxSize,
  collapsible,
  collapsedSize,
  children,
  className,
}: SplitterPanelProps) {
  const ctx = useSplitter('SplitterPanel')
  useLayoutEffect(
    () => ctx.register(id, { minSize, maxSize, collapsible, collapsedSize }),
    [ctx, id, minSize, maxSize, collapsible, collapsedSize],
  )
  return (
    <Panel
      id={id}
      className={className}
      defaultSize={pct(defaultSize)}
      minSize={pct(minSize)}
      maxSize={pct(maxSize)}
      collapsible={collapsible}
      collapsedSize={pct(collapsedSize ?? 0)}
    >
      {children}
    </Panel>
  )
}

/** The drag handle between two panels; arrow keys step 10 % (Shift 100 %). Throws outside a Splitter. */
export function SplitterHandle({ label }: { label: string }) {
  const ctx = useSplitter('SplitterHandle')
  return (
    <Separator className="splitter-handle" aria-label={label} onKeyDownCapture={ctx.onSeparatorKey}>
      <span className="splitter-grip" aria-hidden="true" />
    </Separator>
  )
}
