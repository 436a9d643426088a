import { startIslands } from '../../islands/start-islands'

// A static template: plain-DOM islands, no hydration (docs/decisions/0520).
startIslands()
