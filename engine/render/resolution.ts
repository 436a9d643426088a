import type { PhoneRule } from '../../schemas/generated/phone-rule'
import type { ConsentShown } from '../consent/consent-text'
import type { ExperimentAssignment } from '../experiments/variants'
import type { FieldErrors } from '../funnel/validate-field'
import type { LeasedPhone } from '../phone/leased-phone'
import type { PhoneDisplay } from '../phone/phone-format'
import type { RouteParams } from '../routing/route-pattern'
import type { FormValues } from '../runtime-contracts'
import type { Brand, PageEntry, ResolvedFunnel } from '../snapshot/types'
import type { ControlCenterRoute } from './control-center-routes'

/** What kind of page a request shows. */
export type ViewName = 'content' | 'funnel' | 'brand-index' | 'error' | 'primitives' | 'control-center'

/**
 * Which Vike page (ui/pages/<id>/) renders a request. The server decides (server/render/templates.ts);
 * Vike's route functions only read it.
 */
export type PageId =
  | 'content'
  | 'content-home'
  | 'content-legal'
  | 'content-review'
  | 'content-article'
  | 'content-article-index'
  | 'content-thank-you'
  | 'funnel'
  | 'brand-index'
  | 'error'
  | 'primitives'
  | 'control-center'

export interface ErrorInfo {
  statusCode: number
  statusMessage: string
  /** The error's message, shown as the description. */
  message: string
}

export interface BrandIndexEntry {
  id: string
  name: string
  href: string
  vertical: string
}

/** An article ready to show: metadata, author and the Markdown body rendered to HTML on the server. */
export interface ArticleView {
  slug: string
  title: string
  description: string
  date: string
  updated?: string
  carrier: string
  author: { name: string; bio: string; credentials: string[] }
  image?: { src: string; alt: string; width: number; height: number }
  html: string
}

/** One entry of the reviews index. */
export interface ArticleSummary {
  slug: string
  title: string
  description: string
  date: string
  carrier: string
  authorName: string
}

/** Third-party endpoints, from server configuration. */
export interface ThirdPartyConfig {
  tagManagerUrl: string
  adScriptUrl: string | null
  /** Whether the ad marketplace is configured: without it the browser makes no phone requests. */
  marketplace?: boolean
}

/** A staff preview of a branch (docs/decisions/0601): shown with a banner, never measured. */
export interface PreviewInfo {
  branch: string
  commit: string
  /** Whether the granting staff member's unsaved drafts are laid over the branch. */
  drafts: boolean
  /** The branch's screen in the control center. */
  controlCenterUrl: string | null
  /** The same page without the preview. */
  exitUrl: string
  /** When the branch (with the drafts) does not validate: its errors, each with its editor's URL. */
  problems?: PreviewProblem[]
}

/** One validation error of a previewed branch that does not build. */
export interface PreviewProblem {
  file: string
  line: number
  pointer: string
  message: string
  /** Where the file is edited in the control center (null without one). */
  editUrl: string | null
}

/** Everything the page needs to render; serialised to the browser for hydration. */
export interface Resolution {
  view: ViewName
  pageId: PageId
  statusCode: number
  snapshotId: string
  site: { name: string; faviconSrc: string; gtmId: string }
  brand: Brand | null
  page: PageEntry | null
  params: RouteParams
  pathname: string
  search: string
  funnel?: ResolvedFunnel
  /** Template `funnel` with a phone step: the consent text shown beside it (docs/decisions/0800). */
  consent?: ConsentShown
  error?: ErrorInfo
  brandIndex?: BrandIndexEntry[]
  /** Template `article`: the article the slug names. */
  article?: ArticleView
  /** Template `article-index`: every article, newest first. */
  articles?: ArticleSummary[]
  /** Template `review`: the page's related articles. */
  relatedArticles?: ArticleSummary[]
  /** Template `home`: the brand's indexable landing pages, to browse by topic. */
  topics?: { href: string; title: string; product?: string }[]
  /** Template `article-index`: the brand's fixed carrier review pages. */
  carrierReviews?: { href: string; carrier: string; title: string }[]
  thirdParty: ThirdPartyConfig
  /** The build this page belongs to (client bundle + snapshot), for the build check. */
  buildId?: string
  /** Phone rules this brand and page can use; the browser picks one by utm_source/afid after hydration. */
  phoneRules?: PhoneRule[]
  /** The running experiment and the variant this page shows (its overrides are applied to `page`). */
  experiment?: ExperimentAssignment
  /** The control center's screen, its branch and the signed-in staff member (never cached). */
  controlCenter?: ControlCenterRoute
  /**
   * A funnel step shown with the answers the server holds for this visitor (docs/decisions/0216,
   * 0230): after a post (with its errors at their fields), and on a GET by a visitor with answers
   * (Back, reload, a return, a resume link). `values` are the shown step's own answers only (contact
   * fields left out for a browser that came through a resume link and has not continued yet). Never
   * cached: the HTML cache refuses a resolution that has it.
   */
  funnelPost?: { stepIndex: number; values: FormValues; errors: FieldErrors }
  /**
   * The thank-you page of a visitor who finished a funnel (docs/decisions/0231): the number shown to
   * them, as the lead record says (leased, else the rule's default in business hours, else none), and
   * the server's lease when it is the one shown: the page's phone line starts from it and leases
   * nothing itself (docs/decisions/0233). On a funnel step shown to a visitor with answers: the number
   * the server holds for them, which the browser's lease loop starts from (0235). Never cached.
   */
  visitorPhone?: {
    shown: PhoneDisplay | null
    source: 'leased' | 'default' | 'none'
    leased: LeasedPhone | null
  }
  /** Set when a staff member previews a branch: no tags, no events, a banner. */
  preview?: PreviewInfo
}
