// Placeholder: the definition list until this screen is built (issue 15).
export { default } from './FilesScreen'
