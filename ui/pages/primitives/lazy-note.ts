/** A code-split chunk the style guide loads on demand (the build-check test makes it fail). */
export const lazyNote = 'This text came from a chunk loaded on demand.'
