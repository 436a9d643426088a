import { type ReactNode, useState } from 'react'
import type { Resolution } from '../../engine/render/resolution'
import { routeKey } from '../../engine/routing/route-key'
import { ErrorReportBoundary } from '../runtime/error-report-boundary'
import '../styles/base.css'
import { HeaderPhone } from '../phone/HeaderPhone'
import { useRuntime } from '../runtime/runtime-context'
import { LoadingBar } from './LoadingBar'
import { PreviewBanner } from './PreviewBanner'
import { ResolutionContext } from './resolution-context'
import { SiteFooter } from './SiteFooter'

/** The normal shell: loading bar above the page content, header, main, footer. */
export function Shell({ resolution, children }: { resolution: Resolution; children: ReactNode }) {
  const runtime = useRuntime()
  return (
    <ResolutionContext.Provider value={resolution}>
      <LoadingBar />
      <a className="skip-link" href="#main">
        {resolution.page?.language === 'es' ? 'Saltar al contenido' : 'Skip to content'}
      </a>
      {resolution.preview ? <PreviewBanner preview={resolution.preview} /> : null}
      <SiteHeader resolution={resolution} />
      <main id="main">
        {/* The index page is keyed per route (spec point 2); render errors show the error page. */}
        <ErrorReportBoundary
          key={routeKey(resolution.brand?.id, resolution.pathname)}
          report={runtime?.reportError}
        >
          {children}
        </ErrorReportBoundary>
      </main>
      <SiteFooter resolution={resolution} />
    </ResolutionContext.Provider>
  )
}

function SiteHeader({ resolution }: { resolution: Resolution }) {
  const [open, setOpen] = useState(false)
  const brand = resolution.brand
  const es = resolution.page?.language === 'es'
  if (!brand) {
    return (
      <header className="site-header">
        <div className="container header-row">
          <span className="wordmark">{resolution.site.name}</span>
        </div>
      </header>
    )
  }
  return (
    <header className="site-header">
      <div className="container header-row">
        <a className="brand-link" href="/" aria-label={`${resolution.site.name} home`}>
          <img src={brand.icon.src} alt="" width={40} height={40} className="brand-icon" />
          <span className="wordmark" data-testid="brand-name">
            {resolution.site.name}
          </span>
        </a>
        <HeaderPhone />
        <button
          type="button"
          className="menu-button"
          data-island="menu"
          aria-expanded={open}
          aria-controls="site-menu"
          onClick={() => setOpen((o) => !o)}
        >
          <svg className="menu-icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
            <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <span className="menu-label">{es ? 'Menú' : 'Menu'}</span>
        </button>
        <nav
          id="site-menu"
          className={open ? 'site-menu open' : 'site-menu'}
          aria-label={es ? 'Principal' : 'Main'}
        >
          <a href="/">{es ? 'Inicio' : 'Home'}</a>
          <a href="/privacy">{es ? 'Privacidad' : 'Privacy'}</a>
          <a href="/tos">{es ? 'Términos' : 'Terms'}</a>
        </nav>
      </div>
    </header>
  )
}
