/**
 * Splitter maths (spec points 5 and 9), pure so it is tested without a DOM. Sizes are percentages
 * of the group; layouts always total 100 and are rounded to SPLITTER_PRECISION_DECIMALS decimals.
 */
import {
  SPLITTER_HIT_AREA_COARSE_PX,
  SPLITTER_HIT_AREA_FINE_PX,
  SPLITTER_KEYBOARD_SHIFT_STEP_PERCENT,
  SPLITTER_KEYBOARD_STEP_PERCENT,
  SPLITTER_PRECISION_DECIMALS,
} from '../constants'

export interface PanelConstraints {
  minSize?: number
  maxSize?: number
  collapsible?: boolean
  collapsedSize?: number
}

const SCALE = 10 ** SPLITTER_PRECISION_DECIMALS

export function roundSize(n: number): number {
  return Math.round(n * SCALE) / SCALE
}

/** Scales a layout so it totals 100 (equal split when empty or all zero), rounded. */
export function normaliseLayout(sizes: readonly number[]): number[] {
  if (sizes.length === 0) return []
  const clean = sizes.map((s) => (Number.isFinite(s) && s > 0 ? s : 0))
  const total = clean.reduce((a, b) => a + b, 0)
  const scaled = total === 0 ? clean.map(() => 100 / clean.length) : clean.map((s) => (s * 100) / total)
  const rounded = scaled.map(roundSize)
  // Put the rounding remainder on the largest panel so the total is exactly 100.
  const rest = roundSize(100 - rounded.reduce((a, b) => a + b, 0))
  if (rest !== 0) {
    const i = rounded.indexOf(Math.max(...rounded))
    rounded[i] = roundSize(rounded[i]! + rest)
  }
  return rounded
}

/**
 * A collapsible panel below the midpoint between its collapsed and minimum size snaps to collapsed;
 * at or above the midpoint (but below the minimum) it snaps to the minimum.
 */
export function snapSize(size: number, c: PanelConstraints): number {
  const min = c.minSize ?? 0
  const max = c.maxSize ?? 100
  if (c.collapsible) {
    const collapsed = c.collapsedSize ?? 0
    if (size < min) return size < (collapsed + min) / 2 ? collapsed : min
  }
  return Math.min(max, Math.max(min, size))
}

/** Keyboard step for a key on a separator, in percent; null when the key does not resize. */
export function keyboardStep(
  key: string,
  shiftKey: boolean,
  orientation: 'horizontal' | 'vertical',
): number | null {
  const step = shiftKey ? SPLITTER_KEYBOARD_SHIFT_STEP_PERCENT : SPLITTER_KEYBOARD_STEP_PERCENT
  const [back, forward] =
    orientation === 'horizontal' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown']
  if (key === back) return -step
  if (key === forward) return step
  if (key === 'Home') return -100
  if (key === 'End') return 100
  return null
}

/**
 * Moves the separator after panel `index` by `delta` percent: the panel before grows, the panel
 * after shrinks, both within their constraints (with collapse snapping). Returns the new layout.
 */
export function resizeAt(
  layout: readonly number[],
  index: number,
  delta: number,
  constraints: readonly PanelConstraints[],
): number[] {
  const sizes = normaliseLayout(layout)
  if (index < 0 || index + 1 >= sizes.length || delta === 0) return sizes
  const a = sizes[index]!
  const b = sizes[index + 1]!
  const pair = a + b
  const ca = constraints[index] ?? {}
  const cb = constraints[index + 1] ?? {}
  let nextA = snapSize(Math.min(pair, Math.max(0, a + delta)), ca)
  let nextB = snapSize(pair - nextA, cb)
  // If the panel after could not take its share, give the remainder back to the first.
  nextA = pair - nextB
  if (snapSize(nextA, ca) !== roundSize(nextA)) {
    nextA = a
    nextB = b
  }
  const out = [...sizes]
  out[index] = roundSize(nextA)
  out[index + 1] = roundSize(nextB)
  return normaliseLayout(out)
}

/** Hit-area margin around a separator: larger for coarse (touch) pointers. */
export function hitAreaMargin(coarse: boolean): number {
  return coarse ? SPLITTER_HIT_AREA_COARSE_PX : SPLITTER_HIT_AREA_FINE_PX
}
