import { and, assign, fromPromise, or, raise } from 'xstate'
import type { DemandCheckResult, FormValues } from '../runtime-contracts'
import { safeNavigationTarget } from '../snapshot/destination'
import type { ResolvedFunnel, ResolvedStep } from '../snapshot/types'
import { setup } from '../util/machine-setup'
import { changedFields, mergeIntoBuckets } from './buckets'
import { FORM_STEP_SUBMITTED, FUNNEL_COMPLETED, type FunnelDeps, type FunnelPageInfo } from './funnel-deps'
import { stepUrl } from './funnel-location'
import { type ActionOutcome, type ActionResult, actionList, runActions } from './run-actions'
import { emptiedValues, type FieldErrors, stepValues, validateStep } from './validate-field'

/** Where the visitor starts in a funnel. */
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

/** The machine's input: the funnel, the page it runs on and where the visitor starts. */
export interface FunnelMachineInput extends FunnelInput {
  funnel: ResolvedFunnel
  page: FunnelPageInfo
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
  which: 'onEnter' | 'onSubmit'
  step: ResolvedStep
  values: FormValues
  demand: DemandCheckResult | null
}

const indexOfStep = (funnel: ResolvedFunnel, name: string | undefined) =>
  name === undefined ? -1 : funnel.steps.findIndex((s) => s.name === name)

export const currentStep = (ctx: FunnelContext): ResolvedStep => ctx.funnel.steps[ctx.stepIndex]

/** Spec point 2: current step number out of the total. */
export const stepNumber = (ctx: FunnelContext) => ctx.stepIndex + 1
export const progressOf = (ctx: FunnelContext) => stepNumber(ctx) / ctx.funnel.steps.length

/** What a step's on-enter or on-submit actions run with: the step, the values so far and the demand. */
const actionInput =
  (which: ActionsInput['which']) =>
  ({ context }: { context: FunnelContext }): ActionsInput => ({
    which,
    step: currentStep(context),
    values: context.values,
    demand: context.demand,
  })

/** Where going to a page or finishing leads, or null when navigation there is not allowed. */
function exitTarget(ctx: FunnelContext): string | null {
  try {
    return ctx.outcome?.kind === 'go-to-page'
      ? safeNavigationTarget(ctx.outcome.path, false)
      : safeNavigationTarget(ctx.page.destination, ctx.page.allowExternalDestination)
  } catch {
    return null
  }
}

/** Moving forward to step `index`: one history entry more, remembered in the trail. */
const advanceTo = (context: FunnelContext, index: number): Partial<FunnelContext> => ({
  stepIndex: index,
  depth: context.depth + 1,
  trail: [...context.trail, context.stepIndex],
  outcome: null,
  queued: null,
})

/** Output of the action-list actor: what the step's actions set and how the list ended. */
type ActionsDone = { output: ActionResult }
const outputOf = (event: unknown) => (event as ActionsDone).output

/** Placeholder for an effect: `funnelEffects(deps)` supplies the real one with `.provide()`. */
const effect = () => {}

/**
 * The funnel machine (spec points 2, 4, 5). Entering a step fires its on-enter actions and emits a
 * pageView; submitting merges the values into the buckets, emits formStepSubmitted, runs the
 * on-submit actions, then advances unless they said otherwise:
 *
 *   routing → entering (on-enter actions) → showing ⇄ submitting (on-submit actions)
 *           → deciding → entering the next step | showing (stay) | finished | left
 *
 * Pure: every effect (navigation, events, storage, the demand check) is an action or actor that
 * `funnelEffects(deps)` provides; tests provide the same with a fake browser.
 */
export const funnelMachine = setup({
  types: {
    context: {} as FunnelContext,
    events: {} as FunnelEvent,
    input: {} as FunnelMachineInput,
  },
  actors: {
    runActions: fromPromise<ActionResult, ActionsInput>(async () => {
      throw new Error('funnelMachine: provide the runActions actor (funnelEffects)')
    }),
  },
  guards: {
    hasQueuedAnswer: ({ context }) => context.queued !== null,
    needsRedirect: ({ context }) => context.redirected,
    noEnterActions: ({ context }) => actionList(currentStep(context).onEnter).length === 0,
    noSubmitActions: ({ context }) => actionList(currentStep(context).onSubmit).length === 0,
    stepValid: ({ context, event }) =>
      Object.keys(
        validateStep(currentStep(context).fields, submitted(context, event), context.funnel.text.messages),
      ).length === 0,
    skippable: ({ context }) => currentStep(context).skippable === true,
    hasPrevious: ({ context }) => context.stepIndex > 0,
    historyHasPrevious: ({ context }) => context.depth > 0,
    poppedToKnownStep: ({ context, event }) =>
      event.type === 'POPSTATE' && indexOfStep(context.funnel, event.step) >= 0,
    exitAllowed: ({ context }) => exitTarget(context) !== null,
    outcomeStay: ({ context }) => context.outcome?.kind === 'stay',
    outcomeGoToStep: ({ context }) =>
      context.outcome?.kind === 'go-to-step' && indexOfStep(context.funnel, context.outcome.step) >= 0,
    outcomeGoToPage: ({ context }) => context.outcome?.kind === 'go-to-page',
    outcomeFinish: ({ context }) =>
      context.outcome?.kind === 'finish' || context.stepIndex === context.funnel.steps.length - 1,
  },
  actions: {
    // Effects, provided by funnelEffects(deps).
    redirectToFirst: effect,
    emitPageView: effect,
    publishChange: effect,
    storeSubmission: effect,
    storeActionValues: effect,
    pushStep: effect,
    replaceStep: effect,
    goBack: effect,
    leave: effect,
    emitCompleted: effect,
    // Context changes.
    recordChange: assign(({ context, event }) =>
      event.type === 'CHANGE'
        ? {
            values: { ...context.values, [event.name]: event.value },
            errors: { ...context.errors, [event.name]: undefined },
          }
        : {},
    ),
    /** The browser moved in history: show that step (the first one for a URL that names none). */
    followHistory: assign(({ context, event }) =>
      event.type === 'POPSTATE'
        ? {
            stepIndex: Math.max(0, indexOfStep(context.funnel, event.step)),
            depth: event.depth,
            trail: context.trail.slice(0, event.depth),
            errors: {},
            queued: null,
          }
        : {},
    ),
    queueAnswer: assign({
      queued: ({ event }) => (event.type === 'SUBMIT' || event.type === 'SKIP' ? event : null),
    }),
    // Raised (handled once the step is shown), then forgotten; guarded by `hasQueuedAnswer`. Not
    // `enqueueActions`: that builder keeps all of xstate's others in the bundle (0521).
    replayQueuedAnswer: raise(({ context }) => context.queued as NonNullable<FunnelContext['queued']>),
    forgetQueuedAnswer: assign({ queued: null }),
    acceptAnswers: assign(({ context, event }) => ({ values: submitted(context, event), errors: {} })),
    showErrors: assign(({ context, event }) => ({
      values: submitted(context, event),
      errors: validateStep(
        currentStep(context).fields,
        submitted(context, event),
        context.funnel.text.messages,
      ),
    })),
    emptyStep: assign(({ context }) => ({
      values: { ...context.values, ...emptiedValues(currentStep(context).fields) },
      errors: {},
    })),
    stepBack: assign({ stepIndex: ({ context }) => context.stepIndex - 1, errors: {} }),
    /** On entry "continue" means stay on the step that was entered, not advance. */
    applyEnterResult: assign(({ context, event }) => {
      const out = outputOf(event)
      const outcome: ActionOutcome = out.outcome.kind === 'continue' ? { kind: 'stay' } : out.outcome
      return { values: { ...context.values, ...out.set }, demand: out.demand, outcome }
    }),
    applySubmitResult: assign(({ context, event }) => {
      const out = outputOf(event)
      return { values: { ...context.values, ...out.set }, demand: out.demand, outcome: out.outcome }
    }),
    carryOn: assign({ outcome: { kind: 'continue' } }),
    clearOutcome: assign({ outcome: null }),
    advanceToOutcomeStep: assign(({ context }) =>
      advanceTo(context, indexOfStep(context.funnel, (context.outcome as { step: string }).step)),
    ),
    advanceToNextStep: assign(({ context }) => advanceTo(context, context.stepIndex + 1)),
    takeExit: assign({ exit: ({ context }) => exitTarget(context) }),
  },
}).createMachine({
  id: 'funnel',
  context: ({ input }) => {
    const index = indexOfStep(input.funnel, input.stepParam)
    return {
      funnel: input.funnel,
      page: input.page,
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
    CHANGE: { actions: ['recordChange', 'publishChange'] },
    POPSTATE: [
      { guard: 'poppedToKnownStep', target: '.entering', reenter: true, actions: 'followHistory' },
      { target: '.entering', reenter: true, actions: ['followHistory', 'replaceStep'] },
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
      // ignored: the answer waits and is handled once the step is shown.
      on: { SUBMIT: { actions: 'queueAnswer' }, SKIP: { actions: 'queueAnswer' } },
      invoke: {
        id: 'runEnter',
        src: 'runActions',
        input: actionInput('onEnter'),
        onDone: { target: 'deciding', actions: ['storeActionValues', 'applyEnterResult'] },
        onError: 'showing',
      },
    },
    showing: {
      // An answer given while the step's on-enter actions ran is handled now.
      always: { guard: 'hasQueuedAnswer', actions: ['replayQueuedAnswer', 'forgetQueuedAnswer'] },
      on: {
        SUBMIT: [
          { guard: 'stepValid', target: 'submitting', actions: 'acceptAnswers' },
          { actions: 'showErrors' },
        ],
        SKIP: { guard: 'skippable', target: 'submitting', actions: 'emptyStep' },
        BACK: [
          { guard: 'historyHasPrevious', actions: 'goBack' },
          { guard: 'hasPrevious', target: 'entering', actions: ['stepBack', 'replaceStep'] },
        ],
      },
    },
    submitting: {
      entry: 'storeSubmission',
      always: { guard: 'noSubmitActions', target: 'deciding', actions: 'carryOn' },
      invoke: {
        id: 'runSubmit',
        src: 'runActions',
        input: actionInput('onSubmit'),
        onDone: { target: 'deciding', actions: ['storeActionValues', 'applySubmitResult'] },
        // A broken action must not trap the visitor: carry on as if it had not been there.
        onError: { target: 'deciding', actions: 'carryOn' },
      },
    },
    deciding: {
      always: [
        { guard: 'outcomeStay', target: 'showing', actions: 'clearOutcome' },
        { guard: 'outcomeGoToStep', target: 'entering', actions: ['advanceToOutcomeStep', 'pushStep'] },
        { guard: and(['outcomeGoToPage', 'exitAllowed']), target: 'left', actions: 'takeExit' },
        { guard: and(['outcomeFinish', 'exitAllowed']), target: 'finished', actions: 'takeExit' },
        // Unreachable with a valid snapshot (cross-checks refuse bad destinations); never navigate there.
        { guard: or(['outcomeGoToPage', 'outcomeFinish']), target: 'refused' },
        { target: 'entering', actions: ['advanceToNextStep', 'pushStep'] },
      ],
    },
    finished: { type: 'final', entry: ['emitCompleted', 'leave'] },
    refused: { type: 'final' },
    left: { type: 'final', entry: 'leave' },
  },
})

/** Values a SUBMIT carries merged over the answers typed so far. */
function submitted(context: FunnelContext, event: FunnelEvent): FormValues {
  return event.type === 'SUBMIT' && event.values ? { ...context.values, ...event.values } : context.values
}

const urlOf = (ctx: FunnelContext, index: number) => stepUrl(ctx.basePath, ctx.funnel.steps[index].name)

/** The machine's effects carried out through `deps` (the browser's, or a test's fake browser). */
export function funnelEffects(deps: FunnelDeps) {
  return {
    actors: {
      runActions: fromPromise<ActionResult, ActionsInput>(({ input }) =>
        runActions(
          input.step[input.which],
          { values: input.values, demand: input.demand },
          { track: deps.emitter.track, demandCheck: deps.demandCheck },
        ),
      ),
    },
    actions: {
      redirectToFirst: ({ context }: { context: FunnelContext }) =>
        deps.navigation.replace(
          stepUrl(context.basePath, context.funnel.steps[0].name, context.search),
          context.depth,
        ),
      emitPageView: ({ context }: { context: FunnelContext }) =>
        deps.emitter.pageView({
          name: context.page.name,
          template: context.page.template,
          stepName: currentStep(context).name,
        }),
      publishChange: ({ event, context }: { context: FunnelContext; event: FunnelEvent }) => {
        if (event.type === 'CHANGE') deps.onValuesChanged?.(context.values, [event.name])
      },
      storeSubmission: ({ context }: { context: FunnelContext }) => {
        const step = currentStep(context)
        const data = stepValues(step.fields, context.values)
        mergeIntoBuckets(deps.storage, context.funnel.formVersion, data)
        deps.onValuesChanged?.(context.values, Object.keys(data) as (keyof FormValues)[])
        deps.emitter.track(FORM_STEP_SUBMITTED, {
          formVersion: context.funnel.formVersion,
          stepName: step.name,
          stepNumber: stepNumber(context),
          data,
        })
      },
      storeActionValues: ({ context, event }: { context: FunnelContext; event: unknown }) => {
        const out = outputOf(event)
        const changed = changedFields(context.values, out.set)
        if (changed.length === 0) return
        const picked = Object.fromEntries(changed.map((k) => [k, out.set[k]])) as FormValues
        mergeIntoBuckets(deps.storage, context.funnel.formVersion, picked)
        deps.onValuesChanged?.({ ...context.values, ...picked }, changed)
      },
      // A lead: the funnel reached its destination (experiment results count it; decision 0900).
      emitCompleted: ({ context }: { context: FunnelContext }) =>
        deps.emitter.track(FUNNEL_COMPLETED, {
          formVersion: context.funnel.formVersion,
          stepName: currentStep(context).name,
          stepNumber: stepNumber(context),
          exit: 'destination',
        }),
      pushStep: ({ context }: { context: FunnelContext }) =>
        deps.navigation.push(urlOf(context, context.stepIndex), context.depth),
      replaceStep: ({ context }: { context: FunnelContext }) =>
        deps.navigation.replace(urlOf(context, context.stepIndex), context.depth),
      goBack: () => deps.navigation.back(),
      leave: ({ context }: { context: FunnelContext }) => {
        if (context.exit) deps.navigation.leave(context.exit)
      },
    },
  }
}

export type FunnelMachine = typeof funnelMachine

/**
 * The funnel machine with its effects carried out through `deps`. `machine` is the funnel machine
 * itself except in the mutant run (issue 38), which passes a broken copy of it.
 */
export function funnelMachineWith(deps: FunnelDeps, machine: FunnelMachine = funnelMachine) {
  return machine.provide(funnelEffects(deps))
}
