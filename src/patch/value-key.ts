import type { AttributeDefinition } from '../schema/types.js';

/**
 * Returns the key under which a value of `def` is indexed for equality lookups: two values that
 * a value filter's `eq` or the same-member rule (`sameValue`) finds equal always get the same
 * key, so an index lookup never misses a match; values with the same key may still differ, so
 * every candidate is checked with the real test afterwards.
 *
 * Strings of a caseIgnore attribute are folded: plain lower-casing for ASCII text, and for any
 * other text lower, upper and lower case again between two NFC normalisations. That is coarser
 * than `toLowerCase` equality and than Unicode simple case folding (`Σ`/`σ`/`ς`, `ẞ`/`ß`, `ſ`/`s`,
 * Cherokee) alike, so the index stays correct whichever of the two the comparison uses.
 */
export function valueKey(def: AttributeDefinition, value: unknown): unknown {
  return typeof value === 'string' && !def.caseExact ? foldKey(value) : value;
}

function foldKey(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      return text.normalize('NFC').toLowerCase().toUpperCase().toLowerCase().normalize('NFC');
    }
  }
  return text.toLowerCase();
}
