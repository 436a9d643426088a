/**
 * The control center's image numbers (CONTROL-CENTER §2 "Images", §3 "Image"; docs/decisions/0920).
 * Kept out of engine/constants.ts, which every public page's shell chunk carries whole: only the
 * server and the control center read these.
 */
/** Largest image upload, as sent (the server re-encodes it much smaller). */
export const IMAGE_UPLOAD_MAX_BYTES = 15 * 1024 * 1024
/** Most pixels a decoded upload may have (sharp's limitInputPixels): a decompression bomb stops here. */
export const IMAGE_MAX_INPUT_PIXELS = 60_000_000
/** Longest side of a stored image, in pixels; larger uploads are scaled down. */
export const IMAGE_MAX_SIDE_PX = 2400
/** WebP quality of stored images (0–100). */
export const IMAGE_WEBP_QUALITY = 80
/** Where uploaded images are served: `/images/uploads/<id>.<sha8>.webp`. */
export const IMAGE_UPLOADS_URL = '/images/uploads/'
/** Hex digits of the WebP's SHA-256 in its file name. */
export const IMAGE_HASH_LENGTH = 8
