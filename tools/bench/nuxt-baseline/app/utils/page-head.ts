/** A page's title, description and its hero image, preloaded (as funnelworks' page <head>). */
export function pageHead(title: string, description: string, image: string) {
  useHead({
    title,
    meta: [{ name: 'description', content: description }],
    link: [{ rel: 'preload', as: 'image', href: image, fetchpriority: 'high' }],
  })
}
