export * from './load.ts'
export * from './model.ts'
export * from './source.ts'
export * from './headers.ts'
