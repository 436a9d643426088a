/**
 * The stylesheets of the page around a funnel step's form (the hero, the shell, the phone slots, the
 * TPMO disclaimer), in the order they were linked when the whole page hydrated, before the funnel's
 * own (funnel.css): rules of equal weight in them compete (`.button` in base.css and
 * `.funnel-submit` in funnel.css), so the order is part of the page's look. The components that
 * import them no longer run in the browser (docs/decisions/0522); this module joins the
 * `form-shared` chunk (vite.config.ts), which the funnel's own chunk imports, so Vike links these
 * first, in this order.
 */
import '../../templates/templates.css'
import '../../phone/phone.css'
import '../../components/tpmo.css'
import '../../styles/base.css'
import '../../funnel/funnel.css'
