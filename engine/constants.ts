/**
 * Every number and fixed value of the product specification, named once.
 * Import from here; never repeat a literal from the spec elsewhere.
 */

// Spec point 9: phone lease
export const PHONE_LEASE_TIME_S = 300
export const PHONE_POLL_INTERVAL_MS = 4_000
export const PHONE_REFRESH_BEFORE_EXPIRY_MS = 20_000
export const PHONE_EXPIRY_CUT_ON_CHANGE_MS = 10_000

// Spec point 7 / 9: ad marketplace protocol
export const MARKETPLACE_PROTOCOL_VERSION = 17
export const DEMAND_CHECK_MAX = 1
export const DEMAND_CHECK_CALL_TYPE = 'Inbound'
export const DEMAND_CHECK_TRANSFER_TYPE = 'cold'
export const LOW_BID_THRESHOLD = 10
export const SOURCE_ARRAY_LENGTH = 7
export const SOURCE_NULL_TEXT = 'null'
export const AUTO_ZIP_FALLBACK = 'auto'

// Spec point 5 / 9: validation limits
export const NAME_MIN_LENGTH = 3
export const NAME_MAX_LENGTH = 64
export const ADDRESS_MIN_LENGTH = 1
export const ADDRESS_MAX_LENGTH = 128
export const ZIP_LENGTH = 5
export const PAID_CLICK_ID_MIN_LENGTH = 15
export const PHONE_INPUT_PATTERN = /^\(\d{3}\) \d{3}-\d{4}$/

// Spec point 3: tracked URL parameters and the paid flag
export const TRACKED_URL_PARAMS = [
  'fbclid',
  'gclid',
  'tblci',
  'token',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'afid',
] as const
export const PAID_CLICK_ID_PARAMS = [
  'fbclid',
  'gclid',
  'ttclid',
  'token',
  'saclid',
  'etid',
  'tbclid',
  'ScCid',
] as const

// Spec point 9: sync, build check, routing
export const VISITOR_SYNC_RETRY_MS = 3_000
export const VISITOR_SYNC_CHANNEL = 'user-sync'
export const RELOAD_GUARD_MS = 10_000
export const ROUTE_KEY_HASH_PREFIX_LENGTH = 10

// Spec point 9: progress and loading indicator
export const PROGRESS_ANIMATION_MS = 300
export const PROGRESS_ANIMATION_DELAY_MS = 10
export const LOADING_THROTTLE_MS = 200
export const LOADING_DURATION_MS = 2_000
export const LOADING_HEIGHT_PX = 3
export const PROGRESS_BAR_COLOR = '#d33636'

// Spec point 4 / 9: business hours (Los Angeles)
export const BUSINESS_TIME_ZONE = 'America/Los_Angeles'
export const AFFILIATE_UTM_MEDIUM = 'aff'

// Spec point 2 / 9: pages and errors
export const DEFAULT_PAGE_LANGUAGE = 'english'
export const DEFAULT_ERROR_STATUS = 500
export const NOT_FOUND_STATUS_MESSAGE = 'Page Not Found'
export const SERVER_ERROR_STATUS_MESSAGE = 'Internal Server Error'

// Spec point 9: primitives
export const TOOLTIP_OPEN_DELAY_MS = 700
export const TOOLTIP_SKIP_DELAY_MS = 300
export const TOOLTIP_DEFAULT_SIDE = 'top'
export const TOOLTIP_DEFAULT_OFFSET = 0
export const SWITCH_DEFAULT_VALUE = 'on'
export const SPLITTER_KEYBOARD_STEP_PERCENT = 10
export const SPLITTER_KEYBOARD_SHIFT_STEP_PERCENT = 100
export const SPLITTER_HIT_AREA_COARSE_PX = 15
export const SPLITTER_HIT_AREA_FINE_PX = 5
export const SPLITTER_SAVE_DEBOUNCE_MS = 10
export const SPLITTER_PRECISION_DECIMALS = 10
export const HOVER_CARD_OPEN_DELAY_MS = 700
export const HOVER_CARD_CLOSE_DELAY_MS = 300
export const SELECT_VIEWPORT_MARGIN_PX = 10

// Spec point 9: client error reporting
export const ERROR_REPORT_MAX_FRAMES = 50
export const ERROR_REPORT_MAX_LINE_LENGTH = 1024

// Spec point 1/6: brands using the auto-insurance payload
export const AUTO_BRAND_IDS = ['tqg', 'ps'] as const
export const CONTROL_CENTER_BRAND_ID = 'ccc'

// Client runtime choices the spec leaves open (docs/decisions/0501, 0502)
export const COLOR_MODE_STORAGE_KEY = 'color-mode'
export const COLOR_MODE_PREFERENCES = ['light', 'dark', 'system'] as const
export const BUILD_CHECK_INTERVAL_MS = 5 * 60_000
export const BUILD_LATEST_PATH = '/builds/latest.json'
export const BUILD_META_PREFIX = '/builds/meta/'
export const PAGE_PAYLOAD_SUFFIX = '/_payload.json'
export const RELOAD_GUARD_STORAGE_KEY = 'build-check-reloaded-at'
export const CLIENT_ERRORS_PATH = '/api/client-errors'
export const CLIENT_ERRORS_PER_MINUTE = 30
export const CLIENT_ERROR_MAX_BODY_BYTES = 64 * 1024
export const HTML_CACHE_MAX_ENTRIES = 2_000
/**
 * How long a shared cache in front (nginx, a CDN) may serve a public page without asking, and how much
 * longer it may serve a stale copy while it refreshes: a publish is visible everywhere within their
 * sum (docs/decisions/0511). Browsers always revalidate (max-age=0), which costs a 304.
 */
export const PUBLIC_HTML_S_MAXAGE_S = 60
export const PUBLIC_HTML_STALE_WHILE_REVALIDATE_S = 240
/** Cache-Control of a public page (200 or 304); SHARED_MAX_AGE_S and SHARED_STALE_S may change the two. */
export const publicHtmlCacheControl = (sMaxAgeS: number, staleS: number) =>
  `public, max-age=0, s-maxage=${sMaxAgeS}, stale-while-revalidate=${staleS}`
export const PUBLIC_HTML_CACHE_CONTROL = publicHtmlCacheControl(
  PUBLIC_HTML_S_MAXAGE_S,
  PUBLIC_HTML_STALE_WHILE_REVALIDATE_S,
)
/** Cache-Control of a page showing an experiment's variant: the visitor's own (by cookie), never shared. */
export const EXPERIMENT_HTML_CACHE_CONTROL = 'private, max-age=0, must-revalidate'
/** …and at most this many bytes of HTML (UTF-16 in memory: two bytes a character), whichever comes first. */
export const HTML_CACHE_MAX_BYTES = 32 * 1024 * 1024
export const SCROLL_HASH_OFFSET_PX = 80
export const PRIMITIVES_PATH = '/_primitives'
// Phone feature: limits the spec leaves open (docs/decisions/0401–0405)
/** Most vehicles sent in the auto payload; vehicleAmount above it is capped. */
export const VEHICLE_AMOUNT_MAX = 10
/** Business hours (spec point 4), Los Angeles time: [open hour, close hour) per ISO weekday 1 = Monday. */
export const BUSINESS_HOURS: Readonly<Record<number, readonly [number, number] | null>> = {
  1: [5, 17],
  2: [5, 17],
  3: [5, 17],
  4: [5, 17],
  5: [5, 17],
  6: [6, 15],
  7: null,
}
/** ISO weekday on which affiliate traffic (utm_medium=aff) sees no phone line. */
export const AFFILIATE_CLOSED_WEEKDAY = 6

// Ad-marketplace proxy (server): limits the spec leaves open (docs/decisions/0404)
/** Upper bound of MEDIAALPHA_TIMEOUT_MS. */
export const MARKETPLACE_TIMEOUT_MAX_MS = 3_000
export const MARKETPLACE_TIMEOUT_DEFAULT_MS = 2_500
/** Consecutive upstream failures that open the circuit breaker, and how long it stays open. */
export const MARKETPLACE_BREAKER_FAILURES = 5
export const MARKETPLACE_BREAKER_OPEN_MS = 30_000
/** Requests per visitor (client IP) and endpoint per minute before answering 429. */
export const MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE = 30
export const MARKETPLACE_BODY_MAX_BYTES = 16 * 1024
// Tracking and the data store (issue 5; not in the spec — see docs/decisions/03xx)
/** A visitor session ends after this much inactivity (the analytics convention). */
export const SESSION_IDLE_TIMEOUT_MS = 30 * 60_000
/** Largest accepted POST /api/event/create or /api/user/set body. */
export const API_BODY_LIMIT_BYTES = 64 * 1024
/**
 * Client timestamps an event may carry (docs/decisions/0700): from the epoch to the last instant with
 * a four-digit year, which every store accepts. Outside it the event is refused with a 400.
 */
export const EVENT_TIMESTAMP_MIN_MS = 0
export const EVENT_TIMESTAMP_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
/** Most events in one POST /api/event/create batch (an array body). */
export const EVENT_BATCH_MAX = 50
/** Browser event queue: first retry delay, doubled per failure up to the maximum. */
export const EVENT_RETRY_BASE_MS = 1_000
export const EVENT_RETRY_MAX_MS = 30_000
/** Events kept in the browser queue while offline; the oldest are dropped beyond this. */
export const EVENT_QUEUE_MAX = 500
/** How long events wait for the bot-detection result before being sent without it. */
export const BOT_DETECTION_WAIT_MS = 1_500
/** Analytics cookies read into every event: Google Analytics client id and Meta pixel browser id. */
export const GA_CLIENT_COOKIE = '_ga'
export const FB_BROWSER_COOKIE = '_fbp'
/** Staff auth session cookie (`__Host-` prefixed over HTTPS) and its absolute lifetime. */
export const AUTH_SESSION_COOKIE = 'fw_session'
export const AUTH_SESSION_TTL_MS = 12 * 60 * 60_000
/** A staff session unused this long ends (docs/decisions/0702). */
export const AUTH_SESSION_IDLE_MS = 30 * 60_000
/** Failed sign-ins per account before each further try must wait (docs/decisions/0702). */
export const STAFF_SIGN_IN_FREE_FAILURES = 5
/** The wait after the free failures: doubled per further failure, up to the maximum. */
export const STAFF_SIGN_IN_BACKOFF_BASE_MS = 1_000
export const STAFF_SIGN_IN_BACKOFF_MAX_MS = 15 * 60_000
/** Failed sign-ins that lock an account until an admin unlocks it (`npm run staff -- unlock`). */
export const STAFF_SIGN_IN_LOCKOUT_FAILURES = 20
/** Failed sign-ins from one IP per window, whatever the account, before it must wait for the window's end. */
export const STAFF_SIGN_IN_IP_FAILURES = 30
export const STAFF_SIGN_IN_IP_WINDOW_MS = 15 * 60_000
/** Password hashes computed at once (each takes a core for ~50 ms); more wait in line, up to the queue size. */
export const PASSWORD_HASH_CONCURRENCY = 1
export const PASSWORD_HASH_QUEUE_MAX = 32
/**
 * Sign-in hash-time budget (docs/decisions/0702): checking passwords may use at most this share of
 * one core's time, as a token bucket that holds PASSWORD_HASH_BURST_MS of hashing (about 15 hashes
 * at once, a shift of staff signing in together). Beyond it a sign-in answers 429 before any hash.
 */
export const PASSWORD_HASH_CPU_SHARE = 0.15
export const PASSWORD_HASH_BURST_MS = 1_000
/**
 * A sign-in refused for the budget is answered this late: an answer at once invites the next guess
 * at once, and a flood of cheap refusals costs the page-rendering thread as much as pages do. At
 * most PASSWORD_HASH_REFUSALS_HELD answers are held; beyond that they go out at once.
 */
export const PASSWORD_HASH_REFUSAL_HOLD_MS = 2_000
export const PASSWORD_HASH_REFUSALS_HELD = 256
/** A check is charged the wall time it took, at most this many times the estimate (docs/decisions/0702). */
export const PASSWORD_HASH_CHARGE_MAX_FACTOR = 4
/** What a check is estimated to cost at most (scrypt N=16384 r=8 takes ~60 ms of a core here); a faster one measured lowers it. */
export const PASSWORD_HASH_ESTIMATE_MS = 60

// Experiments (not in the spec — docs/decisions/0105)
/** Cookie that keeps a visitor in one variant: `<prefix><experiment id>` = variant id. */
export const EXPERIMENT_COOKIE_PREFIX = 'fw_exp_'
/** How long a visitor stays in the variant they were given. */
export const EXPERIMENT_COOKIE_MAX_AGE_MS = 90 * 24 * 60 * 60_000
/** Query parameter that shows one variant without assigning it (preview links for staff). */
export const EXPERIMENT_PREVIEW_PARAM = 'fw_variant'

// Control center (not in the spec — CONTROL-CENTER.md, docs/decisions/0601, 0604)
/** Query parameters of a preview link on a brand host: the branch, and the signed grant. */
export const PREVIEW_BRANCH_PARAM = 'branch'
export const PREVIEW_GRANT_PARAM = 'fw_preview'
/** Host cookie that keeps a preview grant while the visitor (a staff member) clicks through the preview. */
export const PREVIEW_GRANT_COOKIE = 'fw_preview'
/** The heading of a preview whose branch (or draft) does not validate: status 409, not a server error. */
export const PREVIEW_INVALID_STATUS_MESSAGE = 'This draft does not validate'
/** Most validation errors a preview of an invalid draft lists (the Checks tab has them all). */
export const PREVIEW_PROBLEMS_MAX = 50
/** How long a preview grant is valid; the control center mints a new one when it runs out. */
export const PREVIEW_GRANT_TTL_MS = 2 * 60 * 60_000
/** Largest JSON body of a control-center write (a definition file as a draft). */
export const CC_BODY_LIMIT_BYTES = 2 * 1024 * 1024
/** Audit rows per page of the Activity tab. */
export const CC_AUDIT_PAGE_MAX = 200
// Funnel steps posted as plain forms (issue 29; docs/decisions/0216)
/**
 * Cookie holding the visitor's anonymous id (the browser's `anonymousId`; docs/decisions/0220), which
 * server-side answers are kept under. Readable by the page: a browser without a stored id adopts it.
 */
export const ANONYMOUS_ID_COOKIE = 'fw_anon'
/** httpOnly cookie with the key that proves a browser may read the answers kept under its anonymous id. */
export const ANSWER_KEY_COOKIE = 'fw_akey'
/** Path of a resume link on a brand's host: the signed token follows (docs/decisions/0222). */
export const RESUME_LINK_PREFIX = '/_resume/'
/** Short-lived readable cookie naming a notice the next funnel page shows once (an expired resume link). */
export const FUNNEL_NOTICE_COOKIE = 'fw_notice'
export const FUNNEL_NOTICE_RESUME_INVALID = 'resume-invalid'
/** A resume link works this many days after it is made, unless RESUME_LINK_DAYS says otherwise (0232). */
export const RESUME_LINK_DEFAULT_DAYS = 3
/** The longest lifetime RESUME_LINK_DAYS may give a resume link (the answers themselves live 30 days). */
export const RESUME_LINK_MAX_DAYS = 30
/**
 * Answers a browser that opened a resume link is not given until it has posted a step itself: the
 * visitor's name, e-mail, phone and address are asked again there (docs/decisions/0232).
 */
export const CONTACT_FIELD_NAMES = ['firstName', 'lastName', 'email', 'phone', 'address'] as const
/** Answers kept server-side expire this long after their last change (the cookie lives as long). */
export const FUNNEL_ANSWERS_TTL_MS = 30 * 24 * 60 * 60_000
/** Default of ANSWERS_RETENTION_DAYS: answers are deleted this many days after their last change (0810). */
export const ANSWERS_RETENTION_DEFAULT_DAYS = 30
/** Answer buckets kept at most under one anonymous id; a write that would keep more is refused (0810). */
export const ANSWERS_MAX_BUCKETS_PER_VISITOR = 32
/** Bytes of answers (JSON text of every bucket) kept at most under one anonymous id (0810). */
export const ANSWERS_MAX_BYTES_PER_VISITOR = 64 * 1024
/** New visitors (answer keys) one client address may create per window; more answer 429 (0810). */
export const NEW_VISITORS_PER_WINDOW = 60
export const NEW_VISITORS_WINDOW_MS = 10 * 60_000
/** Cookie naming the visitor's session on the server path; it ends after SESSION_IDLE_TIMEOUT_MS. */
export const SERVER_SESSION_COOKIE = 'fw_sid'
/** Largest accepted body of a posted funnel step (a handful of short fields). */
export const FUNNEL_POST_BODY_LIMIT_BYTES = 8 * 1024
// Background work on the events table (docs/decisions/0311, 0312; engine/events/event-maintenance-machine.ts)
/** The rollup job's pause between catch-ups in a running server. */
export const ROLLUP_INTERVAL_MS = 5_000
/** Partitions ahead and retention are looked at this often (and at start). */
export const PARTITION_MAINTENANCE_MS = 60 * 60_000
/** Answers past their lifetime (ANSWERS_RETENTION_DAYS) are deleted this often (and at start). */
export const ANSWERS_MAINTENANCE_MS = 60 * 60_000
