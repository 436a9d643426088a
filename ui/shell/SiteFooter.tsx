import type { Resolution } from '../../engine/render/resolution'
import { ColorModeSelect } from '../components/ColorModeSelect'
import { Disclaimers } from '../components/Disclaimers'

export function SiteFooter({ resolution }: { resolution: Resolution }) {
  const brand = resolution.brand
  const es = resolution.page?.language === 'es'
  if (!brand) return null
  const a = brand.postalAddress
  return (
    <footer className="site-footer">
      <div className="container">
        <Disclaimers brand={brand} language={resolution.page?.language} siteName={resolution.site.name} />
        <p className="footer-legal">
          © {brand.ownerLegalName} · {a.street}, {a.city}, {a.region} {a.postalCode}
        </p>
        <nav aria-label={es ? 'Legal' : 'Legal'} className="footer-links">
          <a href="/privacy">{es ? 'Política de privacidad' : 'Privacy Policy'}</a>
          <a href="/tos">{es ? 'Términos de servicio' : 'Terms of Service'}</a>
        </nav>
        <ColorModeSelect es={es} />
      </div>
    </footer>
  )
}
