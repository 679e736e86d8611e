// Signing a message kind the spec does not define must not compile.
import type { Signing } from '../../../src/signing/index.ts'

export function digest(signing: Signing) {
  return signing.digestOf('PlaceOrdr', {}) // expect-error: TS2345
}
