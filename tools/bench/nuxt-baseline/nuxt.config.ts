/**
 * The seed product's stack for `npm run bench -- http` (issue 19, docs/decisions/0530): the `ac`
 * brand's landing page (/ac-v1-lp) and the grocery quiz (/quiz/grocery/zip, the first of its five
 * steps) as a plain Nuxt 4 app — default SSR, no modules, `nuxi build`, `node .output/server/index.mjs`.
 * The copy, markup and stylesheets are funnelworks' own (app/assets/vendor/ holds its built CSS), so
 * the HTML and what the visitor gets are comparable; not a dependency of funnelworks, installed by the
 * bench on demand. Nuxt 4.4.5, pinned: the newest 4.x whose engines include Node 20, which funnelworks
 * runs on (4.4.6 and later ask for Node 22).
 */
export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  devtools: { enabled: false },
  telemetry: false,
  // funnelworks links these on every public page, in this order; the quiz adds funnel.css.
  css: [
    '~/assets/vendor/templates.css',
    '~/assets/vendor/phone.css',
    '~/assets/vendor/tpmo.css',
    '~/assets/vendor/base.css',
  ],
})
