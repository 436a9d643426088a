/** The one renderer registry: every control-center form draws its fields through these widgets. */
import type { WidgetEntry, WidgetName } from './types'
import {
  BooleanWidget,
  CommaListWidget,
  DateWidget,
  EnumWidget,
  LinesWidget,
  LongTextWidget,
  NumberWidget,
  PhoneWidget,
  ReferenceSetWidget,
  ReferenceWidget,
  TextWidget,
} from './widgets/basic'
import { CtaWidget, FaqWidget, ImageWidget } from './widgets/groups'
import { QuestionsWidget } from './widgets/questions'
import { ActionsWidget, MarkdownWidget } from './widgets/rich'

export const REGISTRY: Record<WidgetName, WidgetEntry> = {
  text: { component: TextWidget },
  longText: { component: LongTextWidget },
  number: { component: NumberWidget },
  enum: { component: EnumWidget },
  boolean: { component: BooleanWidget, inline: true },
  lines: { component: LinesWidget },
  commaList: { component: CommaListWidget },
  date: { component: DateWidget },
  phone: { component: PhoneWidget },
  reference: { component: ReferenceWidget },
  referenceSet: { component: ReferenceSetWidget },
  image: { component: ImageWidget, group: true },
  cta: { component: CtaWidget, group: true },
  faq: { component: FaqWidget, group: true },
  markdown: { component: MarkdownWidget, group: true },
  actions: { component: ActionsWidget, group: true },
  questions: { component: QuestionsWidget, group: true },
}
