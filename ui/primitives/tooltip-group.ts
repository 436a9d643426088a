/**
 * The page's one tooltip group actor (engine/tooltip/tooltip-machine.ts), created on first use in the
 * browser. Sharing it is what keeps one tooltip open at a time and makes the skip window span tooltips.
 */
import { type Actor, createActor } from 'xstate'
import { tooltipMachine } from '../../engine/tooltip/tooltip-machine'

let group: Actor<typeof tooltipMachine> | null = null

export function tooltipGroup(): Actor<typeof tooltipMachine> {
  group ??= createActor(tooltipMachine).start()
  return group
}
