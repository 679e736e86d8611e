import { fileURLToPath } from 'node:url'

/** The checked-in vector files and their schema. */
export const DEFAULT_VECTORS_DIR = fileURLToPath(new URL('../../vectors/', import.meta.url))
