import { sep } from 'node:path'
import { packagePath } from '../package-root.ts'

/** The checked-in vector files and their schema. */
export const DEFAULT_VECTORS_DIR = `${packagePath('vectors')}${sep}`

/** The JSON Schema every vector file of a directory is checked against. */
export const SCHEMA_NAME = 'vectors.schema.json'
