// Placeholder: the definition list until this screen is built (issue 16).
export { default } from './FilesScreen'
