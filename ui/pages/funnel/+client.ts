import './page-styles'
import { hydrateFunnelForm } from './hydrate-form'

// Only the form hydrates; the rest of the page is server HTML with islands (docs/decisions/0522).
hydrateFunnelForm()
