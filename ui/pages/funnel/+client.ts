import './page-styles'
import { startFunnelIslands } from '../../islands/funnel-islands'

// Nothing hydrates: the server renders the step and runs the funnel; islands enhance (docs/decisions/0524).
startFunnelIslands()
