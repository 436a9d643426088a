import { and, assign, enqueueActions, fromPromise, or, setup } from 'xstate'
import type { DemandCheckResult, FormValues } from '../runtime-contracts'
import { safeNavigationTarget } from '../snapshot/destination'
import type { ResolvedFunnel, ResolvedStep } from '../snapshot/types'
import { changedFields, mergeIntoBuckets } from './buckets'
import { FORM_STEP_SUBMITTED, type FunnelDeps, type FunnelPageInfo } from './funnel-deps'
import { stepUrl } from './funnel-location'
import { type ActionOutcome, type ActionResult, actionList, runActions } from './run-actions'
import { emptiedValues, type FieldErrors, stepValues, validateStep } from './validate-field'

export interface FunnelInput {
  /** The step named in the URL; missing or unknown redirects to the first step. */
  stepParam: string | undefined
  basePath: string
  /** Current query string including "?", or "". Kept on redirects, dropped when advancing. */
  search: string
  /** Prefill from the buckets (read after hydration). */
  values?: FormValues
  demand?: DemandCheckResult | null
  /** history.state.funnelDepth of the entry we start on (a reload keeps it). */
  depth?: number
}

export interface FunnelContext {
  funnel: ResolvedFunnel
  page: FunnelPageInfo
  basePath: string
  search: string
  stepIndex: number
  /** True when the URL's step was missing or unknown (we redirected). */
  redirected: boolean
  values: FormValues
  errors: FieldErrors
  demand: DemandCheckResult | null
  depth: number
  /** Step indexes of the funnel's own earlier history entries (length = depth when known). */
  trail: number[]
  outcome: ActionOutcome | null
  /** A submit or skip sent while the step's on-enter actions were still running. */
  queued: Extract<FunnelEvent, { type: 'SUBMIT' | 'SKIP' }> | null
  /** Where the funnel went when it ended. */
  exit: string | null
}

export type FunnelEvent =
  | { type: 'CHANGE'; name: keyof FormValues; value: string | boolean }
  | { type: 'SUBMIT'; values?: FormValues }
  | { type: 'SKIP' }
  | { type: 'BACK' }
  | { type: 'POPSTATE'; step: string | undefined; depth: number }

interface ActionsInput {
  step: ResolvedStep
  values: FormValues
  demand: DemandCheckResult | null
}

const indexOfStep = (funnel: ResolvedFunnel, name: string | undefined) =>
  name === undefined ? -1 : funnel.steps.findIndex((s) => s.name === name)

export const currentStep = (ctx: FunnelContext): ResolvedStep => ctx.funnel.steps[ctx.stepIndex]

/** What a step's on-enter or on-submit action runs with: the step, the values so far and the demand. */
const actionInput = ({ context }: { context: FunnelContext }) => ({
  step: currentStep(context),
  values: context.values,
  demand: context.demand,
})
/** Spec point 2: current step number out of the total. */
export const stepNumber = (ctx: FunnelContext) => ctx.stepIndex + 1
export const progressOf = (ctx: FunnelContext) => stepNumber(ctx) / ctx.funnel.steps.length

/**
 * The funnel machine (spec points 2, 4, 5): interprets a funnel definition; every effect goes
 * through `deps`. States: routing → entering (on-enter actions) → showing ⇄ submitting (on-submit
 * actions) → deciding → entering the next step | showing (stay) | finished | left.
 */
export function createFunnelMachine(funnel: ResolvedFunnel, page: FunnelPageInfo, deps: FunnelDeps) {
  const run = (which: 'onEnter' | 'onSubmit') =>
    fromPromise<ActionResult, ActionsInput>(({ input }) =>
      runActions(
        input.step[which],
        { values: input.values, demand: input.demand },
        {
          track: deps.emitter.track,
          demandCheck: deps.demandCheck,
        },
      ),
    )
  const first = funnel.steps[0].name
  /** Where going to a page or finishing leads, or null when navigation there is not allowed. */
  const exitTarget = (ctx: FunnelContext): string | null => {
    try {
      return ctx.outcome?.kind === 'go-to-page'
        ? safeNavigationTarget(ctx.outcome.path, false)
        : safeNavigationTarget(page.destination, page.allowExternalDestination)
    } catch {
      return null
    }
  }
  const urlOf = (ctx: FunnelContext, index: number) => stepUrl(ctx.basePath, funnel.steps[index].name)

  return setup({
    types: {
      context: {} as FunnelContext,
      events: {} as FunnelEvent,
      input: {} as FunnelInput,
    },
    actors: { runEnter: run('onEnter'), runSubmit: run('onSubmit') },
    guards: {
      needsRedirect: ({ context }) => context.redirected,
      noEnterActions: ({ context }) => actionList(currentStep(context).onEnter).length === 0,
      noSubmitActions: ({ context }) => actionList(currentStep(context).onSubmit).length === 0,
      stepValid: ({ context, event }) =>
        Object.keys(validateStep(currentStep(context).fields, submitted(context, event))).length === 0,
      skippable: ({ context }) => currentStep(context).skippable === true,
      hasPrevious: ({ context }) => context.stepIndex > 0,
      historyHasPrevious: ({ context }) => context.depth > 0,
      exitAllowed: ({ context }) => exitTarget(context) !== null,
      outcomeStay: ({ context }) => context.outcome?.kind === 'stay',
      outcomeGoToStep: ({ context }) =>
        context.outcome?.kind === 'go-to-step' && indexOfStep(funnel, context.outcome.step) >= 0,
      outcomeGoToPage: ({ context }) => context.outcome?.kind === 'go-to-page',
      outcomeFinish: ({ context }) =>
        context.outcome?.kind === 'finish' || context.stepIndex === funnel.steps.length - 1,
    },
    actions: {
      redirectToFirst: ({ context }) =>
        deps.navigation.replace(stepUrl(context.basePath, first, context.search), context.depth),
      emitPageView: ({ context }) =>
        deps.emitter.pageView({
          name: page.name,
          template: page.template,
          stepName: currentStep(context).name,
        }),
      publishChange: ({ event, context }) => {
        if (event.type === 'CHANGE') deps.onValuesChanged?.(context.values, [event.name])
      },
      storeSubmission: ({ context }) => {
        const step = currentStep(context)
        const data = stepValues(step.fields, context.values)
        mergeIntoBuckets(deps.storage, funnel.formVersion, data)
        deps.onValuesChanged?.(context.values, Object.keys(data) as (keyof FormValues)[])
        deps.emitter.track(FORM_STEP_SUBMITTED, {
          formVersion: funnel.formVersion,
          stepName: step.name,
          stepNumber: stepNumber(context),
          data,
        })
      },
      storeActionValues: ({ context, event }) => {
        const out = (event as unknown as { output?: ActionResult }).output
        if (!out) return
        const changed = changedFields(context.values, out.set)
        if (changed.length === 0) return
        const picked = Object.fromEntries(changed.map((k) => [k, out.set[k]])) as FormValues
        mergeIntoBuckets(deps.storage, funnel.formVersion, picked)
        deps.onValuesChanged?.({ ...context.values, ...picked }, changed)
      },
      pushStep: ({ context }) => deps.navigation.push(urlOf(context, context.stepIndex), context.depth),
      replaceStep: ({ context }) => deps.navigation.replace(urlOf(context, context.stepIndex), context.depth),
      goBack: () => deps.navigation.back(),
      leave: ({ context }) => {
        if (context.exit) deps.navigation.leave(context.exit)
      },
    },
  }).createMachine({
    id: 'funnel',
    context: ({ input }) => {
      const index = indexOfStep(funnel, input.stepParam)
      return {
        funnel,
        page,
        basePath: input.basePath,
        search: input.search,
        stepIndex: Math.max(0, index),
        redirected: index < 0,
        values: { ...(input.values ?? {}) },
        errors: {},
        demand: input.demand ?? null,
        depth: input.depth ?? 0,
        trail: [],
        outcome: null,
        queued: null,
        exit: null,
      }
    },
    initial: 'routing',
    on: {
      // Typing is never lost, whatever the machine is doing (an on-enter demand check may be running).
      CHANGE: {
        actions: [
          assign(({ context, event }) => ({
            values: { ...context.values, [event.name]: event.value },
            errors: { ...context.errors, [event.name]: undefined },
          })),
          'publishChange',
        ],
      },
      POPSTATE: [
        {
          guard: ({ event }) => indexOfStep(funnel, event.step) >= 0,
          target: '.entering',
          reenter: true,
          actions: assign(({ context, event }) => ({
            stepIndex: indexOfStep(funnel, event.step),
            depth: event.depth,
            trail: context.trail.slice(0, event.depth),
            errors: {},
            queued: null,
          })),
        },
        {
          target: '.entering',
          reenter: true,
          actions: [
            assign(({ context, event }) => ({
              stepIndex: 0,
              errors: {},
              queued: null,
              depth: event.depth,
              trail: context.trail.slice(0, event.depth),
            })),
            'replaceStep',
          ],
        },
      ],
    },
    states: {
      routing: {
        always: [
          { guard: 'needsRedirect', target: 'entering', actions: 'redirectToFirst' },
          { target: 'entering' },
        ],
      },
      entering: {
        entry: 'emitPageView',
        always: { guard: 'noEnterActions', target: 'showing' },
        // A visitor who answers while on-enter actions still run (a slow demand check) is not
        // ignored: the submit waits and is handled once the step is shown.
        on: {
          SUBMIT: { actions: assign({ queued: ({ event }) => event }) },
          SKIP: { actions: assign({ queued: ({ event }) => event }) },
        },
        invoke: {
          id: 'runEnter',
          src: 'runEnter',
          input: actionInput,
          onDone: {
            target: 'deciding',
            actions: [
              'storeActionValues',
              assign(({ context, event }) => ({
                values: { ...context.values, ...event.output.set },
                demand: event.output.demand,
                outcome: enterOutcome(event.output.outcome),
              })),
            ],
          },
          onError: 'showing',
        },
      },
      showing: {
        entry: enqueueActions(({ context, enqueue }) => {
          if (!context.queued) return
          enqueue.raise(context.queued)
          enqueue.assign({ queued: null })
        }),
        on: {
          SUBMIT: [
            {
              guard: 'stepValid',
              target: 'submitting',
              actions: assign(({ context, event }) => ({ values: submitted(context, event), errors: {} })),
            },
            {
              actions: assign(({ context, event }) => ({
                values: submitted(context, event),
                errors: validateStep(currentStep(context).fields, submitted(context, event)),
              })),
            },
          ],
          SKIP: {
            guard: 'skippable',
            target: 'submitting',
            actions: assign(({ context }) => ({
              values: { ...context.values, ...emptiedValues(currentStep(context).fields) },
              errors: {},
            })),
          },
          BACK: [
            { guard: 'historyHasPrevious', actions: 'goBack' },
            {
              guard: 'hasPrevious',
              target: 'entering',
              actions: [
                assign({ stepIndex: ({ context }) => context.stepIndex - 1, errors: {} }),
                'replaceStep',
              ],
            },
          ],
        },
      },
      submitting: {
        entry: 'storeSubmission',
        always: {
          guard: 'noSubmitActions',
          target: 'deciding',
          actions: assign({ outcome: { kind: 'continue' } }),
        },
        invoke: {
          id: 'runSubmit',
          src: 'runSubmit',
          input: actionInput,
          onDone: {
            target: 'deciding',
            actions: [
              'storeActionValues',
              assign(({ context, event }) => ({
                values: { ...context.values, ...event.output.set },
                demand: event.output.demand,
                outcome: event.output.outcome,
              })),
            ],
          },
          // A broken action must not trap the visitor: carry on as if it had not been there.
          onError: { target: 'deciding', actions: assign({ outcome: { kind: 'continue' } }) },
        },
      },
      deciding: {
        always: [
          { guard: 'outcomeStay', target: 'showing', actions: assign({ outcome: null }) },
          {
            guard: 'outcomeGoToStep',
            target: 'entering',
            actions: [
              assign(({ context }) => ({
                stepIndex: indexOfStep(funnel, (context.outcome as { step: string }).step),
                depth: context.depth + 1,
                trail: [...context.trail, context.stepIndex],
                outcome: null,
                queued: null,
              })),
              'pushStep',
            ],
          },
          {
            guard: and(['outcomeGoToPage', 'exitAllowed']),
            target: 'left',
            actions: assign(({ context }) => ({ exit: exitTarget(context) })),
          },
          {
            guard: and(['outcomeFinish', 'exitAllowed']),
            target: 'finished',
            actions: assign(({ context }) => ({ exit: exitTarget(context) })),
          },
          // Unreachable with a valid snapshot (cross-checks refuse bad destinations); never navigate there.
          { guard: or(['outcomeGoToPage', 'outcomeFinish']), target: 'refused' },
          {
            target: 'entering',
            actions: [
              assign(({ context }) => ({
                stepIndex: context.stepIndex + 1,
                depth: context.depth + 1,
                trail: [...context.trail, context.stepIndex],
                outcome: null,
                queued: null,
              })),
              'pushStep',
            ],
          },
        ],
      },
      finished: { type: 'final', entry: 'leave' },
      refused: { type: 'final' },
      left: { type: 'final', entry: 'leave' },
    },
  })
}

/** Values a SUBMIT carries merged over the answers typed so far. */
function submitted(context: FunnelContext, event: FunnelEvent): FormValues {
  return event.type === 'SUBMIT' && event.values ? { ...context.values, ...event.values } : context.values
}

/** On entry "continue" means stay on the step that was entered, not advance. */
function enterOutcome(outcome: ActionOutcome): ActionOutcome {
  return outcome.kind === 'continue' ? { kind: 'stay' } : outcome
}

export type FunnelMachine = ReturnType<typeof createFunnelMachine>
