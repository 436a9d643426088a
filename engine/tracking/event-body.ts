import type { EventProperties, PageEvent, TrackEvent } from '../../schemas/generated/analytics-event'

export interface BodyIdentity {
  sessionId: string
  anonymousId: string
  timestamp: string
}

/** Spec point 7: the pageview body of POST /api/event/create. */
export function pageEventBody(
  id: BodyIdentity,
  name: string,
  category: string,
  properties: EventProperties,
): PageEvent {
  return {
    type: 'page',
    timestamp: id.timestamp,
    sessionId: id.sessionId,
    anonymousId: id.anonymousId,
    name,
    category,
    properties,
  }
}

/** Spec point 7: every other event's body. */
export function trackEventBody(id: BodyIdentity, event: string, properties: EventProperties): TrackEvent {
  return {
    type: 'track',
    event,
    timestamp: id.timestamp,
    sessionId: id.sessionId,
    anonymousId: id.anonymousId,
    properties,
  }
}

/** What goes to window.dataLayer for an event: the tag manager's `event` key plus the properties. */
export function dataLayerEntry(body: PageEvent | TrackEvent): Record<string, unknown> {
  return body.type === 'page'
    ? { ...body.properties, pageName: body.name, pageCategory: body.category, event: 'pageView' }
    : { ...body.properties, event: body.event }
}
