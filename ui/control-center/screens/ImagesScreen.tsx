/** Placeholder until the images screen lands: the generic file list and detail. */
export { default } from './FilesScreen'
