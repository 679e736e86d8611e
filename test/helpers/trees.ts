/** fast-check trees of JSON-like values over a given leaf, for the encoders' differential properties. */
import fc from 'fast-check'

/** Arrays and objects (up to `width` members) nested over `leaf`; keys start with a letter, since a JS object moves integer-like keys first. */
export function treeOf(leaf: fc.Arbitrary<unknown>, width = 20): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('node'), { maxLength: width }),
      fc.dictionary(
        fc.string({ maxLength: 8 }).map((k) => `k${k}`),
        tie('node'),
        { maxKeys: width },
      ),
    ),
  })).node
}
