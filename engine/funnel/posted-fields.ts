/**
 * The names a server-rendered funnel step posts besides its fields (docs/decisions/0216): the Skip and
 * Back buttons are submit buttons named POSTED_ACTION_FIELD whose value says which.
 */
export const POSTED_ACTION_FIELD = '_action'
export const POSTED_SKIP = 'skip'
export const POSTED_BACK = 'back'
/** Start over (docs/decisions/0232): forget this funnel's answers, end its resume links, go to step 1. */
export const POSTED_RESTART = 'restart'
