/** Placeholder until the articles screen lands: the generic file list and detail. */
export { default } from './FilesScreen'
