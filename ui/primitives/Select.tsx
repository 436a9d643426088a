import {
  autoUpdate,
  FloatingFocusManager,
  FloatingPortal,
  flip,
  offset,
  size,
  useClick,
  useDismiss,
  useFloating,
  useInteractions,
  useListNavigation,
  useRole,
  useTypeahead,
} from '@floating-ui/react'
import { useId, useRef, useState } from 'react'
import { SELECT_VIEWPORT_MARGIN_PX } from '../../engine/constants'
import './primitives.css'

export interface SelectOption {
  value: string
  label: string
}

export interface SelectProps {
  label: string
  options: readonly SelectOption[]
  name?: string
  value?: string
  defaultValue?: string
  placeholder?: string
  onValueChange?: (value: string) => void
}

/**
 * Select (spec point 9): a button that opens a listbox kept at least 10 px inside the viewport
 * (flipping above the trigger and shrinking when there is no room). Arrow keys, Home/End, typeahead,
 * Enter/Space to choose, Escape to close; a hidden input carries the value in a native form post.
 */
export function Select({
  label,
  options,
  name,
  value,
  defaultValue,
  placeholder = 'Choose…',
  onValueChange,
}: SelectProps) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const [inner, setInner] = useState(defaultValue ?? '')
  const selectedValue = value ?? inner
  const selectedIndex = options.findIndex((o) => o.value === selectedValue)
  const [activeIndex, setActiveIndex] = useState<number | null>(null)
  const listRef = useRef<(HTMLElement | null)[]>([])
  const labelsRef = useRef(options.map((o) => o.label))
  labelsRef.current = options.map((o) => o.label)

  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement: 'bottom-start',
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(4),
      flip({ padding: SELECT_VIEWPORT_MARGIN_PX }),
      size({
        padding: SELECT_VIEWPORT_MARGIN_PX,
        apply({ availableHeight, rects, elements }) {
          Object.assign(elements.floating.style, {
            maxHeight: `${Math.max(0, availableHeight)}px`,
            minWidth: `${rects.reference.width}px`,
          })
        },
      }),
    ],
  })
  const choose = (index: number) => {
    const option = options[index]
    if (!option) return
    setInner(option.value)
    onValueChange?.(option.value)
    setOpen(false)
  }
  const { getReferenceProps, getFloatingProps, getItemProps } = useInteractions([
    useClick(context, { event: 'mousedown' }),
    useDismiss(context),
    useRole(context, { role: 'listbox' }),
    useListNavigation(context, {
      listRef,
      activeIndex,
      selectedIndex: selectedIndex >= 0 ? selectedIndex : null,
      onNavigate: setActiveIndex,
      loop: true,
    }),
    useTypeahead(context, {
      listRef: labelsRef,
      activeIndex,
      selectedIndex: selectedIndex >= 0 ? selectedIndex : null,
      onMatch: open ? setActiveIndex : choose,
    }),
  ])
  const selected = options[selectedIndex]
  return (
    <div className="select">
      <span className="select-label" id={`${id}-label`}>
        {label}
      </span>
      <button
        type="button"
        ref={refs.setReference}
        className="select-trigger"
        aria-labelledby={`${id}-label ${id}-value`}
        data-state={open ? 'open' : 'closed'}
        {...getReferenceProps()}
      >
        <span id={`${id}-value`} className={selected ? undefined : 'select-placeholder'}>
          {selected?.label ?? placeholder}
        </span>
        <span aria-hidden="true" className="select-chevron">
          ▾
        </span>
      </button>
      {name && <input type="hidden" name={name} value={selectedValue} />}
      {open && (
        <FloatingPortal>
          <FloatingFocusManager context={context} modal={false}>
            <div
              ref={refs.setFloating}
              className="select-list"
              role="listbox"
              aria-labelledby={`${id}-label`}
              style={floatingStyles}
              {...getFloatingProps()}
            >
              {options.map((o, i) => (
                <div
                  key={o.value}
                  ref={(node) => {
                    listRef.current[i] = node
                  }}
                  role="option"
                  className="select-option"
                  tabIndex={i === activeIndex ? 0 : -1}
                  aria-selected={i === selectedIndex}
                  data-active={i === activeIndex ? '' : undefined}
                  {...getItemProps({
                    onClick: () => choose(i),
                    onKeyDown: (e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault()
                        choose(i)
                      }
                    },
                  })}
                >
                  {o.label}
                </div>
              ))}
            </div>
          </FloatingFocusManager>
        </FloatingPortal>
      )}
    </div>
  )
}
